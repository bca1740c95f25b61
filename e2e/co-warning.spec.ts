// The coordinated-omission warning for an interval log from a synchronous client: each stall
// measured once per connection, which the spectrum's shape alone does not show.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { simulateQueue, simulateSyncClient, type Stall } from "../tests/support/queue-sim";
import { writeHlog } from "../tests/support/hlog-fixture";
import { loadFiles, openEmpty } from "./helpers";

test("a synchronous client's stalls are flagged, with the rate and the missing requests; the open-loop run is not", async ({ page }) => {
  await openEmpty(page);
  const dir = mkdtempSync(join(tmpdir(), "hdr-co-"));
  const stalls: Stall[] = [
    { at: 10, duration: 0.31 },
    { at: 30, duration: 1.37 },
    { at: 50, duration: 0.74 },
  ];
  const sim = { rate: 20000, seconds: 60, medianServiceSec: 30e-6, sigma: 0.3, stalls, seed: 3 };
  const sync = join(dir, "sync_20k.hlog");
  const open = join(dir, "open_20k.hlog");
  writeFileSync(sync, writeHlog(simulateSyncClient({ ...sim, connections: 2 }).measured, { maxRatio: 1e6 }));
  writeFileSync(open, writeHlog(simulateQueue(sim), { maxRatio: 1e6 }));
  await loadFiles(page, [sync, open]);
  const w = page.locator("[data-testid=warning][data-kind=coordinated-omission]");
  await expect(w).toHaveCount(1);
  await expect(w).toHaveAttribute("data-series", "sync_20k");
  await expect(w).toContainText(/At the run's 20k requests\/s, a stall that left a max of 31\d(\.\d)? ms/);
  await expect(w).toContainText(/this run has 6, and the intervals around 10 s hold 6\d\d\d fewer requests/);
  await expect(w).toContainText("Control-Z");
  await w.screenshot({ path: "screens/co-warning.png" });
});
