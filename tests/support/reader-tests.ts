// Tests every load-generator reader runs the same way (vitest and fast-check: test code only).
import fc from "fast-check";
import { expect, it } from "vitest";
import type { FormatReader, ParsedSource } from "../../src/formats/source";
import { factsOfParsed, factsOfSamples, parseByChunks, parseByLines } from "./loadgen-fixtures";

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

/**
 * The parsed series hold exactly the samples written (`factsOfSamples`'s arguments): per label,
 * the histogram's count, min, max and percentiles, and the intervals cut from the timestamps.
 */
export function expectSamplesRead(p: ParsedSource, ...written: Parameters<typeof factsOfSamples>): void {
  const exp = factsOfSamples(...written);
  expect(factsOfParsed(p, exp.minIndex, written[4] ?? 1)).toEqual(exp.facts);
}

/** `text` fed to the reader line by line reads without a problem and holds exactly the samples written (as `expectSamplesRead`). */
export function expectReadExactly(reader: FormatReader, name: string, text: string, ...written: Parameters<typeof factsOfSamples>): ParsedSource {
  const p = parseByLines(reader, name, text);
  expect(p.problems).toEqual([]);
  expectSamplesRead(p, ...written);
  return p;
}

/** The problems name exactly these lines, in order; each pattern given (null: any reason) matches its line's reason. */
export function expectProblems(p: ParsedSource, expected: [line: number, reason: RegExp | null][]): void {
  expect(p.problems.map((x) => x.line)).toEqual(expected.map(([line]) => line));
  expected.forEach(([, reason], i) => {
    if (reason) expect(p.problems[i]!.reason).toMatch(reason);
  });
}
