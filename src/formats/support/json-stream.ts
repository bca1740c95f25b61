// One JSON document read a line at a time, never held whole: the values at chosen paths are
// handed over as their own text with the line they start on, everything else is only scanned.
// For reports that are one JSON object (ghz's, Fortio's), pretty-printed over many lines or
// compact on one: a ghz report keeps up to a million calls in its "details" array.
//
// Paths are key names from the top, "*" standing for any array element: ["details", "*"] is
// each element of the top-level "details" array. The scanner follows strings (with escapes),
// objects and arrays; it does not validate: each captured value is parsed by the reader, and a
// document that does not end is reported by `unfinished`.
import type { ParsedSeries, ParsedSource } from "../source";
import type { Problems } from "./problems";

/** A captured value: its path (keys and "*"), its text, the line it starts on. */
export type JsonValueSink = (path: string, text: string, lineNo: number) => void;

/** Longest value captured (a detail object is ~100 characters); longer ones are reported, not kept. */
export const MAX_VALUE_CHARS = 1024 * 1024;

/** A value longer than the reader's limit: where it starts (line, character on it), its path, the limit. */
export interface TooLongValue {
  path: string;
  line: number;
  column: number;
  limit: number;
}

interface Frame {
  array: boolean;
  /** The path of the value this frame is (its parent's path and key): the same while it is open. */
  base: string;
  /** The key of the value being read (objects), "*" (arrays). */
  key: string;
  /** Objects: the next string is a key. */
  expectKey: boolean;
}

export class JsonStream {
  private readonly stack: Frame[] = [];
  private readonly wanted: Set<string>;
  private inString = false;
  private escape = false;
  /** The string being read when it is a key (its characters), else null. */
  private keyText: string | null = null;
  /** The value being captured: its path, its pieces, where it started, the depth it closes at. */
  private capture: { path: string; pieces: string[]; chars: number; line: number; column: number; depth: number; scalar: boolean; over: boolean } | null = null;
  /** Characters of the current line scanned in its earlier pieces (a line too long to hold whole). */
  private lineOffset = 0;
  private started = false;
  private ended = false;
  /** Text after the document's end (or before its start) that is not white space, first line. */
  trailing = 0;
  tooLong = 0;
  /** Brackets opened inside the captured value and not closed yet (captureInside). */
  private deep = 0;
  /**
   * Told when an object or array that is not captured closes with `closeDepth` or fewer
   * brackets still open (`depth`; its path is then `pathAt()`): a reader that captures the parts
   * of each element of a list learns where one element ends.
   */
  onClose: ((array: boolean, depth: number) => void) | null = null;
  closeDepth = -1;

  constructor(
    paths: readonly (readonly string[])[],
    private readonly sink: JsonValueSink,
    /** Longest value captured (a reader whose values may be long says so). */
    private readonly maxValueChars = MAX_VALUE_CHARS,
    /** Told of each value longer than that, once, where it starts: the reader says so. */
    private readonly onTooLong?: (value: TooLongValue) => void,
  ) {
    this.wanted = new Set(paths.map((p) => p.join("/")));
  }

  /** Whether the document opened and has not closed yet. */
  get unfinished(): boolean {
    return this.started && !this.ended;
  }

  get opened(): boolean {
    return this.started;
  }

  /** The path of the value being read (keys and "*"). */
  pathAt(): string {
    return this.path();
  }

  private path(): string {
    const top = this.stack[this.stack.length - 1];
    return top === undefined ? "" : top.base === "" && this.stack.length === 1 ? top.key : `${top.base}/${top.key}`;
  }

  /** One line of the document (without its line end). */
  line(text: string, lineNo: number): void {
    this.scan(text, lineNo, true);
  }

  /** A piece of a line too long to hold whole; the line's last piece comes through `line`. */
  piece(text: string, lineNo: number): void {
    this.scan(text, lineNo, false);
  }

  private scan(raw: string, lineNo: number, lineEnds: boolean): void {
    // A byte-order mark before the document is not part of it (whether the first line came
    // whole or in pieces).
    const text = !this.started && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    const n = text.length;
    let from = 0; // start of the current capture piece on this line
    let i = 0;
    while (i < n) {
      if (!this.inString && this.capture !== null && !this.capture.scalar && this.stack.length === this.capture.depth + 1) {
        i = this.captureInside(text, i);
        if (i >= n) break;
      }
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escape) {
          this.escape = false;
          i++;
          continue;
        }
        // skip to the next quote or backslash
        let j = i;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === 34 || d === 92) break;
          j++;
        }
        if (this.keyText !== null) this.keyText += text.slice(i, j);
        if (j >= n) break; // the string goes on past the line end (not JSON, but scanned on)
        if (text.charCodeAt(j) === 92) {
          if (this.keyText !== null) this.keyText += "\\";
          this.escape = true;
          i = j + 1;
          continue;
        }
        this.inString = false;
        i = j + 1;
        if (this.capture?.scalar && this.stack.length === this.capture.depth) {
          this.endCapture(text.slice(from, i));
          from = i;
        }
        continue;
      }
      if (c === 32 || c === 9 || c === 13) {
        if (this.capture?.scalar && this.stack.length === this.capture.depth) {
          this.endCapture(text.slice(from, i));
          from = i;
        }
        i++;
        continue;
      }
      if (this.ended || (!this.started && c !== 123 && c !== 91)) {
        if (this.trailing === 0) this.trailing = lineNo;
        return;
      }
      const top = this.stack[this.stack.length - 1];
      if (c === 34) {
        // a string: a key, or a value
        if (top && !top.array && top.expectKey) {
          this.keyText = "";
        } else {
          this.keyText = null;
          if (!this.capture) {
            from = this.maybeCapture(i, lineNo, true, from);
          }
        }
        this.inString = true;
        i++;
        continue;
      }
      if (c === 58) {
        // ':' after a key
        if (top && !top.array && this.keyText !== null) {
          top.key = this.keyText;
          top.expectKey = false;
          this.keyText = null;
        }
        i++;
        continue;
      }
      if (c === 44) {
        // ',' ends a value
        if (this.capture?.scalar && this.stack.length === this.capture.depth) {
          this.endCapture(text.slice(from, i));
          from = i;
        }
        if (top) {
          if (top.array) top.key = "*";
          else top.expectKey = true;
        }
        i++;
        continue;
      }
      if (c === 123 || c === 91) {
        // '{' or '['
        if (!this.started) this.started = true;
        else if (!this.capture) from = this.maybeCapture(i, lineNo, false, from);
        this.stack.push({ array: c === 91, base: this.path(), key: c === 91 ? "*" : "", expectKey: c === 123 });
        i++;
        continue;
      }
      if (c === 125 || c === 93) {
        // '}' or ']'
        if (this.capture?.scalar && this.stack.length === this.capture.depth) {
          this.endCapture(text.slice(from, i));
          from = i;
        }
        this.stack.pop();
        i++;
        if (this.capture && !this.capture.scalar && this.stack.length === this.capture.depth) {
          this.endCapture(text.slice(from, i));
          from = i;
        } else if (this.stack.length <= this.closeDepth && this.onClose !== null && this.capture === null) this.onClose(c === 93, this.stack.length);
        if (this.stack.length === 0) this.ended = true;
        continue;
      }
      // a number or a literal
      if (!this.capture) from = this.maybeCapture(i, lineNo, true, from);
      i++;
    }
    this.lineOffset = lineEnds ? 0 : this.lineOffset + raw.length;
    if (this.capture) {
      if (!lineEnds) this.addPiece(text.slice(from));
      else if (this.capture.scalar && !this.inString && this.stack.length === this.capture.depth) this.endCapture(text.slice(from));
      else this.addPiece(text.slice(from) + "\n");
    }
  }

  /**
   * Inside a captured object or array, only where it closes matters: brackets are counted and
   * strings skipped, no frame made, up to its closing bracket (returned, for scan to close it)
   * or the text's end (n; a string still open there is left to scan).
   */
  private captureInside(text: string, i: number): number {
    const n = text.length;
    let deep = this.deep;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d === 34) {
        let k = i + 1;
        let esc = false;
        for (; k < n; k++) {
          const e = text.charCodeAt(k);
          if (esc) esc = false;
          else if (e === 92) esc = true;
          else if (e === 34) break;
        }
        if (k >= n) {
          this.inString = true;
          this.escape = esc;
          this.keyText = null;
          i = n;
          break;
        }
        i = k + 1;
        continue;
      }
      if (d === 123 || d === 91) deep++;
      else if (d === 125 || d === 93) {
        if (deep === 0) break;
        deep--;
      }
      i++;
    }
    this.deep = deep;
    return i;
  }

  /** Starts capturing the value that starts at `i` when its path is wanted; returns where the capture's piece starts. */
  private maybeCapture(i: number, lineNo: number, scalar: boolean, from: number): number {
    const path = this.path();
    if (!this.wanted.has(path)) return from;
    this.capture = { path, pieces: [], chars: 0, line: lineNo, column: this.lineOffset + i + 1, depth: this.stack.length, scalar, over: false };
    this.deep = 0;
    return i;
  }

  private addPiece(piece: string): void {
    const c = this.capture!;
    if (c.over) return;
    c.chars += piece.length;
    if (c.chars > this.maxValueChars) {
      // Counted once, whether it grew past the limit piece by piece or came in one piece.
      c.over = true;
      c.pieces = [];
      this.tooLong++;
      this.onTooLong?.({ path: c.path, line: c.line, column: c.column, limit: this.maxValueChars });
      return;
    }
    c.pieces.push(piece);
  }

  private endCapture(piece: string): void {
    const c = this.capture!;
    this.addPiece(piece);
    this.capture = null;
    if (!c.over) this.sink(c.path, c.pieces.join(""), c.line);
  }
}

/** A size in characters as MiB, e.g. "1 MiB", "256 MiB". */
function mib(chars: number): string {
  return `${Number((chars / (1024 * 1024)).toPrecision(3))} MiB`;
}

/**
 * The problem of a value longer than a reader holds, for its line: where on the line it starts,
 * what it is and the limit, e.g. "a call starting at character 1,234 is longer than 1 MiB (the
 * most ghz writes for one is far less): not read".
 */
export function tooLongReason(what: string, v: TooLongValue, why: string): string {
  const at = v.column > 1 ? ` starting at character ${v.column.toLocaleString("en-US")}` : "";
  return `${what}${at} is longer than ${mib(v.limit)} (${why}): not read, so the results lack it`;
}

/**
 * A reader's stream of the elements of one array (`path` ends in "*"), each handed to `element`;
 * one longer than `maxChars` is a problem on its line, naming `what` it is and `why` none should be that long.
 */
export function elementStream(
  problems: Problems,
  path: readonly string[],
  element: (text: string, lineNo: number) => void,
  maxChars: number,
  what: string,
  why: string,
): JsonStream {
  return new JsonStream(
    [path],
    (_path, text, lineNo) => element(text, lineNo),
    maxChars,
    (v) => problems.line(v.line, tooLongReason(what, v, why)),
  );
}

/**
 * A reader's end of one JSON document: `build` fills the series and the notes; a document cut
 * short (`cutShort` says before what) is said first, and an error in `build` is an internal one.
 */
export function finishDocument(
  format: string,
  file: string,
  stream: JsonStream,
  problems: Problems,
  cutShort: string,
  build: (series: ParsedSeries[], notes: string[]) => void,
): ParsedSource {
  const series: ParsedSeries[] = [];
  const notes: string[] = [];
  try {
    if (stream.unfinished) problems.once("unfinished", null, `${cutShort}: the file may be truncated`);
    build(series, notes);
  } catch (e) {
    problems.once("internal", null, `internal error: ${String(e)}`);
  }
  return { format, series, problems: [...problems.list(), ...notes.map((reason) => ({ file, line: null, reason, note: true as const }))] };
}

/**
 * One line of a document read a line at a time, for a reader: text outside the document and an
 * internal error become that line's problems (`outside` words the former), the rest is kept.
 */
export function feedLine(stream: JsonStream, problems: Problems, text: string, lineNo: number, outside: (opened: boolean) => string): void {
  try {
    stream.line(text, lineNo);
    if (stream.trailing === lineNo) problems.line(lineNo, outside(stream.opened));
  } catch (e) {
    problems.line(lineNo, `internal error: ${String(e)}`);
  }
}

/** Part of a line longer than a line the app holds (its end comes through `feedLine`). */
export function feedPiece(stream: JsonStream, problems: Problems, text: string, lineNo: number): void {
  try {
    stream.piece(text, lineNo);
  } catch (e) {
    problems.line(lineNo, `internal error: ${String(e)}`);
  }
}

/**
 * `text` parsed as JSON; undefined, with the line's problem reported, when it does not parse
 * (JSON.parse never gives undefined). `reason` may be a function, so that quoting the line
 * costs nothing on the lines that parse.
 */
export function parseJsonLine(problems: Problems, lineNo: number, text: string, reason: string | (() => string)): unknown {
  try {
    return JSON.parse(text);
  } catch {
    problems.line(lineNo, typeof reason === "string" ? reason : reason());
    return undefined;
  }
}
