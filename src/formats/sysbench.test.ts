// sysbench 1.0's --histogram printout, written by sysbench itself: a whole-run histogram whose
// rows are matched to sysbench's cells by their order, compared with the statistics sysbench
// printed below it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { factsOf, numberAfter, producerText, readProducer } from "../../tests/support/real-producers";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { SYSBENCH_CELLS, sysbenchCellTop, sysbenchLabel, sysbenchReader } from "./sysbench";

const text = producerText("sysbench", "sysbench-histogram.txt");
const rows = [...text.matchAll(/^\s*(\d+\.\d{3}) \|\**\s* (\d+)$/gm)].map((m) => ({ label: m[1]!, count: Number(m[2]) }));

describe("sysbench --histogram", () => {
  it("is taken by the sysbench reader", () => {
    expect(pickFormat("sysbench.txt", text.slice(0, 4096))?.id).toBe("sysbench");
  });

  it("the cells' labels are the ones sysbench prints: repeated at small values, rising after", () => {
    expect(sysbenchLabel(0)).toBe("0.001");
    expect(sysbenchLabel(SYSBENCH_CELLS - 1)).toBe("100000.000");
    const labels = new Set(Array.from({ length: SYSBENCH_CELLS }, (_, i) => sysbenchLabel(i)));
    expect(labels.size).toBeLessThan(SYSBENCH_CELLS);
    // the fixture repeats labels (several cells print 0.022)
    expect(new Set(rows.map((r) => r.label)).size).toBeLessThan(rows.length);
  });

  it("holds every event; max and 95th percentile agree with sysbench's, never below, within a cell", async () => {
    const r = await readProducer("sysbench", "sysbench-histogram.txt");
    expect(r.problems).toEqual([expect.objectContaining({ note: true, reason: expect.stringMatching(/1\.8% wide/) })]);
    const f = factsOf(r);
    expect(f.unit).toBe("ns");
    expect(f.count).toBe(numberAfter(text, /total number of events:\s+/));
    expect(f.count).toBe(rows.reduce((a, x) => a + x.count, 0));
    // sysbench prints ms with two decimals: its max lies within half a hundredth of the true max,
    // which lies in the last row's cell; what is read is that cell's upper bound
    const max = numberAfter(text, /^\s*max:\s+/m) * 1e6;
    expect(f.max).toBeGreaterThanOrEqual(max - 5000);
    expect(f.max).toBeLessThanOrEqual((max + 5000) * 1.019);
    const p95 = numberAfter(text, /95th percentile:\s+/) * 1e6;
    expect(f.p(95)).toBeGreaterThanOrEqual(p95 - 5000);
    expect(f.p(95)).toBeLessThanOrEqual((p95 + 5000) * 1.019);
    expect(f.min).toBeGreaterThanOrEqual(Number(rows[0]!.label) * 1e6 - 500);
  });

  it("gives rows that share a label the top cells that print it, in order, each at its upper bound", () => {
    // the label the fixture's first rows repeat, and the last cell that prints it
    const label = rows[0]!.label;
    const top = Array.from({ length: SYSBENCH_CELLS }, (_, c) => c)
      .filter((c) => sysbenchLabel(c) === label)
      .pop()!;
    const p = sysbenchReader.create("s.txt");
    [
      "Latency histogram (values are in milliseconds)",
      "       value  ------------- distribution ------------- count",
      `       ${label} |**** 5`,
      `       ${label} |** 2`,
      "",
    ].forEach((l, n) => p.line(l, n + 1));
    const h = p.finish().series[0]!.histogram;
    expect(h.totalCount).toBe(7);
    expect(h.maxValue).toBe(Math.ceil(sysbenchCellTop(top) * 1e6));
    expect(h.minNonZeroValue).toBeGreaterThanOrEqual(Math.ceil(sysbenchCellTop(top - 1) * 1e6) * 0.999);
    expect(h.minNonZeroValue).toBeLessThan(h.maxValue);
  });

  it("names a row whose label no cell prints", () => {
    const p = sysbenchReader.create("s.txt");
    [
      "Latency histogram (values are in milliseconds)",
      "       value  ------------- distribution ------------- count",
      "       0.022 |**** 5",
      "       0.0225 |* 1",
      "       1.234 |* 1",
    ].forEach((l, n) => p.line(l, n + 1));
    const out = p.finish();
    expect(out.problems.filter((x) => !x.note).map((x) => x.line)).toEqual([4, 5]);
  });

  itReadsTheSameInChunks(sysbenchReader, "s.txt", text, 300, 20);
  itSurvivesGarbage(sysbenchReader, "s.txt", fc.array(fc.oneof(fc.string(), fc.constantFrom(...text.split("\n").slice(12, 30))), { maxLength: 10 }));
});
