import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvRecords, MAX_RECORD_CHARS, MAX_RECORD_LINES, quoteOpenAtEnd, splitCsv } from "./csv";
import { Problems } from "./problems";
import { budgetMs } from "../../../tests/support/budget";

describe("splitCsv", () => {
  const quote = (f: string) => (/[",\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f);
  it("reads back what an RFC 4180 writer wrote", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 8 }), (fields) => {
        fc.pre(!fields.some((f) => f.includes("\n") || f.includes("\r")));
        expect(splitCsv(fields.map(quote).join(","), ",")).toEqual(fields);
      }),
      { numRuns: 1000 },
    );
  });
  it("says when a quoted field continues on the next line", () => {
    expect(splitCsv('a,"b', ",")).toBeNull();
    expect(splitCsv('a,"b\nc",d', ",")).toEqual(["a", "b\nc", "d"]);
  });
});

/** The record assembly as it was (the whole pending record re-split on every line, unbounded): the reference for what records come out. */
function referenceRecords(lines: string[], delimiter: string): { fields: string[]; lineNo: number }[] {
  const out: { fields: string[]; lineNo: number }[] = [];
  let pending: string | null = null;
  let first = 0;
  lines.forEach((text, i) => {
    const record: string = pending === null ? text : `${pending}\n${text}`;
    if (pending === null) first = i + 1;
    const fields = splitCsv(record, delimiter);
    if (fields) {
      out.push({ fields, lineNo: first });
      pending = null;
    } else pending = record;
  });
  return out;
}

function recordsOf(lines: string[], delimiter: string, problems = new Problems("f")): { fields: string[]; lineNo: number }[] {
  const r = new CsvRecords(delimiter, problems);
  const out: { fields: string[]; lineNo: number }[] = [];
  lines.forEach((text, i) => {
    const rec = r.push(text, i + 1);
    if (rec) out.push(rec);
  });
  r.finish();
  return out;
}

describe("CsvRecords", () => {
  it("assembles the same records as re-splitting the whole pending record did (property)", () => {
    const piece = fc.constantFrom('"', '""', ",", ";", "a", "b c", " ", '","', '"x"', "\t");
    const line = fc.array(piece, { maxLength: 8 }).map((p) => p.join(""));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom(",", ";", "\t"), (lines, d) => {
        expect(recordsOf(lines, d)).toEqual(referenceRecords(lines, d));
        // quoteOpenAtEnd agrees with splitCsv on a record read from its start
        const text = lines.join("\n");
        expect(quoteOpenAtEnd(text, d, false)).toBe(splitCsv(text, d) === null);
      }),
      { numRuns: 3000 },
    );
  });

  it("reads a record whose quoted field spans lines, with escaped quotes", () => {
    expect(recordsOf(['1,"a', 'b""c', 'd",2', "3,4"], ",")).toEqual([
      { fields: ["1", 'a\nb"c\nd', "2"], lineNo: 1 },
      { fields: ["3", "4"], lineNo: 4 },
    ]);
  });

  it("bounds a record left open by a stray quote: one problem on the quote's line, then reading goes on", () => {
    const problems = new Problems("f");
    const lines = ["h1,h2", '1,"open', ...Array.from({ length: 20_000 }, (_, i) => `${i},x`)];
    const recs = recordsOf(lines, ",", problems);
    // line 2 and the next MAX_RECORD_LINES - 1 lines are the dropped record
    const resume = 2 + MAX_RECORD_LINES;
    expect(recs[0]).toEqual({ fields: ["h1", "h2"], lineNo: 1 });
    expect(recs[1]).toEqual({ fields: [String(resume - 3), "x"], lineNo: resume });
    expect(recs).toHaveLength(1 + lines.length - resume + 1);
    expect(problems.list()).toEqual([
      {
        file: "f",
        line: 2,
        reason: `a quoted field opened on this line is not closed within ${MAX_RECORD_LINES} lines: lines 2–${resume - 1} skipped, reading goes on at line ${resume}`,
      },
    ]);
  });

  it("bounds an open record by characters too, and reports one still open at the end", () => {
    const problems = new Problems("f");
    const long = "y".repeat(100_000);
    const recs = recordsOf(['"a', ...Array.from({ length: 12 }, () => long), "1,2", '3,"b', "c"], ",", problems);
    // 2 + 11 × 100 001 characters (line breaks counted) by line 12: over MAX_RECORD_CHARS
    expect(recs).toEqual([
      { fields: [long], lineNo: 13 },
      { fields: ["1", "2"], lineNo: 14 },
    ]);
    expect(problems.list().map((p) => [p.line, p.reason])).toEqual([
      [1, `a quoted field opened on this line is not closed within ${MAX_RECORD_CHARS} characters: lines 1–12 skipped, reading goes on at line 13`],
      [15, "the file ends inside a quoted field (opened on this line): last record skipped"],
    ]);
  });

  it("keeps the quote state across lines: 300 000 lines after a stray quote in linear time (re-scanning took minutes)", () => {
    const r = new CsvRecords(",", new Problems("f"));
    const t0 = performance.now();
    r.push('1,"open', 1);
    for (let i = 0; i < 300_000; i++) r.push("x,y", i + 2);
    r.finish();
    expect(performance.now() - t0).toBeLessThan(budgetMs(300));
  });
});
