// Gatling's text simulation.log (Gatling 3.0 to 3.12). Tab-separated records, the first field
// naming the record (from Gatling's LogFileDataWriter / RawRecords):
//   RUN       simulationClassName  simulationId  start  description  gatlingVersion
//   USER      scenario  START|END  timestamp                      (3.4+; 3.0–3.3 add userId and a second timestamp)
//   REQUEST   groups  name  start  end  OK|KO  message            (3.4–3.12: 7 fields)
//   REQUEST   userId  groups  name  start  end  OK|KO  message    (3.0–3.3: 8 fields)
//   GROUP, ERROR, ASSERTION: not requests.
// Times are ms since the epoch; a request's response time is end − start (what Gatling's
// reports use), recorded in ms. groups is the comma-separated group hierarchy. One series per
// request (its groups and name, as Gatling's report lists it); KO is counted as a failure.
//
// Gatling 3.13 replaced this with a binary simulation.log (record type bytes, length-prefixed
// strings, times relative to the run start): recognised and refused with one clear problem.
import type { FormatReader, LineParser, ParsedSource, SampleOptions } from "./source";
import { Problems, SeriesCollector, clip, maxLatencyIn, parseNumericTime } from "./reader-support";

const RECORDS = new Set(["RUN", "USER", "GROUP", "ERROR", "ASSERTION"]);
const DIGITS = /^\d{1,16}$/;

export const GATLING_BINARY_PROBLEM =
  "Gatling's binary simulation.log (3.13 and later) is not supported: open the HTML report Gatling generated next to it, " +
  "or convert the log to CSV with a tool built on Gatling's own LogFileReader and load the CSV as samples " +
  "(value column: the response time in ms), or run the simulation with Gatling 3.12 or earlier to get the text log";

/** The start of a binary log: record type 0 (RUN), then the Gatling version as an int-length-prefixed string. */
const BINARY_START = /^\u0000\u0000\u0000\u0000[\u0001-\u00ff\ufffd]\d+\.\d+/;

/** Text that cannot be a line of the text log: NUL or other control characters, or decoding failures. */
function looksBinary(text: string): boolean {
  if (BINARY_START.test(text)) return true;
  const bad = text.slice(0, 4096).match(/[\u0000-\u0008\u000e-\u001f\ufffd]/g);
  return bad !== null;
}

class GatlingParser implements LineParser {
  private readonly problems: Problems;
  private readonly collector: SeriesCollector;
  private binary = false;
  private requests = 0;
  private records = 0;

  constructor(file: string, options: SampleOptions) {
    this.problems = new Problems(file);
    this.collector = new SeriesCollector({ file, unit: "ms", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval }, this.problems);
  }

  line(raw: string, lineNo: number): void {
    if (this.binary) return;
    try {
      const text = lineNo === 1 ? raw.replace(/^\uFEFF/, "") : raw;
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
      if (RECORDS.has(kind)) {
        this.records++;
        return;
      }
      if (fields[2] === "REQUEST" || fields[2] === "RUN") {
        this.problems.once("gatling2", lineNo, "this is a Gatling 2 simulation.log (scenario and user id before the record type): not supported, only Gatling 3.0 to 3.12 text logs are");
        this.problems.skipped++;
        return;
      }
      this.problems.line(lineNo, `not a simulation.log record: ${JSON.stringify(clip(text.trim()))}`);
    } catch (e) {
      this.problems.line(lineNo, `internal error: ${String(e)}`);
    }
  }

  private request(f: string[], lineNo: number): void {
    // 3.4–3.12: REQUEST groups name start end status message; 3.0–3.3 put the user id first.
    let o: number;
    if (f.length === 7) o = 1;
    else if (f.length === 8 && /^\d+$/.test(f[1]!)) o = 2;
    else {
      this.problems.line(lineNo, `REQUEST record with ${f.length} fields: expected 7 (Gatling 3.4–3.12) or 8 (3.0–3.3)`);
      return;
    }
    const groups = f[o]!;
    const name = f[o + 1]!;
    const start = f[o + 2]!.trim();
    const end = f[o + 3]!.trim();
    const status = f[o + 4]!.trim();
    if (!DIGITS.test(start)) {
      this.problems.line(lineNo, `request start ${JSON.stringify(clip(start))} is not a time in ms`);
      return;
    }
    if (!DIGITS.test(end)) {
      this.problems.line(lineNo, `request end ${JSON.stringify(clip(end))} is not a time in ms`);
      return;
    }
    if (status !== "OK" && status !== "KO") {
      this.problems.line(lineNo, `request status ${JSON.stringify(clip(status))} is neither OK nor KO`);
      return;
    }
    const label = groups === "" ? name : `${groups.split(",").join(" / ")} / ${name}`;
    const t = parseNumericTime(start, "ms");
    if (!t.ok) {
      this.problems.line(lineNo, t.reason);
      return;
    }
    if (status === "KO") {
      if (this.collector.fail(label, t.at, lineNo)) this.requests++;
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
    if (this.collector.record(label, latency, t.at, lineNo)) this.requests++;
  }

  finish(): ParsedSource {
    try {
      if (!this.binary && this.requests === 0 && this.problems.skipped === 0) {
        this.problems.once("empty", null, this.records > 0 ? "no REQUEST records in this simulation.log" : "no simulation.log records found");
      }
      return { format: "gatling", series: this.collector.finish(), problems: this.problems.list() };
    } catch (e) {
      this.problems.once("internal", null, `internal error: ${String(e)}`);
      return { format: "gatling", series: [], problems: this.problems.list() };
    }
  }
}

export function gatlingNameMatch(name: string): boolean {
  return /(^|[\\/])simulation\.log$/i.test(name);
}

/** Text records (RUN/REQUEST/USER/… then a tab) or the binary log's first bytes. */
export function gatlingContentMatch(head: string): boolean {
  if (BINARY_START.test(head)) return true;
  return /^(RUN|REQUEST|USER|GROUP|ASSERTION)\t/m.test(head.replace(/^\uFEFF/, "").slice(0, 8192));
}

export const gatlingReader: FormatReader = {
  id: "gatling",
  detect(name: string, head: string): boolean {
    return gatlingNameMatch(name) || gatlingContentMatch(head);
  },
  create(name: string, options?: SampleOptions): LineParser {
    return new GatlingParser(name, options ?? {});
  },
};
