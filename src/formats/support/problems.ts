// Problems of one file: bad lines listed (the first MAX_LINE_PROBLEMS) and counted, and
// problems about the whole file reported once each.
import type { LoadProblem } from "../../core/types";

/** Bad lines listed one by one; past this, one summary problem with their number. */
export const MAX_LINE_PROBLEMS = 20;

export class Problems {
  private readonly listed: LoadProblem[] = [];
  private readonly fileLevel: LoadProblem[] = [];
  private readonly notes: LoadProblem[] = [];
  /** Lines read whole but worth saying something about (noteLine). */
  noted = 0;
  private readonly onceKeys = new Set<string>();
  /** Lines that were skipped (or partly skipped) because of a problem. */
  skipped = 0;

  constructor(readonly file: string) {}

  /** A bad line: listed while fewer than MAX_LINE_PROBLEMS were, counted always. */
  line(lineNo: number, reason: string): void {
    this.skipped++;
    if (this.listed.length < MAX_LINE_PROBLEMS) this.listed.push({ file: this.file, line: lineNo, reason });
  }

  /**
   * A line that was read, nothing of it lost, but is odd (a timestamp far from the others):
   * listed while fewer than MAX_LINE_PROBLEMS were, marked as a note (the command line judges
   * the file all the same).
   */
  noteLine(lineNo: number, reason: string): void {
    this.noted++;
    if (this.notes.length < MAX_LINE_PROBLEMS) this.notes.push({ file: this.file, line: lineNo, reason, note: true });
  }

  /** A problem about the whole file (or a line, but not a skipped one), reported once per key. */
  once(key: string, line: number | null, reason: string): void {
    if (this.onceKeys.has(key)) return;
    this.onceKeys.add(key);
    this.fileLevel.push({ file: this.file, line, reason });
  }

  list(): LoadProblem[] {
    const out = [...this.fileLevel, ...this.listed, ...this.notes];
    if (this.skipped > MAX_LINE_PROBLEMS) {
      out.push({ file: this.file, line: null, reason: `${this.skipped} lines skipped (the first ${MAX_LINE_PROBLEMS} are listed)` });
    }
    if (this.noted > MAX_LINE_PROBLEMS) {
      out.push({ file: this.file, line: null, reason: `${this.noted} lines noted (the first ${MAX_LINE_PROBLEMS} are listed)`, note: true });
    }
    return out;
  }
}
