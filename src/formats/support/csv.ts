// CSV as the load generators write it: RFC 4180 fields, records whose quoted fields span lines
// (bounded, so a stray quote cannot swallow the file), and the delimiter guessed from a line.
import type { Problems } from "./problems";

/**
 * Splits one CSV record (RFC 4180 quoting: "a ""b""" is `a "b"`). Returns null when a quoted
 * field is still open at the end of the text: the record continues on the next line.
 */
export function splitCsv(text: string, delimiter: string): string[] | null {
  if (text.indexOf('"') < 0) return text.split(delimiter);
  const out: string[] = [];
  const n = text.length;
  const d = delimiter.charCodeAt(0);
  let i = 0;
  for (;;) {
    if (i < n && text.charCodeAt(i) === 34) {
      // quoted field: find its closing quote, then undouble its quotes in one pass (adding a
      // piece per doubled quote made a line of a million quotes a rope of a million strings)
      const from = i + 1;
      let doubled = false;
      i = from;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) return null;
        if (q + 1 < n && text.charCodeAt(q + 1) === 34) {
          doubled = true;
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      const field = doubled ? text.slice(from, i - 1).replaceAll('""', '"') : text.slice(from, i - 1);
      // tolerate junk between the closing quote and the delimiter
      const next = text.indexOf(delimiter, i);
      if (next < 0) {
        out.push(field + text.slice(i));
        return out;
      }
      out.push(field + text.slice(i, next));
      i = next + 1;
    } else {
      let j = i;
      while (j < n && text.charCodeAt(j) !== d) j++;
      out.push(text.slice(i, j));
      if (j >= n) return out;
      i = j + 1;
    }
  }
}

/**
 * Whether a quoted field is still open at the end of `text`, read as splitCsv reads it, starting
 * inside a quoted field (`quoted`) or at the start of a field. One pass: the continuation lines of
 * an open record are each scanned once, never the record from its start again.
 */
export function quoteOpenAtEnd(text: string, delimiter: string, quoted: boolean): boolean {
  const n = text.length;
  let i = 0;
  // Each turn consumes text up to a quote or a delimiter found with indexOf: bounded by n.
  for (;;) {
    if (quoted) {
      const q = text.indexOf('"', i);
      if (q < 0) return true;
      if (q + 1 < n && text.charCodeAt(q + 1) === 34) {
        i = q + 2; // "" inside a quoted field
        continue;
      }
      // closed; as in splitCsv, anything up to the next delimiter belongs to this field
      const next = text.indexOf(delimiter, q + 1);
      if (next < 0) return false;
      i = next + 1;
      quoted = false;
    }
    if (i < n && text.charCodeAt(i) === 34) {
      quoted = true;
      i++;
      continue;
    }
    const next = text.indexOf(delimiter, i);
    if (next < 0) return false;
    i = next + 1;
  }
}

/** Longest CSV record we assemble across lines (a quoted field with line breaks). */
export const MAX_RECORD_CHARS = 1024 * 1024;
/** Most lines one record may span: a stray quote must not swallow the rest of a file. */
export const MAX_RECORD_LINES = 10_000;

/**
 * Assembles CSV records from lines: a quoted field may hold line breaks, so a record can span
 * lines. Returns the fields and the record's first line number, or null while a record is open.
 * The quote state is kept across lines (each line is scanned once) and an open record is bounded
 * (MAX_RECORD_CHARS, MAX_RECORD_LINES): past either it is dropped with a problem on the line
 * where its quote opened, and reading goes on with the next line as a new record.
 */
export class CsvRecords {
  private pending: string[] = [];
  private pendingChars = 0;
  private pendingLine = 0;

  constructor(
    private readonly delimiter: string,
    private readonly problems: Problems,
  ) {}

  /** A quoted field is open: the next line continues the record. */
  get open(): boolean {
    return this.pendingLine > 0;
  }

  /** Like push, but a blank line between records is skipped, not read as an empty record. */
  pushRow(text: string, lineNo: number): { fields: string[]; lineNo: number } | null {
    return !this.open && text.trim() === "" ? null : this.push(text, lineNo);
  }

  push(text: string, lineNo: number): { fields: string[]; lineNo: number } | null {
    if (this.pendingLine === 0) {
      const fields = splitCsv(text, this.delimiter);
      if (fields) return { fields, lineNo };
      this.pending = [text];
      this.pendingChars = text.length;
      this.pendingLine = lineNo;
      return this.checkBounds(lineNo);
    }
    // The record so far ends inside a quoted field, and so does the line break after it: only the
    // new line needs scanning to know whether the record ends here.
    this.pending.push(text);
    this.pendingChars += text.length + 1;
    if (quoteOpenAtEnd(text, this.delimiter, true)) return this.checkBounds(lineNo);
    const first = this.pendingLine;
    const record = this.pending.join("\n");
    this.reset();
    // Closed, so splitCsv gives fields (one pass over the record, once).
    const fields = splitCsv(record, this.delimiter);
    return fields ? { fields, lineNo: first } : null;
  }

  private checkBounds(lineNo: number): null {
    const lines = this.pending.length;
    if (this.pendingChars > MAX_RECORD_CHARS || lines >= MAX_RECORD_LINES) {
      const first = this.pendingLine;
      const limit = this.pendingChars > MAX_RECORD_CHARS ? `${MAX_RECORD_CHARS} characters` : `${MAX_RECORD_LINES} lines`;
      this.problems.line(first, `a quoted field opened on this line is not closed within ${limit}: lines ${first}–${lineNo} skipped, reading goes on at line ${lineNo + 1}`);
      this.reset();
    }
    return null;
  }

  private reset(): void {
    this.pending = [];
    this.pendingChars = 0;
    this.pendingLine = 0;
  }

  /** A record still open at the end of the input. */
  finish(): void {
    if (this.pendingLine > 0) this.problems.line(this.pendingLine, "the file ends inside a quoted field (opened on this line): last record skipped");
    this.reset();
  }
}

/** Guesses the delimiter of a header or data line: tab, comma or semicolon (most fields wins). */
export function guessDelimiter(line: string): "\t" | "," | ";" | null {
  let best: "\t" | "," | ";" | null = null;
  let bestCount = 0;
  for (const d of ["\t", ",", ";"] as const) {
    const f = splitCsv(line, d);
    const count = f ? f.length - 1 : 0;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}
