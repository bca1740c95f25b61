import { describe, expect, it } from "vitest";
import { nextSliceSize, SLICE_BUDGET_MS } from "./use-in-slices";

describe("the next slice's size", () => {
  it("fills the budget at the cost per item the last slice took", () => {
    // 20 rows in 10 ms: 0.5 ms each, so the budget holds 80 (the growth limit of 4× also).
    expect(nextSliceSize(20, 10, 20)).toBe(Math.min(80, Math.floor(SLICE_BUDGET_MS / 0.5)));
    // 50 rows in 25 ms at a 40 ms budget: 80 rows.
    expect(nextSliceSize(50, 25, 20, 40)).toBe(80);
  });

  it("grows at most four times a slice, so one cheap slice cannot make the next one hold the page", () => {
    expect(nextSliceSize(20, 1, 20)).toBe(80);
    expect(nextSliceSize(20, 0, 20)).toBe(80);
  });

  it("never falls below the list's own step, however slow the last slice was", () => {
    expect(nextSliceSize(20, 500, 20)).toBe(20);
    expect(nextSliceSize(0, 10, 25)).toBe(25);
  });
});
