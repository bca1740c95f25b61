// Hand-built share-link metadata (test code only): what the encoder would write, written directly
// so that tests can put wrong or hostile values in it.
import type { ShareView } from "../../src/share";

/**
 * A link's view (v2 on): ms, linear y axis, one chart, no requirement, the whole run, a timeline
 * with no percentiles and its switches off; `fields` replacing (the timeline's one by one).
 */
export function viewMeta(fields: Omit<Partial<ShareView>, "timeline"> & { timeline?: Partial<ShareView["timeline"]> } = {}): ShareView {
  const { timeline, ...rest } = fields;
  return {
    displayUnit: "ms",
    yLog: false,
    sideBySide: false,
    requirement: null,
    range: { start: null, end: null },
    ...rest,
    timeline: { percentiles: [], perLane: false, wallClock: false, log: false, ...timeline },
  };
}

/**
 * The metadata of one series in a link (v2 on): named "a", from file "a", untagged, with no
 * configuration, throughput or kind, recorded in ns, visible, no StartTime; `fields` added or replacing.
 */
export function seriesMeta(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: "a", source: "a", tag: "", config: "", throughput: null, kind: "", unit: "ns", visible: true, startTime: null, ...fields };
}
