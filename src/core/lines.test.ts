import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { LineSplitter, MAX_LINE_CHARS, splitLines } from "./lines";

function splitInChunks(text: string, cuts: number[]): string[] {
  const out: string[] = [];
  const s = new LineSplitter({ line: (t) => out.push(t), overlong: () => out.push("<overlong>") });
  let last = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    s.push(text.slice(last, c));
    last = c;
  }
  s.push(text.slice(last));
  s.end();
  return out;
}

describe("LineSplitter", () => {
  it("handles LF, CRLF and lone CR, and a last line without a break", () => {
    expect(splitLines("a\nb\r\nc\rd")).toEqual(["a", "b", "c", "d"]);
    expect(splitLines("a\n\nb\n")).toEqual(["a", "", "b"]);
  });

  it("tells where each line starts in the whole text, whatever the chunk boundaries", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z ,.]{0,12}$/), { maxLength: 12 }),
        fc.array(fc.constantFrom("\n", "\r\n", "\r"), { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (lines, breaks, rawCuts) => {
          let text = "";
          lines.forEach((l, k) => (text += (k ? breaks[k % breaks.length] : "") + l));
          const cuts = rawCuts.map((c) => (text.length ? c % (text.length + 1) : 0)).sort((a, b) => a - b);
          const seen: [string, number][] = [];
          const s = new LineSplitter({ line: (t, _n, at) => seen.push([t, at]), overlong: () => undefined });
          let last = 0;
          for (const c of cuts) {
            s.push(text.slice(last, c));
            last = c;
          }
          s.push(text.slice(last));
          s.end();
          // Independent reference: the starts of the pieces of a regex split.
          const expected: [string, number][] = [];
          const re = /\r\n|\r|\n/g;
          let from = 0;
          for (let m = re.exec(text); m; m = re.exec(text)) {
            expected.push([text.slice(from, m.index), from]);
            from = m.index + m[0].length;
          }
          if (from < text.length) expected.push([text.slice(from), from]);
          expect(seen).toEqual(expected);
        },
      ),
    );
  });

  it("gives the same lines whatever the chunk boundaries (including a split CRLF)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z ,.]{0,12}$/), { maxLength: 12 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.array(fc.nat(), { maxLength: 6 }),
        (lines, br, rawCuts) => {
          const text = lines.join(br);
          const cuts = rawCuts.map((c) => (text.length ? c % (text.length + 1) : 0));
          const expected = splitLines(text);
          expect(splitInChunks(text, cuts)).toEqual(expected);
          // Reference: a plain regex split (a trailing empty piece is not a line).
          const ref = text === "" ? [] : text.split(/\r\n|\r|\n/);
          if (ref.length && ref[ref.length - 1] === "") ref.pop();
          expect(expected).toEqual(ref);
        },
      ),
    );
  });

  it("an empty chunk between the \\r and \\n of a CRLF does not make an extra line", () => {
    expect(splitInChunks("\r\n", [1, 1])).toEqual([""]);
    expect(splitInChunks("a\r\nb", [2, 2, 2])).toEqual(["a", "b"]);
  });

  it("reports an overlong line instead of accumulating it", () => {
    const big = "x".repeat(MAX_LINE_CHARS + 10);
    const lens: number[] = [];
    const got: string[] = [];
    const s = new LineSplitter({ line: (t) => got.push(t), overlong: (_n, len) => lens.push(len) });
    for (let i = 0; i < big.length; i += 65536) s.push(big.slice(i, i + 65536));
    s.push("\nok\n");
    s.end();
    expect(lens).toEqual([MAX_LINE_CHARS + 10]);
    expect(got).toEqual(["ok"]);
  });

  it("hands an overlong line over in pieces to a sink that takes them, then its end as the line", () => {
    const big = Array.from({ length: MAX_LINE_CHARS / 8 + 5000 }, (_, i) => `${i % 10000000}`.padStart(8, "0")).join("");
    const text = `first\n${big}\nlast\n${big}`;
    for (const step of [65536, 1_000_003, text.length]) {
      const events: [string, number, string][] = [];
      const s = new LineSplitter({
        line: (t, n) => events.push(["line", n, t]),
        overlong: (n) => events.push(["overlong", n, ""]),
        piece: (t, n) => events.push(["piece", n, t]),
      });
      for (let i = 0; i < text.length; i += step) s.push(text.slice(i, i + step));
      s.end();
      expect(events.some((e) => e[0] === "overlong")).toBe(false);
      // Lines 2 and 4 arrive as pieces ending with a line call; joined they are the line.
      const lines = new Map<number, string>();
      for (const [kind, n, t] of events) if (kind !== "overlong") lines.set(n, (lines.get(n) ?? "") + t);
      expect([...lines.keys()]).toEqual([1, 2, 3, 4]);
      expect(lines.get(1)).toBe("first");
      expect(lines.get(2) === big).toBe(true);
      expect(lines.get(3)).toBe("last");
      expect(lines.get(4) === big).toBe(true);
      expect(events.filter((e) => e[0] === "line").map((e) => e[1])).toEqual([1, 2, 3, 4]);
      expect(events.filter((e) => e[0] === "piece").every((e) => e[1] === 2 || e[1] === 4)).toBe(true);
    }
  });

  it("hands a line on in pieces past the length its sink asks, holding no more than that and a chunk; shorter lines whole", () => {
    const long = Array.from({ length: 30_000 }, (_, i) => `${i}`.padStart(6, "0")).join(",");
    const text = `short one\n${long}\nshort two\n${long}`;
    for (const step of [1000, 4096, 70_000]) {
      const events: [string, number, string][] = [];
      const s = new LineSplitter(
        {
          line: (t, n) => events.push(["line", n, t]),
          overlong: (n) => events.push(["overlong", n, ""]),
          piece: (t, n) => events.push(["piece", n, t]),
        },
        10_000,
      );
      for (let i = 0; i < text.length; i += step) s.push(text.slice(i, i + step));
      s.end();
      const lines = new Map<number, string>();
      for (const [, n, t] of events) lines.set(n, (lines.get(n) ?? "") + t);
      expect([...lines.values()]).toEqual(["short one", long, "short two", long]);
      // The short lines whole; the long ones in pieces, none longer than the length asked and a chunk.
      expect(events.filter((e) => e[1] === 1 || e[1] === 3).map((e) => e[0])).toEqual(["line", "line"]);
      const pieces = events.filter((e) => e[0] === "piece");
      expect(pieces.length).toBeGreaterThan(2 * Math.floor(long.length / (10_000 + step)));
      expect(Math.max(...pieces.map((e) => e[2].length))).toBeLessThanOrEqual(10_000 + step);
    }
  });
});
