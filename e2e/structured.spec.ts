import { expect, test } from "@playwright/test";
import { join } from "node:path";
import { fioBinTopByC, PRODUCER_FIXTURES, producerFixture } from "../tests/support/producer-outputs";
import { cell, loadFiles, openEmpty } from "./helpers";

// Real producers' outputs (scripts/producers): fio 3.33, Prometheus 2.42 with a client_golang
// exporter, the OpenTelemetry JS SDK 2.x.
test("fio, Prometheus and OpenTelemetry histograms load by content, as intervals where they have times, their resolution said", async ({ page }) => {
  await openEmpty(page);
  await loadFiles(
    page,
    ["fio_clat_hist.1.log", "fio-jsonplus.json", "prom-native-range.json", "otel-sdk-cumulative.jsonl"].map((f) => join(PRODUCER_FIXTURES, f)),
  );
  await expect(page.getByTestId("load-errors")).toHaveCount(0);
  await expect(page.getByTestId("load-notes")).toContainText("upper bound");

  // fio's histogram log: a series per direction holding every I/O its lines count.
  const rows = producerFixture("fio_clat_hist.1.log")
    .trim()
    .split("\n")
    .map((l) => l.split(", ").map(Number));
  for (const [dir, tag] of ["read", "write"].entries()) {
    const n = rows.filter((r) => r[1] === dir).reduce((a, r) => a + r.slice(3).reduce((x, y) => x + y, 0), 0);
    await expect(page.locator(`[data-testid=series][data-source='fio_clat_hist.1.log'][data-tag='${tag}']`)).toHaveAttribute("data-count", String(n));
  }

  // fio json+: the 99th percentile is the top of the bin holding fio's own printed value.
  const fio = JSON.parse(producerFixture("fio-jsonplus.json")) as { jobs: { read: { clat_ns: { N: number; percentile: Record<string, number> } } }[] };
  const read = page.locator("[data-testid=series][data-source='fio-jsonplus.json'][data-tag='job read clat']");
  await expect(read).toHaveAttribute("data-count", String(fio.jobs[0]!.read.clat_ns.N));
  await expect(read).toHaveAttribute("data-unit", "ns");
  const top = Number(fioBinTopByC(BigInt(fio.jobs[0]!.read.clat_ns.percentile["99.000000"]!)));
  const p99 = Number(await cell(page, (await read.getAttribute("data-name"))!, "99").getAttribute("data-raw"));
  expect(p99).toBeGreaterThanOrEqual(top);
  expect(p99).toBeLessThanOrEqual(top * (1 + 1 / 1024));

  // Prometheus: the increases, not the sum of the snapshots (900 observed, not 900 × points).
  await expect(page.locator("[data-testid=series][data-source='prom-native-range.json']")).toHaveAttribute("data-count", "900");
  // OpenTelemetry: two histograms of 600 values each.
  const otel = page.locator("[data-testid=series][data-source='otel-sdk-cumulative.jsonl']");
  await expect(otel).toHaveCount(2);
  for (const r of await otel.all()) await expect(r).toHaveAttribute("data-count", "600");

  await expect(page.getByTestId("timeline")).toBeVisible();
  await page.screenshot({ path: "screens/structured.png", fullPage: true });
});
