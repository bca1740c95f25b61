// The top sentence when no throughput is known: pass or fail, named, with the worst value and
// how far over its limit it is (computed here by hand from the verdicts' own numbers).
import { describe, expect, it } from "vitest";
import { judgeRows, markdownRows, passFailSentence, verdictFor, verdictText, type JudgedRow, type JudgedView } from "./judge";
import { parseRequirement, verdictOf, type Requirement } from "./requirements";

function req(text: string): Requirement {
  const r = parseRequirement(text);
  if (!r.ok || !r.value) throw new Error(text);
  return r.value;
}

/** A run whose value at every percentile is `at(p)` ms. */
function row(name: string, r: Requirement, at: (p: number) => number, throughput: number | null = null): JudgedRow {
  return {
    view: { id: name, name, config: name, throughput, kind: "", recordedUnit: "ms", spectrum: { totalCount: 1 } as never },
    verdict: verdictOf(r, (p) => at(p) * 1e6),
  };
}

describe("passFailSentence", () => {
  const p99 = req("p99<=10ms");
  it("names the failing run, its value and how many times the limit", () => {
    const rows = [row("ycsb-read", p99, () => 130.6), row("ycsb-update", p99, () => 4), row("ycsb-scan", p99, () => 9.9)];
    // 130.6 / 10 = 13.06: "13×".
    expect(passFailSentence(p99, rows)).toBe("1 of 3 fails p99 ≤ 10 ms: ycsb-read, 130.6 ms, 13× the limit.");
  });
  it("says when all pass, and for one run", () => {
    expect(passFailSentence(p99, [row("a", p99, () => 1), row("b", p99, () => 2), row("c", p99, () => 3)])).toBe("All 3 pass p99 ≤ 10 ms.");
    expect(passFailSentence(p99, [row("a", p99, () => 1), row("b", p99, () => 2)])).toBe("Both pass p99 ≤ 10 ms.");
    expect(passFailSentence(p99, [row("a", p99, () => 12)])).toBe("a fails p99 ≤ 10 ms: 12 ms, 1.2× the limit.");
  });
  it("with several entries, names the entry furthest over its limit", () => {
    const r = req("p50<=1ms, p99<=10ms");
    // p50 at 1.5 ms is 1.5× its limit, p99 at 40 ms is 4×: p99 is the worse.
    const rows = [row("a", r, (p) => (p >= 99 ? 40 : 1.5)), row("b", r, () => 0.5)];
    expect(passFailSentence(r, rows)).toBe("1 of 2 fails p50 ≤ 1 ms and p99 ≤ 10 ms: a, p99 40 ms, 4.0× the limit.");
  });
  it("past three failing runs, says how many more", () => {
    const rows = ["a", "b", "c", "d", "e"].map((n, i) => row(n, p99, () => 20 + i));
    expect(passFailSentence(p99, rows)).toMatch(/^All 5 fail p99 ≤ 10 ms: a, 20 ms, 2\.0× the limit; b, .*; c, .*; and 2 more\.$/);
  });
  it("is the top sentence only when no throughput is known, and never points at the page", () => {
    const rows = [row("a", p99, () => 20), row("b", p99, () => 2)];
    expect(judgeRows(rows, p99).sentence).toBe("1 of 2 fails p99 ≤ 10 ms: a, 20 ms, 2.0× the limit.");
    const swept = [row("a", p99, () => 20, 1000), row("b", p99, () => 2, 2000)];
    expect(judgeRows(swept, p99).sentence).toMatch(/sustains/);
    expect(judgeRows(rows, null).sentence).toBeNull();
  });
});

describe("a series whose every request failed", () => {
  const p99 = req("p99<=10ms");
  const empty = { totalCount: 0, max: 0, percentiles: {} } as unknown as JudgedView["spectrum"];
  const view = (wholeCount: number, failures: number): JudgedView => ({
    id: "pay",
    name: "pay",
    config: "",
    throughput: null,
    kind: "",
    recordedUnit: "ms",
    spectrum: empty,
    wholeCount,
    failures,
  });

  it("fails the requirement, in words: no value cannot show that a latency limit holds", () => {
    const v = verdictFor(view(0, 6), p99)!;
    expect(v.pass).toBe(false);
    expect(v.firstViolation).toBe(99);
    expect(verdictText(v)).toBe("fails: no successful requests");
    expect(passFailSentence(p99, [{ view: view(0, 6), verdict: v }])).toBe("pay fails p99 ≤ 10 ms: no successful requests: 6 failed.");
    expect(markdownRows([{ view: view(0, 6), verdict: v }], "ms")[0]!.verdict).toBe("fails: no successful requests");
  });

  it("is not judged when its values lie outside the time window, or when it has none and no failures either", () => {
    expect(verdictFor(view(50, 6), p99)).toBeNull();
    expect(verdictFor(view(0, 0), p99)).toBeNull();
    expect(verdictFor(view(0, 6), null)).toBeNull();
  });
});
