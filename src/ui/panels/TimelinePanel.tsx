// The "over time" panel: the timeline and its controls (percentile lines, lanes, wall-clock
// time, log axis, zoom), plus its exports.
import { memo, useRef } from "react";
import { Timeline, type TimelineLine } from "../../charts/timeline/Timeline";
import { TIMELINE_PERCENTILES, type Unit } from "../../core/types";
import type { TimelineResult, TimeRange } from "../../engine/store";
import { ChartActions } from "./ChartActions";
import type { TimeBands } from "../state/time-state";

export { DEFAULT_TIMELINE, type TimelineSettings } from "../../core/view-defaults";
import type { TimelineSettings } from "../../core/view-defaults";

interface Props {
  timeline: TimelineResult;
  lines: TimelineLine[];
  unit: Unit;
  range: TimeRange;
  width: number;
  settings: TimelineSettings;
  onSettings: (s: TimelineSettings) => void;
  onRange: (r: TimeRange) => void;
  /** Window verdicts and tail intervals to mark, per series id. */
  bands?: Map<string, TimeBands>;
  /** The page's busy flag, held while many lines are drawn over several tasks. */
  onBusy?: (d: 1 | -1) => void;
}

// Memoised: re-renders when the timeline, its settings, the unit or the window change, not
// on the app's other re-renders.
export const TimelinePanel = memo(function TimelinePanel({ timeline, lines, unit, range, width, settings, onSettings, onRange, bands, onBusy }: Props) {
  const box = useRef<HTMLDivElement>(null);
  return (
    <section className="timeline-panel" aria-label="Latency over time">
      <TimelineControls settings={settings} onSettings={onSettings} />
      <div ref={box}>
        <Timeline
          lines={lines}
          unit={unit}
          percentiles={settings.percentiles}
          perLane={settings.perLane}
          wallClock={settings.wallClock}
          yLog={settings.log}
          domain={timeline.domain}
          range={range}
          width={width}
          height={settings.perLane ? Math.max(200, 110 * lines.length) : 220}
          onBrush={(a, b) => onRange({ start: a, end: b })}
          onZoom={(d) => onSettings({ ...settings, domain: d })}
          bands={bands}
          onBusy={onBusy}
        />
      </div>
      <ChartActions container={box} name="max-over-time" />
    </section>
  );
});

/** The percentile lines, lanes, clock and log choices: memoised, so a live run's redraws of the chart leave these inputs alone. */
const TimelineControls = memo(function TimelineControls({ settings, onSettings }: { settings: TimelineSettings; onSettings: (s: TimelineSettings) => void }) {
  const set = (patch: Partial<TimelineSettings>) => onSettings({ ...settings, ...patch });
  const check = (id: string, key: "perLane" | "wallClock" | "log", label: string) => (
    <label>
      <input
        type="checkbox"
        data-testid={id}
        checked={settings[key]}
        onChange={(e) => set(key === "log" ? { log: e.target.checked, logAuto: false } : { [key]: e.target.checked })}
      />{" "}
      {label}
    </label>
  );
  return (
    <div className="timeline-controls">
      <strong>Over time</strong>
      <span className="group" role="group" aria-label="Percentile lines">
        {TIMELINE_PERCENTILES.map((p) => (
          <label key={p}>
            <input
              type="checkbox"
              data-testid={`timeline-p${p}`}
              checked={settings.percentiles.includes(p)}
              onChange={(e) => set({ percentiles: e.target.checked ? [...settings.percentiles, p].sort((a, b) => a - b) : settings.percentiles.filter((x) => x !== p) })}
            />
            p{p}
          </label>
        ))}
      </span>
      {check("timeline-lanes", "perLane", "one lane per series")}
      {check("timeline-wallclock", "wallClock", "wall-clock time")}
      {check("timeline-log", "log", "log")}
      {settings.domain ? (
        <button type="button" data-testid="timeline-zoom-out" onClick={() => set({ domain: null })}>
          zoom out
        </button>
      ) : null}
      <span className="hint">drag to select a window, wheel to zoom, shift+wheel to pan, double-click to zoom out</span>
    </div>
  );
});
