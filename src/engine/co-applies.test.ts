// The coordinated-omission warning stays quiet where its tests cannot judge (a metric's bucket
// counts, cyclictest's overflows placed at the max) and still fires on the same cliff measured
// one value at a time.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bucketsOf, maxOf } from "../core/histogram";
import { Store } from "./store";

const FIX = "fixtures/producers";

async function load(name: string, text: string) {
  const store = new Store();
  const r = await store.load(name, [text]);
  expect(r.problems.filter((p) => !p.note)).toEqual([]);
  return store;
}

describe("where the coordinated-omission warning cannot judge", () => {
  const cyclictest = `${FIX}/cyclictest/cyclictest-h.txt`;
  it.skipIf(!existsSync(cyclictest))("cyclictest with overflows placed at the max: no warning; the same values one per line: the warning", async () => {
    const store = await load("cyclictest-h.txt", readFileSync(cyclictest, "utf8"));
    const t1 = store.series.find((s) => s.tag === "thread 1")!;
    // the case this is about: thread 1's overflows sit at its max, far above the histogram's 100 µs
    expect(maxOf(t1.histogram)).toBeGreaterThan(1000);
    for (const v of store.views()) expect(v.warnings, v.name).toEqual([]);
    // The same counts as measured values (a plain file of samples): the cliff is read as a cliff.
    const b = bucketsOf(t1.histogram);
    const lines: string[] = [];
    for (let i = 0; i < b.values.length; i++) for (let k = b.cumulative[i - 1] ?? 0; k < b.cumulative[i]!; k++) lines.push(String(b.values[i]));
    const samples = await load("thread1-values.txt", lines.join("\n") + "\n");
    expect(samples.views().flatMap((v) => v.warnings.map((w) => w.kind))).toEqual(["coordinated-omission"]);
  });

  for (const f of ["prom-classic-range.json", "prom-native-instant.json", "prom-native-range.json"]) {
    const path = `${FIX}/structured/${f}`;
    it.skipIf(!existsSync(path))(`a Prometheus metric's histogram (${f}): no coordinated-omission warning (its top bucket is said instead)`, async () => {
      const store = await load(f, readFileSync(path, "utf8"));
      expect(store.series.length).toBeGreaterThan(0);
      for (const v of store.views())
        expect(
          v.warnings.map((w) => w.kind),
          v.name,
        ).toEqual(["bucketed"]);
    });
  }
});
