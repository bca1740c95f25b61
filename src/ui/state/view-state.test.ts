import { describe, expect, it } from "vitest";
import { encodeShare, decodeShare, type ShareState } from "../../share";
import { thresholdText } from "../../core/tail";
import { DEFAULT_TIME_OPTIONS } from "./time-state";
import { sessionOfView, shareOfView, viewOfSession, viewOfShare, type ViewState } from "./view-state";

const view: ViewState = {
  unit: "us",
  yLog: true,
  yAuto: false,
  sideBySide: true,
  requirement: "p50<=1ms, p99<=5ms",
  range: { start: 1.5, end: 30 },
  timeline: { percentiles: [50, 99.9], perLane: true, wallClock: false, log: true, logAuto: false },
  theme: "dark",
  coInterval: "10ms",
  timeOptions: { window: "5m", wallClock: true, tail: thresholdText(10_000_000), heatmap: "*" },
  compare: { baseline: "A", candidate: "B", margin: 0.05, repeats: true, headline: 99.9 },
};

describe("view state", () => {
  it("comes back whole from the saved session, with the hidden names and the series log", () => {
    const log = {
      edits: [{ source: "a.hlog", tag: "", unit: "us" }],
      merges: [
        {
          members: [
            { source: "a.hlog", tag: "" },
            { source: "b.hlog", tag: "" },
          ],
          name: "a+b",
        },
      ],
      removed: [],
    };
    const saved = sessionOfView(view, ["b"], log);
    // The session is kept by structured clone: a JSON round trip stands in for it.
    const back = viewOfSession(JSON.parse(JSON.stringify(saved)));
    expect(back.view).toEqual(view);
    expect(back.log?.edits).toEqual(log.edits);
    expect(back.log?.merges).toEqual(log.merges);
    expect(saved.removed).toBeUndefined();
    expect(back.hidden("b", 0)).toBe(true);
    expect(back.hidden("a", 1)).toBe(false);
  });

  it("keeps an unknown display unit out (a session edited by hand)", () => {
    const saved = { ...sessionOfView(view, [], {}), unit: "fortnights" };
    expect(viewOfSession(saved).view.unit).toBe("ms");
  });

  it("an older session without the later fields restores only what it has", () => {
    const { coInterval: _c, timeOptions: _t, compare: _k, ...old } = sessionOfView({ ...view, coInterval: "", compare: null }, [], {});
    const back = viewOfSession(old).view;
    expect(back.coInterval).toBeUndefined();
    expect(back.timeOptions).toBeUndefined();
    expect(back.compare).toBeUndefined();
  });

  it("carries through a share link what a link carries (not the theme or the heatmap series)", () => {
    const state: ShareState = { view: shareOfView(view), series: [] };
    const decoded = decodeShare(encodeShare(state).fragment);
    if (!decoded.ok) throw new Error(decoded.reason);
    const back = viewOfShare(decoded.state.view);
    const { theme: _t, yAuto: _a, ...carried } = view;
    expect(back).toEqual({ ...carried, timeOptions: { ...view.timeOptions, heatmap: DEFAULT_TIME_OPTIONS.heatmap } });
  });

  it("a link without time options or comparison has neither field", () => {
    const plain = shareOfView({ ...view, timeOptions: DEFAULT_TIME_OPTIONS, compare: null });
    expect("time" in plain).toBe(false);
    expect("compare" in plain).toBe(false);
    expect(viewOfShare(plain).timeOptions).toEqual(DEFAULT_TIME_OPTIONS);
  });
  it("lets axes follow the data in sessions saved before they did, unless log had been chosen", () => {
    const saved = sessionOfView(view, [], {});
    const old = (yLog: boolean) => {
      const { yAuto: _y, ...rest } = saved;
      return viewOfSession({ ...rest, yLog, timeline: { percentiles: [], perLane: false, wallClock: false, log: yLog } }).view;
    };
    expect(old(false).yAuto).toBe(true);
    expect(old(false).timeline.logAuto).toBe(true);
    expect(old(true).yAuto).toBe(false);
    expect(old(true).timeline.logAuto).toBe(false);
  });
});
