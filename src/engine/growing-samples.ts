// A sample format read as a run followed live grows (live.ts). Its own module: it needs the
// whole registry of readers (formats/detect.ts), which the engine worker loads only with the
// live path, not at start.
import { maxOf, mergeAll, valueAtPercentile } from "../core/histogram";
import { encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { IntervalTable } from "../core/series";
import { pickFormat } from "../formats/detect";
import { detectionHead, looksLikeUtf16 } from "../formats/sniff";
import type { FormatReader, SampleOptions } from "../formats/source";
import { ReaderIngest, seriesOfParsed, type IngestResult } from "./ingest";

/**
 * A sample format read as it grows (a run followed live): its lines go through one reader kept
 * between pieces, so the header and columns are remembered from the first read and each piece
 * is read once. After each piece the series so far are made from what the reader collected:
 * the histograms are copied (the reader goes on recording into its own), and the payload of an
 * interval that did not change since the last piece is kept rather than encoded again.
 */
export class GrowingSamples {
  private readonly sink: ReaderIngest;
  /** Payloads by series label and interval start: the interval's count and length when encoded. */
  private readonly encoded = new Map<string, Map<number, { count: number; length: number; max: number; p50: number; payload: string }>>();
  /** Problems already said (the reader lists them all again each time). */
  private readonly said = new Set<string>();
  /**
   * Each series' id by its reader's label: a series made again keeps the id it was first given,
   * so what the page keeps by id (hidden, selected) follows it as lines arrive.
   */
  private readonly ids = new Map<string, string>();

  private constructor(
    private readonly file: string,
    reader: FormatReader,
    options?: SampleOptions,
  ) {
    this.sink = new ReaderIngest(file, reader, options);
  }

  /** A reader for a file whose first text is `head`, or null when its format is not read line by line into samples. */
  static open(name: string, head: string, options?: SampleOptions): GrowingSamples | null {
    if (looksLikeUtf16(head)) return null;
    const format = pickFormat(name, detectionHead(head));
    return format?.create ? new GrowingSamples(name, format, options) : null;
  }

  /** The series a load of the first lines made: those made again from the reader keep their ids. */
  keepIds(series: readonly { id: string; tag: string }[]): void {
    for (const s of series) this.ids.set(s.tag, s.id);
  }

  /** Complete lines that follow those read. */
  push(text: string): void {
    this.sink.push(text);
  }

  /** The series of everything read so far, and the problems found since the last call. */
  snapshot(): IngestResult {
    const parsed = this.sink.parsed();
    const series = parsed.series
      .filter((p) => p.histogram.totalCount > 0 || (p.failures ?? 0) > 0)
      .map((p) => {
        let table: IntervalTable | null = null;
        if (p.intervals && p.intervals.length > 0) {
          let kept = this.encoded.get(p.tag);
          if (!kept) this.encoded.set(p.tag, (kept = new Map()));
          const next = new Map<number, { count: number; length: number; max: number; p50: number; payload: string }>();
          table = new IntervalTable();
          for (const iv of p.intervals) {
            const h = iv.histogram;
            let e = kept.get(iv.start);
            if (!e || e.count !== h.totalCount || e.length !== iv.length)
              e = { count: h.totalCount, length: iv.length, max: maxOf(h), p50: valueAtPercentile(h, 50), payload: encodeIntoCompressedBase64(h) };
            next.set(iv.start, e);
            table.push(iv.start, iv.length, e.max, e.count, 0, e.payload, e.p50);
          }
          this.encoded.set(p.tag, next);
        }
        const made = seriesOfParsed(p, this.file, parsed.format, mergeAll([p.histogram]), table);
        const id = this.ids.get(p.tag);
        if (id === undefined) this.ids.set(p.tag, made.id);
        return id === undefined ? made : { ...made, id };
      });
    const problems = parsed.problems.filter((x) => {
      const key = `${x.line}\u0000${x.reason}`;
      if (this.said.has(key)) return false;
      this.said.add(key);
      return true;
    });
    return { series, problems, lines: 0 };
  }
}
