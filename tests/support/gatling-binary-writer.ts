// An independent writer of Gatling's binary simulation.log (3.13 and later), following the
// records of Gatling's LogFileDataWriter (big-endian; strings as Java stores them, Latin-1 or
// UTF-16 little-endian with a coder byte; names, groups and messages cached by index). For the
// tests and the fuzzer: files with what a real run rarely shows (UTF-16 names, deep groups,
// unmatched incoming messages, damage).
import { byCompletion, msValue, type LoadSample } from "./loadgen-fixtures";

export type GatlingBinaryRecord =
  | { kind: "request"; groups: string[]; name: string; start: number; end: number; ok: boolean; message: string }
  | { kind: "user"; scenario: number; start: boolean; at: number }
  | { kind: "group"; groups: string[]; start: number; end: number; cumulated: number; ok: boolean }
  | { kind: "error"; message: string; at: number };

export interface GatlingBinaryRun {
  version?: string;
  simulation?: string;
  /** ms since the epoch. */
  start: number;
  description?: string;
  scenarios?: string[];
  /** Each assertion's pickled bytes (opaque to readers). */
  assertions?: Uint8Array[];
}

class Out {
  private buf = new Uint8Array(1024);
  length = 0;
  private readonly cache = new Map<string, number>();
  private next = 1;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const b = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    b.set(this.buf.subarray(0, this.length));
    this.buf = b;
  }
  byte(v: number): void {
    this.room(1);
    this.buf[this.length++] = v & 0xff;
  }
  int(v: number): void {
    this.room(4);
    new DataView(this.buf.buffer).setInt32(this.length, v);
    this.length += 4;
  }
  long(v: number): void {
    this.room(8);
    new DataView(this.buf.buffer).setBigInt64(this.length, BigInt(v));
    this.length += 8;
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  /** Java's compact strings: Latin-1 when every character fits in a byte, else UTF-16 (little-endian on x86). */
  string(s: string): void {
    if (s === "") {
      this.int(0);
      return;
    }
    const latin1 = [...s].every((c) => c.charCodeAt(0) < 256 && c.length === 1);
    if (latin1) {
      this.int(s.length);
      for (let i = 0; i < s.length; i++) this.byte(s.charCodeAt(i));
      this.byte(0);
    } else {
      this.int(s.length * 2);
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        this.byte(c & 0xff);
        this.byte(c >> 8);
      }
      this.byte(1);
    }
  }
  cached(s: string): void {
    const i = this.cache.get(s);
    if (i !== undefined) {
      this.int(-i);
      return;
    }
    this.int(this.next);
    this.string(s);
    this.cache.set(s, this.next++);
  }
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** A binary simulation.log: the RUN record, then `records` (times in ms since run.start). */
export function gatlingBinaryLog(run: GatlingBinaryRun, records: readonly GatlingBinaryRecord[]): Uint8Array {
  const o = new Out();
  o.byte(0);
  o.string(run.version ?? "3.13.5");
  o.string(run.simulation ?? "computerdatabase.BasicSimulation");
  o.long(run.start);
  o.string(run.description ?? "");
  const scenarios = run.scenarios ?? ["Users"];
  o.int(scenarios.length);
  for (const s of scenarios) o.string(s);
  const assertions = run.assertions ?? [];
  o.int(assertions.length);
  for (const a of assertions) {
    o.int(a.length);
    o.bytes(a);
  }
  for (const r of records) {
    if (r.kind === "request") {
      o.byte(1);
      o.int(r.groups.length);
      for (const g of r.groups) o.cached(g);
      o.cached(r.name);
      o.int(r.start);
      o.int(r.end);
      o.byte(r.ok ? 1 : 0);
      o.cached(r.message);
    } else if (r.kind === "user") {
      o.byte(2);
      o.int(r.scenario);
      o.byte(r.start ? 1 : 0);
      o.int(r.at);
    } else if (r.kind === "group") {
      o.byte(3);
      o.int(r.groups.length);
      for (const g of r.groups) o.cached(g);
      o.int(r.start);
      o.int(r.end);
      o.int(r.cumulated);
      o.byte(r.ok ? 1 : 0);
    } else {
      o.byte(4);
      o.cached(r.message);
      o.int(r.at);
    }
  }
  return o.result();
}

/** The int32 end Gatling writes for an incoming message no request matched: Long.MIN_VALUE − start, cut to 32 bits. */
export function unmatchedEnd(runStart: number): number {
  return Number(BigInt.asIntN(32, -9223372036854775808n - BigInt(runStart)));
}

/**
 * Generated samples as Gatling logs them (in order of completion; ms, start and end cut to whole
 * ms), users around them, an error record per KO, groups from `groupOf`; the run starts 100 ms
 * before the first request.
 */
export function gatlingBinaryOfSamples(samples: readonly LoadSample[], groupOf: (label: string) => string[] = () => []): { bytes: Uint8Array; runStart: number } {
  const written = byCompletion(samples);
  const runStart = written.length > 0 ? Math.floor(written.reduce((m, s) => Math.min(m, s.startUs), Infinity) / 1000) - 100 : 0;
  const records: GatlingBinaryRecord[] = [{ kind: "user", scenario: 0, start: true, at: 5 }];
  for (const s of written) {
    const start = Math.floor(s.startUs / 1000) - runStart;
    const end = start + msValue(s);
    const message = s.success ? "" : "status.find.in([200, 209], 304), but actually found 500";
    records.push({ kind: "request", groups: groupOf(s.label), name: s.label, start, end, ok: s.success, message });
    if (!s.success) records.push({ kind: "error", message, at: end });
  }
  records.push({ kind: "user", scenario: 0, start: false, at: 99_999 });
  return { bytes: gatlingBinaryLog({ start: runStart }, records), runStart };
}
