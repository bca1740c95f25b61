import { describe, expect, it } from "vitest";
import { cutWindows, formatWindowLength, judgeWindows, parseWindowLength, windowOrigin, type WindowStats } from "./windows";
import { parseThreshold, summariseTail, tailSentence, thresholdText, type TailInterval } from "./tail";
import { parseRequirement } from "./requirements";

describe("window lengths", () => {
  it("reads seconds, minutes, hours and plain seconds; refuses the rest", () => {
    expect(parseWindowLength("10s")).toBe(10);
    expect(parseWindowLength(" 10m ")).toBe(600);
    expect(parseWindowLength("1h")).toBe(3600);
    expect(parseWindowLength("500ms")).toBe(0.5);
    expect(parseWindowLength("30")).toBe(30);
    expect(parseWindowLength("")).toBeNull();
    expect(parseWindowLength("0s")).toBeNaN();
    expect(parseWindowLength("ten")).toBeNaN();
    expect(formatWindowLength(600)).toBe("10m");
    expect(formatWindowLength(3600)).toBe("1h");
    expect(formatWindowLength(10)).toBe("10s");
  });
});

describe("cutting intervals into windows", () => {
  it("half-open: an interval starting on a boundary belongs to the later window; gaps are empty windows", () => {
    const starts = [0, 4.9, 5, 9.99, 25];
    const w = cutWindows(starts, starts.length, 5);
    expect(w.map((x) => [x.start, x.end, x.first, x.last])).toEqual([
      [0, 5, 0, 1],
      [5, 10, 2, 3],
      [10, 15, 4, 3],
      [15, 20, 4, 3],
      [20, 25, 4, 3],
      [25, 30, 4, 4],
    ]);
  });
  it("aligned to the wall clock, a boundary falls where epoch seconds are a multiple of the length", () => {
    // 1,000,000,020 is a whole minute since the epoch.
    expect(windowOrigin(60, 1_000_000_050, true)).toBe(30);
    expect(windowOrigin(60, 1_000_000_040, false)).toBe(0);
    expect(windowOrigin(60, 1_000_000_040, true)).toBe(40);
    expect(windowOrigin(60, 1_000_000_020, true)).toBe(0);
    expect(windowOrigin(60, null, true)).toBe(0);
  });
});

describe("judging every window", () => {
  const req = parseRequirement("p99<=10ms, max<=100ms");
  if (!req.ok || !req.value) throw new Error("requirement");
  const w = (start: number, count: number, p99ms: number, maxMs: number, covered = 10): WindowStats => ({
    start,
    end: start + 10,
    count,
    covered,
    valuesNs: [p99ms * 1e6, maxMs * 1e6],
  });

  it("counts passing windows and names the worst by value ÷ limit over the entries", () => {
    const j = judgeWindows([w(0, 1000, 5, 50), w(10, 1000, 12, 60), w(20, 1000, 8, 300), w(30, 1000, 9, 99)], req.value!);
    expect(j.windows).toBe(4);
    expect(j.passing).toBe(2);
    expect(j.pass).toEqual([true, false, false, true]);
    // 300/100 = 3 beats 12/10 = 1.2.
    expect(j.worst).toMatchObject({ start: 20, percentile: 100, valueNs: 300e6, limitNs: 100e6, ratio: 3 });
  });

  it("a window without values fails but is the worst only when no window has values", () => {
    const j = judgeWindows([w(0, 1000, 5, 50), w(10, 0, 0, 0), w(20, 1000, 11, 50)], req.value!);
    expect(j.passing).toBe(1);
    expect(j.worst!.start).toBe(20);
    const k = judgeWindows([w(0, 0, 0, 0)], req.value!);
    expect(k.worst!.start).toBe(0);
    expect(k.worst!.ratio).toBe(Infinity);
  });

  it("throughput is count ÷ the seconds covered; the largest drop is against the median window", () => {
    const j = judgeWindows([w(0, 500, 1, 1, 5), w(10, 1000, 1, 1), w(20, 1000, 1, 1), w(30, 250, 1, 1), w(40, 1000, 1, 1)], req.value!);
    expect(j.throughput).toEqual([100, 100, 100, 25, 100]);
    expect(j.drop).toMatchObject({ start: 30, throughput: 25, median: 100, drop: 0.75 });
  });
});

describe("tail attribution", () => {
  it("reads thresholds as typed", () => {
    expect(parseThreshold(">10ms")).toBe(10e6);
    expect(parseThreshold("> 2.5 s")).toBe(2.5e9);
    expect(parseThreshold("500us")).toBe(500e3);
    expect(parseThreshold("")).toBeNull();
    expect(parseThreshold("10")).toBeNaN();
    expect(thresholdText(10e6)).toBe(">10ms");
  });

  const iv = (index: number, above: number): TailInterval => ({ index, start: index, end: index + 1, above });

  it("names the fewest intervals holding at least half, and says what share they hold", () => {
    const s = summariseTail([iv(0, 0), iv(1, 10), iv(2, 600), iv(3, 290), iv(4, 100), iv(5, 0)]);
    expect(s.above).toBe(1000);
    expect(s.intervalsWithAny).toBe(4);
    expect(s.top.map((x) => x.index)).toEqual([2, 3, 4, 1]);
    expect(s.named).toBe(1);
    expect(s.share).toBe(0.6);
    expect(tailSentence(s, 10e6, (x) => `t${x.index}`)).toBe("60 % of the 1,000 values above 10 ms came from 1 interval (t2, …), out of 4 intervals holding any.");
  });

  it("spread-out tails name at most five intervals", () => {
    const s = summariseTail(Array.from({ length: 40 }, (_, i) => iv(i, 1)));
    expect(s.named).toBe(5);
    expect(s.share).toBe(5 / 40);
    expect(tailSentence(summariseTail([iv(3, 4)]), 1e6, (x) => `t${x.index}`)).toBe("All 4 values above 1 ms came from 1 interval (t3).");
    expect(tailSentence(summariseTail([iv(3, 2), iv(7, 2), iv(9, 1)]), 1e6, (x) => `t${x.index}`)).toBe(
      "80 % of the 5 values above 1 ms came from 2 intervals (t3, t7, …), out of 3 intervals holding any.",
    );
    expect(tailSentence(summariseTail([iv(3, 0)]), 1e6, () => "")).toBe("No value above 1 ms.");
  });
});
