// JMeter results (.jtl): the CSV flavour (the default since JMeter 2.x) and the XML one.
//
// CSV: a header names the columns, in any order (JMeter 5 default:
// timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,
// failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect); the
// delimiter is a comma unless jmeter.save.saveservice.default_delimiter says otherwise (tab and
// semicolon are detected); fields with the delimiter, quotes or line breaks are quoted. Without
// a header (print_field_names=false) the default order is assumed.
// XML: one <httpSample …> or <sample …> element a line, attributes t (elapsed ms), ts (start, ms
// since epoch), s (success), lb (label); nested sub-samples are samples too.
//
// elapsed is whole ms, recorded in ms; timeStamp is the sample's start in ms since the epoch
// (or a date-time when jmeter.save.saveservice.timestamp_format is set). One series per label;
// success=false is counted as a failure and not recorded as a latency.
import type { FormatReader, SampleOptions } from "./source";
import { CsvRecords, guessDelimiter } from "./support/csv";
import { clip } from "./support/decimals";
import { CollectingParser, readerOf } from "./support/parser";
import { parseDateTime, parseNumericTime, type Instant, type TimeResult } from "./support/time";

const DEFAULT_COLUMNS = ["timeStamp", "elapsed", "label", "responseCode", "responseMessage", "threadName", "dataType", "success"];

interface Columns {
  timeStamp: number;
  elapsed: number;
  label: number;
  success: number;
  min: number;
}

function columnsOf(names: string[]): Columns | null {
  const find = (n: string) => names.findIndex((x) => x.trim().toLowerCase() === n.toLowerCase());
  const c = { timeStamp: find("timeStamp"), elapsed: find("elapsed"), label: find("label"), success: find("success") };
  if (c.elapsed < 0) return null;
  return { ...c, min: Math.max(c.elapsed, c.timeStamp, c.label, c.success) + 1 };
}

// Sample elements are found by scanning, not by one regex over the whole tag: the former
// /<(httpSample|sample)\s([^>]*?)\/?>/g ran to the end of the line from every "<sample " without
// a ">", and the attribute pattern backtracked through every long name or unclosed quote, both
// O(n²) per line (a long line of "<sample " stalled the reader; found by fuzzing). What they matched is
// kept: a tag ends at the first ">", a "/" just before it is not part of the attributes, and
// attributes are name = "value" or name = 'value', the leftmost matches as the regex took them.
const XML_SAMPLE_START = /<(httpSample|sample)\s/g;

/** `[A-Za-z_:]`: where an attribute name may start. */
function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58;
}

/** `[\w:.-]`: the rest of a name. */
function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;
}

/** `\s` as JavaScript regexes define it. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** name="value" / name='value' pairs of a tag's attribute text (values unescaped), in one pass. */
export function xmlAttributes(body: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const n = body.length;
  // A quote with no closing quote after it cannot start a value: known up front, so indexOf
  // below only runs when it finds the close (and the text it scans is then consumed).
  const lastDouble = body.lastIndexOf('"');
  const lastSingle = body.lastIndexOf("'");
  let i = 0;
  while (i < n) {
    if (!isNameStart(body.charCodeAt(i))) {
      i++;
      continue;
    }
    const nameStart = i;
    i++;
    while (i < n && isNameChar(body.charCodeAt(i))) i++;
    // A failed match here also fails from every later start inside this name (same end), so the
    // scan goes on after the name, as the regex's retries would.
    let j = i;
    while (j < n && isSpace(body.charCodeAt(j))) j++;
    if (j >= n || body.charCodeAt(j) !== 61) continue;
    j++;
    while (j < n && isSpace(body.charCodeAt(j))) j++;
    const q = j < n ? body.charCodeAt(j) : -1;
    if (q !== 34 && q !== 39) continue;
    if ((q === 34 ? lastDouble : lastSingle) <= j) continue;
    const close = body.indexOf(q === 34 ? '"' : "'", j + 1);
    attrs.set(body.slice(nameStart, i), unescapeXml(body.slice(j + 1, close)));
    i = close + 1;
  }
  return attrs;
}

/** The <httpSample …> and <sample …> start (or empty-element) tags of one line, in order. */
export function xmlSampleTags(line: string): { tag: string; attrs: Map<string, string> }[] {
  const out: { tag: string; attrs: Map<string, string> }[] = [];
  XML_SAMPLE_START.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = XML_SAMPLE_START.exec(line))) {
    const from = m.index + m[0].length;
    const end = line.indexOf(">", from);
    // No ">" after this tag: none after any later one either, so the line is done (rescanning
    // to the end from each later "<sample" was the quadratic case).
    if (end < 0) break;
    const body = line.charCodeAt(end - 1) === 47 && end - 1 >= from ? line.slice(from, end - 1) : line.slice(from, end);
    out.push({ tag: m[1]!, attrs: xmlAttributes(body) });
    XML_SAMPLE_START.lastIndex = end + 1;
  }
  return out;
}

function unescapeXml(s: string): string {
  if (s.indexOf("&") < 0) return s;
  return s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    if (e === "amp") return "&";
    if (e === "lt") return "<";
    if (e === "gt") return ">";
    if (e === "quot") return '"';
    if (e === "apos") return "'";
    const code = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
  });
}

class JmeterParser extends CollectingParser {
  private mode: "csv" | "xml" | null = null;
  private records: CsvRecords | null = null;
  private cols: Columns | null = null;

  constructor(file: string, options: SampleOptions) {
    super("jmeter", { file, unit: "ms", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
  }

  protected readLine(text: string, lineNo: number): void {
    if (this.mode === null) {
      const t = text.trim();
      if (t === "") return;
      if (t.startsWith("<")) {
        this.mode = "xml";
      } else {
        this.mode = "csv";
        const delimiter = guessDelimiter(t) ?? ",";
        this.records = new CsvRecords(delimiter, this.problems);
        const names = this.records.push(text, lineNo);
        if (names && !/^"?\d/.test(t)) {
          // A header (data lines start with the timeStamp's digits).
          this.cols = columnsOf(names.fields);
          if (!this.cols) this.problems.once("cols", lineNo, `the header has no elapsed column: ${JSON.stringify(clip(t, 120))}`);
          return;
        }
        // No header: JMeter's default column order.
        this.cols = columnsOf(DEFAULT_COLUMNS)!;
        this.problems.once("noheader", null, `no header line: columns read in JMeter's default order (${DEFAULT_COLUMNS.join(",")})`);
        if (names) this.csvRow(names.fields, names.lineNo);
        return;
      }
    }
    if (this.mode === "xml") this.xmlLine(text, lineNo);
    else {
      const rec = this.records!.pushRow(text, lineNo);
      if (rec) this.csvRow(rec.fields, rec.lineNo);
    }
  }

  private time(text: string, lineNo: number): Instant | null | false {
    const t = text.trim();
    if (t === "") return null;
    let r: TimeResult;
    if (/^\d+$/.test(t)) r = parseNumericTime(t, "ms");
    else {
      r = parseDateTime(t);
      if (r.ok && !/(Z|[+-]\d\d:?\d\d)$/.test(t)) this.problems.once("tz", null, "timeStamp is a date-time without a time zone: read as UTC");
    }
    if (!r.ok) {
      this.problems.line(lineNo, r.reason);
      return false;
    }
    return r.at;
  }

  private sample(label: string, elapsed: string, ts: string | undefined, success: string | undefined, lineNo: number): void {
    const at = ts === undefined ? null : this.time(ts, lineNo);
    if (at === false) return;
    const ok = success === undefined ? true : success.trim().toLowerCase();
    if (ok !== true && ok !== "true" && ok !== "false") {
      this.problems.line(lineNo, `success is ${JSON.stringify(clip(success!))}, not true or false`);
      return;
    }
    this.latencySample(label, ok === "false", elapsed, at, lineNo, { scaleDigits: 0, unit: "ms", what: "elapsed" });
  }

  private csvRow(fields: string[], lineNo: number): void {
    const c = this.cols;
    if (!c) {
      this.problems.skipped++;
      return;
    }
    if (fields.length < c.min) {
      this.problems.line(lineNo, `expected at least ${c.min} columns, found ${fields.length}`);
      return;
    }
    this.sample(
      c.label >= 0 ? fields[c.label]! : "",
      fields[c.elapsed]!,
      c.timeStamp >= 0 ? fields[c.timeStamp] : undefined,
      c.success >= 0 ? fields[c.success] : undefined,
      lineNo,
    );
  }

  private xmlLine(text: string, lineNo: number): void {
    if (text.indexOf("ample") < 0) return;
    for (const { tag, attrs } of xmlSampleTags(text)) {
      const t = attrs.get("t");
      if (t === undefined) {
        this.problems.line(lineNo, `<${tag}> without a t (elapsed) attribute`);
        continue;
      }
      this.sample(attrs.get("lb") ?? "", t, attrs.get("ts"), attrs.get("s"), lineNo);
    }
  }

  protected finishRecords(): void {
    this.records?.finish();
  }

  protected emptyReason(): string | null {
    return "no samples found";
  }
}

export function jmeterNameMatch(name: string): boolean {
  return /\.jtl$/i.test(name);
}

/** A CSV header with timeStamp and elapsed (or other JMeter columns), an XML testResults document, or default-order rows. */
export function jmeterContentMatch(head: string): boolean {
  const text = head.replace(/^\uFEFF/, "");
  const first = text.split(/\r\n|\r|\n/, 1)[0] ?? "";
  // JMeter's header names (case as JMeter writes them); without elapsed too, to refuse it clearly
  if (/\btimeStamp\b/.test(first) && /\b(elapsed|responseCode|threadName)\b/.test(first)) return true;
  if (/<testResults[\s>]/.test(text.slice(0, 1000))) return true;
  return /^\d{13}([,;\t])\d+\1[^\r\n]*?\1(true|false)\1/.test(first);
}

export const jmeterReader: FormatReader = readerOf("jmeter", JmeterParser, jmeterContentMatch, jmeterNameMatch);
