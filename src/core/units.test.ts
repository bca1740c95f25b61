import { describe, expect, it } from "vitest";
import { unitFactor } from "./types";

describe("unitFactor", () => {
  it("converts between recorded and display units", () => {
    expect(unitFactor("ns", "ms")).toBe(1e-6);
    expect(unitFactor("s", "us")).toBe(1e6);
    expect(unitFactor("us", "us")).toBe(1);
  });
});
