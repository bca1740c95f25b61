// The collector that turns (label, value, time) samples into series of histograms, one per
// label and per interval, without ever keeping the samples.
import type { Histogram } from "../../core/histogram";
import { newHistogram } from "../../core/histogram";
import type { Unit } from "../../core/types";
import { fileBaseName } from "../../core/naming";
import type { ParsedInterval, ParsedSeries } from "../source";
import { Backfill } from "./backfill";
import type { Problems } from "./problems";
import { epochSeconds, secondsBetween, type Instant } from "./time";

/** Labels kept as their own series; samples of further labels go to one "(other labels)" series. */
export const MAX_SERIES = 200;
export const OTHER_LABELS = "(other labels)";
/** Samples further than this from the others are in no interval (a bad timestamp; their latencies still count). */
export const MAX_SPAN_SEC = 366 * 24 * 3600;
/** Timed samples whose median time decides which of them is the stray one, if any. */
export const BASE_SAMPLES = 64;
/** Memory for per-interval histograms; past it, intervals are merged in pairs (length doubles). */
export const INTERVAL_BUDGET_BYTES = 192 * 1024 * 1024;
/** Values whose back-fill one histogram defers before it is added (memory, and cost per flush). */
const BACKFILL_BATCH = 1 << 16;
/** Deferred values all histograms of a collector hold together before all are flushed (32 MB). */
const BACKFILL_PENDING_LIMIT = 1 << 22;

export interface CollectorOptions {
  file: string;
  unit: Unit;
  /** Interval length in seconds (default 1). */
  intervalSec?: number;
  /** Expected interval between samples, in `unit`: recordValueWithExpectedInterval. */
  expectedInterval?: number;
  maxSeries?: number;
  intervalBudgetBytes?: number;
}

interface IntervalSlot {
  h: Histogram;
  bytes: number;
  top: number; // highestTrackableValue when `bytes` was read
  backfill: Backfill | null;
}

interface Held {
  kind: "record" | "fail" | "time";
  label: string;
  value: number;
  at: Instant | null;
  lineNo: number;
}

interface SeriesState {
  label: string;
  histogram: Histogram;
  intervals: Map<number, IntervalSlot>;
  failures: number;
  backfill: Backfill | null;
}

export class SeriesCollector {
  readonly unit: Unit;
  private readonly series = new Map<string, SeriesState>();
  private readonly order: string[] = [];
  private intervalSec: number;
  private readonly expected: number;
  private readonly maxSeries: number;
  private readonly budget: number;
  private first: Instant | null = null;
  private minIndex = Infinity;
  private intervalBytes = 0;
  private timed = 0;
  private untimed = 0;
  /** Samples too far from the time base: in the totals, in no interval. */
  private far = 0;
  /** Samples held back until the time base is chosen; null once it is. */
  private held: Held[] | null = [];
  private heldTimed = 0;
  /** Values whose back-fill is deferred, over all histograms. */
  private pendingBackfill = 0;

  constructor(
    private readonly options: CollectorOptions,
    private readonly problems: Problems,
  ) {
    this.unit = options.unit;
    const iv = options.intervalSec;
    this.intervalSec = iv !== undefined && Number.isFinite(iv) && iv > 0 ? iv : 1;
    const e = options.expectedInterval;
    this.expected = e !== undefined && Number.isFinite(e) && e > 0 ? Math.max(1, Math.round(e)) : 0;
    this.maxSeries = options.maxSeries ?? MAX_SERIES;
    this.budget = options.intervalBudgetBytes ?? INTERVAL_BUDGET_BYTES;
  }

  get currentIntervalSec(): number {
    return this.intervalSec;
  }

  /**
   * The interval index of a time, or null (with a note on its line) when the time is implausibly
   * far from the time base: a clock jump or a damaged timestamp. Its latency is still counted in
   * the totals (a demanding reader wants every request's latency, the max above all), but in no
   * interval, so a stray timestamp does not stretch the timeline over years.
   */
  private indexOf(at: Instant, lineNo: number): number | null {
    const first = this.first!;
    const offset = secondsBetween(first, at);
    if (!(Math.abs(offset) <= MAX_SPAN_SEC)) {
      this.far++;
      this.problems.noteLine(
        lineNo,
        `timestamp is ${Math.round(Math.abs(offset) / 86400)} days ${offset < 0 ? "before" : "after"} the others (limit ${MAX_SPAN_SEC / 86400} days): its latency is counted in the totals, in no interval`,
      );
      return null;
    }
    return Math.floor(offset / this.intervalSec);
  }

  /** Marks the start of the data even when the first samples are failures or unlabeled. */
  noteTime(at: Instant): void {
    if (this.held) this.held.push({ kind: "time", label: "", value: 0, at, lineNo: 0 });
  }

  /**
   * Fixes the time base from the samples held back: the first of them (in line order) within
   * MAX_SPAN_SEC of their median time, so that intervals start at the first line's time as
   * before, unless that line is the stray one. Then replays them.
   */
  private release(): void {
    const held = this.held;
    if (!held) return;
    this.held = null;
    const times = held.filter((h) => h.at !== null).map((h) => h.at!);
    if (times.length > 0) {
      const sorted = [...times].sort((a, b) => a.sec - b.sec || a.ns - b.ns);
      const median = sorted[(sorted.length - 1) >> 1]!;
      this.first = times.find((t) => Math.abs(secondsBetween(median, t)) <= MAX_SPAN_SEC) ?? median;
    }
    for (const h of held) {
      if (h.kind === "record") this.recordNow(h.label, h.value, h.at, h.lineNo);
      else if (h.kind === "fail") this.failNow(h.label);
    }
  }

  private hold(h: Held): void {
    this.held!.push(h);
    if (h.at !== null && ++this.heldTimed >= BASE_SAMPLES) this.release();
  }

  private state(label: string): SeriesState {
    let s = this.series.get(label);
    if (s) return s;
    if (this.series.size >= this.maxSeries && label !== OTHER_LABELS) {
      this.problems.once("labels", null, `more than ${this.maxSeries} labels: samples of the others are merged into one series "${OTHER_LABELS}"`);
      return this.state(OTHER_LABELS);
    }
    s = { label, histogram: newHistogram(), intervals: new Map(), failures: 0, backfill: null };
    this.series.set(label, s);
    this.order.push(label);
    return s;
  }

  /**
   * A successful sample, recorded now or once the time base is fixed (the first BASE_SAMPLES
   * timed samples are held back to choose it). Always counted: true.
   */
  record(label: string, value: number, at: Instant | null, lineNo: number): boolean {
    if (this.held) this.hold({ kind: "record", label, value, at, lineNo });
    else this.recordNow(label, value, at, lineNo);
    return true;
  }

  private recordNow(label: string, value: number, at: Instant | null, lineNo: number): void {
    let index: number | null = null;
    if (at) {
      index = this.indexOf(at, lineNo);
      if (index !== null) this.timed++;
    } else this.untimed++;
    const s = this.state(label);
    this.recordInto(s.histogram, s, value);
    if (index !== null) {
      if (index < this.minIndex) this.minIndex = index;
      let slot = s.intervals.get(index);
      if (!slot) {
        // Sized for the previous interval's max: one allocation instead of a resize per new max.
        const prev = s.intervals.get(index - 1);
        const h = newHistogram(3, 1, prev ? Math.max(2, prev.h.maxValue) : 2);
        slot = { h, bytes: h.estimatedFootprintInBytes, top: h.highestTrackableValue, backfill: null };
        s.intervals.set(index, slot);
        this.intervalBytes += slot.bytes;
      }
      this.recordInto(slot.h, slot, value);
      if (slot.h.highestTrackableValue !== slot.top) {
        const bytes = slot.h.estimatedFootprintInBytes;
        this.intervalBytes += bytes - slot.bytes;
        slot.bytes = bytes;
        slot.top = slot.h.highestTrackableValue;
      }
      if (this.intervalBytes > this.budget) this.coarsen();
    }
  }

  /** A failed request: counted for its label, not recorded as a latency (nor placed in time). Always counted: true. */
  fail(label: string, at: Instant | null, lineNo: number): boolean {
    if (this.held) this.hold({ kind: "fail", label, value: 0, at, lineNo });
    else this.failNow(label);
    return true;
  }

  private failNow(label: string): void {
    this.state(label).failures++;
  }

  /**
   * Records a value; with an expected interval e, its back-fill (recordValueWithExpectedInterval)
   * is deferred to `holder`'s Backfill and added in bulk (see Backfill). The value itself is
   * recorded now, so the histogram's range and max are right at once.
   */
  private recordInto(h: Histogram, holder: { backfill: Backfill | null }, value: number): void {
    h.recordValue(value);
    const e = this.expected;
    if (e <= 0 || value < 2 * e) return; // nothing to back-fill: v - e < e
    const b = (holder.backfill ??= new Backfill(e));
    b.add(value);
    this.pendingBackfill++;
    if (b.pending >= BACKFILL_BATCH) {
      this.pendingBackfill -= b.pending;
      b.flushInto(h);
    }
    if (this.pendingBackfill > BACKFILL_PENDING_LIMIT) this.flushBackfills();
  }

  /** Adds every deferred back-fill to its histogram. */
  private flushBackfills(): void {
    for (const s of this.series.values()) {
      s.backfill?.flushInto(s.histogram);
      for (const slot of s.intervals.values()) slot.backfill?.flushInto(slot.h);
    }
    this.pendingBackfill = 0;
  }

  /** Doubles the interval length, merging interval pairs, until the intervals fit the budget. */
  private coarsen(): void {
    // Merged histograms take their counts as they are: deferred back-fills go in first.
    this.flushBackfills();
    while (this.intervalBytes > this.budget && this.intervalSec < MAX_SPAN_SEC) {
      this.intervalSec *= 2;
      let bytes = 0;
      for (const s of this.series.values()) {
        const merged = new Map<number, IntervalSlot>();
        const keys = [...s.intervals.keys()].sort((a, b) => a - b);
        for (const k of keys) {
          const slot = s.intervals.get(k)!;
          const nk = Math.floor(k / 2);
          const into = merged.get(nk);
          if (into) {
            into.h.add(slot.h);
            into.bytes = into.h.estimatedFootprintInBytes;
            into.top = into.h.highestTrackableValue;
          } else merged.set(nk, slot);
        }
        s.intervals = merged;
        for (const slot of merged.values()) bytes += slot.bytes;
      }
      if (this.minIndex !== Infinity) this.minIndex = Math.floor(this.minIndex / 2);
      this.intervalBytes = bytes;
    }
    this.problems.once("coarsen", null, `too many intervals to keep in memory: intervals widened to ${this.intervalSec} s`);
  }

  /** How many series (labels) have been seen. */
  get labelCount(): number {
    return this.series.size;
  }

  finish(): ParsedSeries[] {
    this.release();
    this.flushBackfills();
    const base = fileBaseName(this.options.file);
    const labels = this.order;
    const single = labels.length === 1 && labels[0] === "";
    const hasIntervals = this.timed > 0 && this.minIndex !== Infinity;
    if (this.timed > 0 && this.untimed > 0) {
      this.problems.once(
        "untimed",
        null,
        this.untimed === 1
          ? "1 sample has no timestamp: it is in the totals but in no interval"
          : `${this.untimed} samples have no timestamp: they are in the totals but in no interval`,
      );
    }
    const shift = hasIntervals ? this.minIndex : 0;
    const startInstant = this.first ? { sec: this.first.sec + shift * this.intervalSec, ns: this.first.ns } : null;
    const startTime = startInstant ? epochSeconds(startInstant) : null;
    return labels.map((label) => {
      const s = this.series.get(label)!;
      let intervals: ParsedInterval[] | null = null;
      if (hasIntervals) {
        intervals = [...s.intervals.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([k, slot]) => ({ start: (k - shift) * this.intervalSec, length: this.intervalSec, histogram: slot.h }));
      }
      return {
        name: single || label === "" ? base : `${base} [${label}]`,
        tag: label,
        unit: this.unit,
        histogram: s.histogram,
        intervals,
        startTime,
        failures: s.failures,
      };
    });
  }
}
