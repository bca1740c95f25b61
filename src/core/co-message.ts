// The words of the coordinated-omission warning, apart from the detector (co-detect.ts): the page
// shows the warning the engine found without loading the detector or the histogram library.
import type { CoSuspicion } from "./co-detect";

/**
 * Two percentiles (0..100) written with as many digits as it takes to tell them apart (six
 * significant digits at least: 99.99909 and 99.99992 would both read 99.9999 with six), and
 * never rounded up to 100 while under it.
 */
export function percentilePair(a: number, b: number): [string, string] {
  const at = (p: number, d: number): string => String(Number(p.toFixed(d)));
  const roundsUp = (p: number, d: number) => p < 100 && Number(p.toFixed(d)) >= 100;
  const first = (p: number) => Math.max(0, 6 - Math.max(1, Math.floor(Math.log10(Math.max(p, 1))) + 1));
  let d = Math.max(first(a), first(b));
  while ((roundsUp(a, d) || roundsUp(b, d) || (a !== b && at(a, d) === at(b, d))) && d < 15) d++;
  return [at(a, d), at(b, d)];
}

const TOP_PCT = (p: number) => String(Number(p.toPrecision(p < 1 ? 2 : 6)));

/** The warning for a flagged series; `value` writes a value given in the histogram's unit. */
export function coMessage(name: string, c: CoSuspicion, value: (v: number) => string): string {
  const from = c.from!;
  const to = c.to!;
  const [pFrom, pTo] = percentilePair(from.percentile, to.percentile);
  const jump = c.jump !== undefined && Number.isFinite(c.jump) ? ` (${c.jump.toFixed(1)}× within the top ${TOP_PCT(100 - from.percentile)} %)` : "";
  const cliff =
    pFrom === pTo ? `from ${value(from.value)} to ${value(to.value)} at p${pFrom}${jump}` : `from ${value(from.value)} at p${pFrom} to ${value(to.value)} at p${pTo}${jump}`;
  const s = c.stall;
  const rate = (r: number) => (r >= 1000 ? `${Number((r / 1000).toPrecision(3))}k` : String(Number(r.toPrecision(3))));
  const physics = s
    ? ` At the run's ${rate(s.rate)} requests/s, a stall that left a max of ${value(s.stall)}, measured for every request it delayed, puts about ${Math.round(s.expected)} values above ${value(s.stall / 2)}; this run has ${s.observed}, and the intervals around ${Number(s.intervalStart.toPrecision(6))} s hold ${Math.round(s.missing)} fewer requests than that rate: they were never sent.`
    : "";
  return `The spectrum of ${name} ends in a vertical cliff: ${cliff}.${physics} That is the shape a load generator leaves when it waits for each reply: each stall was measured once instead of for every request it delayed (coordinated omission), so the percentiles below the cliff are far too good. Check with the "Control-Z test": suspend the system under test (Ctrl-Z) for 10 s in a 100 s run at constant load; requests sent during the pause wait 0–10 s, so an honest tool reports a p99 of about 9 s, while one that omits them still shows milliseconds. Set the expected interval between requests to see the corrected spectrum beside this one.`;
}
