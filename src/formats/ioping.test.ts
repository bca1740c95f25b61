// ioping's per-request lines, written by ioping 1.3 itself, compared with the statistics it
// printed at the end (which leave out the warm-up request, as the reader does).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { factsOf, numberAfter, producerText, readProducer } from "../../tests/support/real-producers";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { iopingReader } from "./ioping";
import { linesOf, readLines } from "../../tests/support/loadgen-fixtures";

const text = producerText("ioping", "ioping.txt");
/** ioping's "min/avg/max/mdev = 96.0 us / 119.2 us / …" in ns. */
function stats(): number[] {
  const m = /min\/avg\/max\/mdev = (.*)$/m.exec(text)![1]!;
  return [...m.matchAll(/(\d+(?:\.\d+)?) (ns|us|ms|s)\b/g)].map((x) => Number(x[1]) * { ns: 1, us: 1e3, ms: 1e6, s: 1e9 }[x[2] as "ns"]);
}

describe("ioping", () => {
  it("is taken by the ioping reader", () => {
    expect(pickFormat("ioping.txt", text.slice(0, 4096))?.id).toBe("ioping");
  });

  it("reads each request's time in ns, without the warm-up (said): count, min and max are ioping's", async () => {
    const r = await readProducer("ioping", "ioping.txt");
    expect(r.problems).toEqual([expect.objectContaining({ note: true, reason: expect.stringMatching(/1 warm-up request left out/) })]);
    const f = factsOf(r);
    const [min, , max] = stats();
    expect(f.unit).toBe("ns");
    expect(f.count).toBe(numberAfter(text, /^(?=\d+ requests completed)/m));
    expect(f.min).toBe(Math.round(min!));
    expect(f.max).toBe(Math.round(max!));
  });

  it("reads the unit on each line: us, ms, s and min", () => {
    const printed = linesOf`
      4 KiB <<< . (ext4 /dev/vda 1 GiB): request=2 time=156.9 us
      4 KiB <<< . (ext4 /dev/vda 1 GiB): request=3 time=1.52 ms (slow)
      4 KiB <<< . (ext4 /dev/vda 1 GiB): request=4 time=2.1 s
      4 KiB <<< . (ext4 /dev/vda 1 GiB): request=5 time=1.5 min
    `;
    const h = readLines(iopingReader.create("i.txt"), printed).series[0]!.histogram;
    expect(h.totalCount).toBe(4);
    expect(h.minNonZeroValue).toBe(156_900);
    expect(h.maxValue).toBe(90e9);
  });

  itReadsTheSameInChunks(iopingReader, "i.txt", text, 200, 20);
  itSurvivesGarbage(iopingReader, "i.txt", fc.array(fc.oneof(fc.string(), fc.constantFrom(...text.split("\n").slice(0, 4))), { maxLength: 8 }));
});
