// A sample file followed live (JMeter CSV, k6, Gatling) has its series made again from its reader
// after every piece: they keep their ids, so what the page keeps by id (a hidden series, the
// selection) follows them as lines arrive, and what the engine knew of the earlier ones (their
// warnings) is not taken for the new.
import { describe, expect, it } from "vitest";
import { byCompletion, gatlingLog, generateSamples, k6Json } from "../../tests/support/loadgen-fixtures";
import { handle } from "./handle";
import type { LiveAnswer } from "./protocol";
import { Store } from "./store";

const T0 = 1_700_000_000_000;

/** JMeter CSV lines, one request every 50 ms from second `from` to `to`, `ms(t)` long at second t. */
function jmeter(from: number, to: number, ms: (t: number) => number, labels = ["login", "search"]): string {
  const out: string[] = [];
  for (let t = from * 1000; t < to * 1000; t += 50) out.push(`${T0 + t},${Math.round(ms(t / 1000))},${labels[(t / 50) % labels.length]},true`);
  return out.join("\n") + "\n";
}

/** The page's set of loaded ids after a live answer (use-live.ts: the removed go, the added come). */
function applied(ids: Set<string>, a: LiveAnswer): Set<string> {
  const n = new Set(ids);
  for (const id of a.removed) n.delete(id);
  for (const id of a.added) n.add(id);
  return n;
}

describe("a followed sample file's series keep their ids", () => {
  it("a hidden JMeter label stays hidden as lines are appended: same id, its counts growing", async () => {
    const store = new Store();
    const feed = async (text: string, start = false) =>
      (await handle(store, { kind: "append", pieces: [{ file: "logs/r.jtl", run: 1, start, text }] }, () => undefined)) as LiveAnswer;
    let ids = applied(new Set(), await feed("timeStamp,elapsed,label,success\n" + jmeter(0, 5, () => 20), true));
    expect(ids.size).toBe(2);
    const login = store.series.find((s) => s.name.includes("login"))!.id;
    const search = store.series.find((s) => s.name.includes("search"))!.id;
    // The page hides `login` (App.tsx keeps hidden series by id).
    const hidden = new Set([login]);
    for (let s = 5; s < 20; s += 5) {
      const a = await feed(jmeter(s, s + 5, () => 20));
      ids = applied(ids, a);
      expect([...ids].sort()).toEqual([login, search].sort());
      const views = store.views();
      expect(views.map((v) => v.id).sort()).toEqual([login, search].sort());
      // 20 requests a second, half of them each label's.
      expect(views.find((v) => v.id === login)!.spectrum.totalCount).toBe((s + 5) * 10);
      expect(views.filter((v) => !hidden.has(v.id)).map((v) => v.id)).toEqual([search]);
    }
  });

  it("k6 and Gatling: every label keeps the id it was loaded under", async () => {
    const samples = byCompletion(generateSamples({ seed: 5, seconds: 40, rate: 30, labels: ["home", "search"], medianMs: 20, sigma: 0.5, failureRate: 0.02, stalls: [] }));
    for (const [name, text] of [
      ["k6.json", k6Json(samples)],
      ["simulation.log", gatlingLog(samples)],
    ] as const) {
      const store = new Store();
      const lines = text.split(/(?<=\n)/);
      const cut = Math.floor(lines.length / 3);
      const parts = [lines.slice(0, cut), lines.slice(cut, 2 * cut), lines.slice(2 * cut)].map((l) => l.join(""));
      let first: Map<string, string> | null = null;
      for (const [i, text] of parts.entries()) {
        await handle(store, { kind: "append", pieces: [{ file: `logs/${name}`, run: 1, start: i === 0, text }] }, () => undefined);
        const byName = new Map(store.series.map((s) => [s.name, s.id]));
        first ??= byName;
        expect(byName, name).toEqual(first);
      }
      expect(first!.size, name).toBeGreaterThanOrEqual(2);
    }
  });

  it("its warnings are those of the lines so far, not of the series first made under its id", async () => {
    const store = new Store();
    const feed = (text: string, start = false) => handle(store, { kind: "append", pieces: [{ file: "logs/q.jtl", run: 1, start, text }] }, () => undefined);
    // 10 s at a flat 10 ms: no saturation.
    await feed("timeStamp,elapsed,label,success\n" + jmeter(0, 10, () => 10, ["q"]), true);
    expect(store.views()[0]!.warnings.map((w) => w.kind)).toEqual([]);
    // Then 30 s whose median climbs to 40× the start: a queue growing through the run.
    await feed(jmeter(10, 40, (t) => 10 + (t - 10) * 13, ["q"]));
    const whole = new Store();
    await whole.load("q.jtl", ["timeStamp,elapsed,label,success\n" + jmeter(0, 10, () => 10, ["q"]) + jmeter(10, 40, (t) => 10 + (t - 10) * 13, ["q"])]);
    expect(whole.views()[0]!.warnings.map((w) => w.kind)).toContain("saturation");
    expect(store.views()[0]!.warnings).toEqual(whole.views()[0]!.warnings);
  });
});
