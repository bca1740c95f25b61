// How ratios and percentiles are written in sentences and tables.

/** "p99.9", "p50"; "max" for 100. */
export function pLabel(p: number): string {
  return p >= 100 ? "max" : `p${Number(p.toPrecision(8))}`;
}

/** A factor ≥ 1 as "3.1×", with more digits close to 1 ("1.04×"). */
export function factor(x: number): string {
  if (!Number.isFinite(x)) return "∞×";
  return `${x < 1.995 ? x.toFixed(2) : x < 9.95 ? x.toFixed(1) : Math.round(x).toString()}×`;
}

/** A ratio (candidate ÷ baseline) as plain digits for tables: "0.318". */
export function ratioText(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return "";
  return Number(x.toPrecision(3)).toString();
}

export function percentText(m: number): string {
  return `${Number((m * 100).toPrecision(3))} %`;
}

/** A value in ns in the unit that reads best, to three significant digits: "1.1 ms", "269 ms", "2.5 s". */
export function nsText(ns: number): string {
  if (!Number.isFinite(ns)) return "–";
  const [d, u] = ns >= 1e9 ? [1e9, "s"] : ns >= 1e6 ? [1e6, "ms"] : ns >= 1e3 ? [1e3, "µs"] : [1, "ns"];
  const v = ns / d;
  return `${v >= 100 ? Math.round(v) : Number(v.toPrecision(3))} ${u}`;
}

/** "sysA's", "stalls'": a name's possessive. */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}
