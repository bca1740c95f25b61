import { describe, expect, it } from "vitest";
import { EMPTY, exceedance, exceedanceP, exceedanceTail, stretchesNeeded, stretchMaxima } from "./events";

/** Every way to give n of n + m ranked stretch maxima to the first side: the exact null, by enumeration. */
function enumerated(n: number, m: number, t: number): number {
  const N = n + m;
  let hits = 0;
  let all = 0;
  for (let mask = 0; mask < 1 << N; mask++) {
    let ones = 0;
    for (let k = 0; k < N; k++) if (mask & (1 << k)) ones++;
    if (ones !== n) continue;
    all++;
    // Bit k is rank k from the top: count the first side's stretches above all of the other's.
    let top = 0;
    while (top < N && mask & (1 << top)) top++;
    if (top >= t) hits++;
  }
  return hits / all;
}

describe("the event rule: Rosenbaum's exceedance count on stretch maxima", () => {
  it("has the exact null tail C(n, t) ÷ C(n + m, t), worked by hand", () => {
    // C(3, 2) / C(5, 2) = 3 / 10; the other side: C(2, 2) / C(5, 2) = 1 / 10.
    expect(exceedanceTail(3, 2, 2)).toBeCloseTo(3 / 10, 15);
    expect(exceedanceP(3, 2, 2)).toBeCloseTo(4 / 10, 15);
    // The demo's 7 stalls in 9 stretches of a minute against none: C(9, 7) / C(18, 7) = 36 / 31,824.
    expect(exceedanceTail(9, 9, 7)).toBeCloseTo(36 / 31824, 15);
    expect(exceedanceP(9, 9, 7)).toBeCloseTo(72 / 31824, 15);
    // Five minutes in stretches of 15 s, 14 of one side's above all of the other's: C(20, 14) / C(40, 14).
    expect(exceedanceTail(20, 20, 14)).toBeCloseTo(38760 / 23206929840, 18);
    expect(exceedanceTail(20, 20, 5)).toBeCloseTo(15504 / 658008, 15);
    // Nothing above, or more than the side has.
    expect(exceedanceP(5, 5, 0)).toBe(1);
    expect(exceedanceTail(3, 5, 4)).toBe(0);
  });

  it.each([
    [4, 4],
    [5, 3],
    [3, 6],
    [7, 7],
  ])("equals the null distribution enumerated over every assignment of stretches to sides (%i stretches against %i)", (n, m) => {
    for (let t = 1; t <= n; t++) expect(exceedanceTail(n, m, t), `${n}, ${m}, ${t}`).toBeCloseTo(enumerated(n, m, t), 12);
  });

  it("tends to the conditional binomial with exposure = each side's duration on long runs", () => {
    // n stretches against 2n: the chance that a stretch above is the first side's is 1/3.
    expect(exceedanceTail(1_000_000, 2_000_000, 4)).toBeCloseTo((1 / 3) ** 4, 6);
    expect(exceedanceTail(1_000_000, 1_000_000, 7)).toBeCloseTo(0.5 ** 7, 6);
  });

  it("needs one number of stretches, the smallest that decides at the rule's share of the error", () => {
    // 2 × C(20, 6) / C(40, 6) = 0.0202 > 1 %; 2 × C(20, 7) / C(40, 7) = 0.0083.
    expect(stretchesNeeded(20, 20, 0.01)).toBe(7);
    // 2 × 126 / 8,568 = 0.029; 2 × 84 / 18,564 = 0.009.
    expect(stretchesNeeded(9, 9, 0.01)).toBe(6);
    // Too short for any count to decide.
    expect(stretchesNeeded(3, 3, 0.01)).toBe(4);
  });

  it("counts stretches above every one of the other side's, ties not counted, empty stretches below all", () => {
    const sub = (tops: number[]) => [
      tops.map((t) => (t === EMPTY ? { bins: new Int32Array(0), counts: new Float64Array(0) } : { bins: Int32Array.of(0, t), counts: Float64Array.of(5, 1) })),
    ];
    const a = stretchMaxima(sub([10, 50, 60, 12, 70, EMPTY]), 100);
    expect([...a]).toEqual([110, 150, 160, 112, 170, EMPTY]);
    const b = stretchMaxima(sub([20, 40, 30]), 100);
    const e = exceedance(a, b, 0.01);
    // b's max is 140: a has 150, 160 and 170 above it; nothing of b's lies above a's 170.
    expect(e.above).toEqual([3, 0]);
    expect(e.stretches).toEqual([6, 3]);
    expect(e.p).toBeCloseTo(exceedanceTail(6, 3, 3) + exceedanceTail(3, 6, 3), 15);
    // A tie with the other side's max is not above it.
    expect(exceedance(Int32Array.of(5, 9), Int32Array.of(9, 1), 0.01).above).toEqual([0, 0]);
  });
});

describe("the margin above the other side's max", () => {
  it("counts only stretches more than `gap` bins above it", () => {
    const a = Int32Array.of(150, 141, 143, 160);
    const b = Int32Array.of(140, 120);
    expect(exceedance(a, b, 0.01).above).toEqual([4, 0]);
    expect(exceedance(a, b, 0.01, 5).above).toEqual([2, 0]);
  });
});
