import { describe, expect, it } from "vitest";
import { formatClock, formatMoment, formatOffset, formatSeconds, momentStyle, timeTicks, wallTickLabels } from "./time-format";

const T0 = Date.UTC(2026, 10, 1, 14, 48, 0) / 1000; // 2026-11-01 14:48:00 UTC

describe("time axis ticks", () => {
  it("a 24-hour run is ticked at whole hours, not at 2:46:40", () => {
    const ticks = timeTicks(0, 86400, 9);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks.length).toBeLessThanOrEqual(10);
    for (const t of ticks) expect(t % 3600).toBe(0);
    expect(ticks.map(formatSeconds)).toContain("3:00:00");
    expect(ticks.map(formatSeconds)).not.toContain("2:46:40");
  });

  it("whole steps at every scale: seconds, minutes, days; never more than asked", () => {
    const cases: [number, number, number, number][] = [
      // span start, span end, max ticks, step expected
      [0, 60, 7, 10],
      [0, 600, 7, 120],
      [3, 1800, 6, 300],
      [0, 7 * 86400, 8, 86400],
      [0, 45, 4, 15],
    ];
    for (const [a, b, n, step] of cases) {
      const ticks = timeTicks(a, b, n);
      expect(ticks.length).toBeLessThanOrEqual(n + 1);
      for (const t of ticks) expect(t % step).toBe(0);
      expect(ticks[0]!).toBeGreaterThanOrEqual(a);
      expect(ticks[ticks.length - 1]!).toBeLessThanOrEqual(b);
    }
    expect(timeTicks(0, 0.5, 5)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
  });

  it("wall-clock labels carry the date when the axis crosses midnight", () => {
    const day2 = Date.UTC(2026, 10, 2, 0, 0, 0) / 1000;
    expect(wallTickLabels([day2 - 3600, day2, day2 + 3600], day2 - 7200, day2 + 7200)).toEqual(["11-01 23:00", "11-02 00:00", "11-02 01:00"]);
    expect(wallTickLabels([T0, T0 + 30], T0, T0 + 60)).toEqual(["14:48:00", "14:48:30"]);
  });
});

describe("moments", () => {
  it("says both forms: seconds since StartTime (what the range inputs take) and UTC", () => {
    expect(formatMoment(312, T0)).toBe("+312 s (14:53:12 UTC)");
    expect(formatMoment(312, null)).toBe("+312 s");
    expect(formatOffset(-0.005)).toBe("−0.005 s");
    expect(formatClock(T0 + 0.25, { decimals: 3, date: true })).toBe("2026-11-01 14:48:00.250");
  });

  it("a list whose entries would read the same gets sub-second digits; one spanning days gets dates", () => {
    const same = [
      { offset: 299.1, startTime: T0 },
      { offset: 299.6, startTime: T0 },
    ];
    const st = momentStyle(same);
    expect(st.decimals).toBe(1);
    expect(same.map((m) => formatMoment(m.offset, m.startTime, st))).toEqual(["+299.1 s (14:52:59.1 UTC)", "+299.6 s (14:52:59.6 UTC)"]);
    expect(
      momentStyle([
        { offset: 1, startTime: T0 },
        { offset: 2, startTime: T0 },
      ]),
    ).toEqual({ decimals: 0, date: false });
    const days = momentStyle([
      { offset: 10, startTime: T0 },
      { offset: 10, startTime: T0 + 86400 },
    ]);
    expect(days.date).toBe(true);
    expect(formatMoment(10, T0 + 86400, days)).toBe("+10 s (2026-11-02 14:48:10 UTC)");
  });

  it("durations: minutes, hours and days", () => {
    expect(formatSeconds(90)).toBe("1:30");
    expect(formatSeconds(3725)).toBe("1:02:05");
    expect(formatSeconds(90000)).toBe("1d 1:00:00");
  });
});
