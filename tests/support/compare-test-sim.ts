// Simulated runs for the comparison's tests: interval histograms (sparse, 3 digits, ns) of
// lognormal latencies whose scale wanders from interval to interval (AR(1) in log space), so
// neighbouring intervals are correlated as real ones are. Test-only.
import { makeRng, normal } from "../../src/core/compare/rng";
import { valueIndexer } from "../../src/core/compare/layout";
import type { RunInput, Sparse } from "../../src/core/compare/types";

export interface SimOptions {
  intervals: number;
  perInterval: number;
  seed: number;
  /** Every value multiplied by this (a candidate that is the baseline scaled). */
  scale?: number;
  medianNs?: number;
  sigma?: number;
  /** AR(1) coefficient and innovation of the log scale between intervals. */
  phi?: number;
  drift?: number;
}

const LAYOUT = { digits: 3, lowest: 1 };
const index = valueIndexer(LAYOUT);

export function simIntervals(o: SimOptions): Sparse[] {
  const rng = makeRng(o.seed, 99);
  const phi = o.phi ?? 0.9;
  const drift = o.drift ?? 0.15;
  const out: Sparse[] = [];
  let level = 0;
  let dense = new Float64Array(1 << 16);
  const touched: number[] = [];
  for (let i = 0; i < o.intervals; i++) {
    level = phi * level + drift * normal(rng);
    for (let k = 0; k < o.perInterval; k++) {
      // Scaled after rounding: a scale of 2 doubles every recorded value exactly.
      const v = Math.round((o.medianNs ?? 1e6) * Math.exp(level + (o.sigma ?? 0.5) * normal(rng))) * (o.scale ?? 1);
      const x = index(Math.max(1, v));
      if (x >= dense.length) {
        const d = new Float64Array(2 * x);
        d.set(dense);
        dense = d;
      }
      if (dense[x] === 0) touched.push(x);
      dense[x]! += 1;
    }
    touched.sort((a, b) => a - b);
    out.push({ indices: Int32Array.from(touched), counts: Float64Array.from(touched, (x) => dense[x]!) });
    for (const x of touched) dense[x] = 0;
    touched.length = 0;
  }
  return out;
}

export function simRun(name: string, o: SimOptions): RunInput {
  return { name, layout: LAYOUT, unitNs: 1, recordedUnit: "ns", data: { kind: "intervals", intervals: simIntervals(o), intervalSeconds: 1 } };
}
