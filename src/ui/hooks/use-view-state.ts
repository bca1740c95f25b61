// The view's state in the page (see view-state.ts for the value it makes and restores from).
import { useEffect, useMemo, useState } from "react";
import { formatRequirement, parseRequirement, type Requirement } from "../../core/requirements";
import type { Unit } from "../../core/types";
import { DEFAULT_TIMELINE, type TimelineSettings } from "../panels/TimelinePanel";
import { DEFAULT_TIME_OPTIONS, type TimeOptions } from "../state/time-state";
import type { RestoredViewState, ViewState } from "../state/view-state";

export type ViewOptions = ReturnType<typeof useViewState>;

export function useViewState() {
  const [unit, setUnit] = useState<Unit>("ms");
  /** The latency axis the user picked; null: it follows the data (see core/log-axis.ts). */
  const [yChoice, setYLog] = useState<boolean | null>(null);
  const [sideBySide, setSideBySide] = useState(false);
  const [requirement, setRequirement] = useState<Requirement | null>(null);
  const [tl, setTl] = useState<TimelineSettings>(DEFAULT_TIMELINE);
  const [theme, setTheme] = useState<"light" | "dark">("light");
  /** The CO correction's expected interval as applied. */
  const [coText, setCoText] = useState("");
  /** Heatmap, requirement in every window, tail attribution: the time panel's options. */
  const [timeOpts, setTimeOpts] = useState<TimeOptions>(DEFAULT_TIME_OPTIONS);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  /** The view without the window, the comparison and the axis as drawn, which live elsewhere (see App). */
  const view = useMemo(
    (): Omit<ViewState, "range" | "compare" | "yLog" | "yAuto"> => ({
      unit,
      sideBySide,
      requirement: requirement ? formatRequirement(requirement) : null,
      timeline: { percentiles: tl.percentiles, perLane: tl.perLane, wallClock: tl.wallClock, log: tl.log, logAuto: tl.logAuto },
      theme,
      coInterval: coText,
      timeOptions: timeOpts,
    }),
    [unit, sideBySide, requirement, tl, theme, coText, timeOpts],
  );

  /** Sets what a restored view carries (the CO interval is applied by the caller, through the engine). */
  const restore = (v: RestoredViewState) => {
    setUnit(v.unit);
    setYLog(v.yAuto ? null : v.yLog);
    setSideBySide(v.sideBySide);
    const req = v.requirement ? parseRequirement(v.requirement) : null;
    setRequirement(req && req.ok ? req.value : null);
    setTl({ ...DEFAULT_TIMELINE, ...v.timeline });
    if (v.theme) setTheme(v.theme);
    if (v.timeOptions) setTimeOpts(v.timeOptions);
  };

  return {
    view,
    restore,
    unit,
    setUnit,
    yChoice,
    setYLog,
    sideBySide,
    setSideBySide,
    requirement,
    setRequirement,
    tl,
    setTl,
    theme,
    setTheme,
    coText,
    setCoText,
    timeOpts,
    setTimeOpts,
  };
}
