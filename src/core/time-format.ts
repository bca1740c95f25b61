// Time as the page writes it, in one notation everywhere (charts, verdicts, tail summaries,
// Markdown): a moment of a log is "+312 s" (seconds since its StartTime, what the range inputs
// and HistogramLogProcessor's -start/-end take) followed, where the log states its StartTime, by
// its UTC wall-clock time "(14:53:12 UTC)", with the date when the moments span days, and
// sub-second digits where two entries of a list would otherwise read the same.
import { plainNumber } from "./format";

const DAY = 86400;

/** A duration or axis position in seconds: 45 → "45s", 90 → "1:30", 3725 → "1:02:05", 90000 → "1d 1:00:00". */
export function formatSeconds(s: number): string {
  const sign = s < 0 ? "-" : "";
  const a = Math.abs(s);
  if (a < 60) return `${sign}${Number(a.toFixed(3))}s`;
  const d = Math.floor(a / DAY);
  const h = Math.floor((a % DAY) / 3600);
  const m = Math.floor((a % 3600) / 60);
  const sec = a % 60;
  const ss = sec.toFixed(sec % 1 === 0 ? 0 : 1).padStart(sec < 10 ? (sec % 1 === 0 ? 2 : 4) : 0, "0");
  if (d > 0) return `${sign}${d}d ${h}:${String(m).padStart(2, "0")}:${ss}`;
  return h > 0 ? `${sign}${h}:${String(m).padStart(2, "0")}:${ss}` : `${sign}${m}:${ss}`;
}

/**
 * Seconds since StartTime as typed in the range inputs: "+312 s", "+312.25 s", "−0.005 s".
 * Cut down to `decimals` (as the clock is), never rounded up: typing the number shown as
 * -start keeps the interval that starts there.
 */
export function formatOffset(s: number, decimals = 3): string {
  const k = 10 ** decimals;
  const v = Number((Math.floor(s * k + 1e-6) / k).toFixed(decimals));
  return `${v < 0 ? "−" : "+"}${plainNumber(Math.abs(v))} s`;
}

/** UTC wall-clock time of an epoch second: "14:53:12", "14:53:12.250", "2026-11-01 14:53:12". */
export function formatClock(epochSec: number, o: { date?: boolean; decimals?: number } = {}): string {
  const decimals = o.decimals ?? 0;
  const ms = Math.round(epochSec * 1000);
  const iso = new Date(ms).toISOString(); // 2026-11-01T14:53:12.250Z
  const time = iso.slice(11, decimals > 0 ? 20 + Math.min(3, decimals) : 19);
  return o.date ? `${iso.slice(0, 10)} ${time}` : time;
}

export interface MomentStyle {
  /** Digits after the second. */
  decimals: number;
  /** Whether the date is written (the moments span more than one UTC day). */
  date: boolean;
}

/** "+312 s (14:53:12 UTC)", or "+312 s" when the log has no StartTime. */
export function formatMoment(offset: number, startTime: number | null, style: MomentStyle = { decimals: 0, date: false }): string {
  const off = formatOffset(offset, style.decimals);
  if (startTime === null) return off;
  return `${off} (${formatClock(startTime + offset, style)} UTC)`;
}

/**
 * How a list of moments is written so that each entry reads differently from the others (the
 * fewest sub-second digits, up to ms) and says the date when they lie on different UTC days.
 */
export function momentStyle(moments: readonly { offset: number; startTime: number | null }[]): MomentStyle {
  const days = new Set<number>();
  for (const m of moments) if (m.startTime !== null) days.add(Math.floor((m.startTime + m.offset) / DAY));
  const date = days.size > 1;
  for (let decimals = 0; decimals < 3; decimals++) {
    const seen = new Set<string>();
    const distinct = new Set<string>();
    let clash = false;
    for (const m of moments) {
      const exact = `${m.startTime ?? ""}|${m.offset}`;
      if (distinct.has(exact)) continue;
      distinct.add(exact);
      // Each form on its own must tell the entries apart.
      const off = `o${m.startTime ?? ""}|${formatOffset(m.offset, decimals)}`;
      const clock = m.startTime === null ? null : `c${formatClock(m.startTime + m.offset, { decimals, date })}`;
      if (seen.has(off) || (clock !== null && seen.has(clock))) clash = true;
      seen.add(off);
      if (clock !== null) seen.add(clock);
    }
    if (!clash) return { decimals, date };
  }
  return { decimals: 3, date };
}

/** Whole steps for a time axis in seconds: 1, 2, 5, 10, 15, 30 s; 1, 2, 5, 10, 15, 30 min; 1, 2, 3, 6, 12 h; 1, 2, 7, 14, 30 days. */
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY];

/**
 * Ticks for an axis in seconds (since StartTime): at multiples of the smallest whole step that
 * gives at most `maxTicks` (a 24-hour run is ticked at whole hours, not at 2:46:40). Spans
 * under a second fall back to decimal steps.
 */
export function timeTicks(t0: number, t1: number, maxTicks: number): number[] {
  const span = t1 - t0;
  if (!(span > 0) || !Number.isFinite(span)) return [t0];
  const n = Math.max(1, maxTicks);
  // A loop, not a callback: a closure made per call loses its optimised code at every major collection.
  let step: number | undefined;
  for (const s of STEPS)
    if (span / s <= n) {
      step = s;
      break;
    }
  if (step === undefined) step = Math.ceil(span / n / (30 * DAY)) * 30 * DAY;
  if (span < n) {
    // Under a second per tick: 0.5, 0.2, 0.1 … s.
    const raw = span / n;
    const p = 10 ** Math.floor(Math.log10(raw));
    step = [1, 2, 5, 10].map((k) => k * p).find((s) => s >= raw) ?? 10 * p;
  }
  const out: number[] = [];
  const first = Math.ceil(t0 / step - 1e-9) * step;
  for (let t = first; t <= t1 + step * 1e-9; t += step) out.push(Number(t.toFixed(6)));
  return out;
}

/**
 * Labels for wall-clock ticks (epoch seconds): "14:53:12" (or "14:53" on whole minutes) within
 * one UTC day; "11-01 14:00" on an axis that crosses midnight, so each tick says its day.
 */
export function wallTickLabels(ticks: readonly number[], t0: number, t1: number): string[] {
  const crosses = Math.floor(t0 / DAY) !== Math.floor(t1 / DAY);
  const wholeMinutes = ticks.every((t) => Math.round(t) % 60 === 0);
  return ticks.map((t) => {
    const iso = new Date(Math.round(t * 1000)).toISOString();
    const time = wholeMinutes ? iso.slice(11, 16) : iso.slice(11, 19);
    return crosses ? `${iso.slice(5, 10)} ${time}` : time;
  });
}
