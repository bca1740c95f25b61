import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { LoadProblem } from "../../core/types";
import { LoadErrors } from "../panels/LoadErrors";
import { isNote, splitProblems } from "./load-problems";

/** A folder of 69 files as a new user dropped it: most load, 3 have bad lines (one 20), 2 have no header. */
function folder(): LoadProblem[] {
  const out: LoadProblem[] = [];
  for (let k = 0; k < 20; k++) out.push({ file: "run-07/results.jtl", line: 12 + k, reason: `elapsed "x${k}" is not a number` });
  out.push({ file: "run-07/results.jtl", line: null, reason: "40 lines skipped (the first 20 are listed)" });
  out.push({ file: "broken.hlog", line: 6, reason: "histogram payload: payload is not valid base64" });
  out.push({ file: "notes.txt", line: null, reason: "not a recognised format" });
  out.push({ file: "a.jtl", line: null, reason: "no header line: columns read in JMeter's default order (timeStamp,elapsed,label)" });
  out.push({ file: "vegeta.csv", line: 1, reason: 'first line "ts,code" is not a result: read as a header and skipped' });
  out.push({ file: "k6.csv", line: 40, reason: "timestamp far from the others: read all the same", note: true });
  return out;
}

describe("load problems at scale", () => {
  it("notes (what a reader assumed) are told from errors", () => {
    const ps = folder();
    expect(ps.filter(isNote).map((p) => p.file)).toEqual(["a.jtl", "vegeta.csv", "k6.csv"]);
    const { errors, notes } = splitProblems(ps);
    expect(errors.map((f) => [f.file, f.problems.length])).toEqual([
      ["run-07/results.jtl", 21],
      ["broken.hlog", 1],
      ["notes.txt", 1],
    ]);
    expect(notes).toHaveLength(3);
  });

  it("one entry per file with its count and first line, every problem still a load-error hook with file and line", () => {
    const html = renderToStaticMarkup(createElement(LoadErrors, { problems: folder(), onDismiss: () => undefined }));
    const errorBox = html.slice(html.indexOf('data-testid="load-errors"'), html.indexOf('data-testid="load-notes"'));
    const noteBox = html.slice(html.indexOf('data-testid="load-notes"'));
    // The error box: three entries, one of them a collapsed list of 21.
    expect(errorBox).toContain("23 problems in 3 files");
    expect(errorBox.match(/data-testid="load-problem-file"/g)).toHaveLength(1);
    expect(errorBox).toMatch(/<details><summary><strong>run-07\/results.jtl<\/strong>: 21 problems, first line 12: elapsed &quot;x0&quot; is not a number<\/summary>/);
    expect(errorBox.match(/data-testid="load-error"/g)).toHaveLength(23);
    expect(errorBox).toContain('data-testid="load-error" data-file="run-07/results.jtl" data-line="31"');
    expect(html).toMatch(/role="alert"[^>]*data-testid="load-errors"/);
    // Notes in their own, neutral box.
    expect(html).toMatch(/role="status"[^>]*data-testid="load-notes"/);
    expect(noteBox.match(/data-testid="load-error"/g)).toHaveLength(3);
    expect(noteBox).not.toContain("is not a number");
  });
});
