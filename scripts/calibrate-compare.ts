// Calibration of A vs B against runs shaped like real ones: how often the comparison's verdicts
// are wrong, how often its intervals hold the truth, how often it finds a real change, and how
// often `check --compare` fails when nothing changed (its family-wise false-alarm rate over all
// the percentiles it judges), with the very decision function the command line uses (gateOf).
//
//   npm run calibrate                       # 110 pairs per case (minutes of CPU)
//   npx tsx scripts/calibrate-compare.ts --pairs 30 [--cases same,drift] [--resamples 1000]
//   npx tsx scripts/calibrate-compare.ts --pairs 40 --cases stalls,stalls-same,nopause-three
//
// Runs come from tests/support/latency-process.ts: 20-minute runs at 5,000 requests/s in 1 s
// intervals, open-loop arrivals, GC-like pauses (50–500 ms, one every 2 minutes on average)
// with the queue each leaves, and slow load drift. A and B come from the same process with
// different seeds (truth: no difference), or B is shifted: every value ×1.03 (within the ±5 %
// margin: the right verdict is `same`), ×1.07 and ×1.20 (`worse`), or only values above the
// process's p99 ×1.5 (p99.9 and beyond `worse`; p99 itself sits on the edge and is left out).
//
// The event rule's cases (tails made of stalls), 5-minute runs at 4,000 requests/s unless said:
// a side that stalls 150–600 ms once every 20 s against one that never stalls (the stalls must
// be found at p99 and beyond); two runs of that stalling process (no difference); and 20-minute
// runs of the paused process where one side met no pause and the other three (no difference).
import { compareSides, COMPARE_PERCENTILES } from "../src/core/compare/compare";
import { gateOf } from "../src/core/compare/gate";
import { BucketValues, valueIndexer } from "../src/core/compare/layout";
import { sumInto } from "../src/core/compare/resampled-runs";
import { planBlocks, type BlockPlan } from "../src/core/compare/plan";
import type { CompareResult, RunInput, SideInput, Sparse } from "../src/core/compare/types";
import { PAUSES, PROCESS_LAYOUT, simulateProcess, STEADY, sumSparse, type ProcessOptions } from "../tests/support/latency-process";

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const PAIRS = Number(arg("pairs") ?? 110);
const RESAMPLES = arg("resamples") ? Number(arg("resamples")) : undefined;
const ONLY = arg("cases")?.split(",");
const MARGIN = 0.05;
const PS = COMPARE_PERCENTILES;

/** A case's truth at a percentile: the true ratio B ÷ A, or null where it is not defined. */
type Truth = (p: number) => number | null;

interface Tally {
  name: string;
  pairs: number;
  /** Per percentile. */
  wrong: number[];
  right: number[];
  /** Verdicts resting on events (the event rule decided). */
  events: number[];
  unknown: number[];
  covered: number[];
  withInterval: number[];
  /** Pairs where check --compare failed, and failed with --strict. */
  gateFails: number;
  strictFails: number;
  truth: Truth;
  /** The truth is only a direction (a side that stalls against one that never does): no range can hold it. */
  nominal?: boolean;
}

function tally(name: string, truth: Truth): Tally {
  const z = () => PS.map(() => 0);
  return { name, pairs: 0, wrong: z(), right: z(), events: z(), unknown: z(), covered: z(), withInterval: z(), gateFails: 0, strictFails: 0, truth };
}

/** The verdict a truth calls for: worse or better beyond the margin, else same. */
function rightVerdict(t: number): "worse" | "better" | "same" {
  return t > 1 + MARGIN ? "worse" : t < 1 / (1 + MARGIN) ? "better" : "same";
}

function record(t: Tally, r: CompareResult): void {
  t.pairs++;
  r.points.forEach((x, i) => {
    const truth = t.truth(x.percentile);
    if (truth === null) return;
    if (x.low !== null && x.high !== null && !t.nominal) {
      t.withInterval[i]!++;
      if (x.low <= truth * (1 + x.resolution) && x.high >= truth / (1 + x.resolution)) t.covered[i]!++;
    }
    if (x.basis === "events") t.events[i]!++;
    if (x.verdict === "unknown") t.unknown[i]!++;
    else if (x.verdict === rightVerdict(truth)) t.right[i]!++;
    // `same` where the truth is just outside the margin is not a wrong call a team acts on as
    // one: only a verdict of the opposite direction, or a difference called where there is
    // none, counts as wrong.
    else if (x.verdict !== "same") t.wrong[i]!++;
  });
  if (!gateOf(r).pass) t.gateFails++;
  if (!gateOf(r, { strict: true }).pass) t.strictFails++;
}

const pct = (k: number, n: number) => (n === 0 ? "–" : `${((100 * k) / n).toFixed(0)} %`);

function table(t: Tally): string {
  const anyShift = PS.some((p) => (t.truth(p) ?? 1) !== 1);
  const rows = [
    `### ${t.name} (${t.pairs} pairs)`,
    "",
    `| percentile | wrong | ${anyShift ? "found (right verdict)" : "same"} | on events | unknown | range holds the truth |`,
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  PS.forEach((p, i) => {
    if (t.truth(p) === null) return;
    rows.push(
      `| p${p} | ${pct(t.wrong[i]!, t.pairs)} | ${pct(t.right[i]!, t.pairs)} | ${pct(t.events[i]!, t.pairs)} | ${pct(t.unknown[i]!, t.pairs)} | ${pct(t.covered[i]!, t.withInterval[i]!)} of ${t.withInterval[i]} |`,
    );
  });
  rows.push("", `\`check --compare\` fails: ${pct(t.gateFails, t.pairs)} of pairs; with \`--strict\`: ${pct(t.strictFails, t.pairs)}`, "");
  return rows.join("\n");
}

// Shifts are applied to B's buckets (each bucket's value times the factor, put in the bucket
// of the result): the same as shifting every value, to within a bucket (0.1 %).
const bv = new BucketValues(PROCESS_LAYOUT);
const indexOf = valueIndexer(PROCESS_LAYOUT);
function shifted(intervals: readonly Sparse[], f: (v: number) => number): Sparse[] {
  return intervals.map((s) => {
    const m = new Map<number, number>();
    s.indices.forEach((x, k) => {
      const y = indexOf(Math.round(f(bv.rep(x))));
      m.set(y, (m.get(y) ?? 0) + s.counts[k]!);
    });
    const idx = [...m.keys()].sort((a, b) => a - b);
    return { indices: Int32Array.from(idx), counts: Float64Array.from(idx, (x) => m.get(x)!) };
  });
}

/**
 * A run as the engine gives a loaded log to the comparison: its intervals summed into the
 * plan's sub-blocks (RunData "blocks"), with the total. Shifts and sums then work on 70
 * sub-blocks, not 1,200 intervals.
 */
interface Blocks {
  subBlocks: Sparse[];
  total: Sparse;
  plan: BlockPlan;
}
function blocksOf(intervals: Sparse[]): Blocks {
  const plan = planBlocks(intervals.length, 1);
  const subBlocks = sumInto(intervals, plan.stride);
  return { subBlocks, total: sumInto(subBlocks, subBlocks.length)[0]!, plan };
}
function shiftedBlocks(b: Blocks, f: (v: number) => number): Blocks {
  const subBlocks = shifted(b.subBlocks, f);
  return { subBlocks, total: sumInto(subBlocks, subBlocks.length)[0]!, plan: b.plan };
}
const run = (name: string, b: Blocks): RunInput => ({
  name,
  layout: PROCESS_LAYOUT,
  unitNs: 1,
  recordedUnit: "ns",
  data: { kind: "blocks", subBlocks: b.subBlocks, plan: b.plan, total: b.total, intervalSeconds: 1 },
});
const countsRun = (name: string, counts: Sparse): RunInput => ({ name, layout: PROCESS_LAYOUT, unitNs: 1, recordedUnit: "ns", data: { kind: "counts", counts } });
const side = (label: string, ...runs: RunInput[]): SideInput => ({ label, runs });
const compare = (a: SideInput, b: SideInput) => compareSides(a, b, { margin: MARGIN, resamples: RESAMPLES, perDecade: 0 });

const same: Truth = () => 1;
const wanted = (c: string) => !ONLY || ONLY.includes(c);
const out: Tally[] = [];
const started = performance.now();
const log = (s: string) => process.stderr.write(`${s}\n`);

const DRIFT = { tau: 60, sd: 0.05 };
const STRONG = { tau: 300, sd: 0.1 };
const proc = (o: Partial<ProcessOptions> & { seed: number; seconds?: number }): ProcessOptions => ({ ...STEADY, seconds: 1200, pauses: PAUSES, drift: DRIFT, ...o });

// The process's p99 (for the tail-only change): pooled from a few runs of it.
function pilotP99(): number {
  const parts: Sparse[] = [];
  for (let s = 0; s < 3; s++) parts.push(sumSparse(simulateProcess(proc({ seed: 900_000 + s }))));
  const total = sumSparse(parts);
  let n = 0;
  total.counts.forEach((c) => (n += c));
  let acc = 0;
  for (let k = 0; k < total.indices.length; k++) {
    acc += total.counts[k]!;
    if (acc >= 0.99 * n) return bv.rep(total.indices[k]!);
  }
  return Infinity;
}

// Pauses and drift (60 s, 5 %): the same pairs serve the shifted cases and the counts-only ones.
if (["same", "hgrm", "hgrm-repeats", "x1.03", "x1.07", "x1.20", "tail"].some(wanted)) {
  const p99 = wanted("tail") ? pilotP99() : Infinity;
  const t = {
    same: tally("Same process, pauses and drift (60 s, 5 %), .hlog", same),
    hgrm: tally("The same runs as .hgrm (counts only)", same),
    reps: tally("Counts only, 3 runs a side (run-to-run spread)", same),
    s103: tally("B = every value ×1.03 (within the margin: right verdict `same`)", () => 1.03),
    s107: tally("B = every value ×1.07", () => 1.07),
    s120: tally("B = every value ×1.20", () => 1.2),
    tail: tally("B = values above the process's p99 ×1.5", (p) => (p > 99 ? 1.5 : p < 99 ? 1 : null)),
  };
  const recent: { a: Sparse; b: Sparse }[] = [];
  for (let k = 0; k < PAIRS; k++) {
    const a = blocksOf(simulateProcess(proc({ seed: 1000 + 2 * k })));
    const b = blocksOf(simulateProcess(proc({ seed: 1001 + 2 * k })));
    if (wanted("same")) record(t.same, compare(side("A", run("a", a)), side("B", run("b", b))));
    const ca = a.total;
    const cb = b.total;
    if (wanted("hgrm")) record(t.hgrm, compare(side("A", countsRun("a.hgrm", ca)), side("B", countsRun("b.hgrm", cb))));
    recent.push({ a: ca, b: cb });
    if (recent.length > 3) recent.shift();
    if (wanted("hgrm-repeats") && recent.length === 3 && k % 3 === 2) {
      record(t.reps, compare(side("A", ...recent.map((r, i) => countsRun(`a${i + 1}.hgrm`, r.a))), side("B", ...recent.map((r, i) => countsRun(`b${i + 1}.hgrm`, r.b)))));
    }
    for (const [key, f] of [
      ["x1.03", 1.03],
      ["x1.07", 1.07],
      ["x1.20", 1.2],
    ] as const) {
      if (!wanted(key)) continue;
      const tt = key === "x1.03" ? t.s103 : key === "x1.07" ? t.s107 : t.s120;
      record(
        tt,
        compare(
          side("A", run("a", a)),
          side(
            "B",
            run(
              "b",
              shiftedBlocks(b, (v) => v * f),
            ),
          ),
        ),
      );
    }
    if (wanted("tail"))
      record(
        t.tail,
        compare(
          side("A", run("a", a)),
          side(
            "B",
            run(
              "b",
              shiftedBlocks(b, (v) => (v > p99 ? v * 1.5 : v)),
            ),
          ),
        ),
      );
    if ((k + 1) % 10 === 0) log(`pauses and drift: ${k + 1}/${PAIRS} pairs, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  if (wanted("same")) out.push(t.same);
  if (wanted("hgrm")) out.push(t.hgrm);
  if (wanted("hgrm-repeats")) out.push(t.reps);
  if (wanted("x1.03")) out.push(t.s103);
  if (wanted("x1.07")) out.push(t.s107);
  if (wanted("x1.20")) out.push(t.s120);
  if (wanted("tail")) out.push(t.tail);
}

/** A case of its own pairs: A and B from `oa` and `ob` with consecutive seeds. */
function pairsCase(key: string, name: string, oa: (seed: number) => ProcessOptions, ob: (seed: number) => ProcessOptions, pairs = PAIRS, truth: Truth = same): void {
  if (!wanted(key)) return;
  const t = tally(name, truth);
  t.nominal = truth !== same;
  for (let k = 0; k < pairs; k++) {
    record(t, compare(side("A", run("a", blocksOf(simulateProcess(oa(5000 + 2 * k))))), side("B", run("b", blocksOf(simulateProcess(ob(5001 + 2 * k)))))));
    if ((k + 1) % 10 === 0) log(`${key}: ${k + 1}/${pairs} pairs, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  out.push(t);
}

pairsCase(
  "drift",
  "Same process, pauses and strong drift (300 s, 10 %), .hlog",
  (seed) => proc({ seed, drift: STRONG }),
  (seed) => proc({ seed, drift: STRONG }),
);
pairsCase(
  "lengths",
  "Same process, A 10 min vs B 30 min, pauses and drift (60 s, 5 %)",
  (seed) => proc({ seed, seconds: 600 }),
  (seed) => proc({ seed, seconds: 1800 }),
);
pairsCase(
  "steady",
  "Same process, steady queue (no pauses, no drift)",
  (seed) => proc({ seed, pauses: null, drift: null }),
  (seed) => proc({ seed, pauses: null, drift: null }),
  Math.min(PAIRS, 60),
);

// The event rule's cases.
const STALLS = { ...STEADY, rate: 4000, seconds: 300, medianMs: 0.25, sigma: 0.3, drift: DRIFT };
const EVERY_20S = { every: 20, minMs: 150, maxMs: 600, regular: true };
pairsCase(
  "stalls",
  "A stalls 150–600 ms every 20 s, B never stalls (5 min at 4,000/s, drift 60 s 5 %): right verdict `better` from p99",
  (seed) => ({ ...STALLS, seed, pauses: EVERY_20S }),
  (seed) => ({ ...STALLS, seed, pauses: null }),
  PAIRS,
  (p) => (p >= 99 ? 0.01 : null),
);
pairsCase(
  "stalls-same",
  "Two runs of one process stalling 150–600 ms every 20 s (5 min at 4,000/s, drift 60 s 5 %)",
  (seed) => ({ ...STALLS, seed, pauses: EVERY_20S }),
  (seed) => ({ ...STALLS, seed, pauses: EVERY_20S }),
);
pairsCase(
  "nopause-three",
  "Same process (pauses and drift, 20 min at 5,000/s), A met no pause and B three",
  (seed) => proc({ seed, pauses: { ...PAUSES, count: 0 } }),
  (seed) => proc({ seed, pauses: { ...PAUSES, count: 3 } }),
);

/** All cases in one table: per percentile "wrong / right / holds" in %, and check's failures. */
function summary(ts: Tally[]): string {
  const rows = [`| case (pairs) | ${PS.map((p) => `p${p}`).join(" | ")} | check fails | --strict fails |`, `| --- | ${PS.map(() => "---:").join(" | ")} | ---: | ---: |`];
  const n = (k: number, d: number) => (d === 0 ? "–" : `${Math.round((100 * k) / d)}`);
  for (const t of ts) {
    const cells = PS.map((p, i) => (t.truth(p) === null ? "(edge)" : `${n(t.wrong[i]!, t.pairs)} / ${n(t.right[i]!, t.pairs)} / ${n(t.covered[i]!, t.withInterval[i]!)}`));
    rows.push(`| ${t.name} (${t.pairs}) | ${cells.join(" | ")} | ${n(t.gateFails, t.pairs)} % | ${n(t.strictFails, t.pairs)} % |`);
  }
  return rows.join("\n");
}

console.log(`# A vs B calibration: ${PAIRS} pairs per case, margin ±${MARGIN * 100} %, ${RESAMPLES ?? "default"} resamples\n`);
for (const t of out) console.log(table(t));
console.log("## Summary: per percentile, % of pairs wrong / right verdict (same where the truth is within the margin) / % of intervals holding the truth\n");
console.log(summary(out));
console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
