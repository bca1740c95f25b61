// A 24-hour jHiccup-like interval log for the performance benchmark (scripts/bench.ts):
// one-second intervals of "hiccup" times (ns) written with hdr-histogram-js's own log writer,
// the Interval_Max column in ms as jHiccup writes it. Deterministic for a given seed.
//
// The shape: a quiet baseline of a few tens of µs whose spread follows a day/night load cycle,
// a thin tail up to a few ms, a young-generation collection (5–30 ms) every ~20 s and an
// old-generation one (80–600 ms) every ~15 min. Each interval records ~1000 samples, like
// jHiccup's 1 ms sampling, but as a few hundred distinct values with counts, so generating a
// whole day takes seconds rather than minutes.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { build, HistogramLogWriter } from "hdr-histogram-js";
import { mulberry32 } from "./queue-sim";

export interface DayLogOptions {
  /** One-second intervals to write (86,400 = 24 h). */
  intervals?: number;
  seed?: number;
  /** Significant value digits of the recorded histograms (2 or 3). */
  digits?: 2 | 3;
  /** Distinct values drawn per interval (each recorded with a count); drives the file size. */
  distinctPerInterval?: number;
  /** Samples per interval (jHiccup samples every ms: ~1000). */
  samplesPerInterval?: number;
  /** StartTime, ms since epoch. */
  startMs?: number;
  /** Tag every interval line (Tag=...), empty for none. */
  tag?: string;
}

const VERSION = 1; // bump when the generator changes, so cached files are rewritten

export function dayLogDefaults(o: DayLogOptions = {}): Required<DayLogOptions> {
  return {
    intervals: o.intervals ?? 86_400,
    seed: o.seed ?? 1,
    digits: o.digits ?? 3,
    distinctPerInterval: o.distinctPerInterval ?? 280,
    samplesPerInterval: o.samplesPerInterval ?? 1000,
    startMs: o.startMs ?? Date.UTC(2026, 10, 1, 0, 0, 0),
    tag: o.tag ?? "",
  };
}

/** A file name that encodes every parameter, for a cache directory. */
export function dayLogName(o: DayLogOptions = {}): string {
  const c = dayLogDefaults(o);
  return `day-v${VERSION}-n${c.intervals}-s${c.seed}-d${c.digits}-k${c.distinctPerInterval}-c${c.samplesPerInterval}-t${c.startMs}${c.tag ? `-${c.tag}` : ""}.hlog`;
}

export interface DayLogResult {
  path: string;
  bytes: number;
  intervals: number;
  /** False when an identical cached file was reused. */
  generated: boolean;
  ms: number;
}

/**
 * Writes the log to `path` unless a complete file with the same parameters is already there
 * (a sidecar `path.json` records them; the log is written to a temporary name, then renamed).
 */
export function writeDayLog(path: string, o: DayLogOptions = {}): DayLogResult {
  const c = dayLogDefaults(o);
  const key = JSON.stringify({ v: VERSION, ...c });
  const meta = `${path}.json`;
  const t0 = performance.now();
  if (existsSync(path) && existsSync(meta)) {
    try {
      const m = JSON.parse(readFileSync(meta, "utf8")) as { key: string; bytes: number };
      const size = statSync(path).size;
      if (m.key === key && m.bytes === size) return { path, bytes: size, intervals: c.intervals, generated: false, ms: performance.now() - t0 };
    } catch {
      // regenerate
    }
  }
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w");
  let buf: string[] = [];
  let bufLen = 0;
  const flush = () => {
    if (bufLen === 0) return;
    writeSync(fd, buf.join(""));
    buf = [];
    bufLen = 0;
  };
  try {
    const w = new HistogramLogWriter((s: string) => {
      buf.push(s);
      bufLen += s.length;
      if (bufLen > 1 << 20) flush();
    });
    w.outputComment(`[jHiccup-like 24-hour log written by hdr-spectrum's scripts/lib/day-log.ts: ${dayLogName(c)}]`);
    w.outputLogFormatVersion();
    w.outputStartTime(c.startMs);
    w.outputLegend();
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: c.digits });
    if (c.tag) h.tag = c.tag;
    const rnd = mulberry32(c.seed);
    const normal = () => {
      // Box–Muller
      const u = 1 - rnd();
      const v = rnd();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    };
    const startHour = new Date(c.startMs).getUTCHours() + new Date(c.startMs).getUTCMinutes() / 60;
    let nextYoung = 5 + rnd() * 30;
    let nextOld = 300 + rnd() * 900;
    for (let i = 0; i < c.intervals; i++) {
      // Day/night: the machine is busier in the afternoon (UTC), so hiccups are larger and wider.
      const hour = (startHour + i / 3600) % 24;
      const load = 0.5 + 0.5 * Math.sin(((hour - 8) / 24) * 2 * Math.PI); // 0..1
      const medianNs = 18_000 + 30_000 * load + 4_000 * normal() ** 2;
      const sigma = 0.35 + 0.35 * load;
      const k = c.distinctPerInterval;
      const per = Math.max(1, Math.floor(c.samplesPerInterval / k));
      for (let j = 0; j < k; j++) {
        const v = Math.round(medianNs * Math.exp(sigma * normal()));
        h.recordValueWithCount(Math.max(1000, v), per);
      }
      // A thin tail: a handful of samples between 0.3 and 5 ms.
      const tail = Math.floor(rnd() * (2 + 6 * load));
      for (let j = 0; j < tail; j++) h.recordValue(Math.round(300_000 * Math.exp(rnd() * 2.8)));
      // Collections: a pause shows as one sample of its length and the samples it swallowed.
      if (i >= nextYoung) {
        const pause = 5e6 + rnd() * 25e6;
        recordPause(h, pause);
        nextYoung = i + 10 + rnd() * 20;
      }
      if (i >= nextOld) {
        const pause = 80e6 + rnd() ** 2 * 520e6;
        recordPause(h, pause);
        nextOld = i + 600 + rnd() * 600;
      }
      w.outputIntervalHistogram(h, i, i + 1, 1e6);
      h.reset();
    }
    flush();
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const bytes = statSync(path).size;
  writeFileSync(meta, JSON.stringify({ key, bytes }));
  return { path, bytes, intervals: c.intervals, generated: true, ms: performance.now() - t0 };
}

/** A pause of `ns`: jHiccup records the pause, and the 1 ms samples it delayed, shorter and shorter. */
function recordPause(h: ReturnType<typeof build>, ns: number): void {
  const step = 1e6;
  for (let t = ns; t > step; t -= Math.max(step, t / 64)) h.recordValue(Math.round(t));
}
