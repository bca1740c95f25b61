// log2, 2^x, ln, log1p, e^x and the cube root from additions, multiplications and divisions alone, so they give the same bits
// in every JavaScript engine. Math.log2, Math.log and Math.pow are not: Node's V8 and Chromium's
// round about one call in ten differently in the last bit (measured on 200,000 arguments), so a
// comparison's interval ends (2 ** (bins / bins per octave)) and bins (floor(log2(v) × bins per
// octave)) computed by the command line could differ from the page's. IEEE 754 fixes the result
// of each basic operation, so a fixed sequence of them is the same everywhere. Accuracy: a few
// units in the last place (tested against Math).

const LN2 = 0.6931471805599453;
const SQRT2 = 1.4142135623730951;
const TWO_32 = 4294967296;
const LOG2_10 = 3.321928094887362;

/** 2^n for an integer n, exactly (while representable), by repeated doubling or halving. */
function pow2int(n: number): number {
  let r = 1;
  if (n >= 0) for (let i = 0; i < n; i++) r *= 2;
  else for (let i = 0; i > n; i--) r /= 2;
  return r;
}

/** 2·atanh(s) = ln((1 + s)/(1 − s)) by its series: terms s^(2k+1)/(2k+1) for k ≤ `terms`. */
function twiceAtanh(s: number, terms: number): number {
  const s2 = s * s;
  let term = s;
  let sum = s;
  for (let k = 1; k <= terms; k++) {
    term *= s2;
    sum += term / (2 * k + 1);
  }
  return 2 * sum;
}

/** Natural log of m in [√½, √2): s = (m − 1)/(m + 1), |s| < 0.172, so 12 terms leave below 1e-19 of the sum. */
function lnNear1(m: number): number {
  return twiceAtanh((m - 1) / (m + 1), 12);
}

/** log2(x) for x > 0 (NaN for x ≤ 0 or NaN, Infinity for Infinity). */
export function log2(x: number): number {
  if (!(x > 0)) return x === 0 ? -Infinity : Number.NaN;
  if (x === Infinity) return Infinity;
  // x = m · 2^e with m in [√½, √2): e found by halving or doubling (exact for doubles).
  let e = 0;
  let m = x;
  while (m >= TWO_32) {
    m /= TWO_32;
    e += 32;
  }
  while (m < 1 / TWO_32) {
    m *= TWO_32;
    e -= 32;
  }
  while (m >= SQRT2) {
    m /= 2;
    e++;
  }
  while (m < SQRT2 / 2) {
    m *= 2;
    e--;
  }
  return e + lnNear1(m) / LN2;
}

/** 2^x (0 below about −1074, Infinity above 1024). */
export function exp2(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x > 1024) return Infinity;
  if (x < -1100) return 0;
  const n = Math.round(x);
  // e^y with y = (x − n)·ln 2 in [−0.347, 0.347]: Taylor terms up to y^18/18!, below 1e-20.
  const y = (x - n) * LN2;
  // Horner's rule from the smallest term: 1 + y(1 + y/2(1 + y/3(…))).
  let sum = 1;
  for (let k = 18; k >= 1; k--) sum = 1 + (sum * y) / k;
  // Scaled in two steps, so that 2^n itself never overflows or underflows on the way.
  const half = Math.trunc(n / 2);
  return sum * pow2int(half) * pow2int(n - half);
}

/** Natural log of x > 0. */
export function ln(x: number): number {
  return log2(x) * LN2;
}

/** ln(1 + x) for x > −1, accurate for small x (no 1 + x formed first). */
export function log1p(x: number): number {
  if (!(x > -1)) return x === -1 ? -Infinity : Number.NaN;
  if (Math.abs(x) >= 0.4) return ln(1 + x);
  // s = x / (2 + x), |s| < 0.25: 16 terms.
  return twiceAtanh(x / (2 + x), 16);
}

/** e^x. */
export function exp(x: number): number {
  return exp2(x / LN2);
}

/** log10 of x > 0. */
export function log10(x: number): number {
  return log2(x) / LOG2_10;
}

/** The real cube root. */
export function cbrt(x: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  return x < 0 ? -exp2(log2(-x) / 3) : exp2(log2(x) / 3);
}
