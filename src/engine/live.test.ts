// A run followed live must end exactly where a load of the finished file starts: the log is fed
// in pieces of complete lines (as `serve` sends them) and the table, the timeline and the time
// windows are compared with a plain load of the same text, digit for digit.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { mulberry32 } from "../../tests/support/queue-sim";
import { byCompletion, gatlingLog, generateSamples, k6Json } from "../../tests/support/loadgen-fixtures";
import { parseRequirement } from "../core/requirements";
import { markdownOf, rowsOf } from "../cli/report";
import { handle } from "./handle";
import type { LivePiece } from "./protocol";
import { Store } from "./store";

function log(seed: number, intervals: number, slow: number[] = [], tags: string[] = [""]): string {
  const rnd = mulberry32(seed);
  const ivs = [];
  for (let i = 0; i < intervals; i++) {
    for (const tag of tags) {
      const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
      for (let k = 0; k < 200; k++) h.recordValue(Math.round((100 + rnd() * 800) * 1000));
      if (slow.includes(i)) h.recordValue(50_000_000);
      if (tag) h.tag = tag;
      ivs.push({ start: i, length: 1, histogram: h });
    }
  }
  return writeHlog(ivs);
}

/** The text cut into pieces of whole lines, of random sizes (a header alone among them). */
function pieces(text: string, seed: number, file = "logs/run.hlog", run = 1): LivePiece[] {
  const rnd = mulberry32(seed);
  const lines = text.split(/(?<=\n)/);
  const out: LivePiece[] = [];
  let i = 0;
  while (i < lines.length) {
    const n = 1 + Math.floor(rnd() * 7);
    out.push({ file, run, start: i === 0, text: lines.slice(i, i + n).join("") });
    i += n;
  }
  return out;
}

const requirement = (() => {
  const r = parseRequirement("p99<=1ms, max<=10ms");
  if (!r.ok) throw new Error("requirement");
  return r.value;
})();

async function table(store: Store, range = { start: null, end: null } as { start: number | null; end: number | null }): Promise<string> {
  return markdownOf(rowsOf(store.views(range), requirement), requirement, range, "ms", null);
}

async function followed(text: string, seed: number, oneByOne = true): Promise<Store> {
  const store = new Store();
  const all = pieces(text, seed);
  if (oneByOne) for (const p of all) await handle(store, { kind: "append", pieces: [p] }, () => undefined);
  else await handle(store, { kind: "append", pieces: all }, () => undefined);
  return store;
}

describe("live runs (append)", () => {
  it("a log fed in pieces equals a load of the whole: table, timeline and a time window", async () => {
    const text = log(7, 300, [40, 41, 200]);
    const loaded = new Store();
    await loaded.load("run.hlog", [text]);
    for (const oneByOne of [true, false]) {
      const live = await followed(text, 11, oneByOne);
      expect(live.series).toHaveLength(1);
      expect(live.series[0]!.intervals!.n).toBe(300);
      expect(await table(live)).toBe(await table(loaded));
      expect(await table(live, { start: 30, end: 60 })).toBe(await table(loaded, { start: 30, end: 60 }));
      const q = { t0: null, t1: null, columns: 120, percentiles: [50, 99, 99.9] };
      const a = live.timeline(q);
      const b = loaded.timeline(q);
      expect(a.extent).toEqual(b.extent);
      expect(Array.from(a.series[0]!.max)).toEqual(Array.from(b.series[0]!.max));
      expect(Array.from(a.series[0]!.percentiles["99"]!)).toEqual(Array.from(b.series[0]!.percentiles["99"]!));
    }
  });

  it("the timeline asked after every append (its columns kept between answers) equals a whole load's, column by column", async () => {
    // Two thirds of the run at 3 digits, the rest at 2: the series' layout turns coarser mid-run,
    // and the columns kept from before must not be reused in the new layout.
    const rnd = mulberry32(17);
    const ivs = [];
    for (let i = 0; i < 240; i++) {
      const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: i < 160 ? 3 : 2 });
      for (let k = 0; k < 150; k++) h.recordValue(Math.round((100 + rnd() * 900) * 1000));
      if (i % 37 === 5) h.recordValue(80_000_000);
      ivs.push({ start: i, length: 1, histogram: h });
    }
    const text = writeHlog(ivs);
    const loaded = new Store();
    await loaded.load("run.hlog", [text]);
    // Wider and narrower than the run: one interval a column, then several (columns regrouped as the run grows).
    const queries = [
      { t0: null, t1: null, columns: 400, percentiles: [50, 99, 99.9] },
      { t0: null, t1: null, columns: 70, percentiles: [50, 99, 99.9] },
      { t0: 20, t1: 200, columns: 90, percentiles: [90, 100] },
    ];
    for (const q of queries) {
      // The page asks the same timeline after every append: the columns kept from one answer serve the next.
      const live = new Store();
      let asked = 0;
      for (const p of pieces(text, 3)) {
        await handle(live, { kind: "append", pieces: [p] }, () => undefined);
        if (live.series.length === 0) continue;
        live.timeline(q);
        asked++;
      }
      expect(asked).toBeGreaterThan(20);
      expect(live.series[0]!.intervals!.n).toBe(240);
      const a = live.timeline(q);
      const b = loaded.timeline(q);
      expect(a.extent).toEqual(b.extent);
      expect(a.domain).toEqual(b.domain);
      const x = a.series[0]!;
      const y = b.series[0]!;
      expect(x.t0.length).toBeGreaterThan(q.columns === 400 ? 200 : 40);
      for (const k of ["t0", "t1", "max", "count"] as const) expect(Array.from(x[k])).toEqual(Array.from(y[k]));
      for (const p of q.percentiles) expect(Array.from(x.percentiles[String(p)]!)).toEqual(Array.from(y.percentiles[String(p)]!));
      // And against the intervals themselves: a column of one interval has that interval's max.
      if (q.columns === 400) for (let k = 0; k < x.t0.length; k++) expect(x.max[k]).toBe(live.series[0]!.intervals!.maxes[k]);
    }
  });

  it("a real jHiccup log fed in pieces equals its load", async () => {
    const sample = path.resolve(import.meta.dirname, "../../../shared/samples/hdrhistogram/jHiccup-2.0.7S.logV2.hlog");
    if (!existsSync(sample)) return;
    const text = readFileSync(sample, "utf8");
    const loaded = new Store();
    await loaded.load("jHiccup-2.0.7S.logV2.hlog", [text]);
    const live = new Store();
    for (const p of pieces(text, 3, "samples/jHiccup-2.0.7S.logV2.hlog")) await handle(live, { kind: "append", pieces: [p] }, () => undefined);
    expect(await table(live)).toBe(await table(loaded));
  });

  it("tagged logs: a series per tag, each equal to the load's", async () => {
    const text = log(5, 40, [10], ["a", "b"]);
    const loaded = new Store();
    await loaded.load("run.hlog", [text]);
    const live = await followed(text, 2);
    expect(live.series.map((s) => s.tag).sort()).toEqual(["a", "b"]);
    expect(await table(live)).toBe(await table(loaded));
  });

  it("a new run of the file is a new series; the earlier one is kept, renamed, never mixed", async () => {
    const store = new Store();
    const first = log(1, 20, [5]);
    const second = log(2, 10);
    for (const p of pieces(first, 1)) await handle(store, { kind: "append", pieces: [p] }, () => undefined);
    let ended: string[] = [];
    for (const p of pieces(second, 2, "logs/run.hlog", 2)) {
      const a = (await handle(store, { kind: "append", pieces: [p] }, () => undefined)) as { ended: string[] };
      ended = ended.concat(a.ended);
    }
    expect(store.series.map((s) => [s.name, s.intervals!.n])).toEqual([
      ["run (run 1, ended)", 20],
      ["run", 10],
    ]);
    expect(ended).toEqual([store.series[0]!.id]);
    const alone = new Store();
    await alone.load("run.hlog", [second]);
    expect(store.views().find((v) => v.id === store.series[1]!.id)!.spectrum).toEqual(alone.views()[0]!.spectrum);
  });

  it("plain samples: their new lines appended, the row replaced, equal to a load of what was written", async () => {
    const rnd = mulberry32(9);
    const text = Array.from({ length: 1200 }, () => `${(1 + rnd() * 9).toFixed(3)}\n`).join("");
    const loaded = new Store();
    await loaded.load("lat.txt", [text]);
    const live = new Store();
    for (const p of pieces(text, 4, "logs/lat.txt")) await handle(live, { kind: "append", pieces: [p] }, () => undefined);
    expect(live.series).toHaveLength(1);
    expect(await table(live)).toBe(await table(loaded));
  });

  it("a JMeter CSV fed in pieces equals a load of the whole: table, a time window, timeline; each line read once", async () => {
    const rnd = mulberry32(21);
    const labels = ["login", "search", "checkout, fast"];
    const rows = ["timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes"];
    let t = 1_700_000_000_000;
    for (let i = 0; i < 6000; i++) {
      t += Math.floor(rnd() * 40);
      const label = labels[i % 3]!;
      const ok = rnd() > 0.01;
      const elapsed = Math.floor(5 + rnd() * 200 + (i % 997 === 0 ? 3000 : 0));
      rows.push(`${t},${elapsed},"${label}",${ok ? 200 : 500},${ok ? "OK" : '"Internal, error"'},Thread 1-${i % 8},text,${ok},,${100 + (i % 50)}`);
    }
    const text = rows.join("\n") + "\n";
    const loaded = new Store();
    await loaded.load("results.jtl", [text]);
    expect(loaded.series).toHaveLength(3);
    for (const seed of [4, 5]) {
      const live = new Store();
      const parts = pieces(text, seed, "logs/results.jtl");
      let added: string[] = [];
      for (const p of parts) {
        const a = (await handle(live, { kind: "append", pieces: [p] }, () => undefined)) as { added: string[]; problems: unknown[] };
        expect(a.problems).toEqual([]);
        added = a.added.length ? a.added : added;
      }
      expect(live.series.map((s) => s.name).sort()).toEqual(loaded.series.map((s) => s.name).sort());
      expect(await table(live)).toBe(await table(loaded));
      const w = { start: 60, end: 120 };
      expect(await table(live, w)).toBe(await table(loaded, w));
      const q = { t0: null, t1: null, columns: 100, percentiles: [50, 99] };
      const a = live.timeline(q);
      const b = loaded.timeline(q);
      expect(a.extent).toEqual(b.extent);
      for (const lane of b.series) {
        const other = a.series.find((x) => live.get(x.id).name === loaded.get(lane.id).name)!;
        expect(Array.from(other.max)).toEqual(Array.from(lane.max));
        expect(Array.from(other.count)).toEqual(Array.from(lane.count));
      }
    }
  });

  it("k6 JSON and Gatling's text log (in completion order, as written) fed in pieces equal their loads", async () => {
    const samples = byCompletion(
      generateSamples({ seed: 3, seconds: 90, rate: 40, labels: ["home", "search"], medianMs: 20, sigma: 0.8, failureRate: 0.02, stalls: [{ at: 40, duration: 2 }] }),
    );
    for (const [name, text] of [
      ["k6.json", k6Json(samples)],
      ["simulation.log", gatlingLog(samples)],
    ] as const) {
      const loaded = new Store();
      await loaded.load(name, [text]);
      expect(loaded.series.length).toBeGreaterThan(0);
      const live = new Store();
      for (const p of pieces(text, 8, `logs/${name}`)) await handle(live, { kind: "append", pieces: [p] }, () => undefined);
      expect(await table(live)).toBe(await table(loaded));
      expect(await table(live, { start: 30, end: 50 })).toBe(await table(loaded, { start: 30, end: 50 }));
    }
  });

  it("a sample format's appended lines are read once, not the whole text again", async () => {
    const rows = ["timeStamp,elapsed,label,success"];
    for (let i = 0; i < 50; i++) rows.push(`${1_700_000_000_000 + i * 100},${10 + i},a,true`);
    const store = new Store();
    await handle(store, { kind: "append", pieces: [{ file: "r.jtl", run: 1, start: true, text: rows.join("\n") + "\n" }] }, () => undefined);
    // A line that would be a problem if read again is read once: its problem is said once.
    const bad = "1700000009000,notanumber,a,true\n";
    const said: unknown[] = [];
    for (const text of [bad, "1700000009100,20,a,true\n", "1700000009200,30,a,true\n"]) {
      const a = (await handle(store, { kind: "append", pieces: [{ file: "r.jtl", run: 1, start: false, text }] }, () => undefined)) as { problems: { line: number | null }[] };
      said.push(...a.problems);
    }
    expect(said).toHaveLength(1);
    expect((said[0] as { line: number }).line).toBe(52);
    expect(store.series[0]!.histogram.totalCount).toBe(52);
  });

  it("a bad appended line is a problem naming the file and line; what was shown stays", async () => {
    const text = log(3, 10);
    const store = await followed(text, 5);
    const before = await table(store);
    const a = (await handle(store, { kind: "append", pieces: [{ file: "logs/run.hlog", run: 1, start: false, text: "10.000,1.000,2.000,notbase64!!\n" }] }, () => undefined)) as {
      problems: { file: string; line: number | null; reason: string }[];
    };
    expect(a.problems.length).toBeGreaterThan(0);
    expect(a.problems[0]!.file).toBe("run.hlog");
    expect(a.problems[0]!.line).toBe(text.split("\n").length);
    expect(await table(store)).toBe(before);
  });

  it("an appended interval whose histogram cannot be read is a problem naming its line, worded as a load words it; nothing of it is shown", async () => {
    const text = log(3, 10);
    const store = await followed(text, 5);
    const before = await table(store);
    const good = text
      .trimEnd()
      .split("\n")
      .at(-1)!
      .replace(/^[^,]+/, "10.000");
    const bad = "11.000,1.000,2.000,HISTFAAAAB!!\n";
    const a = (await handle(store, { kind: "append", pieces: [{ file: "logs/run.hlog", run: 1, start: false, text: `${good}\n${bad}` }] }, () => undefined)) as {
      problems: { file: string; line: number | null; reason: string }[];
    };
    const lines = text.split("\n").length;
    expect(a.problems).toEqual([{ file: "run.hlog", line: lines + 1, reason: expect.stringMatching(/^histogram payload: /) }]);
    // The same lines loaded whole: the load names the same line and reason.
    const whole = new Store();
    const r = await whole.load("run.hlog", [`${text}${good}\n${bad}`]);
    expect(r.problems.find((x) => x.line !== null)).toEqual(a.problems[0]);
    expect(await table(store)).toBe(before);
  });

  it("a followed sample file the person renamed keeps the new name, configuration and recorded unit as lines are appended", async () => {
    const rows = ["timeStamp,elapsed,label,success"];
    for (let i = 0; i < 40; i++) rows.push(`${1_700_000_000_000 + i * 100},${10 + i},${i % 2 ? "login" : "search"},true`);
    const store = new Store();
    const feed = async (text: string, start = false) =>
      (await handle(store, { kind: "append", pieces: [{ file: "logs/r.jtl", run: 1, start, text }] }, () => undefined)) as { added: string[]; removed: string[] };
    await feed(rows.join("\n") + "\n", true);
    const names = store.series.map((s) => s.name).sort();
    expect(names).toHaveLength(2);
    const login = store.series.find((s) => s.name.includes("login"))!;
    const search = store.series.find((s) => s.name.includes("search"))!;
    const searchName = search.name;
    // What the page's rename and unit choice ask of the engine.
    await handle(store, { kind: "setIdentity", id: login.id, patch: { name: "sign-in", config: "v2" } }, () => undefined);
    await handle(store, { kind: "setUnit", id: login.id, unit: "us" }, () => undefined);
    for (let i = 40; i < 60; i++) {
      const a = await feed(`${1_700_000_000_000 + i * 100},${10 + i},${i % 2 ? "login" : "search"},true\n`);
      // The series are made again from the reader (under the same ids), and keep what the person set.
      expect(a.removed.length).toBeGreaterThan(0);
    }
    const renamed = store.series.find((s) => s.name === "sign-in");
    expect(renamed).toBeDefined();
    expect(renamed!.config).toBe("v2");
    expect(renamed!.recordedUnit).toBe("us");
    expect(renamed!.histogram.totalCount).toBe(30);
    // The one left alone keeps the reader's name and unit, and follows the reader's lines.
    const other = store.series.find((s) => s.id !== renamed!.id)!;
    expect(other.name).toBe(searchName);
    expect(other.recordedUnit).toBe(search.recordedUnit);
    expect(other.histogram.totalCount).toBe(30);
  });
});
