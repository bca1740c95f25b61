// Gatling's binary simulation.log (Gatling 3.13 and later), read from its bytes. The records,
// as Gatling's LogFileDataWriter writes them (big-endian, a record-type byte first):
//   0 RUN      version, simulation class (strings), start (int64 ms since the epoch),
//              description (string), scenario names (int32 count, strings),
//              assertions (int32 count, each an int32 length and that many bytes)
//   1 REQUEST  groups (int32 count, cached strings), name (cached string), start, end
//              (int32 ms since the run's start), OK (a byte, 1 or 0), message (cached string)
//   2 USER     scenario (int32 index into RUN's names), start (a byte: 1 start, 0 end), time (int32)
//   3 GROUP    groups (as REQUEST), start, end, cumulated response time (int32), OK (a byte)
//   4 ERROR    message (cached string), time (int32)
// A string is an int32 length, 0 for "" (nothing follows), else that many bytes of Java's own
// string storage and a coder byte (0: Latin-1, one byte a character; 1: UTF-16, two bytes a
// character, in the writing machine's order, little-endian on every machine Gatling runs on).
// A cached string is an int32 index: positive, the string follows and takes that index;
// negative, the string the index's opposite took earlier. Gatling writes through an 8 KiB
// buffer, so no string is longer than that.
//
// Each REQUEST is a sample: its response time is end − start in ms (what Gatling's report
// uses), its series the group path and name (as the text reader names it), KO counted as a
// failure. Users, the run and errors are context, said in a note. A file that ends inside a
// record (a run that was killed) keeps what came before, as Gatling's own reader does.
import type { BytesParser, FormatBytesReader, ParsedSource, SampleOptions } from "./source";
import { clip, maxLatencyIn } from "./support/decimals";
import { SeriesCollector } from "./support/collector";
import { Problems } from "./support/problems";
import type { Instant } from "./support/time";

const RUN = 0;
const REQUEST = 1;
const USER = 2;
const GROUP = 3;
const ERROR = 4;

/** Gatling's write buffer: no string or assertion is longer. */
const MAX_STRING_BYTES = 8192;
/** Scenario names and group levels past any real simulation's: a count above them is damage. */
const MAX_SCENARIOS = 100_000;
const MAX_GROUP_LEVELS = 1_000;
const MAX_ASSERTIONS = 100_000;
const MAX_CACHED_STRINGS = 10_000_000;
/** Scenarios named in the note, with their users; the rest are counted. */
const MAX_SCENARIOS_SAID = 10;

/** A record cut short by the end of the bytes read so far. */
class NeedMore extends Error {}

/** Damage: the record cannot be what Gatling writes. */
class Damaged extends Error {}

/**
 * Whether these first bytes are a binary simulation.log: record type 0 (RUN), then the Gatling
 * version as a Latin-1 string (a length of 1 to 64, digits and dots, coder byte 0).
 */
export function isGatlingBinary(head: Uint8Array): boolean {
  if (head.length < 9 || head[0] !== RUN) return false;
  const len = ((head[1]! << 24) | (head[2]! << 16) | (head[3]! << 8) | head[4]!) >>> 0;
  if (len < 3 || len > 64 || head.length < 5 + len + 1) return false;
  let text = "";
  for (let i = 0; i < len; i++) text += String.fromCharCode(head[5 + i]!);
  return /^\d+\.\d+[0-9A-Za-z.+-]*$/.test(text) && head[5 + len] === 0;
}

class Cursor {
  pos = 0;
  constructor(private readonly b: Uint8Array) {}

  private need(n: number): void {
    if (this.pos + n > this.b.length) throw new NeedMore();
  }

  byte(): number {
    this.need(1);
    return this.b[this.pos++]!;
  }

  int(): number {
    this.need(4);
    const b = this.b;
    const p = this.pos;
    this.pos += 4;
    return (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
  }

  /** An int64, exact when within ±2^53 (a time in ms is); null when not. */
  long(): number | null {
    const hi = this.int();
    const lo = this.int() >>> 0;
    const v = hi * 2 ** 32 + lo;
    return Number.isSafeInteger(v) ? v : null;
  }

  boolean(what: string): boolean {
    const v = this.byte();
    if (v !== 0 && v !== 1) throw new Damaged(`${what} is ${v}, not 0 or 1`);
    return v === 1;
  }

  count(what: string, max: number): number {
    const n = this.int();
    if (n < 0 || n > max) throw new Damaged(`${what} count ${n} is out of range (0 to ${max})`);
    return n;
  }

  string(what: string): string {
    const len = this.int();
    if (len === 0) return "";
    if (len < 0 || len > MAX_STRING_BYTES) throw new Damaged(`${what} length ${len} is out of range (0 to ${MAX_STRING_BYTES} bytes)`);
    this.need(len + 1);
    const start = this.pos;
    const coder = this.b[start + len]!;
    this.pos += len + 1;
    if (coder === 0) {
      let s = "";
      for (let i = start; i < start + len; i++) s += String.fromCharCode(this.b[i]!);
      return s;
    }
    if (coder === 1 && len % 2 === 0) {
      let s = "";
      for (let i = start; i < start + len; i += 2) s += String.fromCharCode(this.b[i]! | (this.b[i + 1]! << 8));
      return s;
    }
    throw new Damaged(`${what}: string coder ${coder} with ${len} bytes (Gatling writes 0, Latin-1, or 1, UTF-16 in an even number of bytes)`);
  }

  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }
}

interface RunInfo {
  version: string;
  simulation: string;
  /** ms since the epoch. */
  start: number;
  description: string;
  scenarios: string[];
}

class GatlingBinaryParser implements BytesParser {
  private readonly problems: Problems;
  private readonly collector: SeriesCollector;
  /**
   * Bytes not yet read as records (copies: the caller may reuse its chunks): the start of a
   * record cut by the end of a chunk, and the chunks after it.
   */
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  /**
   * Held bytes before the cut record is tried again: twice what it was tried with, so that a
   * record longer than many chunks is read again a few times, not once per chunk.
   */
  private retryAt = 0;
  /** Byte offset of the held bytes in the file. */
  private offset = 0;
  /** Records read whole (the RUN record is record 1). */
  private records = 0;
  private run: RunInfo | null = null;
  /** The int32 end Gatling writes for an incoming message no request matched (Long.MIN_VALUE − start, cut to 32 bits). */
  private unmatchedEnd = 0;
  private readonly cache = new Map<number, string>();
  /** Once damage is found, nothing after it is read. */
  private stopped = false;
  private requests = 0;
  private failed = 0;
  private readonly usersByScenario: number[] = [];
  private errors = 0;

  constructor(
    private readonly file: string,
    options: SampleOptions,
  ) {
    this.problems = new Problems(file);
    this.collector = new SeriesCollector({ file, unit: "ms", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval }, this.problems);
  }

  push(bytes: Uint8Array): void {
    if (this.stopped || bytes.length === 0) return;
    this.held.push(bytes.slice());
    this.heldBytes += bytes.length;
    if (this.heldBytes >= this.retryAt) this.readHeld();
  }

  /** Reads the held bytes' whole records; keeps the cut one. */
  private readHeld(): void {
    const buf = this.held.length === 1 ? this.held[0]! : new Uint8Array(this.heldBytes);
    if (this.held.length > 1) {
      let at = 0;
      for (const h of this.held) {
        buf.set(h, at);
        at += h.length;
      }
    }
    const c = new Cursor(buf);
    let recordStart = 0;
    try {
      while (c.pos < buf.length) {
        recordStart = c.pos;
        this.record(c);
        this.records++;
      }
      recordStart = c.pos;
    } catch (e) {
      if (!(e instanceof NeedMore)) {
        this.stop(e, this.offset + recordStart);
        this.held = [];
        this.heldBytes = 0;
        return;
      }
    }
    const rest = recordStart === 0 ? buf : buf.slice(recordStart);
    this.held = rest.length > 0 ? [rest] : [];
    this.heldBytes = rest.length;
    this.retryAt = 2 * rest.length;
    this.offset += recordStart;
  }

  private stop(e: unknown, at: number): void {
    this.stopped = true;
    const why = e instanceof Damaged ? e.message : `internal error: ${String(e)}`;
    const n = this.records + 1;
    this.problems.line(n, `record ${n} (byte ${at}): ${why}; nothing after it is read (not what Gatling writes: a damaged file?)`);
  }

  /** One record, or NeedMore (nothing of it kept) when the bytes end inside it. */
  private record(c: Cursor): void {
    const type = c.byte();
    if (this.run === null) {
      if (type !== RUN) throw new Damaged(`the file starts with record type ${type}, not the RUN record (0)`);
      this.readRun(c);
      return;
    }
    switch (type) {
      case REQUEST:
        this.readRequest(c);
        return;
      case USER: {
        const scenario = c.int();
        const start = c.boolean("the user record's start flag");
        c.int();
        if (scenario < 0 || scenario >= this.run.scenarios.length) throw new Damaged(`user record of scenario ${scenario}: the RUN record names ${this.run.scenarios.length}`);
        if (start) this.usersByScenario[scenario] = (this.usersByScenario[scenario] ?? 0) + 1;
        return;
      }
      case GROUP: {
        this.groups(c);
        c.skip(12);
        c.boolean("the group record's status");
        return;
      }
      case ERROR:
        this.cached(c, "error message");
        c.int();
        this.errors++;
        return;
      case RUN:
        throw new Damaged("a second RUN record (Gatling writes one, first)");
      default:
        throw new Damaged(`unknown record type ${type} (Gatling writes 0 to 4)`);
    }
  }

  private readRun(c: Cursor): void {
    const version = c.string("the Gatling version");
    const simulation = c.string("the simulation class");
    const start = c.long();
    const description = c.string("the run description");
    const scenarios: string[] = [];
    const n = c.count("scenario", MAX_SCENARIOS);
    for (let i = 0; i < n; i++) scenarios.push(c.string("a scenario name"));
    const assertions = c.count("assertion", MAX_ASSERTIONS);
    for (let i = 0; i < assertions; i++) {
      const len = c.int();
      if (len < 0 || len > MAX_STRING_BYTES) throw new Damaged(`assertion length ${len} is out of range (0 to ${MAX_STRING_BYTES} bytes)`);
      c.skip(len);
    }
    if (start === null || start < 0) throw new Damaged("the run's start time is not a time in ms since the epoch");
    this.run = { version, simulation, start, description, scenarios };
    this.unmatchedEnd = Number(BigInt.asIntN(32, -9223372036854775808n - BigInt(start)));
  }

  private cached(c: Cursor, what: string): string {
    const index = c.int();
    if (index >= 0) {
      const s = c.string(what);
      if (this.cache.size >= MAX_CACHED_STRINGS && !this.cache.has(index)) throw new Damaged(`more than ${MAX_CACHED_STRINGS} distinct strings`);
      this.cache.set(index, s);
      return s;
    }
    const s = this.cache.get(-index);
    if (s === undefined) throw new Damaged(`${what} refers to string #${-index}, which no earlier record wrote`);
    return s;
  }

  private groups(c: Cursor): string[] {
    const n = c.count("group level", MAX_GROUP_LEVELS);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.cached(c, "a group name"));
    return out;
  }

  private readRequest(c: Cursor): void {
    const groups = this.groups(c);
    const name = this.cached(c, "the request name");
    const start = c.int();
    const end = c.int();
    const ok = c.boolean("the request status");
    this.cached(c, "the request message");
    // The record is whole: from here on a problem is this record's alone.
    const n = this.records + 1;
    const label = groups.length === 0 ? name : `${groups.join(" / ")} / ${name}`;
    if (end === this.unmatchedEnd) {
      // an incoming message no request waited for (WebSocket, SSE, MQTT): it has no response time
      this.problems.once("unmatched", null, "incoming messages that matched no request have no response time: not counted");
      return;
    }
    const runStart = this.run!.start + start;
    const at: Instant = { sec: Math.floor(runStart / 1000), ns: (runStart % 1000) * 1e6 };
    this.requests++;
    if (!ok) {
      this.failed++;
      this.collector.fail(label, at, n);
      return;
    }
    const latency = end - start;
    if (latency < 0) {
      this.problems.line(n, `request ${JSON.stringify(clip(label))} ends (${end} ms) before it starts (${start} ms after the run's start)`);
      return;
    }
    if (latency > maxLatencyIn("ms")) {
      this.problems.line(n, `request ${JSON.stringify(clip(label))}: response time ${latency} ms is too large (limit ${maxLatencyIn("ms")})`);
      return;
    }
    this.collector.record(label, latency, at, n);
  }

  /** The run, its users and errors, in words. */
  private context(): string {
    const run = this.run!;
    const named = run.scenarios.slice(0, MAX_SCENARIOS_SAID).map((s, i) => `${clip(s)} ${this.usersByScenario[i] ?? 0}`);
    const more = run.scenarios.length - named.length;
    const users = named.join(", ") + (more > 0 ? `, and ${more} more scenarios` : "");
    const total = this.usersByScenario.reduce((a, b) => a + (b ?? 0), 0);
    const desc = run.description.trim() === "" ? "" : ` (${JSON.stringify(clip(run.description.trim(), 80))})`;
    const started = new Date(run.start).toISOString().replace(/\.000Z$/, "Z");
    const parts = [
      `Gatling ${clip(run.version)} run of ${clip(run.simulation, 80)}${desc}, started ${started}`,
      `${total} user${total === 1 ? "" : "s"} started (${users || "no scenarios named"})`,
      `${this.requests} request${this.requests === 1 ? "" : "s"}, ${this.failed} KO (counted as failures, not latencies)`,
    ];
    if (this.errors > 0) parts.push(`${this.errors} error record${this.errors === 1 ? "" : "s"}`);
    return parts.join("; ");
  }

  finish(): ParsedSource {
    try {
      if (!this.stopped && this.heldBytes > 0) this.readHeld();
      if (!this.stopped && this.heldBytes > 0) {
        const n = this.records + 1;
        this.problems.line(n, `the file ends inside record ${n} (byte ${this.offset}, ${this.heldBytes} bytes): a truncated log; the records before it are read`);
      }
      if (this.run === null) {
        if (!this.stopped) this.problems.once("empty", null, "no RUN record: not a whole Gatling binary simulation.log");
        return { format: "gatling", series: [], problems: this.problems.list() };
      }
      if (this.requests === 0 && this.problems.skipped === 0) this.problems.once("empty", null, "no REQUEST records in this simulation.log");
      const series = this.collector.finish();
      const note = { file: this.file, line: null, reason: this.context(), note: true as const };
      return { format: "gatling", series, problems: [...this.problems.list(), note] };
    } catch (e) {
      this.problems.once("internal", null, `internal error: ${String(e)}`);
      return { format: "gatling", series: [], problems: this.problems.list() };
    }
  }
}

/** Gatling's binary simulation.log, told by its first bytes whatever the file's name. */
export const gatlingBinaryReader: FormatBytesReader = {
  id: "gatling",
  sniff: (head) => isGatlingBinary(head),
  create: (name, options) => new GatlingBinaryParser(name, options ?? {}),
};
