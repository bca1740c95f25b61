import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  formatRequirement,
  parseRequirement,
  parseSlaDat,
  requirementSteps,
  sustainableThroughput,
  verdictOf,
  verdictSentence,
  type Requirement,
  type RequirementEntry,
  type Run,
  type Sustainable,
} from "./requirements";
import { NANOS_PER_UNIT, type Unit } from "./types";

const MS = 1e6;

function req(text: string): Requirement {
  const r = parseRequirement(text);
  if (!r.ok) throw new Error(r.errors.join("; "));
  if (!r.value) throw new Error("empty");
  return r.value;
}

function errorsOf(text: string): string[] {
  const r = parseRequirement(text);
  if (r.ok) throw new Error(`parsed: ${JSON.stringify(r.value)}`);
  return r.errors;
}

describe("parseRequirement", () => {
  it("reads the documented example, sorted by percentile", () => {
    expect(req("max<=100ms, p99.9<=10ms, p50<=1ms, p99<=5ms")).toEqual({
      entries: [
        { percentile: 50, limitNs: 1 * MS, unit: "ms" },
        { percentile: 99, limitNs: 5 * MS, unit: "ms" },
        { percentile: 99.9, limitNs: 10 * MS, unit: "ms" },
        { percentile: 100, limitNs: 100 * MS, unit: "ms" },
      ],
    });
  });

  it("takes commas, spaces or both between entries, spaces around <= and before the unit, and ≤", () => {
    const expected = req("p50<=1ms, p99<=5ms, p99.9<=10ms, max<=100ms");
    for (const text of [
      "p50<=1ms p99<=5ms p99.9<=10ms max<=100ms",
      "p50<=1ms,p99<=5ms,p99.9<=10ms,max<=100ms",
      "  p50 <= 1 ms ,  p99<= 5ms,p99.9 <=10 ms max <= 100 ms  ",
      "p50≤1ms, p99 ≤ 5 ms, p99.9≤10ms, max≤100ms",
      "p50<=1ms;\np99<=5ms;\tp99.9<=10ms\nmax<=100ms",
      "P50<=1ms, P99<=5ms, P99.9<=10ms, MAX<=100ms",
      "p50<=1000us, p99<=5000µs, p99.9<=0.01s, max<=100000000ns",
    ]) {
      const r = parseRequirement(text);
      expect(r.ok, text).toBe(true);
      if (r.ok)
        expect(
          r.value!.entries.map((e) => [e.percentile, e.limitNs]),
          text,
        ).toEqual(expected.entries.map((e) => [e.percentile, e.limitNs]));
    }
  });

  it("keeps the unit as written and reads every unit", () => {
    const r = req("p1<=7ns, p2<=7us, p3<=7µs, p4<=7μs, p5<=7ms, p6<=7s");
    expect(r.entries.map((e) => [e.unit, e.limitNs])).toEqual([
      ["ns", 7],
      ["us", 7e3],
      ["us", 7e3],
      ["us", 7e3],
      ["ms", 7e6],
      ["s", 7e9],
    ]);
  });

  it("reads decimals without float noise", () => {
    expect(req("p99<=1.1ms").entries[0]!.limitNs).toBe(1_100_000);
    expect(req("p99<=0.3ms").entries[0]!.limitNs).toBe(300_000);
    expect(req("p99.999<=2.5s").entries[0]).toEqual({ percentile: 99.999, limitNs: 2.5e9, unit: "s" });
  });

  it("accepts p100 as max", () => {
    expect(req("p100<=1s").entries).toEqual([{ percentile: 100, limitNs: 1e9, unit: "s" }]);
  });

  it("empty text is no requirement", () => {
    expect(parseRequirement("")).toEqual({ ok: true, value: null });
    expect(parseRequirement("  , \n ")).toEqual({ ok: true, value: null });
  });

  it.each([
    ["p99.9<=10", ['entry "p99.9<=10": missing unit (ns, us, µs, ms, s)']],
    ["p99<=10 msec", ['entry "p99<=10msec": unknown unit "msec" (use ns, us, µs, ms, s)']],
    ["p99<=10sec", ['entry "p99<=10sec": unknown unit "sec" (use ns, us, µs, ms, s)']],
    // A word an object has by inheritance is no unit either.
    ["p99<=5constructor", ['entry "p99<=5constructor": unknown unit "constructor" (use ns, us, µs, ms, s)']],
    ["p99<=5ms, p99<=6ms", ['duplicate percentile p99: "p99<=5ms" and "p99<=6ms"']],
    ["p99<=5ms, p99.90<=6ms, p99.9<=7ms", ['duplicate percentile p99.9: "p99.90<=6ms" and "p99.9<=7ms"']],
    ["max<=5ms, p100<=6ms", ['duplicate percentile max: "max<=5ms" and "p100<=6ms"']],
    ["p150<=5ms", ['entry "p150<=5ms": percentile 150 is above 100 (use max for the maximum)']],
    ["p0<=5ms", ['entry "p0<=5ms": percentile must be above 0']],
    ["p99<=0ms", ['entry "p99<=0ms": limit must be above 0']],
    ["p99<=-5ms", ['entry "p99<=-5ms": limit must be above 0']],
    ["p99<=NaNms", ['entry "p99<=NaNms": limit "NaNms" is not a number']],
    ["p99<=1e999ms", ['entry "p99<=1e999ms": limit 1e999 is not a finite number']],
    // finite as written, but not in ns (× 1e6 / 1e9), or once rounded to 15 digits
    ["p99<=1e303ms", ['entry "p99<=1e303ms": limit 1e303 ms is out of range']],
    ["p99<=1e300s", ['entry "p99<=1e300s": limit 1e300 s is out of range']],
    ["p99<=1.7976931348623157e308ns", ['entry "p99<=1.7976931348623157e308ns": limit 1.7976931348623157e308 ns is out of range']],
    ["p99<=ms", ['entry "p99<=ms": limit "ms" is not a number']],
    ["p99<=", ['entry "p99<=": missing limit after "<=", e.g. p99<=5ms']],
    ["p99", ['entry "p99": missing "<=" and a limit, e.g. p99<=5ms']],
    ["p99<5ms", ['entry "p99<5ms": use "<=" or "≤" between the percentile and the limit']],
    ["p99=5ms", ['entry "p99=5ms": use "<=" or "≤" between the percentile and the limit']],
    ["p99>=5ms", ['entry "p99>=5ms": use "<=" or "≤" between the percentile and the limit']],
    ["99<=5ms", ['entry "99<=5ms": "99" is not a percentile (write p50, p99.9 or max)']],
    ["<=5ms", ['entry "<=5ms": missing percentile before "<=" (write p50, p99.9 or max)']],
    ["p50<=1ms and p99<=5ms", ['unexpected "and": expected entries like p99<=5ms or max<=100ms']],
    ["p50<=1ms foo p99<=5ms", ['unexpected "foo": expected entries like p99<=5ms or max<=100ms']],
    ["p99.9<=10, p50<=1ms, p99<=2 parsecs", ['entry "p99.9<=10": missing unit (ns, us, µs, ms, s)', 'entry "p99<=2parsecs": unknown unit "parsecs" (use ns, us, µs, ms, s)']],
  ])("%j → %j", (text, errors) => {
    expect(errorsOf(text)).toEqual(errors);
  });

  it("a missing unit before the next entry is reported on its own entry", () => {
    expect(errorsOf("p99<=10 max<=100ms")).toEqual(['entry "p99<=10": missing unit (ns, us, µs, ms, s)']);
    expect(errorsOf("p99<=10 p99.9<=20ms")).toEqual(['entry "p99<=10": missing unit (ns, us, µs, ms, s)']);
  });
});

describe("formatRequirement", () => {
  it("writes the compact text form in the units as written", () => {
    expect(formatRequirement(req("max <= 100 ms, p50<=1ms, p99.9 ≤ 10ms, p99<=500us"))).toBe("p50<=1ms, p99<=500µs, p99.9<=10ms, max<=100ms");
    expect(formatRequirement(req("p99.99999<=0.000001s"))).toBe("p99.99999<=0.000001s");
    expect(formatRequirement(req("p0.001<=1e21ns"))).toBe("p0.001<=1000000000000000000000ns");
    expect(formatRequirement({ entries: [{ percentile: 99, limitNs: 0.001, unit: "s" }] })).toBe("p99<=0.000000000001s");
    expect(formatRequirement({ entries: [{ percentile: 1e-7, limitNs: 5, unit: "ns" }] })).toBe("p0.0000001<=5ns");
  });

  const unitArb = fc.constantFrom<Unit>("ns", "us", "ms", "s");
  /** Percentiles as people write them: up to 6 decimals, 0 < p < 100, or max. */
  const percentileArb = fc.oneof(
    fc.integer({ min: 1, max: 99_999_999 }).map((n) => n / 1e6),
    fc.integer({ min: 1, max: 99 }),
    fc.constant(100),
  );

  it("round-trips text written with arbitrary decimal limits (property)", () => {
    const entryText = fc.record({
      p: percentileArb,
      mantissa: fc.integer({ min: 1, max: 999_999 }),
      decimals: fc.integer({ min: 0, max: 6 }),
      unit: fc.constantFrom("ns", "us", "µs", "ms", "s"),
      sep: fc.constantFrom(", ", " ", ",", " , ", "\n"),
      spaced: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.uniqueArray(entryText, { minLength: 1, maxLength: 8, selector: (e) => e.p }), (es) => {
        const text = es
          .map((e) => {
            const p = e.p === 100 ? "max" : `p${e.p}`;
            const v = (e.mantissa / 10 ** e.decimals).toFixed(e.decimals);
            return e.spaced ? `${p} <= ${v} ${e.unit}` : `${p}<=${v}${e.unit}`;
          })
          .join(es[0]!.sep);
        const first = req(text);
        expect(first.entries.length).toBe(es.length);
        const again = parseRequirement(formatRequirement(first));
        expect(again).toEqual({ ok: true, value: first });
      }),
    );
  });

  it("any limit reads back within float noise (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e18, noNaN: true }), unitArb, (limitNs, unit) => {
        const back = parseRequirement(formatRequirement({ entries: [{ percentile: 99, limitNs, unit }] }));
        expect(back.ok).toBe(true);
        if (back.ok) expect(Math.abs(back.value!.entries[0]!.limitNs - limitNs) / limitNs).toBeLessThan(1e-13);
      }),
    );
  });

  it("round-trips any requirement with whole-nanosecond limits (property)", () => {
    const entryArb = fc.record({
      percentile: percentileArb,
      limitNs: fc.integer({ min: 1, max: 1e15 }),
      unit: unitArb,
    });
    fc.assert(
      fc.property(fc.uniqueArray(entryArb, { minLength: 1, maxLength: 8, selector: (e) => e.percentile }), (es) => {
        const r: Requirement = { entries: [...es].sort((a, b) => a.percentile - b.percentile) };
        expect(parseRequirement(formatRequirement(r))).toEqual({ ok: true, value: r });
      }),
    );
  });
});

const SLA_PATH = path.resolve(__dirname, "../../../shared/samples/hgrm/SLA_msec.dat");
const SLA_TEXT = `1.0\t10.0\t0%
100.0\t10.0\t99%
100.0\t20.0\t99%
10000.0\t20.0\t99.99%
10000.0\t50.0 99.99%
10000000.0\t50.0 99.99999%
`;
const SLA_ENTRIES: RequirementEntry[] = [
  { percentile: 99, limitNs: 10 * MS, unit: "ms" },
  { percentile: 99.99, limitNs: 20 * MS, unit: "ms" },
  { percentile: 99.99999, limitNs: 50 * MS, unit: "ms" },
];

describe("parseSlaDat", () => {
  it("reads the gnuplot example's step line", () => {
    expect(parseSlaDat(SLA_TEXT)).toEqual({ value: { entries: SLA_ENTRIES }, problems: [] });
    expect(formatRequirement(parseSlaDat(SLA_TEXT).value!)).toBe("p99<=10ms, p99.99<=20ms, p99.99999<=50ms");
  });

  describe.skipIf(!existsSync(SLA_PATH))("HdrHistogram's SLA_msec.dat", () => {
    it("is p99<=10ms, p99.99<=20ms, p99.99999<=50ms", () => {
      expect(parseSlaDat(readFileSync(SLA_PATH, "utf8"))).toEqual({ value: { entries: SLA_ENTRIES }, problems: [] });
    });
  });

  it("skips comments, blank lines and CRLF; merges segments at one latency", () => {
    const text = "# SLA\r\n\r\n1 5 0%\r\n10 5 90%\r\n100 5 99%\r\n100 8 99%\r\n1000 8 99.9%\r\n";
    expect(parseSlaDat(text)).toEqual({
      value: {
        entries: [
          { percentile: 99, limitNs: 5 * MS, unit: "ms" },
          { percentile: 99.9, limitNs: 8 * MS, unit: "ms" },
        ],
      },
      problems: [],
    });
  });

  it("reports problems with line numbers and keeps what it can read", () => {
    const text = ["1 10 0%", "abc def", "100 10 99%", "50 20 98%", "100 20", "1000 30 99.9%", "0.5 10", "10000 30", "10000 -1"].join("\n");
    const r = parseSlaDat(text);
    expect(r.problems).toEqual([
      { line: 2, reason: 'expected "1/(1-p)  latency_ms  label", got "abc def"' },
      { line: 4, reason: "1/(1-p) = 50 goes back from 100 (line 3): point skipped" },
      { line: 6, reason: "sloped segment from line 5 (latency 20 → 30 ms while the percentile changes): read as a step at this point" },
      { line: 7, reason: "1/(1-p) = 0.5 is below 1 (a percentile below 0)" },
      { line: 9, reason: "latency -1 ms must be above 0" },
    ]);
    expect(r.value!.entries).toEqual([
      { percentile: 99, limitNs: 10 * MS, unit: "ms" },
      { percentile: 99.99, limitNs: 30 * MS, unit: "ms" },
    ]);
  });

  it("a latency whose ns value overflows is a problem on its line, never a limit of Infinity", () => {
    // 1e302 ms is 1e308 ns (finite); 1.8e302 ms is 1.8e308 ns, above Number.MAX_VALUE.
    const r = parseSlaDat("1.0\t1e302\t0%\n100.0\t1.8e302\t99%\n100.0\t1e302\t99%\n1000.0\t1e302\t99.9%\n");
    expect(r.problems).toEqual([{ line: 2, reason: "latency 1.8e302 ms is out of range (too large in ns): point skipped" }]);
    expect(r.value!.entries).toEqual([{ percentile: 99.9, limitNs: 1e308, unit: "ms" }]);
    const overflow = parseSlaDat("1.0\t10.0\t0%\n100.0\t1e303\t99%\n");
    expect(overflow.problems.map((p) => p.line)).toEqual([2]);
    expect(overflow.value).toBeNull();
  });

  it("no horizontal segment is no requirement", () => {
    expect(parseSlaDat("")).toEqual({ value: null, problems: [] });
    expect(parseSlaDat("1 10\n1 20\n").value).toBeNull();
    expect(parseSlaDat("x").problems).toHaveLength(1);
  });
});

describe("verdictOf", () => {
  const r = req("p50<=1ms, p99<=5ms, p99.9<=10ms, max<=100ms");
  const at = (values: Record<number, number>) => (p: number) => {
    if (!(p in values)) throw new Error(`asked for p${p}`);
    return values[p]!;
  };
  const ok = { 50: 1 * MS, 99: 5 * MS, 99.9: 10 * MS, 100: 100 * MS };

  it("a value exactly at the limit passes; one ns above fails", () => {
    expect(verdictOf(r, at(ok))).toEqual({ pass: true, firstViolation: null, violations: [] });
    for (const p of [50, 99, 99.9, 100] as const) {
      const v = verdictOf(r, at({ ...ok, [p]: ok[p] + 1 }));
      expect(v.pass).toBe(false);
      expect(v.firstViolation).toBe(p);
      expect(v.violations).toEqual([{ percentile: p, limitNs: ok[p], valueNs: ok[p] + 1, ratio: (ok[p] + 1) / ok[p] }]);
    }
  });

  it("one ns above a 1000 s limit still fails", () => {
    const big = req("max<=1000s");
    expect(verdictOf(big, () => 1e12).pass).toBe(true);
    expect(verdictOf(big, () => 1e12 + 1).pass).toBe(false);
  });

  it("float noise from unit conversion is not a violation", () => {
    // 9 µs that went through ms on its way: 9 * 0.001 ms is 0.009000000000000001 ms.
    const noisy = 9 * 0.001 * NANOS_PER_UNIT.ms;
    expect(noisy).not.toBe(9000);
    expect(verdictOf(req("p99<=9us"), () => noisy).pass).toBe(true);
    expect(verdictOf(req("p99<=1.001ms"), () => 1.001 * 1e6).pass).toBe(true);
  });

  it("the first violation is the lowest failing percentile; all violations are listed in order", () => {
    const v = verdictOf(r, at({ 50: 0.5 * MS, 99: 6 * MS, 99.9: 9 * MS, 100: 300 * MS }));
    expect(v.pass).toBe(false);
    expect(v.firstViolation).toBe(99);
    expect(v.violations.map((x) => [x.percentile, x.ratio])).toEqual([
      [99, 1.2],
      [100, 3],
    ]);
  });

  it("max is checked at p=100", () => {
    const asked: number[] = [];
    verdictOf(req("max<=1ms"), (p) => (asked.push(p), 0));
    expect(asked).toEqual([100]);
    expect(verdictOf(req("max<=1ms"), (p) => (p === 100 ? 2 * MS : 0)).firstViolation).toBe(100);
  });

  it("a value that is not a number fails", () => {
    expect(verdictOf(req("p99<=1ms"), () => NaN).pass).toBe(false);
  });
});

describe("requirementSteps", () => {
  it("steps start at 0 and cover (previous, this]", () => {
    expect(requirementSteps(req("p50<=1ms, p99<=5ms, max<=100ms"))).toEqual([
      { from: 0, to: 50, limitNs: 1 * MS },
      { from: 50, to: 99, limitNs: 5 * MS },
      { from: 99, to: 100, limitNs: 100 * MS },
    ]);
    expect(requirementSteps({ entries: SLA_ENTRIES })).toEqual([
      { from: 0, to: 99, limitNs: 10 * MS },
      { from: 99, to: 99.99, limitNs: 20 * MS },
      { from: 99.99, to: 99.99999, limitNs: 50 * MS },
    ]);
    expect(requirementSteps({ entries: [] })).toEqual([]);
  });
});

let n = 0;
const run = (config: string, throughput: number | null, pass: boolean): Run => ({ id: `r${n++}`, config, throughput, pass });
const point = (throughput: number, pass: boolean) => ({ throughput, pass });

describe("sustainableThroughput", () => {
  it("per configuration in first-seen order, the highest passing throughput", () => {
    const s = sustainableThroughput([run("sysB", 40000, true), run("sysA", 10000, true), run("sysA", 20000, false), run("sysB", 50000, false), run("sysB", 20000, true)]);
    expect(s).toEqual([
      { config: "sysB", maxThroughput: 40000, nonMonotonic: false, points: [point(20000, true), point(40000, true), point(50000, false)] },
      { config: "sysA", maxThroughput: 10000, nonMonotonic: false, points: [point(10000, true), point(20000, false)] },
    ]);
  });

  it("gaps between tested throughputs do not matter: the highest passing one counts", () => {
    const [s] = sustainableThroughput([run("a", 1000, true), run("a", 64000, true), run("a", 128000, false)]);
    expect(s!.maxThroughput).toBe(64000);
    expect(s!.nonMonotonic).toBe(false);
  });

  it("flags a lower failing throughput below a higher passing one", () => {
    const [s] = sustainableThroughput([run("a", 10000, true), run("a", 20000, false), run("a", 30000, true), run("a", 40000, false)]);
    expect(s!.maxThroughput).toBe(30000);
    expect(s!.nonMonotonic).toBe(true);
    const [t] = sustainableThroughput([run("a", 10000, false), run("a", 20000, true)]);
    expect(t!.nonMonotonic).toBe(true);
    expect(t!.maxThroughput).toBe(20000);
  });

  it("several runs at one throughput pass only if all pass", () => {
    const [s] = sustainableThroughput([run("a", 10000, true), run("a", 20000, true), run("a", 20000, false), run("a", 20000, true)]);
    expect(s!.points).toEqual([point(10000, true), point(20000, false)]);
    expect(s!.maxThroughput).toBe(10000);
  });

  it("nothing passes: maxThroughput null", () => {
    const [s] = sustainableThroughput([run("a", 10000, false), run("a", 20000, false)]);
    expect(s!.maxThroughput).toBeNull();
    expect(s!.nonMonotonic).toBe(false);
  });

  it("runs without throughput add no point; a configuration with none is listed empty", () => {
    const s = sustainableThroughput([run("a", null, false), run("b", null, true), run("a", 10000, true)]);
    expect(s).toEqual([
      { config: "a", maxThroughput: 10000, nonMonotonic: false, points: [{ throughput: 10000, pass: true }] },
      { config: "b", maxThroughput: null, nonMonotonic: false, points: [] },
    ]);
    expect(sustainableThroughput([])).toEqual([]);
  });

  it("maxThroughput is the highest passing point, and nonMonotonic says whether a failure lies below it (property)", () => {
    const runs = fc.array(fc.record({ config: fc.constantFrom("a", "b", "c"), throughput: fc.option(fc.integer({ min: 1, max: 20 })), pass: fc.boolean() }));
    fc.assert(
      fc.property(runs, (rs) => {
        const s = sustainableThroughput(rs.map((r, i) => ({ id: String(i), ...r })));
        expect(s.map((x) => x.config)).toEqual([...new Set(rs.map((r) => r.config))]);
        for (const x of s) {
          const mine = rs.filter((r) => r.config === x.config && r.throughput !== null);
          const passes = (t: number) => mine.filter((r) => r.throughput === t).every((r) => r.pass);
          const tested = [...new Set(mine.map((r) => r.throughput!))].sort((a, b) => a - b);
          expect(x.points).toEqual(tested.map((t) => ({ throughput: t, pass: passes(t) })));
          const passing = tested.filter(passes);
          expect(x.maxThroughput).toBe(passing.length ? passing[passing.length - 1]! : null);
          expect(x.nonMonotonic).toBe(tested.some((t) => !passes(t) && passing.some((p) => p > t)));
        }
      }),
    );
  });
});

const s = (config: string, points: [number, boolean][]): Sustainable =>
  sustainableThroughput(points.map(([t, p]) => run(config, t, p)))[0] ?? {
    config,
    maxThroughput: null,
    nonMonotonic: false,
    points: [],
  };

describe("verdictSentence", () => {
  const p99 = req("p99<=5ms");
  const sysA = s("sysA", [
    [5000, true],
    [10000, true],
    [20000, false],
  ]);
  const sysB = s("sysB", [
    [20000, true],
    [40000, true],
    [50000, false],
  ]);

  it("the brief's example", () => {
    expect(verdictSentence(p99, [sysA, sysB])).toBe("At p99 ≤ 5 ms, sysB sustains 40k/s and sysA 10k/s: sysB carries 4.0× the throughput.");
  });

  it("lists up to four entries in the units written, shortens more", () => {
    expect(verdictSentence(req("p50<=1ms, p99<=5ms"), [sysB])).toBe("At p50 ≤ 1 ms and p99 ≤ 5 ms, sysB sustains 40k/s.");
    expect(verdictSentence(req("p50<=500us, p99<=5ms, p99.9<=10ms, max<=0.1s"), [sysB])).toBe("At p50 ≤ 500 µs, p99 ≤ 5 ms, p99.9 ≤ 10 ms and max ≤ 0.1 s, sysB sustains 40k/s.");
    expect(verdictSentence(req("p50<=1ms, p90<=2ms, p99<=5ms, p99.9<=10ms, max<=100ms"), [sysB])).toBe("At p50 ≤ 1 ms … max ≤ 100 ms (5 limits), sysB sustains 40k/s.");
  });

  it("one configuration", () => {
    expect(verdictSentence(p99, [sysA])).toBe("At p99 ≤ 5 ms, sysA sustains 10k/s.");
  });

  it("a configuration where nothing passes", () => {
    const bad = s("sysA", [
      [10000, false],
      [20000, false],
    ]);
    expect(verdictSentence(p99, [bad])).toBe("At p99 ≤ 5 ms, sysA fails at every tested throughput (lowest 10k/s).");
    expect(verdictSentence(p99, [sysB, bad])).toBe("At p99 ≤ 5 ms, sysB sustains 40k/s. sysA fails at every tested throughput (lowest 10k/s).");
    const bad2 = s("sysC", [[2000, false]]);
    expect(verdictSentence(p99, [bad, bad2])).toBe("At p99 ≤ 5 ms, sysA and sysC fail at every tested throughput (lowest 10k/s and 2k/s).");
  });

  it("no throughputs known", () => {
    const none = s("sysA", []);
    // Nothing to rank: judge.ts says pass or fail instead (passFailSentence).
    expect(verdictSentence(p99, [none])).toBeNull();
    expect(verdictSentence(p99, [none, s("sysB", [])])).toBeNull();
    expect(verdictSentence(p99, [sysB, none])).toBe("At p99 ≤ 5 ms, sysB sustains 40k/s. sysA has no known throughput.");
  });

  it("ties", () => {
    const sysC = s("sysC", [
      [40000, true],
      [80000, false],
    ]);
    expect(verdictSentence(p99, [sysB, sysC])).toBe("At p99 ≤ 5 ms, sysB and sysC both sustain 40k/s.");
    expect(verdictSentence(p99, [sysB, sysA, sysC])).toBe("At p99 ≤ 5 ms, sysB and sysC both sustain 40k/s and sysA 10k/s: sysB and sysC carry 4.0× the throughput of sysA.");
    const sysD = s("sysD", [
      [10000, true],
      [12000, false],
    ]);
    expect(verdictSentence(p99, [sysB, sysA, sysD])).toBe("At p99 ≤ 5 ms, sysB sustains 40k/s and sysA and sysD both 10k/s: sysB carries 4.0× the throughput of sysA and sysD.");
  });

  it("more than two configurations are ranked", () => {
    const sysC = s("sysC", [
      [80000, true],
      [100000, false],
    ]);
    expect(verdictSentence(p99, [sysA, sysB, sysC])).toBe("At p99 ≤ 5 ms, sysC sustains 80k/s, sysB 40k/s and sysA 10k/s: sysC carries 2.0× the throughput of sysB.");
  });

  it("a configuration that passed everything it was tested at may sustain more", () => {
    const openB = s("sysB", [
      [20000, true],
      [40000, true],
    ]);
    const openA = s("sysA", [[10000, true]]);
    expect(verdictSentence(p99, [sysA, openB])).toBe(
      "At p99 ≤ 5 ms, sysB sustains 40k/s and sysA 10k/s: sysB carries at least 4.0× the throughput. sysB passed at every throughput tested, so it may sustain more.",
    );
    expect(verdictSentence(p99, [openA, sysB])).toBe(
      "At p99 ≤ 5 ms, sysB sustains 40k/s and sysA 10k/s: sysB carries at most 4.0× the throughput. sysA passed at every throughput tested, so it may sustain more.",
    );
    expect(verdictSentence(p99, [openA, openB])).toBe(
      "At p99 ≤ 5 ms, sysB sustains 40k/s and sysA 10k/s. sysA and sysB passed at every throughput tested, so they may sustain more.",
    );
  });

  it("says when results are not monotonic", () => {
    const odd = s("sysA", [
      [10000, true],
      [20000, false],
      [30000, true],
      [40000, false],
    ]);
    expect(verdictSentence(p99, [odd])).toBe("At p99 ≤ 5 ms, sysA sustains 30k/s. sysA fails at 20k/s yet passes at 30k/s: check these runs.");
  });

  it("ratios of ten or more have no decimals", () => {
    const big = s("big", [
      [120000, true],
      [200000, false],
    ]);
    expect(verdictSentence(p99, [big, sysA])).toBe("At p99 ≤ 5 ms, big sustains 120k/s and sysA 10k/s: big carries 12× the throughput.");
  });

  it("null without a requirement or without runs", () => {
    expect(verdictSentence(null, [sysA])).toBeNull();
    expect(verdictSentence({ entries: [] }, [sysA])).toBeNull();
    expect(verdictSentence(p99, [])).toBeNull();
  });

  it("the sentence follows from verdicts on real numbers", () => {
    // Two systems at three throughputs each; p99 values in ns.
    const p99At: Record<string, Record<number, number>> = {
      sysA: { 10000: 4 * MS, 20000: 5 * MS + 1, 40000: 30 * MS },
      sysB: { 10000: 1 * MS, 20000: 2 * MS, 40000: 5 * MS },
    };
    const runs: Run[] = [];
    for (const [config, byT] of Object.entries(p99At)) {
      for (const [t, v] of Object.entries(byT)) {
        runs.push({ id: `${config}@${t}`, config, throughput: Number(t), pass: verdictOf(p99, () => v).pass });
      }
    }
    expect(verdictSentence(p99, sustainableThroughput(runs))).toBe(
      "At p99 ≤ 5 ms, sysB sustains 40k/s and sysA 10k/s: sysB carries at least 4.0× the throughput. sysB passed at every throughput tested, so it may sustain more.",
    );
  });
});
