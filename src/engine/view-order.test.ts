// The engine lists series in one order (core/naming's compareSeries), whatever order they were
// loaded in: the series list, the verdict lines, the table and the Markdown all read it.
import { describe, expect, it } from "vitest";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { simulateQueue } from "../../tests/support/queue-sim";
import { Store } from "./store";

describe("the order of the views", () => {
  it("a 2 × 8 sweep loaded in string order reads by configuration, then throughput; corrected copies follow their series", async () => {
    const rates = ["1k", "2k", "5k", "10k", "20k", "40k", "80k", "160k"];
    const files = ["sysB", "sysA"].flatMap((c) => rates.map((r) => `${c}_${r}.hlog`)).sort();
    const text = writeHlog(simulateQueue({ rate: 200, seconds: 3, medianServiceSec: 1e-3, sigma: 0.5, stalls: [], seed: 1 }), { maxRatio: 1e6 });
    const store = new Store();
    for (const f of files) await store.load(f, [text]);
    expect(store.series.map((s) => s.name).slice(0, 3)).toEqual(["sysA_10k", "sysA_160k", "sysA_1k"]);
    const want = ["sysA", "sysB"].flatMap((c) => rates.map((r) => `${c}_${r}`));
    expect(store.views().map((v) => v.name)).toEqual(want);
    store.setCoInterval(5e6);
    const withCopies = store.views();
    expect(withCopies.map((v) => v.name)).toEqual(want.flatMap((n) => [n, `${n} (CO-corrected, 5 ms)`]));
    expect(withCopies.filter((_, i) => i % 2 === 1).every((v, k) => v.correctedFrom === withCopies[2 * k]!.id)).toBe(true);
  });
});
