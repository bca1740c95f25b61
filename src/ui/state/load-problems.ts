// Load problems as the page lists them: one entry per file (its count and first lines), and
// notes (what a reader assumed and went on with, such as JMeter's default column order for a
// file without a header) apart from errors (lines or files that could not be read). Pure.
import type { LoadProblem } from "../../core/types";

/**
 * Reasons that say what a reader assumed, not what failed: the file was read whole. Readers
 * mark such problems (`note`); older wordings are told by their text: "no header line: …
 * read …" or "… read as a header and skipped".
 */
const NOTE_PATTERNS = [/^no header line: .*\bread\b/, /: read as a header and skipped$/];

export function isNote(p: LoadProblem): boolean {
  return p.note === true || NOTE_PATTERNS.some((re) => re.test(p.reason));
}

export interface FileProblems {
  file: string;
  problems: LoadProblem[];
}

/** Problems grouped by file, files in the order their first problem came. */
export function byFile(problems: readonly LoadProblem[]): FileProblems[] {
  const out = new Map<string, LoadProblem[]>();
  for (const p of problems) {
    const list = out.get(p.file);
    if (list) list.push(p);
    else out.set(p.file, [p]);
  }
  return [...out].map(([file, ps]) => ({ file, problems: ps }));
}

/** Errors and notes, each grouped by file. */
export function splitProblems(problems: readonly LoadProblem[]): { errors: FileProblems[]; notes: FileProblems[] } {
  return { errors: byFile(problems.filter((p) => !isNote(p))), notes: byFile(problems.filter(isNote)) };
}
