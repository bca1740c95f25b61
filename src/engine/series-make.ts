// What every ingest path shares: results, progress, the sink interface and series identity.
import { identityFromName } from "../core/naming";
import type { SeriesModel } from "../core/series";
import type { LoadProblem } from "../core/types";

export interface IngestResult {
  series: SeriesModel[];
  problems: LoadProblem[];
  /** Lines read, for progress and messages. */
  lines: number;
}

export interface IngestProgress {
  bytes: number;
  intervals: number;
}

/** Series read on this thread so far, for their ids (s1, s2, …): readers make series without a store. */
const made = { count: 0 };
export function newId(): string {
  return `s${++made.count}`;
}

/** Series one log may make (the load-generator readers stop at the same number of labels). */
export const MAX_TAGS = 200;

/** Something that consumes a file's text chunk by chunk and builds series at the end. */
export interface Sink {
  push(chunk: string): void;
  finish(): IngestResult;
  readonly intervalCount: number;
}

/** A series with its identity parsed from the file name and tag; defaults for the rest. */
export function makeSeries(
  p: Pick<SeriesModel, "name" | "source" | "tag" | "recordedUnit" | "unitSource" | "histogram" | "intervals" | "startTime" | "format" | "blocks"> & {
    failures?: number;
    tagIsLabel?: boolean;
  },
): SeriesModel {
  const { tagIsLabel, ...fields } = p;
  const id = identityFromName(p.source, p.tag, tagIsLabel);
  return { id: newId(), ...fields, config: id.config, throughput: id.throughput, kind: id.kind, mergedFrom: [], failures: p.failures ?? 0 };
}

/**
 * A series that is a histogram only (from a share link, or files merged by the command line):
 * no intervals and no blocks, its identity given rather than parsed from a file name, its unit
 * stated by where it came from, and at most a coarse max over time.
 */
export function histogramSeries(
  p: Pick<SeriesModel, "name" | "source" | "tag" | "recordedUnit" | "histogram" | "startTime" | "format" | "config" | "throughput" | "kind" | "coarseTimeline">,
): SeriesModel {
  const { config, throughput, kind, coarseTimeline, ...rest } = p;
  const m = makeSeries({ ...rest, unitSource: "format", intervals: null, blocks: null });
  return { ...m, config, throughput, kind, coarseTimeline };
}
