// The expected interval between requests, as a user states it: a duration ("10ms", "250 us")
// or a rate ("100/s", "2k/s", "500 rps"), which gives the interval 1/rate.
import { parseThroughput } from "./naming";
import { NANOS_PER_UNIT, unitOfWord } from "./types";

/** Nanoseconds, null for empty text, NaN for text that is neither a duration nor a rate. */
export function parseExpectedInterval(text: string): number | null {
  const t = text.trim();
  if (t === "") return null;
  const d = /^(\d+(?:\.\d+)?|\.\d+)\s*(ns|us|µs|μs|ms|s)$/i.exec(t);
  if (d) {
    const v = Number(d[1]) * NANOS_PER_UNIT[unitOfWord(d[2]!.toLowerCase())!];
    return v > 0 ? v : Number.NaN;
  }
  if (/(\/\s*s|rps|ops|qps|per sec)/i.test(t)) {
    const rate = parseThroughput(t);
    return rate && rate > 0 ? 1e9 / rate : Number.NaN;
  }
  return Number.NaN;
}

export function formatInterval(ns: number): string {
  if (ns >= 1e9) return `${Number((ns / 1e9).toPrecision(4))}s`;
  if (ns >= 1e6) return `${Number((ns / 1e6).toPrecision(4))}ms`;
  if (ns >= 1e3) return `${Number((ns / 1e3).toPrecision(4))}us`;
  return `${Number(ns.toPrecision(4))}ns`;
}
