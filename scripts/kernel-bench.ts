// Micro-benchmark: the JS payload reader (decodeHistogramPayload(payload, true)) against the
// WebAssembly kernel (decodePayloadFast) on every payload of an interval log, the two inflaters
// alone (inflateZlib against the kernel's), and, with --against, this kernel against an older
// build of it.
//
//   npx tsx scripts/kernel-bench.ts [--log PATH] [--against REF|FILE.wasm] [--kernel FILE.wasm] [--only against]
//
// The log defaults to the bench's 24-hour log (tests/support/day-log.ts), generated when absent.
// --against takes a git revision (its src/wasm/kernel-wasm.ts) or a .wasm file; both kernels
// then run through the same thin driver (Node's base64 decoder into the kernel's input, then
// decodeBytes), so only the modules differ; --kernel puts a .wasm file in this build's place.
// --only against skips the other races.
//
// Timed by CPU time (process.cpuUsage), not wall time: the machine may be busy. The contenders
// alternate every 1000 payloads, in turn first, so a load that comes and goes slows both alike;
// each round's total is divided by the payload count, and the median of the rounds is quoted.
// Compare ratios from one run, not figures across runs.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeBase64 } from "../src/formats/hlog-encoding-base64";
import { decodeHistogramPayload, type DecodedHistogram } from "../src/formats/hlog-encoding";
import { inflateZlib } from "../src/formats/inflate";
import { decodePayloadFast, inflateFast, kernelAvailable, kernelUnavailableReason } from "../src/wasm/kernel";
import { KERNEL_WASM_BASE64 } from "../src/wasm/kernel-wasm";
import { dayLogName, writeDayLog } from "../tests/support/day-log";

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const WARMUP = 1;
const LIMIT = 65536;
/** Payloads per turn: the contenders alternate this often. */
const TURN = 1000;

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

/** Runs over items[from, to) and returns a checksum of what it decoded. */
type Round = (items: readonly unknown[], from: number, to: number) => number;

const jsDecode: Round = (payloads, from, to) => {
  let sum = 0;
  for (let i = from; i < to; i++) {
    const r = decodeHistogramPayload((payloads as string[])[i]!, true);
    if (!r.ok) throw new Error(r.reason);
    sum += r.value.totalCount + r.value.indices.length;
  }
  return sum;
};

const kernelDecode: Round = (payloads, from, to) => {
  let sum = 0;
  for (let i = from; i < to; i++) {
    const r = decodePayloadFast((payloads as string[])[i]!);
    if (r === null) throw new Error("kernel declined");
    sum += r.totalCount + r.indices.length;
  }
  return sum;
};

const jsInflate: Round = (payloads, from, to) => {
  let sum = 0;
  for (let i = from; i < to; i++) {
    const b = (payloads as Uint8Array[])[i]!;
    const r = inflateZlib(b, 8, b.length - 8, LIMIT);
    if (typeof r === "string") throw new Error(r);
    sum += r.bytes.length;
  }
  return sum;
};

const kernelInflate: Round = (payloads, from, to) => {
  let sum = 0;
  for (let i = from; i < to; i++) {
    const b = (payloads as Uint8Array[])[i]!;
    const r = inflateFast(b, 8, b.length - 8, LIMIT);
    if (r === null) throw new Error("kernel inflate declined");
    sum += r.length;
  }
  return sum;
};

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function race(title: string, items: readonly unknown[], a: [string, Round], b: [string, Round]): void {
  const ta: number[] = [];
  const tb: number[] = [];
  const n = items.length;
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    let ua = 0;
    let ub = 0;
    let sa = 0;
    let sb = 0;
    for (let from = 0, turn = round; from < n; from += TURN, turn++) {
      const to = Math.min(n, from + TURN);
      for (const first of turn % 2 === 0 ? [true, false] : [false, true]) {
        const t0 = cpuMicros();
        if (first) sa += a[1](items, from, to);
        else sb += b[1](items, from, to);
        if (first) ua += cpuMicros() - t0;
        else ub += cpuMicros() - t0;
      }
    }
    if (sa !== sb) throw new Error(`${title}: results differ (${sa} vs ${sb})`);
    const na = (ua * 1000) / n;
    const nb = (ub * 1000) / n;
    const label = round < WARMUP ? "warm-up" : `round ${round - WARMUP + 1}`;
    console.log(`  ${label.padEnd(8)}  ${a[0]} ${na.toFixed(0).padStart(6)} ns   ${b[0]} ${nb.toFixed(0).padStart(6)} ns   (CPU per payload)`);
    if (round >= WARMUP) {
      ta.push(na);
      tb.push(nb);
    }
  }
  const x = median(ta);
  const y = median(tb);
  console.log(`${title}, CPU per payload, median of ${ROUNDS}: ${a[0]} ${x.toFixed(0)} ns, ${b[0]} ${y.toFixed(0)} ns; ${b[0]}/${a[0]} = ${(y / x).toFixed(3)}`);
}

interface RawExports {
  memory: WebAssembly.Memory;
  decodeBytes(bytes: number): number;
  inputAddress: WebAssembly.Global;
  inputCapacity: WebAssembly.Global;
  indicesAddress: WebAssembly.Global;
  countsAddress: WebAssembly.Global;
  resultAddress: WebAssembly.Global;
}

/** The kernel module at a git revision (its generated src/wasm/kernel-wasm.ts) or in a .wasm file. */
function kernelBytes(source: string): Uint8Array<ArrayBuffer> {
  if (source.endsWith(".wasm") && existsSync(source)) return Uint8Array.from(readFileSync(source));
  const text = execFileSync("git", ["show", `${source}:src/wasm/kernel-wasm.ts`], { encoding: "utf8" });
  const m = /KERNEL_WASM_BASE64\s*=\s*"([^"]+)"/.exec(text);
  if (!m) throw new Error(`${source}: no KERNEL_WASM_BASE64 in its src/wasm/kernel-wasm.ts`);
  return Uint8Array.from(Buffer.from(m[1]!, "base64"));
}

/**
 * A kernel module behind the thinnest driver: Node's base64 decoder into its input, then
 * decodeBytes. Returns the round, and a description of one payload's result for checking.
 */
function rawKernel(bytes: Uint8Array<ArrayBuffer>): { round: Round; describe(text: string): string } {
  const x = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as unknown as RawExports;
  const capacity = x.inputCapacity.value as number;
  const input = Buffer.from(x.memory.buffer, x.inputAddress.value as number, capacity);
  const result = new Float64Array(x.memory.buffer, x.resultAddress.value as number, 3);
  const round: Round = (payloads, from, to) => {
    let sum = 0;
    for (let i = from; i < to; i++) {
      const n = x.decodeBytes(input.write((payloads as string[])[i]!, 0, capacity, "base64"));
      if (n < 0) throw new Error("kernel declined");
      sum += result[2]! + n;
    }
    return sum;
  };
  const describe = (text: string): string => {
    const n = x.decodeBytes(input.write(text, 0, capacity, "base64"));
    if (n < 0) return `declined ${n}`;
    const indices = new Int32Array(x.memory.buffer, x.indicesAddress.value as number, n);
    const counts = new Float64Array(x.memory.buffer, x.countsAddress.value as number, n);
    return `${n} ${result[0]} ${result[1]} ${result[2]} ${indices.join(",")} ${counts.join(",")}`;
  };
  return { round, describe };
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function main(): void {
  if (!kernelAvailable) throw new Error(`kernel unavailable: ${kernelUnavailableReason}`);
  const positional = process.argv[2] !== undefined && !process.argv[2].startsWith("--") ? process.argv[2] : undefined;
  let path = option("--log") ?? positional;
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

  const against = option("--against");
  if (against !== undefined) {
    const old = rawKernel(kernelBytes(against));
    const kernelFile = option("--kernel");
    const mine = rawKernel(kernelFile !== undefined ? kernelBytes(kernelFile) : Uint8Array.from(Buffer.from(KERNEL_WASM_BASE64, "base64")));
    for (let i = 0; i < payloads.length; i++) {
      if (old.describe(payloads[i]!) !== mine.describe(payloads[i]!)) throw new Error(`payload ${i}: the kernels differ`);
    }
    race(`kernel against ${against}`, payloads, [against, old.round], ["this kernel", mine.round]);
  }
  if (option("--only") === "against") return;
  race("inflate only", bytes, ["inflateZlib", jsInflate], ["kernel", kernelInflate]);
  race("whole payload", payloads, ["JS", jsDecode], ["kernel", kernelDecode]);
}

main();
