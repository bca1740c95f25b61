// Micro-benchmark: pako (inflateBounded) against inflateZlib on every payload of the bench's
// 24-hour log. Run with `npx tsx scripts/inflate-bench.ts [log]`.
//
// The payloads are base64-decoded once up front, so only inflating is timed. The two
// inflaters alternate round by round (A B A B ...) so that a busy machine slows both alike;
// compare the ratio of medians from one run, not figures across runs.
import { existsSync, readFileSync } from "node:fs";
import { decodeBase64 } from "../src/formats/hlog-encoding-base64";
import { inflateZlib, type Inflated } from "../src/formats/inflate";
import { inflateBounded } from "../tests/support/pako-inflate";

const DEFAULT_LOG = "/work/main/.bench/day-v1-n86400-s1-d3-k280-c1000-t1793491200000.hlog";
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const WARMUP = 2;
/** What bench item 1c asks for: a payload's whole output. */
const LIMIT = 1 << 20;

type Inflater = (input: Uint8Array, offset: number, length: number, limit: number) => Inflated | string;

function loadPayloads(path: string): Uint8Array[] {
  const text = readFileSync(path, "utf8");
  const payloads: Uint8Array[] = [];
  let start = 0;
  while (start < text.length) {
    let nl = text.indexOf("\n", start);
    if (nl < 0) nl = text.length;
    const c = text.charCodeAt(start);
    // Data lines start with a digit (or a "Tag=" field); skip comments and the column header.
    if (nl > start && c !== 35 /* # */ && c !== 34 /* " */) {
      let lineEnd = nl;
      if (text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
      const comma = text.lastIndexOf(",", lineEnd - 1);
      const b = decodeBase64(text, comma + 1, lineEnd);
      if (!b || b.length < 8) throw new Error(`line at ${start}: not a compressed payload`);
      payloads.push(b.slice()); // decodeBase64's buffer is reused
    }
    start = nl + 1;
  }
  return payloads;
}

function timeRound(inflate: Inflater, payloads: Uint8Array[]): { ms: number; produced: number } {
  let produced = 0;
  const t0 = performance.now();
  for (const b of payloads) {
    const r = inflate(b, 8, b.length - 8, LIMIT);
    if (typeof r === "string") throw new Error(r);
    produced += r.bytes.length;
  }
  return { ms: performance.now() - t0, produced };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function main(): void {
  const path = process.argv[2] ?? DEFAULT_LOG;
  if (!existsSync(path)) {
    console.log(`skipped: ${path} is absent (npm run bench writes it)`);
    return;
  }
  const payloads = loadPayloads(path);
  let compressed = 0;
  for (const b of payloads) compressed += b.length - 8;

  // Every output equal, byte for byte, and both report a finished stream.
  let inflated = 0;
  for (let i = 0; i < payloads.length; i++) {
    const b = payloads[i];
    const p = inflateBounded(b, 8, b.length - 8, LIMIT);
    if (typeof p === "string") throw new Error(`payload ${i}: pako: ${p}`);
    const expected = p.bytes.slice();
    const z = inflateZlib(b, 8, b.length - 8, LIMIT);
    if (typeof z === "string") throw new Error(`payload ${i}: inflateZlib: ${z}`);
    if (z.ended !== p.ended || z.bytes.length !== expected.length) throw new Error(`payload ${i}: outputs differ`);
    for (let j = 0; j < expected.length; j++) if (z.bytes[j] !== expected[j]) throw new Error(`payload ${i}: byte ${j} differs`);
    inflated += expected.length;
  }
  console.log(
    `${payloads.length} payloads, ${(compressed / payloads.length).toFixed(0)} compressed bytes → ${(inflated / payloads.length).toFixed(0)} inflated on average; all outputs equal`,
  );

  const pako: number[] = [];
  const mine: number[] = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const a = timeRound(inflateBounded, payloads);
    const b = timeRound(inflateZlib, payloads);
    if (a.produced !== inflated || b.produced !== inflated) throw new Error("produced byte counts differ");
    const label = round < WARMUP ? "warm-up" : `round ${round - WARMUP + 1}`;
    console.log(`${label.padEnd(8)}  pako ${a.ms.toFixed(1).padStart(7)} ms   inflateZlib ${b.ms.toFixed(1).padStart(7)} ms`);
    if (round >= WARMUP) {
      pako.push(a.ms);
      mine.push(b.ms);
    }
  }
  const mp = median(pako);
  const mm = median(mine);
  console.log(`median of ${ROUNDS}: pako ${mp.toFixed(1)} ms, inflateZlib ${mm.toFixed(1)} ms; inflateZlib is ${(mp / mm).toFixed(2)}x as fast`);
}

main();
