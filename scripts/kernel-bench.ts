// Micro-benchmark: the JS payload reader (decodeHistogramPayload(payload, true)) against the
// WebAssembly kernel (decodePayloadFast) on every payload of the bench's 24-hour log, and the
// two inflaters alone (inflateZlib against the kernel's). Run with
// `npx tsx scripts/kernel-bench.ts [log]`; the log is the one `npm run bench` writes
// (scripts/lib/day-log.ts), generated here when absent.
//
// The contenders alternate round by round (A B A B ...) so that a busy machine slows both
// alike; compare the ratio of medians from one run, not figures across runs.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeBase64 } from "../src/formats/hlog-encoding-base64";
import { decodeHistogramPayload, type DecodedHistogram } from "../src/formats/hlog-encoding";
import { inflateZlib } from "../src/formats/inflate";
import { decodePayloadFast, inflateFast, kernelAvailable, kernelUnavailableReason } from "../src/wasm/kernel";
import { dayLogName, writeDayLog } from "./lib/day-log";

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const WARMUP = 2;
const LIMIT = 65536;

function loadPayloads(path: string): string[] {
  const text = readFileSync(path, "utf8");
  const payloads: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const c = line.charCodeAt(0);
    // Data lines start with a digit (or a "Tag=" field); skip comments and the column header.
    if (line === "" || c === 35 /* # */ || c === 34 /* " */) continue;
    payloads.push(line.slice(line.lastIndexOf(",") + 1));
  }
  return payloads;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function same(a: DecodedHistogram, b: DecodedHistogram): boolean {
  if (
    a.version !== b.version ||
    a.numberOfSignificantValueDigits !== b.numberOfSignificantValueDigits ||
    a.lowestDiscernibleValue !== b.lowestDiscernibleValue ||
    a.highestTrackableValue !== b.highestTrackableValue ||
    a.totalCount !== b.totalCount ||
    a.indices.length !== b.indices.length
  ) {
    return false;
  }
  for (let i = 0; i < a.indices.length; i++) if (a.indices[i] !== b.indices[i] || a.counts[i] !== b.counts[i]) return false;
  return true;
}

type Round = (items: readonly unknown[]) => number;

const jsDecode: Round = (payloads) => {
  let sum = 0;
  for (const s of payloads as string[]) {
    const r = decodeHistogramPayload(s, true);
    if (!r.ok) throw new Error(r.reason);
    sum += r.value.totalCount + r.value.indices.length;
  }
  return sum;
};

const kernelDecode: Round = (payloads) => {
  let sum = 0;
  for (const s of payloads as string[]) {
    const r = decodePayloadFast(s);
    if (r === null) throw new Error("kernel declined");
    sum += r.totalCount + r.indices.length;
  }
  return sum;
};

const jsInflate: Round = (payloads) => {
  let sum = 0;
  for (const b of payloads as Uint8Array[]) {
    const r = inflateZlib(b, 8, b.length - 8, LIMIT);
    if (typeof r === "string") throw new Error(r);
    sum += r.bytes.length;
  }
  return sum;
};

const kernelInflate: Round = (payloads) => {
  let sum = 0;
  for (const b of payloads as Uint8Array[]) {
    const r = inflateFast(b, 8, b.length - 8, LIMIT);
    if (r === null) throw new Error("kernel inflate declined");
    sum += r.length;
  }
  return sum;
};

function race(title: string, items: readonly unknown[], a: [string, Round], b: [string, Round]): void {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    let t0 = performance.now();
    const sa = a[1](items);
    const ma = performance.now() - t0;
    t0 = performance.now();
    const sb = b[1](items);
    const mb = performance.now() - t0;
    if (sa !== sb) throw new Error(`${title}: results differ (${sa} vs ${sb})`);
    const label = round < WARMUP ? "warm-up" : `round ${round - WARMUP + 1}`;
    console.log(`  ${label.padEnd(8)}  ${a[0]} ${ma.toFixed(1).padStart(7)} ms   ${b[0]} ${mb.toFixed(1).padStart(7)} ms`);
    if (round >= WARMUP) {
      ta.push(ma);
      tb.push(mb);
    }
  }
  const x = median(ta);
  const y = median(tb);
  console.log(`${title}, median of ${ROUNDS}: ${a[0]} ${x.toFixed(1)} ms, ${b[0]} ${y.toFixed(1)} ms; ${b[0]} is ${(x / y).toFixed(2)}x as fast`);
}

function main(): void {
  if (!kernelAvailable) throw new Error(`kernel unavailable: ${kernelUnavailableReason}`);
  let path = process.argv[2];
  if (path === undefined) {
    const opts = { intervals: 86_400, seed: 1 };
    path = writeDayLog(join(process.cwd(), ".bench", dayLogName(opts)), opts).path;
  }
  if (!existsSync(path)) throw new Error(`${path} is absent`);
  const payloads = loadPayloads(path);
  const bytes = payloads.map((s) => decodeBase64(s)!.slice());

  // Every payload decoded alike, field by field, before anything is timed.
  let chars = 0;
  let inflated = 0;
  for (let i = 0; i < payloads.length; i++) {
    const k = decodePayloadFast(payloads[i]!);
    if (k === null) throw new Error(`payload ${i}: kernel declined`);
    const kc = { ...k, indices: k.indices.slice(), counts: k.counts.slice() };
    const j = decodeHistogramPayload(payloads[i]!, true);
    if (!j.ok) throw new Error(`payload ${i}: ${j.reason}`);
    if (!same(kc, j.value)) throw new Error(`payload ${i}: results differ`);
    chars += payloads[i]!.length;
    const z = inflateZlib(bytes[i]!, 8, bytes[i]!.length - 8, LIMIT);
    if (typeof z === "string") throw new Error(z);
    inflated += z.bytes.length;
  }
  const n = payloads.length;
  console.log(`${n} payloads, ${(chars / n).toFixed(0)} base64 characters → ${(inflated / n).toFixed(0)} inflated bytes on average; all results equal`);

  race("inflate only", bytes, ["inflateZlib", jsInflate], ["kernel", kernelInflate]);
  race("whole payload", payloads, ["JS", jsDecode], ["kernel", kernelDecode]);
}

main();
