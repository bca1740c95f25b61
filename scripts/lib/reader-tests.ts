// Tests every load-generator reader runs the same way (vitest and fast-check: test code only).
import fc from "fast-check";
import { expect, it } from "vitest";
import type { FormatReader } from "../../src/formats/source";
import { factsOfParsed, parseByChunks, parseByLines } from "./loadgen-fixtures";

/** The reader gives the same series fed in chunks of 1 to `maxChunk` characters as fed line by line. */
export function itReadsTheSameInChunks(reader: FormatReader, name: string, text: string, maxChunk: number, numRuns: number): void {
  it("gives the same result fed in chunks of any size", () => {
    const whole = factsOfParsed(parseByLines(reader, name, text), 0);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: maxChunk }), { minLength: 1, maxLength: 12 }), (sizes) => {
        expect(factsOfParsed(parseByChunks(reader, name, text, sizes), 0)).toEqual(whole);
      }),
      { numRuns },
    );
  });
}

/** The reader reads any lines `files` makes (line 1 first) without throwing, and still lists its problems. */
export function itSurvivesGarbage(reader: FormatReader, name: string, files: fc.Arbitrary<string[]>): void {
  it("survives arbitrary garbage", () => {
    fc.assert(
      fc.property(files, (lines) => {
        const p = reader.create(name);
        lines.forEach((l, i) => p.line(l, i + 1));
        expect(Array.isArray(p.finish().problems)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
}
