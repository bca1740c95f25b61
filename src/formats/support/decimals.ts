// Exact decimal parsing of latencies (on the digits, never through floating point), and the
// units and limits the readers record in.
import { NANOS_PER_UNIT, type Unit } from "../../core/types";

export type Scaled = { ok: true; value: number } | { ok: false; reason: string };

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,6}))?$/;

/**
 * The decimal text × 10^scaleDigits as an integer digit string, rounded half up, computed on the
 * digits (no floating point: "12.3455" at 3 digits is 12346, where 12.3455 * 1000 is 12345.4999…).
 * null for text that is not a plain decimal number.
 */
export function scaleDecimalDigits(text: string, scaleDigits: number): { negative: boolean; digits: string } | null {
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const int = m[2] ?? "";
  const frac = m[3] ?? "";
  if (int.length + frac.length === 0) return null;
  let all = int + frac;
  let point = int.length + Number(m[4] ?? 0) + scaleDigits; // digits before the decimal point
  const lead = all.length - all.replace(/^0+/, "").length;
  all = all.slice(lead);
  point -= lead;
  if (all === "") return { negative: false, digits: "0" };
  if (point > 40) return { negative: m[1] === "-", digits: "9".repeat(41) }; // far beyond any bound
  let intPart: string;
  let roundDigit: number;
  if (point <= 0) {
    intPart = "0";
    roundDigit = point === 0 ? all.charCodeAt(0) - 48 : 0;
  } else if (point >= all.length) {
    intPart = all + "0".repeat(point - all.length);
    roundDigit = 0;
  } else {
    intPart = all.slice(0, point);
    roundDigit = all.charCodeAt(point) - 48;
  }
  if (roundDigit >= 5) intPart = incrementDigits(intPart);
  return { negative: m[1] === "-" && /[1-9]/.test(intPart), digits: intPart };
}

function incrementDigits(s: string): string {
  const d = s.split("");
  let i = d.length - 1;
  while (i >= 0) {
    if (d[i] === "9") {
      d[i] = "0";
      i--;
    } else {
      d[i] = String.fromCharCode(d[i]!.charCodeAt(0) + 1);
      return d.join("");
    }
  }
  return "1" + d.join("");
}

/** Decimal places written in a number's text ("12.50" → 2, "1e-3" → 3, "7" → 0). */
export function decimalsOf(text: string): number {
  const m = DECIMAL.exec(text);
  if (!m) return 0;
  return Math.max(0, (m[3] ?? "").replace(/0+$/, "").length - Number(m[4] ?? 0));
}

/**
 * A latency as an integer in the unit 10^-scaleDigits of the written one, checked: a number,
 * not negative, at most `max`. `what` names the value in the reasons.
 */
export function parseLatency(text: string, scaleDigits: number, max: number, what = "latency"): Scaled {
  const t = text.trim();
  if (t === "") return { ok: false, reason: `${what} is empty` };
  const s = scaleDecimalDigits(t, scaleDigits);
  if (!s) {
    if (/^[+-]?(nan|inf|infinity)$/i.test(t)) return { ok: false, reason: `${what} ${JSON.stringify(t)} is not a finite number` };
    return { ok: false, reason: `${what} ${JSON.stringify(clip(t))} is not a number` };
  }
  if (s.negative) return { ok: false, reason: `${what} ${clip(t)} is negative` };
  if (s.digits.length > 16 || Number(s.digits) > max) return { ok: false, reason: `${what} ${clip(t)} is too large (limit ${describeLimit(max, scaleDigits)})` };
  return { ok: true, value: Number(s.digits) };
}

function describeLimit(max: number, scaleDigits: number): string {
  return scaleDigits === 0 ? String(max) : `${max / 10 ** scaleDigits}`;
}

/** Short form of user text for a problem message. */
export function clip(text: string, n = 40): string {
  return text.length > n ? `${text.slice(0, n)}…` : text;
}

// ---------------------------------------------------------------------------------------------
// Units and limits

/** Latencies above one hour are refused: a bad value, and one would widen every histogram. */
export const MAX_LATENCY_NS = 3600e9;

export function maxLatencyIn(unit: Unit): number {
  return MAX_LATENCY_NS / NANOS_PER_UNIT[unit];
}

/** The unit 10^-3·k of `unit`, k steps finer (capped at ns), and the steps actually taken. */
export function finerUnit(unit: Unit, steps: number): { unit: Unit; steps: number } {
  const order: Unit[] = ["s", "ms", "us", "ns"];
  const from = order.indexOf(unit);
  const to = Math.min(order.length - 1, from + Math.max(0, steps));
  return { unit: order[to]!, steps: to - from };
}
