// Vegeta results as `vegeta encode` writes them (its default attack output is binary gob:
// convert it with `vegeta encode -to csv` or `-to json` first).
//
// CSV (lib/results.go NewCSVEncoder): no header; columns
//   1 timestamp (ns since the epoch) 2 HTTP status code 3 latency (ns) 4 bytes out 5 bytes in
//   6 error 7 base64 body 8 attack name 9 sequence number 10 method 11 URL 12 base64 headers
// (v12.8 and later; 9 columns before that, 7 in old releases); RFC 4180 quoting (Go's
// encoding/csv), so an error message with quotes or commas is quoted.
// JSON lines (NewJSONEncoder): {"attack":"","seq":0,"code":200,"timestamp":"2026-…T…+01:00",
//   "latency":12345,"bytes_out":0,"bytes_in":0,"error":"","body":…,"method":…,"url":…,"headers":…}
//   with the latency in ns (a Go time.Duration) and an RFC 3339 timestamp with ns.
//
// Latencies are recorded in ns. One series per attack name (one series when unnamed). A result
// fails as Vegeta's own report counts it: an error, or a status outside 200–399 (code 0: no
// response); failures are counted, not recorded.
import type { FormatReader, SampleOptions } from "./source";
import { CsvRecords } from "./support/csv";
import { clip } from "./support/decimals";
import { CollectingParser, jsonOrCsv, readerOf } from "./support/parser";
import { parseNumericTime, type Instant } from "./support/time";

class VegetaParser extends CollectingParser {
  private mode: "json" | "csv" | null = null;
  private records: CsvRecords | null = null;

  constructor(file: string, options: SampleOptions) {
    super("vegeta", { file, unit: "ns", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
  }

  protected readLine(text: string, lineNo: number): void {
    if (this.mode === null) {
      this.mode = jsonOrCsv(text);
      if (this.mode === null) return;
      if (this.mode === "csv") {
        const t = text.trim();
        this.records = new CsvRecords(",", this.problems);
        if (/^[A-Za-z"]/.test(t) && !/^\d/.test(t)) {
          // Vegeta writes no header; tolerate one added by hand.
          this.problems.once("header", lineNo, `first line ${JSON.stringify(clip(t))} is not a result: read as a header and skipped`);
          return;
        }
      }
    }
    if (this.mode === "json") this.json(text, lineNo);
    else {
      const rec = this.records!.pushRow(text, lineNo);
      if (rec) this.csv(rec.fields, rec.lineNo);
    }
  }

  private result(label: string, code: number, error: string, latencyText: string, at: Instant, lineNo: number): void {
    this.latencySample(label, error !== "" || !(code >= 200 && code < 400), latencyText, at, lineNo, { scaleDigits: 0, unit: "ns", what: "latency" });
  }

  private csv(f: string[], lineNo: number): void {
    if (f.length < 6) {
      this.problems.line(lineNo, `expected 12 columns (timestamp,code,latency,bytes out,bytes in,error,…), found ${f.length}`);
      return;
    }
    const ts = f[0]!.trim();
    if (!/^\d{1,20}$/.test(ts)) {
      this.problems.line(lineNo, `timestamp ${JSON.stringify(clip(ts))} is not an integer of ns`);
      return;
    }
    const t = parseNumericTime(ts, "ns");
    if (!t.ok) {
      this.problems.line(lineNo, t.reason);
      return;
    }
    const codeText = f[1]!.trim();
    if (!/^\d{1,5}$/.test(codeText)) {
      this.problems.line(lineNo, `status code ${JSON.stringify(clip(codeText))} is not a number`);
      return;
    }
    this.result(f.length >= 8 ? f[7]! : "", Number(codeText), f[5]!, f[2]!.trim(), t.at, lineNo);
  }

  private json(text: string, lineNo: number): void {
    const trimmed = text.trim();
    if (trimmed === "") return;
    const o = this.parseJson(trimmed, lineNo);
    if (o === undefined) return;
    const record = this.timestampedObject(o, lineNo, "not a JSON object", "result without a timestamp");
    if (!record) return;
    const { r, at } = record;
    if (typeof r.code !== "number" || !Number.isInteger(r.code)) {
      this.problems.line(lineNo, `status code ${clip(String(JSON.stringify(r.code)))} is not a number`);
      return;
    }
    if (typeof r.latency !== "number") {
      this.problems.line(lineNo, `latency ${clip(String(JSON.stringify(r.latency)))} is not a number`);
      return;
    }
    const error = typeof r.error === "string" ? r.error : "";
    const label = typeof r.attack === "string" ? r.attack : "";
    this.result(label, r.code, error, String(r.latency), at, lineNo);
  }

  protected finishRecords(): void {
    this.records?.finish();
  }

  protected emptyReason(): string | null {
    return "no Vegeta results found";
  }
}

/** A JSON result object (latency, code, timestamp keys) or a CSV row ns-timestamp,code,latency,… */
export function vegetaContentMatch(head: string): boolean {
  const first = head
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/, 1)[0]!
    .trim();
  if (first.startsWith("{")) return /"latency"\s*:/.test(first) && /"code"\s*:/.test(first) && /"timestamp"\s*:/.test(first) && /"bytes_(in|out)"\s*:/.test(first);
  return /^\d{16,20},\d{1,3},\d+,\d+,\d+,/.test(first);
}

export const vegetaReader: FormatReader = readerOf("vegeta", VegetaParser, vegetaContentMatch);
