// Gatling's text simulation.log (Gatling 2.0 to 3.12). Tab-separated records naming their kind,
// from Gatling's LogFileDataWriter / FileDataWriter and the reports' RawRecords, per version:
//   3.4–3.12  RUN  class  simulationId  start  description  version
//             REQUEST  groups  name  start  end  OK|KO  message
//   3.0–3.3   RUN as 3.4;  REQUEST  userId  groups  name  start  end  OK|KO  message
//   2.2–2.3   RUN  class  userDefinedId  defaultId  start  description  2.0
//             REQUEST  scenario  userId  groups  name  start  end  OK|KO  message  [extra…]
//             (the 2.2 milestones wrote four times: requestStart requestEnd responseStart responseEnd)
//   2.0–2.1   class  simulationId  RUN  start  description  2.0
//             scenario  userId  REQUEST  groups  name  requestStart  requestEnd  responseStart  responseEnd  OK|KO  message  [extra…]
//   USER, GROUP, ERROR, ASSERTION: not requests.
// The message is a single space when there is none; a file whose trailing white space was
// stripped ends such lines right after the status, so the message is optional. Field counts
// alone cannot tell the layouts apart (a 3.0–3.3 line without its message has as many fields as
// a 3.4 line with one): the RUN line's version decides, and without a RUN line the shape of the
// fields does (where OK/KO stands, and whole numbers in both time fields before it).
// Times are ms since the epoch; a request's response time is end − start (what Gatling's
// reports use; for 2.0–2.1, responseEnd − requestStart), recorded in ms. groups is the
// comma-separated group hierarchy. One series per request (its groups and name, as Gatling's
// report lists it); KO is counted as a failure.
//
// Gatling 3.13 replaced this with a binary simulation.log, read from its bytes by
// gatling-binary.ts. Binary text that reaches this line reader (its first bytes are not the
// RUN record Gatling writes, or it came as text) is refused with one clear problem.
import type { FormatReader, SampleOptions } from "./source";
import { clip, maxLatencyIn } from "./support/decimals";
import { CollectingParser, readerOf } from "./support/parser";
import { parseNumericTime } from "./support/time";

const RECORDS = new Set(["RUN", "USER", "GROUP", "ERROR", "ASSERTION"]);
const DIGITS = /^\d{1,16}$/;

export const GATLING_BINARY_PROBLEM =
  "this looks like Gatling's binary simulation.log (3.13 and later), but it does not start with the RUN record Gatling writes " +
  "(its version, then the simulation): a damaged or cut file? Load the simulation.log from Gatling's results folder as it is";

/** The start of a binary log: record type 0 (RUN), then the Gatling version as an int-length-prefixed string. */
// eslint-disable-next-line no-control-regex -- the binary log starts with NUL bytes (a big-endian int 0)
const BINARY_START = /^\u0000\u0000\u0000\u0000[\u0001-\u00ff\ufffd]\d+\.\d+/;

/** Text that cannot be a line of the text log: NUL or other control characters, or decoding failures. */
function looksBinary(text: string): boolean {
  if (BINARY_START.test(text)) return true;
  // eslint-disable-next-line no-control-regex -- control characters are what no text log line holds
  const bad = text.slice(0, 4096).match(/[\u0000-\u0008\u000e-\u001f\ufffd]/g);
  return bad !== null;
}

/** Where one Gatling version writes a REQUEST record's fields (indices into the tab-split line). */
interface Layout {
  /** Versions that write it, for messages. */
  versions: string;
  /** The fields in order, for messages. */
  fields: string;
  record: number;
  groups: number;
  name: number;
  start: number;
  end: number;
  status: number;
}

const LAYOUTS = {
  v34: { versions: "Gatling 3.4–3.12", fields: "REQUEST, groups, name, start, end, status, message", record: 0, groups: 1, name: 2, start: 3, end: 4, status: 5 },
  v30: { versions: "Gatling 3.0–3.3", fields: "REQUEST, user id, groups, name, start, end, status, message", record: 0, groups: 2, name: 3, start: 4, end: 5, status: 6 },
  v22: { versions: "Gatling 2.2–2.3", fields: "REQUEST, scenario, user id, groups, name, start, end, status, message", record: 0, groups: 3, name: 4, start: 5, end: 6, status: 7 },
  v22m: {
    versions: "Gatling 2.2 milestones",
    fields: "REQUEST, scenario, user id, groups, name, request start, request end, response start, response end, status, message",
    record: 0,
    groups: 3,
    name: 4,
    start: 5,
    end: 8,
    status: 9,
  },
  v20: {
    versions: "Gatling 2.0–2.1",
    fields: "scenario, user id, REQUEST, groups, name, request start, request end, response start, response end, status, message",
    record: 2,
    groups: 3,
    name: 4,
    start: 5,
    end: 8,
    status: 9,
  },
} satisfies Record<string, Layout>;

/** Tried in this order when no RUN line says which (their shapes exclude each other). */
const RECORD_FIRST: Layout[] = [LAYOUTS.v34, LAYOUTS.v30, LAYOUTS.v22, LAYOUTS.v22m];

/** Whether a line has `l`'s shape: OK/KO where it writes the status, whole numbers where it writes the times. */
function fits(f: string[], l: Layout): boolean {
  const status = f[l.status];
  return (status === "OK" || status === "KO") && DIGITS.test(f[l.start] ?? "") && DIGITS.test(f[l.end] ?? "");
}

/** The end time Gatling 3.3+ writes for an incoming message no request matched (Long.MinValue). */
const UNMATCHED_END = "-9223372036854775808";

class GatlingParser extends CollectingParser {
  private binary = false;
  private records = 0;
  /** The layout the RUN line's version states; null until one is read. */
  private stated: Layout[] | null = null;
  private statedBy = "";
  /** The layout of the last line recognised by its shape. */
  private lastShape: Layout | null = null;

  constructor(file: string, options: SampleOptions) {
    super("gatling", { file, unit: "ms", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
  }

  protected readLine(text: string, lineNo: number): void {
    if (this.binary) return;
    if (text === "") return;
    if (this.records === 0 && looksBinary(text)) {
      this.binary = true;
      this.problems.once("binary", null, GATLING_BINARY_PROBLEM);
      return;
    }
    const fields = text.split("\t");
    const kind = fields[0]!;
    if (kind === "REQUEST") {
      this.records++;
      this.request(fields, lineNo);
      return;
    }
    if (kind === "RUN") {
      this.records++;
      this.run(fields, lineNo);
      return;
    }
    if (RECORDS.has(kind)) {
      this.records++;
      return;
    }
    // Gatling 2.0–2.1: scenario (or simulation class) and user id (or simulation id) come first.
    if (fields[2] === "RUN") {
      this.records++;
      this.stated = [LAYOUTS.v20];
      this.statedBy = "the RUN line (Gatling 2.0–2.1: the record type third)";
      return;
    }
    if (fields[2] === "REQUEST") {
      this.records++;
      this.request(fields, lineNo);
      return;
    }
    if (RECORDS.has(fields[2] ?? "")) {
      this.records++;
      return;
    }
    this.problems.line(lineNo, `not a simulation.log record: ${JSON.stringify(clip(text.trim()))}`);
  }

  /** RUN … version: the version is the last field (the description before it has no tabs). */
  private run(f: string[], lineNo: number): void {
    const version = (f[f.length - 1] ?? "").trim();
    const m = /^(\d+)\.(\d+)/.exec(version);
    if (!m) {
      this.problems.once(
        "version",
        lineNo,
        `the RUN line states no Gatling version (last field ${JSON.stringify(clip(version))}): the layout of each REQUEST line is told from its fields`,
      );
      return;
    }
    const major = Number(m[1]);
    const minor = Number(m[2]);
    if (major >= 3) this.stated = minor >= 4 || major > 3 ? [LAYOUTS.v34] : [LAYOUTS.v30];
    else if (major === 2)
      this.stated = [LAYOUTS.v22, LAYOUTS.v22m]; // 2.2 and later put the record type first
    else {
      this.problems.once("version", lineNo, `Gatling ${version} is not supported (its simulation.log differs): only Gatling 2.0 to 3.12 text logs are`);
      return;
    }
    this.statedBy = `the RUN line (version ${clip(version)})`;
  }

  /** The layout of one REQUEST line: the stated one, else the first whose shape it has. */
  private layoutOf(f: string[]): Layout {
    if (f[0] !== "REQUEST") return LAYOUTS.v20;
    const candidates = this.stated ?? RECORD_FIRST;
    for (const l of candidates) {
      if (fits(f, l)) {
        if (!this.stated) this.lastShape = l;
        return l;
      }
    }
    // None fits: report the line against the stated layout, else the last one seen, else by count.
    if (this.stated) return this.stated[0]!;
    if (this.lastShape) return this.lastShape;
    return LAYOUTS.v34;
  }

  private request(f: string[], lineNo: number): void {
    const l = this.layoutOf(f);
    if (f.length <= l.status) {
      const by = this.stated ? ` as ${this.statedBy} says` : "";
      this.problems.line(lineNo, `REQUEST record with ${f.length} field${f.length === 1 ? "" : "s"}: ${l.versions}${by} writes ${l.status + 1} or more (${l.fields})`);
      return;
    }
    const groups = f[l.groups]!;
    const name = f[l.name]!;
    const start = f[l.start]!.trim();
    const end = f[l.end]!.trim();
    const status = f[l.status]!.trim();
    if (!DIGITS.test(start)) {
      this.problems.line(lineNo, `request start ${JSON.stringify(clip(start))} is not a time in ms (${l.versions}: ${l.fields})`);
      return;
    }
    if (end === UNMATCHED_END) {
      // an incoming message no request waited for: Gatling's report gives it no response time
      this.problems.once("unmatched", null, "incoming messages that matched no request (end time -9223372036854775808) have no response time: not counted");
      return;
    }
    if (!DIGITS.test(end)) {
      this.problems.line(lineNo, `request end ${JSON.stringify(clip(end))} is not a time in ms (${l.versions}: ${l.fields})`);
      return;
    }
    if (status !== "OK" && status !== "KO") {
      this.problems.line(lineNo, `request status ${JSON.stringify(clip(status))} is neither OK nor KO (${l.versions}: ${l.fields})`);
      return;
    }
    const label = groups === "" ? name : `${groups.split(",").join(" / ")} / ${name}`;
    const t = parseNumericTime(start, "ms");
    if (!t.ok) {
      this.problems.line(lineNo, t.reason);
      return;
    }
    if (status === "KO") {
      this.fail(label, t.at, lineNo);
      return;
    }
    const latency = Number(end) - Number(start);
    if (latency < 0) {
      this.problems.line(lineNo, `request ends (${end}) before it starts (${start})`);
      return;
    }
    if (latency > maxLatencyIn("ms")) {
      this.problems.line(lineNo, `response time ${latency} ms is too large (limit ${maxLatencyIn("ms")})`);
      return;
    }
    this.record(label, latency, t.at, lineNo);
  }

  protected emptyReason(): string | null {
    if (this.binary) return null;
    return this.records > 0 ? "no REQUEST records in this simulation.log" : "no simulation.log records found";
  }
}

export function gatlingNameMatch(name: string): boolean {
  return /(^|[\\/])simulation\.log$/i.test(name);
}

/** Text records (RUN/REQUEST/USER/… then a tab) or the binary log's first bytes. */
export function gatlingContentMatch(head: string): boolean {
  if (BINARY_START.test(head)) return true;
  const text = head.replace(/^\uFEFF/, "").slice(0, 8192);
  // 2.2 and later start a line with the record type; 2.0–2.1 put it third
  return /^(RUN|REQUEST|USER|GROUP|ASSERTION)\t/m.test(text) || /^[^\t\r\n]*\t\d+\t(RUN|REQUEST|USER|GROUP)\t/m.test(text) || /^[^\t\r\n]+\t[^\t\r\n]*\tRUN\t\d{10,}\t/m.test(text);
}

export const gatlingReader: FormatReader = readerOf("gatling", GatlingParser, gatlingContentMatch, gatlingNameMatch);
