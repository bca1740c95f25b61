// `report --link-base URL --compare …`: the link the command line prints opens the page on the
// comparison the command line computed, so the review comment and the opened view agree:
// headline, every ratio point (ratio, range, verdict) and the sentence.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { idle } from "./helpers";

const root = resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT || 4173);

interface Point {
  percentile: number;
  ratio: number;
  low: number | null;
  high: number | null;
  verdict: string;
}

test("the printed link opens with the command line's headline, ratio points and sentence", async ({ page }) => {
  const build = spawnSync(process.execPath, [join(root, "scripts/build-cli.mjs")], { cwd: root, encoding: "utf8" });
  expect(build.status, build.stderr).toBe(0);
  const demo = join(root, "public/demo");
  const base = join(demo, "sysA_8k.response.hlog");
  const cand = join(demo, "sysB_8k.response.hlog");
  const requirement = "p50<=1ms, p99<=40ms, p99.9<=150ms, max<=200ms";
  const args = ["report", "--require", requirement, "--link-base", `http://127.0.0.1:${port}/`, "--compare", base, cand];
  const cli = (more: string[]) => spawnSync(process.execPath, [join(root, "dist-cli/hdr-spectrum.mjs"), ...args, ...more], { encoding: "utf8" });
  const r = cli(["--json"]);
  expect(r.status, r.stderr).toBe(0);
  const json = JSON.parse(r.stdout) as {
    shareUrl: string;
    comparison: { baseline: string; pairs: { candidate: string; sentence: string; headline: Record<string, number | string | null>; points: Point[] }[] };
  };
  const pair = json.comparison.pairs[0]!;
  // The Markdown's "Open this view" is the same link.
  const md = cli([]);
  expect(md.stdout).toContain(`(${json.shareUrl})`);

  await page.goto(json.shareUrl);
  await page.waitForTimeout(50);
  await idle(page);
  const panel = page.getByTestId("compare");
  await expect(page.getByTestId("compare-baseline")).toHaveValue(json.comparison.baseline);
  await expect(page.getByTestId("compare-candidate")).toHaveValue(pair.candidate);
  await expect(panel.getByTestId("compare-sentence")).toHaveText(pair.sentence);

  const attr = (n: number | string | null) => (n === null ? "" : String(n));
  for (const p of pair.points) {
    const el = panel.locator(`[data-testid=ratio-point][data-percentile="${p.percentile}"]`);
    await expect(el, `p${p.percentile} ratio`).toHaveAttribute("data-ratio", attr(p.ratio));
    await expect(el, `p${p.percentile} low`).toHaveAttribute("data-low", attr(p.low));
    await expect(el, `p${p.percentile} high`).toHaveAttribute("data-high", attr(p.high));
    await expect(el, `p${p.percentile} verdict`).toHaveAttribute("data-verdict", p.verdict);
  }
  const h = panel.getByTestId("headline");
  for (const k of ["percentile", "baseline", "candidate", "ratio", "low", "high", "verdict"] as const) await expect(h, k).toHaveAttribute(`data-${k}`, attr(pair.headline[k]!));
});
