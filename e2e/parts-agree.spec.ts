// Logs big enough to be cut into pieces: the comparison's intervals rest on how a log's blocks
// are laid out. Every part's blocks lie where a read in one piece lays them, however many
// workers cut the log, so the page (its workers taking pieces as they free up), the command
// line with its helper threads and the command line on one thread (each log in one piece) give
// the same intervals, digit for digit.
import { spawnSync } from "node:child_process";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { writeDayLog } from "../tests/support/day-log";
import { idle, loadFiles, openEmpty } from "./helpers";

const root = resolve(import.meta.dirname, "..");

interface Point {
  percentile: number;
  ratio: number | null;
  low: number | null;
  high: number | null;
  verdict: string;
}

function cliPoints(args: string[]): Point[] {
  const r = spawnSync(process.execPath, [join(root, "dist-cli/hdr-spectrum.mjs"), "report", "--json", ...args], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  const json = JSON.parse(r.stdout) as { comparison: { pairs: { points: Point[] }[] } };
  return json.comparison.pairs[0]!.points;
}

test("two logs read in pieces: the page and the command line (helper threads or one) give the same intervals", async ({ page }) => {
  test.setTimeout(180_000);
  const build = spawnSync(process.execPath, [join(root, "scripts/build-cli.mjs")], { cwd: root, encoding: "utf8" });
  expect(build.status, build.stderr).toBe(0);
  const dir = mkdtempSync(join(tmpdir(), "hdr-parts-agree-"));
  const files = [join(dir, "sysA.hlog"), join(dir, "sysB.hlog")];
  writeDayLog(files[0]!, { intervals: 12_000, seed: 3 });
  writeDayLog(files[1]!, { intervals: 12_000, seed: 4 });
  // Above the 4 MB at which an interval log is cut into pieces.
  for (const f of files) expect(statSync(f).size).toBeGreaterThan(4 * 1024 * 1024);

  const withHelpers = cliPoints(["--compare", "sysA", ...files]);
  const alone = cliPoints(["--no-workers", "--compare", "sysA", ...files]);
  expect(alone).toEqual(withHelpers);
  expect(withHelpers.filter((p) => p.low !== null).length).toBeGreaterThanOrEqual(4);

  await openEmpty(page);
  await loadFiles(page, files);
  await page.getByTestId("compare-open").click();
  await page.waitForTimeout(50);
  await idle(page);
  await expect(page.getByTestId("compare-baseline")).toHaveValue("sysA");
  await expect(page.getByTestId("compare-candidate")).toHaveValue("sysB");
  const rows = page.getByTestId("ratio-point");
  await expect(rows).toHaveCount(withHelpers.length);
  const num = (v: string | null) => (v === null || v === "" ? null : Number(v));
  for (const [i, p] of withHelpers.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute("data-percentile", String(p.percentile));
    // Digit for digit: the interval's ends come from log2 and 2^x written with basic operations
    // (core/exact-math.ts), as Node's and Chromium's Math.pow and Math.log round differently.
    for (const k of ["ratio", "low", "high"] as const) expect(num(await row.getAttribute(`data-${k}`)), `p${p.percentile} ${k}`).toBe(p[k]);
    await expect(row).toHaveAttribute("data-verdict", p.verdict);
  }
});
