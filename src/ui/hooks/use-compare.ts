// State of the A vs B panel: which series are compared, the margin, the engine's answer, and
// the sweep over common throughputs. The comparison follows the data: a new time window, an
// edited identity or unit asks again (the previous question is cancelled in the engine).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { EngineClient } from "../../engine/client";
import type { CompareAnswer } from "../../engine/compare-query";
import type { SeriesView, TimeRange } from "../../engine/store";
import { DEFAULT_MARGIN } from "../../core/compare/verdict";
import type { SharedCompare } from "../../share/schema";

export interface SweepRow {
  throughput: number;
  baseName: string;
  candName: string;
  result: CompareAnswer | null;
  error: string | null;
}

export interface CompareState {
  open: boolean;
  setOpen: (o: boolean) => void;
  /** Series names (the selects' values). */
  baseline: string;
  candidate: string;
  margin: number;
  repeats: boolean;
  /** The headline's percentile as chosen; null: by the rule (core/compare/headline.ts). */
  headlineAt: number | null;
  choose: (c: Partial<{ baseline: string; candidate: string; margin: number; repeats: boolean; headlineAt: number | null }>) => void;
  swap: () => void;
  result: CompareAnswer | null;
  /** Fraction of resamples done while computing. */
  progress: number | null;
  error: string | null;
  /** Common throughputs of the baseline's and candidate's configurations (2+), for the sweep. */
  sweepThroughputs: number[];
  sweep: SweepRow[] | null;
  runSweep: () => void;
  /** What a share link carries (null while closed). */
  shared: SharedCompare | null;
  restore: (s: SharedCompare) => void;
}

const usable = (v: SeriesView) => v.spectrum.totalCount > 0;
// Module-level functions and loops, not closures made per call: V8 drops the optimised code of
// short-lived closures at every major collection, and these run on every render.
const isComparable = (v: SeriesView) => usable(v) && !v.correctedFrom;
const descending = (a: number, b: number) => b - a;
const ascending = (a: number, b: number) => a - b;
const nameEntry = (v: SeriesView): [string, SeriesView] => [v.name, v];
const dataKeyOf = (v: SeriesView) => `${v.id}:${v.name}:${v.config}:${v.throughput}:${v.kind}:${v.recordedUnit}:${v.spectrum.totalCount}`;

/** The first of `here` in configuration `config` (and of `kind`, when given). */
function firstIn(here: readonly SeriesView[], config: string | undefined, kind?: SeriesView["kind"]): SeriesView | undefined {
  for (const v of here) if (v.config === config && (kind === undefined || v.kind === kind)) return v;
  return undefined;
}

/** Two configurations at their highest common throughput, else the first two series. */
export function defaultPair(views: SeriesView[]): [string, string] | null {
  const vs = views.filter(isComparable);
  return configPair(views) ?? (vs.length >= 2 ? [vs[0]!.name, vs[1]!.name] : null);
}

/** Two configurations at their highest common throughput: the pair the series name by themselves, or null. */
export function configPair(views: SeriesView[]): [string, string] | null {
  const vs = views.filter(isComparable);
  const byT = new Map<number, SeriesView[]>();
  for (const v of vs) if (v.throughput !== null) byT.set(v.throughput, [...(byT.get(v.throughput) ?? []), v]);
  const ts = [...byT.keys()].sort(descending);
  for (const t of ts) {
    const here = byT.get(t)!;
    const configSet = new Set<string>();
    for (const v of here) configSet.add(v.config);
    const configs = [...configSet].sort();
    if (configs.length >= 2) {
      const a = firstIn(here, configs[0])!;
      const b = firstIn(here, configs[1], a.kind) ?? firstIn(here, configs[1])!;
      return [a.name, b.name];
    }
  }
  return null;
}

/** Series a comparison can take (counts, not a coordinated-omission corrected copy). */
export function comparable(views: SeriesView[]): SeriesView[] {
  return views.filter(isComparable);
}

/** Throughputs where both configurations have a series of the same kind. */
export function commonThroughputs(views: SeriesView[], a: SeriesView | undefined, b: SeriesView | undefined): number[] {
  if (!a || !b || a.config === b.config) return [];
  const tb = throughputsAt(views, b.config, a.kind);
  const out: number[] = [];
  for (const t of throughputsAt(views, a.config, a.kind)) if (tb.has(t)) out.push(t);
  return out.sort(ascending);
}

/** The throughputs of configuration `c`'s usable series of `kind`. */
function throughputsAt(views: readonly SeriesView[], c: string, kind: SeriesView["kind"]): Set<number> {
  const out = new Set<number>();
  for (const v of views) if (v.config === c && v.kind === kind && v.throughput !== null && !v.correctedFrom && usable(v)) out.add(v.throughput);
  return out;
}

/** `extraPercentiles`: reported beyond the table's (the requirement's, so the headline can be stated there). */
export function useCompare(engine: EngineClient, views: SeriesView[], range: TimeRange, holdBusy: (d: 1 | -1) => void, extraPercentiles: number[] = []): CompareState {
  const [open, setOpen] = useState(false);
  const [names, setNames] = useState<{ baseline: string; candidate: string }>({ baseline: "", candidate: "" });
  const [margin, setMargin] = useState(DEFAULT_MARGIN);
  const [repeats, setRepeats] = useState(true);
  const [headlineAt, setHeadlineAt] = useState<number | null>(null);
  const [result, setResult] = useState<CompareAnswer | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sweep, setSweep] = useState<SweepRow[] | null>(null);
  const seq = useRef(0);

  // Names that are not loaded (any more) fall back to the default pair.
  const byName = useMemo(() => new Map(views.map(nameEntry)), [views]);
  let baseline = names.baseline;
  let candidate = names.candidate;
  if (!byName.has(baseline) || !byName.has(candidate)) {
    const d = defaultPair(views);
    if (!byName.has(baseline)) baseline = d?.[0] ?? "";
    if (!byName.has(candidate)) candidate = d ? (d[1] === baseline ? d[0] : d[1]) : "";
  }
  const base = byName.get(baseline);
  const cand = byName.get(candidate);
  const dataKey = views.map(dataKeyOf).join("|");
  const extras = extraPercentiles.join(",");
  const key = open && base && cand ? `${base.id}|${cand.id}|${margin}|${repeats}|${range.start}|${range.end}|${extras}|${dataKey}` : "";

  useEffect(() => {
    if (!key || !base || !cand) return;
    const mine = ++seq.current;
    engine.cancelCompare();
    holdBusy(1);
    setProgress(0);
    engine
      .compare({ baseline: base.id, candidate: cand.id, range, margin, repeats, extraPercentiles }, (p) => {
        if (seq.current === mine) setProgress(p.totalBytes > 0 ? p.bytes / p.totalBytes : null);
      })
      .then(
        (r) => {
          if (seq.current !== mine) return;
          setResult(r);
          setError(null);
        },
        (e: unknown) => {
          if (seq.current !== mine) return;
          setResult(null);
          setError(e instanceof Error ? e.message : String(e));
        },
      )
      .finally(() => {
        if (seq.current === mine) setProgress(null);
        holdBusy(-1);
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  // A new pair of configurations: an old sweep no longer applies.
  const sweepKey = `${base?.config}|${cand?.config}|${base?.kind}|${margin}|${repeats}|${range.start}|${range.end}`;
  useEffect(() => setSweep(null), [sweepKey]);

  const choose = useCallback<CompareState["choose"]>(
    (c) => {
      if (c.baseline !== undefined || c.candidate !== undefined) setNames({ baseline: c.baseline ?? baseline, candidate: c.candidate ?? candidate });
      if (c.margin !== undefined && Number.isFinite(c.margin) && c.margin >= 0) setMargin(c.margin);
      if (c.repeats !== undefined) setRepeats(c.repeats);
      if (c.headlineAt !== undefined) setHeadlineAt(c.headlineAt);
    },
    [baseline, candidate],
  );

  const sweepThroughputs = useMemo(() => commonThroughputs(views, base, cand), [views, base, cand]);

  const runSweep = useCallback(() => {
    if (!base || !cand) return;
    const pairs = sweepThroughputs.map((t) => {
      const pick = (c: string) => views.find((v) => v.config === c && v.kind === base.kind && v.throughput === t && !v.correctedFrom && usable(v))!;
      return { t, a: pick(base.config), b: pick(cand.config) };
    });
    const rows: SweepRow[] = pairs.map((p) => ({ throughput: p.t, baseName: p.a.name, candName: p.b.name, result: null, error: null }));
    setSweep(rows);
    void (async () => {
      holdBusy(1);
      try {
        for (let i = 0; i < pairs.length; i++) {
          const p = pairs[i]!;
          try {
            const r = await engine.compare({ baseline: p.a.id, candidate: p.b.id, range, margin, repeats });
            rows[i] = { ...rows[i]!, result: r };
          } catch (e) {
            rows[i] = { ...rows[i]!, error: e instanceof Error ? e.message : String(e) };
          }
          setSweep([...rows]);
        }
      } finally {
        holdBusy(-1);
      }
    })();
  }, [base, cand, sweepThroughputs, views, engine, range, margin, repeats, holdBusy]);

  return {
    open,
    setOpen,
    baseline,
    candidate,
    margin,
    repeats,
    headlineAt,
    choose,
    swap: () => setNames({ baseline: candidate, candidate: baseline }),
    result: key ? result : null,
    progress,
    error,
    sweepThroughputs,
    sweep,
    runSweep,
    shared: open && baseline && candidate ? { baseline, candidate, margin, repeats, ...(headlineAt !== null ? { headline: headlineAt } : {}) } : null,
    restore: (s) => {
      // From a link (validated) or a saved session (could be edited by hand): checked here too.
      if (typeof s.baseline !== "string" || typeof s.candidate !== "string") return;
      setNames({ baseline: s.baseline, candidate: s.candidate });
      if (typeof s.margin === "number" && Number.isFinite(s.margin) && s.margin >= 0 && s.margin <= 1) setMargin(s.margin);
      if (typeof s.repeats === "boolean") setRepeats(s.repeats);
      setHeadlineAt(typeof s.headline === "number" && s.headline > 0 && s.headline < 100 ? s.headline : null);
      setOpen(true);
    },
  };
}
