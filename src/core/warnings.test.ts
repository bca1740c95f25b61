import { describe, expect, it } from "vitest";
import { formatNs, warningText } from "./warnings";

describe("warning texts", () => {
  it("a saturated run: its name and how far the median rose", () => {
    const t = warningText({ kind: "saturation", series: "sysA_40k", rise: 3.04 });
    expect(t).toMatch(/^The median latency of sysA_40k climbs steadily through the run \(3\.0× from the first to the last quarter\): the system was past its capacity/);
  });

  it("a cliff: its ends written in their own unit, from the series' recorded unit", () => {
    const cliff = { suspicious: true, from: { percentile: 99.9, value: 2_000 }, to: { percentile: 99.99, value: 1_500_000 }, jump: 750 };
    const t = warningText({ kind: "coordinated-omission", series: "run", unit: "us", cliff });
    expect(t).toContain("The spectrum of run ends in a vertical cliff: from 2 ms at p99.9 to 1.5 s at p99.99");
    expect(t).toContain("coordinated omission");
  });

  it("durations take the largest unit they reach, to 4 significant digits", () => {
    expect([formatNs(999), formatNs(1_000), formatNs(12_345_678), formatNs(3.5e9)]).toEqual(["999 ns", "1 µs", "12.35 ms", "3.5 s"]);
  });
});
