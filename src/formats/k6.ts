// k6 result outputs, http_req_duration only (the request's total time, in ms with ns digits):
//
// JSON lines (`k6 run --out json=…`): {"type":"Metric",…} declarations and points
//   {"metric":"http_req_duration","type":"Point","data":{"time":"2017-05-09T14:34:45.239531499+02:00",
//    "value":459.865729,"tags":{"expected_response":"true","group":"","method":"GET","name":"…",
//    "status":"200","url":"…",…}}}
// CSV (`k6 run --out csv=…`): a header "metric_name,timestamp,metric_value," then the system
//   tags k6 was told to keep (sorted: check,error,error_code,expected_response,group,method,name,
//   proto,scenario,service,status,subproto,tls_version,url, …) and extra_tags(,metadata);
//   timestamp in unix seconds by default (timeFormat unix_milli / unix_micro / unix_nano /
//   rfc3339 also exist), metric_value "%f" (6 decimals).
//
// Values are recorded in µs (Math.round on the digits of value × 1000): 3 significant digits
// of the histogram are finer than what µs loses only below 1 ms. One series per `name` tag (k6
// sets it to the URL unless the script names requests), one series when there is none.
// Failures: expected_response=false (k6's own http_req_failed; by default statuses 200–399 are
// expected); when the tag is absent (response callback disabled), a status outside 200–399
// (0: no response). Failures are counted, not recorded.
import type { FormatReader, SampleOptions } from "./source";
import { CsvRecords } from "./support/csv";
import { clip } from "./support/decimals";
import { CollectingParser, jsonOrCsv, readerOf } from "./support/parser";
import { guessEpochUnit, parseDateTime, parseNumericTime, type Instant, type TimeResult } from "./support/time";

const METRIC = "http_req_duration";

function failed(expected: string | undefined, status: string | undefined): boolean {
  if (expected === "false") return true;
  if (expected === "true") return false;
  if (status === undefined || status === "") return false;
  const code = Number(status);
  return !(code >= 200 && code < 400);
}

interface CsvColumns {
  metric: number;
  timestamp: number;
  value: number;
  name: number;
  status: number;
  expected: number;
  min: number;
}

class K6Parser extends CollectingParser {
  private mode: "json" | "csv" | null = null;
  private records: CsvRecords | null = null;
  private cols: CsvColumns | null = null;
  private timeKind: "date" | "s" | "ms" | "us" | "ns" | null = null;

  constructor(file: string, options: SampleOptions) {
    super("k6", { file, unit: "us", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval !== undefined ? options.expectedInterval * 1000 : undefined });
  }

  protected readLine(text: string, lineNo: number): void {
    if (this.mode === null) {
      this.mode = jsonOrCsv(text);
      if (this.mode === null) return;
      if (this.mode === "csv") {
        this.records = new CsvRecords(",", this.problems);
        const names = this.records.push(text, lineNo)?.fields.map((f) => f.trim()) ?? [];
        const find = (n: string) => names.indexOf(n);
        const c = {
          metric: find("metric_name"),
          timestamp: find("timestamp"),
          value: find("metric_value"),
          name: find("name"),
          status: find("status"),
          expected: find("expected_response"),
        };
        if (c.metric < 0 || c.value < 0) {
          this.problems.once("header", lineNo, 'not a k6 CSV header: expected "metric_name,timestamp,metric_value,…"');
          return;
        }
        this.cols = { ...c, min: Math.max(c.metric, c.timestamp, c.value, c.name, c.status, c.expected) + 1 };
        return;
      }
    }
    if (this.mode === "json") this.json(text, lineNo);
    else this.csv(text, lineNo);
  }

  private time(text: string | undefined, lineNo: number): Instant | null | false {
    if (text === undefined) return null;
    const t = text.trim();
    if (t === "") return null;
    if (this.timeKind === null) this.timeKind = /^\d+(\.\d*)?$/.test(t) ? guessEpochUnit(t) : "date";
    const r: TimeResult = this.timeKind === "date" ? parseDateTime(t) : parseNumericTime(t, this.timeKind);
    if (!r.ok) {
      this.problems.line(lineNo, r.reason);
      return false;
    }
    return r.at;
  }

  private point(label: string, valueText: string, at: Instant | null, fail: boolean, lineNo: number): void {
    this.latencySample(label, fail, valueText, at, lineNo, { scaleDigits: 3, unit: "us", what: "http_req_duration" });
  }

  private json(text: string, lineNo: number): void {
    if (text.indexOf(METRIC) < 0) {
      if (text.trim() !== "" && !text.trimStart().startsWith("{")) this.problems.line(lineNo, `not a JSON object: ${JSON.stringify(clip(text.trim()))}`);
      return;
    }
    const o = this.parseJson(text, lineNo);
    if (o === undefined) return;
    if (typeof o !== "object" || o === null) return;
    const rec = o as { type?: unknown; metric?: unknown; data?: unknown };
    if (rec.type !== "Point" || rec.metric !== METRIC) return;
    const data = rec.data as { time?: unknown; value?: unknown; tags?: unknown } | null | undefined;
    if (typeof data !== "object" || data === null) {
      this.problems.line(lineNo, "Point without data");
      return;
    }
    if (typeof data.value !== "number") {
      this.problems.line(lineNo, `http_req_duration value ${JSON.stringify(clip(String(JSON.stringify(data.value))))} is not a number`);
      return;
    }
    const tags = (typeof data.tags === "object" && data.tags !== null ? data.tags : {}) as Record<string, unknown>;
    const str = (k: string) => (typeof tags[k] === "string" ? (tags[k] as string) : undefined);
    const at = this.time(typeof data.time === "string" ? data.time : undefined, lineNo);
    if (at === false) return;
    this.point(str("name") ?? "", String(data.value), at, failed(str("expected_response"), str("status")), lineNo);
  }

  private csv(text: string, lineNo: number): void {
    const c = this.cols;
    if (!c) return;
    const records = this.records!;
    // Most rows are other metrics: skip them before splitting (unless a quoted field is open).
    if (!records.open) {
      if (text.trim() === "") return;
      if (!text.startsWith(METRIC + ",") && c.metric === 0 && !text.startsWith('"')) return;
    }
    const rec = records.push(text, lineNo);
    if (!rec) return;
    const f = rec.fields;
    if (f[c.metric] !== METRIC) return;
    if (f.length < c.min) {
      this.problems.line(rec.lineNo, `expected at least ${c.min} columns, found ${f.length}`);
      return;
    }
    const at = this.time(c.timestamp >= 0 ? f[c.timestamp] : undefined, rec.lineNo);
    if (at === false) return;
    const fail = failed(c.expected >= 0 ? f[c.expected] : undefined, c.status >= 0 ? f[c.status] : undefined);
    this.point(c.name >= 0 ? f[c.name]! : "", f[c.value]!, at, fail, rec.lineNo);
  }

  protected finishRecords(): void {
    this.records?.finish();
  }

  protected emptyReason(): string | null {
    return "no http_req_duration points found";
  }
}

/** JSON lines with k6's "type":"Point"/"Metric" and "metric" keys, or k6's CSV header. */
export function k6ContentMatch(head: string): boolean {
  const text = head.replace(/^\uFEFF/, "");
  if (/^metric_name,timestamp,metric_value(,|$)/m.test(text.slice(0, 2048))) return true;
  const first = text.split(/\r\n|\r|\n/, 1)[0]!.trim();
  return first.startsWith("{") && /"type"\s*:\s*"(Point|Metric)"/.test(first) && /"metric"\s*:\s*"/.test(first);
}

export const k6Reader: FormatReader = readerOf("k6", K6Parser, k6ContentMatch);
