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
  const [yLog, setYLog] = useState(false);
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

  /** The view without the window and the comparison, which live elsewhere (see App). */
  const view = useMemo(
    (): Omit<ViewState, "range" | "compare"> => ({
      unit,
      yLog,
      sideBySide,
      requirement: requirement ? formatRequirement(requirement) : null,
      timeline: { percentiles: tl.percentiles, perLane: tl.perLane, wallClock: tl.wallClock, log: tl.log },
      theme,
      coInterval: coText,
      timeOptions: timeOpts,
    }),
    [unit, yLog, sideBySide, requirement, tl, theme, coText, timeOpts],
  );

  /** Sets what a restored view carries (the CO interval is applied by the caller, through the engine). */
  const restore = (v: RestoredViewState) => {
    setUnit(v.unit);
    setYLog(v.yLog);
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
    yLog,
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
