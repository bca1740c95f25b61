// The command line's JSON equals the page's table for the same files: one engine, two faces.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { haveSamples, HDR, HGRM, loadFiles, openEmpty } from "./helpers";
import type { JsonSeries } from "../src/cli/report";

const root = resolve(import.meta.dirname, "..");

test.describe("hdr-spectrum report --json", () => {
  test.skip(!haveSamples, "../shared/samples is absent");

  test("equals the page's series rows and table cells (data-raw) for the same files", async ({ page }) => {
    const build = spawnSync(process.execPath, [join(root, "scripts/build-cli.mjs")], { cwd: root, encoding: "utf8" });
    expect(build.status, build.stderr).toBe(0);
    const files = [
      join(HDR, "jHiccup-2.0.7S.logV2.hlog"),
      join(HDR, "tagged-Log.logV2.hlog"),
      join(HDR, "jHiccup-2.0.1.logV0.hlog"),
      join(HGRM, "12Krps.hgrm"),
      join(HGRM, "wrk2-latency-output.txt"),
    ];
    const r = spawnSync(process.execPath, [join(root, "dist-cli/hdr-spectrum.mjs"), "report", "--json", ...files], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { version: number; series: JsonSeries[] };
    expect(json.version).toBe(1);

    await openEmpty(page);
    await loadFiles(page, files);
    const rows = page.getByTestId("series");
    await expect(rows).toHaveCount(json.series.length);
    for (const [i, s] of json.series.entries()) {
      const row = rows.nth(i);
      await expect(row).toHaveAttribute("data-name", s.name);
      await expect(row).toHaveAttribute("data-source", s.source);
      await expect(row).toHaveAttribute("data-tag", s.tag ?? "");
      await expect(row).toHaveAttribute("data-config", s.config);
      await expect(row).toHaveAttribute("data-throughput", s.throughput === null ? "" : String(s.throughput));
      await expect(row).toHaveAttribute("data-kind", s.kind ?? "");
      await expect(row).toHaveAttribute("data-count", String(s.count));
      await expect(row).toHaveAttribute("data-unit", s.unit);
      for (const p of ["50", "90", "99", "99.9", "99.99", "99.999", "100"]) {
        const cell = page.locator(`[data-testid=percentile-table] [data-series="${s.name}"][data-percentile="${p}"]`);
        await expect(cell, `${s.name} p${p}`).toHaveAttribute("data-raw", String(s.percentiles[p]));
      }
    }
  });
});

test("report --compare: the JSON headline equals the page's headline and the series' percentiles for the same files", async ({ page }) => {
  const build = spawnSync(process.execPath, [join(root, "scripts/build-cli.mjs")], { cwd: root, encoding: "utf8" });
  expect(build.status, build.stderr).toBe(0);
  const demo = join(root, "public/demo");
  const files = ["sysA_8k.response.hlog", "sysB_8k.response.hlog"].map((f) => join(demo, f));
  const requirement = "p50<=1ms, p99<=40ms, p99.9<=150ms, max<=200ms";
  const r = spawnSync(process.execPath, [join(root, "dist-cli/hdr-spectrum.mjs"), "report", "--json", "--require", requirement, "--compare", "sysA_8k.response", ...files], {
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  const json = JSON.parse(r.stdout) as {
    series: JsonSeries[];
    comparison: { pairs: { candidate: string; headline: Record<string, number | string | null>; headlineText: string; sentence: string }[] };
  };
  const h = json.comparison.pairs[0]!.headline;
  expect(h.percentile).toBe(99.9);
  expect(h.baseline).toBe(json.series.find((s) => s.name === "sysA_8k.response")!.percentiles["99.9"]);
  expect(h.candidate).toBe(json.series.find((s) => s.name === "sysB_8k.response")!.percentiles["99.9"]);

  await openEmpty(page);
  await loadFiles(page, files);
  await page.getByTestId("requirement-input").fill(requirement);
  await page.getByTestId("requirement-input").press("Enter");
  await page.getByTestId("compare-open").click();
  await page.waitForTimeout(50);
  await expect(page.getByTestId("app")).toHaveAttribute("data-busy", "false", { timeout: 30_000 });
  const el = page.getByTestId("compare").getByTestId("headline");
  await expect(el).toHaveAttribute("data-percentile", "99.9");
  for (const k of ["baseline", "candidate", "ratio", "low", "high"] as const) {
    const a = await el.getAttribute(`data-${k}`);
    if (h[k] === null) expect(a, k).toBe("");
    else expect(Number(a), k).toBe(h[k]);
  }
  await expect(el).toHaveAttribute("data-verdict", String(h.verdict));
  // The same words: the headline's line, what it rests on, and the sentence.
  await expect(el).toHaveAttribute("data-text", json.comparison.pairs[0]!.headlineText);
  await expect(el).toHaveAttribute("data-basis", String(h.basis ?? ""));
  await expect(page.getByTestId("compare-sentence")).toHaveText(json.comparison.pairs[0]!.sentence);
});

test.describe("report --compare on real logs", () => {
  test.skip(!haveSamples, "../shared/samples is absent");

  test("jHiccup (2 significant digits) against wrk2: the JSON headline equals the page's, and the table's values", async ({ page }) => {
    const files = [join(HDR, "jHiccup-2.0.7S.logV2.hlog"), join(HGRM, "wrk2-latency-output.txt")];
    const r = spawnSync(process.execPath, [join(root, "dist-cli/hdr-spectrum.mjs"), "report", "--json", "--compare", "jHiccup-2.0.7S.logV2.hlog", ...files], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as {
      series: JsonSeries[];
      comparison: { baseline: string; pairs: { candidate: string; headline: Record<string, number | string | null> }[] };
    };
    const pair = json.comparison.pairs[0]!;
    const h = pair.headline;
    expect(h.percentile).toBe(99);
    expect(h.baseline).toBe(json.series.find((s) => s.name === json.comparison.baseline)!.percentiles["99"]);
    expect(h.candidate).toBe(json.series.find((s) => s.name === pair.candidate)!.percentiles["99"]);

    await openEmpty(page);
    await loadFiles(page, files);
    await page.getByTestId("compare-open").click();
    await page.getByTestId("compare-baseline").selectOption(json.comparison.baseline);
    await page.getByTestId("compare-candidate").selectOption(pair.candidate);
    await page.waitForTimeout(50);
    await expect(page.getByTestId("app")).toHaveAttribute("data-busy", "false", { timeout: 30_000 });
    const el = page.getByTestId("compare").getByTestId("headline");
    await expect(el).toHaveAttribute("data-percentile", "99");
    for (const k of ["baseline", "candidate", "ratio", "low", "high"] as const) {
      const a = await el.getAttribute(`data-${k}`);
      if (h[k] === null) expect(a, k).toBe("");
      else expect(Number(a), k).toBe(h[k]);
    }
    await expect(el).toHaveAttribute("data-verdict", String(h.verdict));
    const cellRaw = (n: string) => page.locator(`[data-testid=percentile-table] [data-series="${n}"][data-percentile="99"]`).getAttribute("data-raw");
    await expect(el).toHaveAttribute("data-baseline", (await cellRaw(json.comparison.baseline))!);
    await expect(el).toHaveAttribute("data-candidate", (await cellRaw(pair.candidate))!);
  });
});
