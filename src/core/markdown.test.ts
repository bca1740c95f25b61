import { describe, expect, it } from "vitest";
import { noValuesText } from "./judge";
import { escapeCell, markdownSummary } from "./markdown";

const row = (name: string, verdict = "") => ({ name, values: { p50: 0.08, p90: 0.16, p99: 34.05, p999: 135.7, p9999: 157.7, max: 160.2 }, count: 120000, verdict });

describe("markdownSummary", () => {
  it("is a table with one row per series, values in the display unit, max in bold", () => {
    const md = markdownSummary({
      rows: [row("sysA_2k", "pass"), row("sysB|x", "fail at p99")],
      unit: "ms",
      requirement: "p99<=40ms",
      sentence: "At p99 ≤ 40 ms, sysB sustains 8k/s.",
      shareUrl: "https://example.test/#s=2.abc",
      range: { start: null, end: null },
    });
    const lines = md.split("\n");
    const header = lines.find((l) => l.startsWith("| Series"))!;
    expect(header).toBe("| Series | p50 (ms) | p90 (ms) | p99 (ms) | p99.9 (ms) | p99.99 (ms) | max (ms) | count | verdict |");
    expect(lines).toContain("| sysA_2k | 0.08 | 0.16 | 34.05 | 135.7 | 157.7 | **160.2** | 120,000 | ✅ pass |");
    // A pipe in a name must not break the table.
    expect(lines.find((l) => l.startsWith("| sysB"))!.split(/(?<!\\)\|/).length).toBe(header.split("|").length);
    expect(md).toContain("Requirement: `p99<=40ms`");
    expect(md).toContain("**At p99 ≤ 40 ms, sysB sustains 8k/s.**");
    expect(md).toContain("[Open this view](https://example.test/#s=2.abc)");
  });

  it("no verdict column without a requirement; states the time window", () => {
    const md = markdownSummary({ rows: [row("a")], unit: "us", requirement: null, sentence: null, shareUrl: null, range: { start: 5, end: 20 } });
    expect(md).not.toContain("verdict");
    expect(md).toContain("p99 (µs)");
    expect(md).toContain("Time window: 5 s to 20 s");
  });

  it("escapes markup in names", () => {
    expect(escapeCell("<script>|a*b_c`\n")).toBe("\\<script\\>\\|a\\*b_c\\` ");
  });

  // CommonMark (spec 0.31, "left- and right-flanking delimiter runs"): a run of _ with a letter or
  // digit on both sides can neither open nor close emphasis; anywhere else it may.
  it("leaves an underscore between letters or digits as it is, escapes it where it could start or end emphasis", () => {
    expect(escapeCell("sync_20k_run")).toBe("sync_20k_run");
    expect(escapeCell("snake__case")).toBe("snake__case");
    expect(escapeCell("größe_über_1")).toBe("größe_über_1");
    expect(escapeCell("_private_")).toBe("\\_private\\_");
    expect(escapeCell("a_ b _c")).toBe("a\\_ b \\_c");
    expect(escapeCell("x_×2")).toBe("x\\_×2");
    expect(escapeCell("a_*b*")).toBe("a\\_\\*b\\*");
    expect(escapeCell("__init__")).toBe("\\_\\_init\\_\\_");
  });

  it("a headline naming series with underscores reads as written, in bold", () => {
    const md = markdownSummary({
      rows: [row("sync_20k"), row("async_20k")],
      unit: "ms",
      requirement: null,
      sentence: null,
      headline: "async_20k is 3× faster than sync_20k at p99.9: 120 ms → 40 ms",
      shareUrl: null,
      range: { start: null, end: null },
    });
    const lines = md.split("\n");
    expect(lines[0]).toBe("**async_20k is 3× faster than sync_20k at p99.9: 120 ms → 40 ms**");
    expect(lines.some((l) => l.startsWith("| sync_20k | "))).toBe(true);
  });
});

describe("spectrumCsv", () => {
  it("one row per bucket with its percentile range; names quoted and defused", async () => {
    const { spectrumCsv } = await import("./markdown");
    const csv = spectrumCsv([{ name: "=cmd|x, y", values: [1, 2], cumulative: [3, 4], totalCount: 4 }], "ms");
    expect(csv.split("\n")).toEqual(["series,percentile_from,percentile_to,value_ms,count_at_or_below", `"'=cmd|x, y",0,75,1,3`, `"'=cmd|x, y",75,100,2,4`, ""]);
  });
});

describe("a series without values", () => {
  const empty = { totalCount: 0 } as unknown as Parameters<typeof noValuesText>[0]["spectrum"];
  it("says why in words: every request failed, or none in the time window", () => {
    expect(noValuesText({ spectrum: empty, wholeCount: 0, failures: 1234 })).toBe("no successful requests: 1,234 failed");
    expect(noValuesText({ spectrum: empty, wholeCount: 50, failures: 3 })).toBe("no values in the time window");
    expect(noValuesText({ spectrum: { totalCount: 5 } as typeof empty, wholeCount: 5, failures: 3 })).toBeNull();
  });

  it("its Markdown row holds the words where the numbers would be, never zeros", () => {
    const md = markdownSummary({
      rows: [
        row("ok", "pass"),
        { name: "pay", values: { p50: 0, p90: 0, p99: 0, p999: 0, p9999: 0, max: 0 }, count: 0, verdict: "", noValues: "no successful requests: 6 failed" },
      ],
      unit: "ms",
      requirement: "p99<=40ms",
      sentence: null,
      shareUrl: null,
      range: { start: null, end: null },
    });
    expect(md.split("\n")).toContain("| pay | *no successful requests: 6 failed* | – | – | – | – | – | 0 | not judged |");
  });
});
