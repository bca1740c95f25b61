// Raw latency samples: plain values one per line (an optional header line that is not a number),
// or CSV/TSV with a header (comma, semicolon, tab or white space; detected; "12,5" decimal commas
// in semicolon/tab files; quoted fields may span lines; # comment lines skipped). SampleOptions pick
// the columns; otherwise they are guessed: the value column by its name (latency, elapsed,
// duration, response time, value) or as the first numeric column that is not a timestamp, the
// timestamp and label columns by their names (what headers and cells say is in samples-columns.ts).
//
// Values are recorded as integers without losing what was written: the unit comes from the
// options, else from the value column's name ("latency_ms", "elapsed (us)"), else ms; when the
// first lines hold decimals, values are recorded in a finer unit (ms with up to 3 decimals → µs,
// up to 6 → ns). The decision is taken on the first lines (kept back until then, a bounded
// number) and the kept lines are then replayed, so nothing depends on reading the whole file;
// a later value with more decimals than those lines had is rounded (half up) to the chosen unit.
// Timestamps: epoch s/ms/µs/ns guessed from the first one's magnitude (or SampleOptions
// .timestampUnit), or date-times; a label column makes one series per label.
//
// A column is read as the latency only when its header names one (or the options do): a table
// with a header and no such name is refused (reading its first numeric column took JMeter's
// responseCode as 200 ms samples). Without a header, the first numeric column that is not a
// timestamp is taken, and a note says which when there was a choice. ApacheBench's `-g` output
// is recognised by its header (ttime in ms, seconds as epoch timestamps). Summaries (one row per
// endpoint with a request count and its median, average or percentiles: Locust's *_stats.csv,
// JMeter's aggregate and summary reports, Taurus' stats) and percentile tables (ab -e) are
// refused: their rows are not samples, and no spectrum can be rebuilt from them.
import type { Unit } from "../core/types";
import type { FormatReader, LineParser, ParsedSource, SampleOptions } from "./source";
import {
  abGnuplotColumns,
  bareName,
  DECIMAL_COMMA,
  isDateTime,
  isNumber,
  LABEL_NAMES,
  NUMBER,
  listNames,
  split,
  summaryRefusal,
  TIME_NAMES,
  unitFromHeader,
  VALUE_NAMES,
  words,
  type Delimiter,
} from "./samples-columns";
import { SeriesCollector } from "./support/collector";
import { CsvRecords, guessDelimiter, splitCsv } from "./support/csv";
import { decimalsOf, finerUnit, maxLatencyIn, parseLatency } from "./support/decimals";
import { Problems } from "./support/problems";
import { guessEpochUnit, parseDateTime, parseNumericTime, type Instant, type TimeResult, type TimeUnit } from "./support/time";

/** Data lines looked at before deciding columns, units and scale. */
const SNIFF_LINES = 200;
const SNIFF_CHARS = 256 * 1024;
/**
 * Columns whose content and header names are looked at when guessing the value, timestamp and
 * label columns. Guessing costs per column and row: without a cap one 1 M-field row among the
 * sniffed lines cost seconds (found by fuzzing). Options may still name any column.
 */
export const MAX_SNIFF_COLUMNS = 256;
interface Layout {
  /** How problems name the value and timestamp columns: `column "ttime"`, or `column 3` without a header. */
  valueName: string;
  timeName: string;
  delimiter: Delimiter;
  decimalComma: boolean;
  headerLine: number; // 0: none
  valueCol: number;
  timeCol: number; // -1: none
  labelCol: number; // -1: none
  minFields: number;
  timeKind: "date" | TimeUnit | null;
  unit: Unit;
  scaleDigits: number;
}

interface Pending {
  text: string;
  lineNo: number;
}

class SamplesParser implements LineParser {
  private readonly problems: Problems;
  private collector: SeriesCollector | null = null;
  private layout: Layout | null = null;
  private failedLayout = false;
  private pending: Pending[] = [];
  private pendingChars = 0;
  private dataLines = 0;
  private records: CsvRecords | null = null;
  private values = 0;

  constructor(
    private readonly file: string,
    private readonly options: SampleOptions,
  ) {
    this.problems = new Problems(file);
  }

  line(raw: string, lineNo: number): void {
    try {
      const text = lineNo === 1 ? raw.replace(/^\uFEFF/, "") : raw;
      if (this.layout) {
        this.process(text, lineNo);
        return;
      }
      if (this.failedLayout) return;
      const t = text.trim();
      if (t === "" || t.startsWith("#") || t.startsWith("//")) return;
      this.pending.push({ text, lineNo });
      this.pendingChars += text.length;
      this.dataLines++;
      if (this.dataLines > SNIFF_LINES || this.pendingChars > SNIFF_CHARS) this.decide();
    } catch (e) {
      this.problems.line(lineNo, `internal error: ${String(e)}`);
    }
  }

  /** Chooses delimiter, header, columns and units from the kept lines, then replays them. */
  private decide(): void {
    const lines = this.pending;
    this.pending = [];
    this.pendingChars = 0;
    const layout = lines.length > 0 ? this.chooseLayout(lines) : null;
    if (!layout) {
      this.failedLayout = true;
      return;
    }
    this.layout = layout;
    this.collector = new SeriesCollector(
      {
        file: this.file,
        unit: layout.unit,
        intervalSec: this.options.intervalSec,
        expectedInterval: this.options.expectedInterval ? this.options.expectedInterval * 10 ** layout.scaleDigits : undefined,
      },
      this.problems,
    );
    if (layout.delimiter !== null && layout.delimiter !== "ws") this.records = new CsvRecords(layout.delimiter, this.problems);
    for (const p of lines) this.process(p.text, p.lineNo);
  }

  private chooseLayout(lines: Pending[]): Layout | null {
    const o = this.options;
    const first = lines[0]!.text;
    // Delimiter: what splits the first line (a header or a data line) into most fields, when
    // the following lines split the same way.
    let delimiter: Delimiter = guessDelimiter(first);
    if (delimiter === null && /\S\s+\S/.test(first.trim())) {
      const n = first.trim().split(/\s+/).length;
      const same = lines.slice(1, 20).every((l) => l.text.trim().split(/\s+/).length === n);
      if (same) delimiter = "ws";
    }
    const rows = lines.map((l) => split(l.text, delimiter) ?? [l.text]);
    const firstRow = rows[0]!;
    // Decimal comma: a semicolon/tab/space file whose numbers are written "12,5".
    const decimalComma = delimiter !== "," && rows.slice(1).some((r) => r.some((f) => DECIMAL_COMMA.test(f.trim())));

    let nCols = 0;
    for (let i = 0; i < rows.length && i < 50; i++) nCols = Math.max(nCols, rows[i]!.length);
    // Guessing looks at the first MAX_SNIFF_COLUMNS columns only, each cell once.
    const sniffCols = Math.min(nCols, MAX_SNIFF_COLUMNS);
    const dataRows = rows.length > 1 ? rows.slice(1) : rows;
    const filled = new Array<number>(sniffCols).fill(0);
    const numeric = new Array<number>(sniffCols).fill(0);
    for (const r of dataRows) {
      const n = Math.min(r.length, sniffCols);
      for (let c = 0; c < n; c++) {
        const f = r[c]!;
        if (f.trim() === "") continue;
        filled[c]!++;
        if (isNumber(f, decimalComma)) numeric[c]!++;
      }
    }
    const numericShare = filled.map((k, c) => (k > 0 ? numeric[c]! / k : 0));
    const numericCols = numericShare.map((x) => x >= 0.9);
    // A header: the first line has text where the data has numbers (or, alone, has no number).
    const firstHasText = firstRow.some((f) => f.trim() !== "" && !isNumber(f, decimalComma) && !isDateTime(f));
    const header =
      rows.length > 1
        ? firstRow.some((f, c) => numericCols[c] && f.trim() !== "" && !isNumber(f, decimalComma)) || (firstHasText && firstRow.every((f) => !isNumber(f, decimalComma)))
        : firstHasText;
    const names = header ? firstRow.map((f) => f.trim()) : [];
    // Names that guessing looks at (options are resolved against all of them).
    const guessNames = names.slice(0, MAX_SNIFF_COLUMNS);
    const bodyRows = header ? rows.slice(1) : rows;

    const problem = (reason: string, line: number | null = null): null => {
      this.problems.once("layout", line, reason);
      return null;
    };
    const resolve = (spec: string | number, what: string): number | null => {
      if (typeof spec === "number") {
        if (!Number.isInteger(spec) || spec < 0) return problem(`${what} column ${spec} is not a column index (0-based)`);
        if (spec >= nCols) return problem(`${what} column ${spec} does not exist: the lines have ${nCols} column${nCols === 1 ? "" : "s"}`);
        return spec;
      }
      const key = spec.trim().toLowerCase();
      const i = names.findIndex((n) => n.toLowerCase() === key);
      if (i >= 0) return i;
      if (/^\d+$/.test(key) && Number(key) < nCols) return Number(key);
      return problem(
        header
          ? `no ${what} column named ${JSON.stringify(spec)}; the header has ${listNames(names)}`
          : `no ${what} column named ${JSON.stringify(spec)}: the file has no header line`,
      );
    };

    // What the header says the file is: ApacheBench -g output, or a summary that is not samples.
    // (among the names guessing looks at: a 200 000-column header costs no more than 256)
    const ab = header ? abGnuplotColumns(guessNames) : null;
    if (header && o.valueColumn === undefined && !ab) {
      const refusal = summaryRefusal(guessNames, bodyRows, header ? lines.slice(1) : lines);
      if (refusal) return problem(refusal.reason, refusal.line);
    }

    // A column the options name (null: none, -1), else -1 until guessed (undefined).
    const asked = (spec: string | number | null | undefined, what: string): number | null => (spec === undefined || spec === null ? -1 : resolve(spec, what));
    // Timestamp column.
    let timeCol = asked(o.timestampColumn, "timestamp");
    if (timeCol === null) return null;
    if (o.timestampColumn === undefined && ab) {
      timeCol = ab.seconds;
    } else if (o.timestampColumn === undefined && nCols > 1) {
      if (header) timeCol = guessNames.findIndex((n) => TIME_NAMES.test(words(n).replace(/ /g, "_")) || TIME_NAMES.test(bareName(n)));
      else timeCol = this.guessTimeColumn(bodyRows, sniffCols, decimalComma);
    }
    // Label column.
    let labelCol = asked(o.labelColumn, "label");
    if (labelCol === null) return null;
    if (o.labelColumn === undefined && header) labelCol = guessNames.findIndex((n, c) => c !== timeCol && LABEL_NAMES.test(words(n)));
    // Value column.
    let valueCol = -1;
    /** Numeric columns the value column was picked from without a name (a note says which). */
    let guessedAmong = 0;
    if (o.valueColumn !== undefined) {
      const c = resolve(o.valueColumn, "value");
      if (c === null) return null;
      valueCol = c;
    } else if (ab) {
      valueCol = ab.ttime;
    } else {
      if (header) {
        for (const re of VALUE_NAMES) {
          valueCol = guessNames.findIndex((n, c) => c !== timeCol && c !== labelCol && re.test(bareName(n)));
          if (valueCol >= 0) break;
        }
      }
      if (valueCol < 0 && header && nCols > 1) {
        // Only a header that names a latency says which column holds one.
        return problem(`no latency column found among ${listNames(names)}: choose one`);
      }
      if (valueCol < 0) {
        const candidates = numericCols.filter((isNum, c) => isNum && c !== timeCol && c !== labelCol).length;
        valueCol = numericCols.findIndex((isNum, c) => isNum && c !== timeCol && c !== labelCol);
        if (candidates > 1) guessedAmong = candidates;
        if (valueCol < 0) {
          // no clean numeric column: the most numeric one (its bad lines are reported one by one)
          let best = 0;
          numericShare.forEach((x, c) => {
            if (x > best && c !== timeCol && c !== labelCol) {
              best = x;
              valueCol = c;
            }
          });
        }
        if (valueCol < 0) {
          return problem(header ? `no latency column found among ${listNames(names)}: choose one` : "no numeric column found");
        }
      }
    }
    if (valueCol === timeCol) timeCol = -1;
    if (valueCol === labelCol) labelCol = -1;

    // Units: the options, else the header, else ms; then finer for written decimals.
    const named = ab ? "ms" : header ? unitFromHeader(names[valueCol] ?? "") : null;
    const baseUnit: Unit = o.valueUnit ?? named ?? "ms";
    let decimals = 0;
    for (const r of bodyRows) {
      const f = r[valueCol];
      if (f !== undefined) decimals = Math.max(decimals, decimalsOf(decimalComma ? f.trim().replace(",", ".") : f.trim()));
    }
    const finer = finerUnit(baseUnit, Math.ceil(decimals / 3));

    // Timestamp kind: the option, else guessed from the first timestamp's form and magnitude.
    let timeKind: Layout["timeKind"] = null;
    if (timeCol >= 0) {
      const sample = bodyRows.map((r) => r[timeCol]?.trim() ?? "").find((f) => f !== "");
      if (o.timestampUnit) timeKind = o.timestampUnit;
      else if (ab && timeCol === ab.seconds) timeKind = "s";
      else if (sample !== undefined && isDateTime(sample)) timeKind = "date";
      else if (sample !== undefined && isNumber(sample, false)) timeKind = guessEpochUnit(sample);
      else timeKind = "s";
    }
    const minFields = Math.max(valueCol, timeCol, labelCol) + 1;
    const columnName = (c: number) => (header && names[c] ? `column ${JSON.stringify(names[c]!.length > 40 ? `${names[c]!.slice(0, 40)}…` : names[c])}` : `column ${c + 1}`);
    if (guessedAmong > 1) {
      this.problems.once(
        "guessed",
        null,
        `no header line: ${columnName(valueCol)} of ${nCols} read as the latency in ${finer.unit}` +
          (timeCol >= 0 ? `, ${columnName(timeCol)} as timestamps` : "") +
          `; ${guessedAmong - 1} other numeric column${guessedAmong === 2 ? "" : "s"} left out (choose another in Raw sample options)`,
      );
    }
    return {
      valueName: columnName(valueCol),
      timeName: timeCol >= 0 ? columnName(timeCol) : "",
      delimiter,
      decimalComma,
      headerLine: header ? lines[0]!.lineNo : 0,
      valueCol,
      timeCol,
      labelCol,
      minFields,
      timeKind,
      unit: finer.unit,
      scaleDigits: 3 * finer.steps,
    };
  }

  /** Without a header: a numeric column of epoch-like, non-decreasing values, or of date-times (among the first `nCols`). */
  private guessTimeColumn(rows: string[][], nCols: number, decimalComma: boolean): number {
    for (let c = 0; c < nCols; c++) {
      const cells = rows.map((r) => r[c]?.trim() ?? "").filter((f) => f !== "");
      if (cells.length === 0) continue;
      if (cells.every(isDateTime)) return c;
      if (!cells.every((f) => isNumber(f, decimalComma))) continue;
      const v = cells.map(Number);
      const epochLike = v.every((x) => x >= 9.4e8); // 2000-01-01 in s (and anything finer)
      const steady = v.every((x, i) => i === 0 || x >= v[i - 1]! * 0.999999);
      const narrow = Math.max(...v) <= Math.min(...v) * 1.01;
      if (epochLike && steady && narrow && v.length > 1) return c;
    }
    return -1;
  }

  private process(text: string, lineNo: number): void {
    const L = this.layout!;
    if (L.delimiter === null || L.delimiter === "ws") {
      const t = text.trim();
      if (t === "" || t.startsWith("#") || t.startsWith("//") || lineNo === L.headerLine) return;
      this.row(split(text, L.delimiter)!, lineNo);
      return;
    }
    const records = this.records!;
    if (!records.open) {
      const t = text.trimStart();
      if (t === "" || t.startsWith("#") || t.startsWith("//")) return;
    }
    const rec = records.push(text, lineNo);
    if (!rec || rec.lineNo === L.headerLine) return;
    this.row(rec.fields, rec.lineNo);
  }

  private row(fields: string[], lineNo: number): void {
    const L = this.layout!;
    const c = this.collector!;
    if (fields.length < L.minFields) {
      this.problems.line(lineNo, `expected at least ${L.minFields} column${L.minFields === 1 ? "" : "s"}, found ${fields.length}`);
      return;
    }
    let v = fields[L.valueCol]!.trim();
    if (L.decimalComma) v = v.replace(",", ".");
    const parsed = parseLatency(v, L.scaleDigits, maxLatencyIn(c.unit), "value");
    if (!parsed.ok) {
      this.problems.line(lineNo, `${L.valueName}: ${parsed.reason}`);
      return;
    }
    let at: Instant | null = null;
    if (L.timeCol >= 0) {
      const t = fields[L.timeCol]!.trim();
      if (t !== "") {
        const r: TimeResult = L.timeKind === "date" ? parseDateTime(t) : parseNumericTime(L.decimalComma ? t.replace(",", ".") : t, L.timeKind as TimeUnit);
        if (!r.ok) {
          this.problems.line(lineNo, `${L.timeName}: ${r.reason}`);
          return;
        }
        at = r.at;
      }
    }
    const label = L.labelCol >= 0 ? fields[L.labelCol]!.trim() : "";
    if (c.record(label, parsed.value, at, lineNo)) this.values++;
  }

  finish(): ParsedSource {
    try {
      if (!this.layout && !this.failedLayout) this.decide();
      this.records?.finish();
      if (this.layout && this.values === 0 && this.problems.skipped === 0) {
        this.problems.once("empty", null, "no values found");
      }
      const series = this.collector ? this.collector.finish() : [];
      return { format: "samples", series, problems: this.problems.list() };
    } catch (e) {
      this.problems.once("internal", null, `internal error: ${String(e)}`);
      return { format: "samples", series: [], problems: this.problems.list() };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Detection

/** The head's non-blank, non-comment lines; trimmed unless `trim` is false (delimited rows keep their fields). */
function headLines(head: string, trim = true): string[] {
  const lines = head.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  if (lines.length > 1) lines.pop(); // the last line of a head may be cut
  const out: string[] = [];
  for (const l of lines) {
    const t = l.trim();
    if (t !== "" && !t.startsWith("#") && !t.startsWith("//")) out.push(trim ? t : l);
  }
  return out;
}

/** One number per line (after an optional header line). */
export function looksLikePlainValues(head: string): boolean {
  const lines = headLines(head);
  const body = lines.length > 1 && !NUMBER.test(lines[0]!) ? lines.slice(1) : lines;
  if (body.length === 0) return false;
  return body.filter((l) => NUMBER.test(l)).length >= 0.9 * body.length;
}

/** Delimited rows that mostly hold a number, after an optional header line. */
export function looksLikeNumericTable(head: string): boolean {
  if (looksLikePlainValues(head)) return true;
  // Untrimmed: trimming dropped a trailing tab, so a TSV whose last column is empty had rows one
  // field short of its header (as the reader splits them: on the raw line).
  const lines = headLines(head, false);
  if (lines.length < 2) return false;
  const d = guessDelimiter(lines[0]!);
  const splitter = (l: string) => (d ? (splitCsv(l, d) ?? [l]) : l.trim().split(/\s+/));
  const n = splitter(lines[0]!).length;
  if (n < 2) return false;
  const body = lines.slice(1, 200);
  const good = body.filter((l) => {
    const f = splitter(l);
    return f.length === n && f.some((x) => NUMBER.test(x.trim()) || DECIMAL_COMMA.test(x.trim()));
  });
  return good.length >= 0.9 * body.length;
}

export function samplesNameMatch(name: string): boolean {
  return /\.(txt|csv|tsv|dat)$/i.test(name);
}

export const samplesReader: FormatReader = {
  id: "samples",
  detect(name: string, head: string): boolean {
    if (samplesNameMatch(name)) return looksLikeNumericTable(head);
    return looksLikePlainValues(head);
  },
  create(name: string, options?: SampleOptions): LineParser {
    return new SamplesParser(name, options ?? {});
  },
};
