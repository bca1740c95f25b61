// `--allow-partial`: a log still being written ends in a line cut mid-write. That line, and
// only that line, becomes a note (the rest of the file is judged); any other problem still
// stops the judgment.
import { closeSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
import type { LoadProblem } from "../core/types";

/** The number of the file's last line when it does not end with a line break (a line cut mid-write), else null. */
export function cutLastLine(path: string): number | null {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let lines = 1;
    let last = -1;
    let pos = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n <= 0) break;
      for (let i = buf.indexOf(10, 0); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) lines++;
      last = buf[n - 1]!;
      pos += n;
    }
    return pos === 0 || last === 10 ? null : lines;
  } finally {
    closeSync(fd);
  }
}

const SKIPPED = /^(\d+) lines? skipped;/;

/**
 * The problems with each file's cut last line turned into notes, with the reader's count of
 * skipped lines too when that line was the only one skipped. Files are matched by name among
 * `paths` (a name given twice is left as it is: which file the problem is in is unknown).
 */
export function allowPartial(problems: readonly LoadProblem[], paths: readonly string[]): LoadProblem[] {
  const byName = new Map<string, string | null>();
  for (const p of paths) byName.set(basename(p), byName.has(basename(p)) ? null : p);
  const cut = new Map<string, number | null>();
  const cutOf = (file: string) => {
    if (!cut.has(file)) {
      const path = byName.get(file);
      cut.set(file, path ? cutLastLine(path) : null);
    }
    return cut.get(file)!;
  };
  const out = problems.map((x): LoadProblem => {
    if (x.note || x.line === null || x.line !== cutOf(x.file)) return x;
    return { ...x, reason: `${x.reason} (the last line, cut mid-write: left out)`, note: true };
  });
  return out.map((x) => {
    const m = x.note || x.line !== null ? null : SKIPPED.exec(x.reason);
    if (!m) return x;
    const lineProblems = out.filter((y) => y.file === x.file && y.line !== null);
    const onlyCut = Number(m[1]) === 1 && lineProblems.length > 0 && lineProblems.every((y) => y.note);
    return onlyCut ? { ...x, note: true } : x;
  });
}
