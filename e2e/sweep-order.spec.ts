// A sweep reads in order (configuration, then throughput as a number) in the series list, the
// verdict and the table, and response against service time is told once per configuration.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { simulateQueue } from "../tests/support/queue-sim";
import { writeHlog } from "../tests/support/hlog-fixture";
import { idle, loadFiles, openEmpty } from "./helpers";

const rates = ["1k", "2k", "5k", "10k", "20k", "40k", "80k", "160k"];
const tput = { "1k": 1e3, "2k": 2e3, "5k": 5e3, "10k": 1e4, "20k": 2e4, "40k": 4e4, "80k": 8e4, "160k": 16e4 } as Record<string, number>;

test("a 2 configurations × 8 throughputs sweep, response and service time, loaded in string order", async ({ page, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await openEmpty(page);
  const dir = mkdtempSync(join(tmpdir(), "hdr-sweep-"));
  const paths: string[] = [];
  ["sysA", "sysB"].forEach((c, ci) =>
    rates.forEach((r, k) => {
      const seed = 10 * ci + k + 1;
      // the response time queues behind stalls that grow with the throughput: widest at 160k
      const stalls = [{ at: 2, duration: 0.02 * (k + 1) * (ci + 1) }];
      for (const [kind, st] of [
        ["service", []],
        ["response", stalls],
      ] as const) {
        const p = join(dir, `${c}_${r}.${kind}.hlog`);
        writeFileSync(p, writeHlog(simulateQueue({ rate: 300, seconds: 5, medianServiceSec: 1e-3, sigma: 0.4, stalls: [...st], seed }), { maxRatio: 1e6 }));
        paths.push(p);
      }
    }),
  );
  paths.sort(); // string order: sysA_10k, sysA_160k, sysA_1k, …
  await loadFiles(page, paths);
  await page.getByTestId("requirement-input").fill("p99<=60ms");
  await page.getByTestId("requirement-input").press("Enter");
  await page.waitForTimeout(50);
  await idle(page);

  const want = ["sysA", "sysB"].flatMap((c) => rates.flatMap((r) => [`${c}_${r}.response`, `${c}_${r}.service`]));
  const listed = await page.getByTestId("series").evaluateAll((els) => els.map((e) => e.getAttribute("data-name")));
  expect(listed).toEqual(want);
  const tableOrder = await page.locator("[data-testid=percentile-table] [data-percentile='100']").evaluateAll((els) => els.map((e) => e.getAttribute("data-series")));
  expect(tableOrder).toEqual(want);
  // The verdict: each configuration's throughputs ascending.
  const points = page.locator("[data-testid=sustainable] .points");
  await expect(points).toHaveCount(2);
  for (const k of [0, 1]) expect((await points.nth(k).textContent())!.match(/[\d.]+[kM]?\/s/g)).toEqual(rates.map((r) => `${r}/s`));
  // Response against service time: one line per configuration, at its widest gap.
  const gaps = page.getByTestId("kind-gap");
  await expect(gaps).toHaveCount(2);
  await expect(gaps.nth(0)).toHaveAttribute("data-config", "sysA");
  await expect(gaps.nth(0)).toHaveAttribute("data-pairs", "8");
  await expect(gaps.nth(0)).toHaveAttribute("data-throughput", String(tput["160k"]));
  await expect(gaps.nth(0)).toHaveAttribute("data-response", "sysA_160k.response");
  await expect(gaps.nth(1)).toHaveAttribute("data-config", "sysB");
  await expect(gaps.nth(1)).toContainText("at 8 throughputs, widest at 160k/s");
  await expect(gaps.nth(1)).toContainText("queue");
  // The Markdown table reads in the same order.
  await page.getByTestId("copy-markdown").click();
  const md = await page.getByTestId("markdown-output").inputValue();
  const mdNames = md
    .split("\n")
    .filter((l) => /^\| sys/.test(l))
    .map((l) => l.split(" | ")[0]!.slice(2).replace(/\\_/g, "_"));
  expect(mdNames).toEqual(want);
  await page.locator(".judgement").screenshot({ path: "screens/sweep-verdict.png" });
});
