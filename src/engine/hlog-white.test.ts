// White space in an interval log's lines: a line holding any is read the general way (fields
// split at commas and white space), whether the chunk it arrived in was searched for white space
// once (holdsWhite) or each line was tested on its own.
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { writeHlog } from "../../tests/support/hlog-fixture";
import type { SimInterval } from "../../tests/support/queue-sim";
import { holdsWhite } from "../formats/hlog";
import { HlogIngest } from "./hlog-ingest";

describe("holdsWhite", () => {
  it("finds what /\\s/ matches, every UTF-16 code unit but the line feed", () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      expect(holdsWhite(`HIST${ch}AAA`), `U+${c.toString(16)}`).toBe(c !== 10 && /\s/.test(ch));
    }
    expect(holdsWhite("a\nb\nc")).toBe(false);
  });
});

function intervals(n: number): SimInterval[] {
  return Array.from({ length: n }, (_, i) => {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (let k = 1; k <= 50; k++) h.recordValue(1000 * k + i);
    return { start: i, length: 1, histogram: h };
  });
}

function read(chunks: string[]) {
  const ing = new HlogIngest("white.hlog");
  for (const c of chunks) ing.push(c);
  const r = ing.finish();
  const t = r.series[0]!.intervals!;
  return { problems: r.problems, count: r.series[0]!.histogram.totalCount, offsets: Array.from(t.offsets.subarray(0, t.n)) };
}

describe("lines with white space in a log read in chunks", () => {
  // Data lines only (the header's comments hold spaces): lines 1–12 are intervals 0–11.
  const lines = writeHlog(intervals(12))
    .split("\n")
    .filter((l) => /^\d/.test(l));
  const payloadOf = (l: string) => l.slice(l.lastIndexOf(",") + 1);
  const prefixOf = (l: string) => l.slice(0, l.lastIndexOf(",") + 1);
  const cut = (l: string, mark: string) => {
    const p = payloadOf(l);
    return `${prefixOf(l)}${p.slice(0, 10)}${mark}${p.slice(10)}`;
  };
  // Refused (a payload cut in two is five fields): a space, a tab, a no-break space and an em
  // space inside the payload. Read: spaces around the commas.
  lines[3] = cut(lines[3]!, " ");
  lines[5] = cut(lines[5]!, "\t");
  lines[7] = cut(lines[7]!, "\u00a0");
  lines[9] = cut(lines[9]!, "\u2003");
  lines[10] = lines[10]!.replace(/,/g, " , ");
  const text = `${lines.join("\n")}\n`;

  it("are refused or read as a whole text read at once has them", () => {
    const whole = read([text]);
    expect(whole.problems.map((p) => [p.line, p.reason])).toEqual([
      ...[4, 6, 8, 10].map((line) => [line, "expected 4 fields (start, length, max, histogram), found 5"]),
      [null, "4 lines skipped; 8 intervals loaded"],
    ]);
    expect(whole.offsets).toEqual([0, 1, 2, 4, 6, 8, 10, 11]);
  });

  it("the same wherever the text is cut into chunks (lines then start in chunks with and without white space)", () => {
    const whole = read([text]);
    for (let at = 1; at < text.length; at += 7) {
      expect(read([text.slice(0, at), text.slice(at)]), `cut at ${at}`).toEqual(whole);
    }
    // Chunks of one line each, and of a line and a half.
    expect(read(lines.map((l) => `${l}\n`))).toEqual(whole);
    const step = Math.round(lines[0]!.length * 1.5);
    const pieces: string[] = [];
    for (let at = 0; at < text.length; at += step) pieces.push(text.slice(at, at + step));
    expect(read(pieces)).toEqual(whole);
  });
});
