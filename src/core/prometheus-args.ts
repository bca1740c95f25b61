// What a Prometheus query's range is written as, on the command line and in the page's form:
// times (RFC 3339 or epoch seconds), steps (a Prometheus duration or seconds), the default step,
// and the server's address as it may be shown (never its credentials).

/** Steps in a range by default. */
const DEFAULT_STEPS = 500;

/** (end − start) / 500, rounded up to whole seconds (at least 1). */
export function defaultStep(start: number, end: number): number {
  return Math.max(1, Math.ceil((end - start) / DEFAULT_STEPS));
}

/** An RFC 3339 time or epoch seconds, as epoch seconds; null when it is neither. */
export function parseTime(text: string): number | null {
  const t = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(t)) return null;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

const DURATION_UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800, y: 31536000 };

/** A Prometheus duration (15s, 1m30s, 1h) or seconds (30, 0.5), as seconds; null otherwise. */
export function parseStep(text: string): number | null {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) > 0 ? Number(t) : null;
  if (!/^(\d+(ms|s|m|h|d|w|y))+$/.test(t)) return null;
  let sec = 0;
  for (const m of t.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)) sec += Number(m[1]) * DURATION_UNITS[m[2]!]!;
  return sec > 0 ? sec : null;
}

/** The address with no user:password, query or fragment: what may be shown, logged or linked. */
export function publicAddress(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.toString().replace(/\/+$/, "");
  } catch {
    return url.replace(/\/\/[^/@]*@/, "//");
  }
}
