// Which format takes a file. Every format is registered in FORMATS, HdrHistogram's own
// (percentile distributions and wrk2 output, interval logs) first, then the load-generator line
// readers, generic samples last. A file is matched by name first (.hgrm, .hlog, .jtl,
// simulation.log: each format's nameMatch, in registry order), then by content (each format's
// detect, in the same order). HdrHistogram text is never claimed by a line reader: sniff.ts
// tells it, and its format, without this module, so that a thread reading interval logs loads
// the readers below only for a file that may be one of theirs.
import { fortioReader } from "./fortio";
import { gatlingReader } from "./gatling";
import { gatlingBinaryReader } from "./gatling-binary";
import { ghzReader } from "./ghz";
import { jmeterReader } from "./jmeter";
import { k6Reader } from "./k6";
import { samplesReader } from "./samples";
import { siegeReader } from "./siege";
import { statisticsReader } from "./statistics";
import type { Format, FormatBytesReader, FormatReader } from "./source";
import { READABLE_FORMATS } from "./readable";
import { BYTES_SNIFF_LENGTH, detectionHead, HDR_FORMATS, isHdrHistogramText, looksLikeUtf16, mayBeBinary, pickHdrFormat, unreadableReason, UTF16_REASON } from "./sniff";

export { BYTES_SNIFF_LENGTH, isHdrHistogramText, looksLikeUtf16, READABLE_FORMATS, unreadableReason, UTF16_REASON };
import { vegetaReader } from "./vegeta";
// Load generators' and system tools' text outputs (one reader each).
import { cyclictestReader } from "./cyclictest";
import { h2loadReader } from "./h2load";
import { heyReader } from "./hey";
import { hyperfineReader } from "./hyperfine";
import { iopingReader } from "./ioping";
import { pgbenchReader } from "./pgbench";
import { pingReader } from "./ping";
import { redisBenchmarkReader } from "./redis-benchmark";
import { sockperfReader } from "./sockperf";
import { sysbenchReader } from "./sysbench";

/** Load generators' and system tools' text outputs: each told by its own header or line shape, before generic samples. */
const TOOL_READERS: FormatReader[] = [
  heyReader,
  h2loadReader,
  pgbenchReader,
  redisBenchmarkReader,
  sysbenchReader,
  cyclictestReader,
  sockperfReader,
  iopingReader,
  pingReader,
  hyperfineReader,
];
// Benchmarks, storage and telemetry: histograms and per-I/O logs.
import { fioHistReader } from "./fio-hist";
import { fioJsonReader } from "./fio-json";
import { fioLatReader } from "./fio-lat";
import { otlpReader } from "./otlp";
import { prometheusApiReader } from "./prometheus-api";
import { jmhReader } from "./jmh";

/** Benchmarks, storage and telemetry (fio, OpenTelemetry, Prometheus, JMH): their own marks, tried before the generic samples. */
const BENCHMARK_READERS: FormatReader[] = [fioJsonReader, fioHistReader, fioLatReader, otlpReader, prometheusApiReader, jmhReader];

/**
 * The line readers, in the order content detection tries them: files of statistics first (refused
 * with what they are), specific formats before generic samples.
 */
export const READERS: FormatReader[] = [
  statisticsReader,
  jmeterReader,
  gatlingReader,
  k6Reader,
  vegetaReader,
  ghzReader,
  fortioReader,
  siegeReader,
  ...BENCHMARK_READERS,
  ...TOOL_READERS,
  samplesReader,
];

/**
 * Every format, in priority order (for name matches and then for content). Percentile files
 * come before interval logs: detectHlog also takes names like .histogram, and a wrk2 report so
 * named is a percentile file.
 */
export const FORMATS: readonly Format[] = [...HDR_FORMATS, ...READERS];

/** The format that reads a file with this name and start (`head`: the first 4 KB or so), or null. */
export function pickFormat(name: string, head: string): Format | null {
  // Text that looks like HdrHistogram's is left to its two formats, even when neither reads it.
  if (isHdrHistogramText(name, head)) return pickHdrFormat(name, head);
  for (const f of FORMATS) if (f.nameMatch?.(name)) return f;
  for (const f of FORMATS) if (f.detect(name, head)) return f;
  return null;
}

/**
 * The format ingest() picks for an input whose first chunks joined make `fullHead` (all of it,
 * or the first chunks until more than its detection head): "hlog", "percentiles", a reader's
 * id, or "unknown". For diagnostics (the fuzz harness): the same decisions as ingest's.
 */
export function detectedFormat(name: string, fullHead: string): string {
  if (looksLikeUtf16(fullHead)) return "unknown";
  return pickFormat(name, detectionHead(fullHead))?.id ?? "unknown";
}

/** The line reader that reads a file, or null (none does, or it is HdrHistogram's own format). */
export function pickReader(name: string, head: string): FormatReader | null {
  const f = pickFormat(name, head);
  return f?.create ? f : null;
}

/** Binary formats, read from bytes: each told by its first bytes, before any text format. */
export const BYTES_READERS: readonly FormatBytesReader[] = [gatlingBinaryReader];

/** The binary format that reads a file with these first bytes, or null (then it is read as text). */
export function pickBytesReader(name: string, head: Uint8Array): FormatBytesReader | null {
  return mayBeBinary(head) ? (BYTES_READERS.find((r) => r.sniff(head, name)) ?? null) : null;
}
