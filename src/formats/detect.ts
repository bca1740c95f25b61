// Which format takes a file. Every format is registered in FORMATS, HdrHistogram's own
// (percentile distributions and wrk2 output, interval logs) first, then the load-generator line
// readers, generic samples last. A file is matched by name first (.hgrm, .hlog, .jtl,
// simulation.log: each format's nameMatch, in registry order), then by content (each format's
// detect, in the same order). HdrHistogram text is never claimed by a line reader.
import { detectPercentileFile, percentileFormat } from "./hgrm";
import { detectHlog, hlogFormat } from "./hlog";
import { fortioReader } from "./fortio";
import { gatlingReader } from "./gatling";
import { gatlingBinaryReader } from "./gatling-binary";
import { ghzReader } from "./ghz";
import { jmeterReader } from "./jmeter";
import { k6Reader } from "./k6";
import { samplesReader } from "./samples";
import { siegeReader } from "./siege";
import { statisticsReader } from "./statistics";
import type { Format, FormatBytesReader, FormatReader, HdrFormat } from "./source";
import { READABLE_FORMATS } from "./readable";

export { READABLE_FORMATS };
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
export const FORMATS: readonly Format[] = [percentileFormat, hlogFormat, ...READERS];

function isHdrFormat(f: Format): f is HdrFormat {
  return f.create === undefined;
}

/** HdrHistogram text that this module must leave to the hlog/hgrm readers. */
export function isHdrHistogramText(name: string, head: string): boolean {
  if (detectHlog(name, head) || detectPercentileFile(name, head)) return true;
  if (/\.(hlog|hgrm)$/i.test(name)) return true;
  // #[StartTime: …], #[Mean = …] headers and footers. Indentation within the line only: `\s*`
  // after a multiline `^` crosses line breaks and rescans every blank line after each line start.
  if (/^[^\S\r\n\u2028\u2029]*#\[/m.test(head)) return true;
  if (/(^|[\s,])D?HIST[A-Za-z0-9+/]{16}/m.test(head) && /^(Tag=[^,\s]*,)?[\d.]+[,\s]/m.test(head)) return true;
  return /\bPercentile\b/.test(head) && /\bTotalCount\b/.test(head);
}

/** Characters of a file's start the UTF-16 sniff looks at (fewer than ingest's detection head). */
const UTF16_SNIFF_CHARS = 1024;

/**
 * UTF-16 text that was decoded as UTF-8 (the app decodes every file as UTF-8): a byte-order mark
 * FF FE / FE FF becomes "\uFFFD\uFFFD", and each ASCII character comes with a NUL after it (LE)
 * or before it (BE). Such a file reads as garbage under every format (per-line errors, "binary
 * file", Gatling's binary format), so it is recognised on its own: NULs are a good share of the
 * characters and alternate with the others, and the others are text (no other control
 * characters). Binary formats have NULs in runs or rarely, not every other character.
 */
export function looksLikeUtf16(head: string): boolean {
  let s = head.slice(0, UTF16_SNIFF_CHARS);
  if (s.startsWith("\uFFFD\uFFFD")) s = s.slice(2);
  const n = s.length;
  if (n < 4) return false;
  let nuls = 0;
  let flips = 0;
  let controls = 0;
  let prevNul = s.charCodeAt(0) === 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const nul = c === 0;
    if (nul) nuls++;
    else if (c < 32 && c !== 9 && c !== 10 && c !== 13) controls++;
    if (nul !== prevNul) flips++;
    prevNul = nul;
  }
  return nuls >= 0.35 * n && flips >= 0.8 * (n - 1) && controls <= 0.05 * n;
}

export const UTF16_REASON = "looks like UTF-16 text; save it as UTF-8";

// eslint-disable-next-line no-control-regex -- ANSI escape sequences are what is removed
const ANSI_CODES = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Why a file whose start (`head`) no reader takes cannot be read: UTF-16, binary, or an unknown format. */
export function unreadableReason(head: string): string {
  if (looksLikeUtf16(head)) return UTF16_REASON;
  // Terminal colour codes (ESC [ … m) make a text capture look binary: they are not what marks one.
  // eslint-disable-next-line no-control-regex -- control characters (other than tab and line ends) are what marks a binary file
  if (/[\u0000-\u0008\u000e-\u001f]/.test(head.slice(0, 512).replace(ANSI_CODES, ""))) return `this looks like a binary file, not a latency log: expected ${READABLE_FORMATS}`;
  return `not a recognised format: expected ${READABLE_FORMATS}`;
}

/** The format that reads a file with this name and start (`head`: the first 4 KB or so), or null. */
export function pickFormat(name: string, head: string): Format | null {
  // Text that looks like HdrHistogram's is left to its two formats, even when neither reads it.
  const candidates = isHdrHistogramText(name, head) ? FORMATS.filter(isHdrFormat) : FORMATS;
  for (const f of candidates)
    if (f.nameMatch?.(name)) {
      // An HdrHistogram name that lies (memtier_benchmark's --hdr-file-prefix writes an interval
      // log as .hgrm) yields to the other HdrHistogram format when only that one's content matches.
      if (isHdrFormat(f) && !f.detect("", head)) {
        const other = candidates.find((g) => g !== f && isHdrFormat(g) && g.detect("", head));
        if (other) return other;
      }
      return f;
    }
  for (const f of candidates) if (f.detect(name, head)) return f;
  return null;
}

/** The line reader that reads a file, or null (none does, or it is HdrHistogram's own format). */
export function pickReader(name: string, head: string): FormatReader | null {
  const f = pickFormat(name, head);
  return f && !isHdrFormat(f) ? f : null;
}

/** Binary formats, read from bytes: each told by its first bytes, before any text format. */
export const BYTES_READERS: readonly FormatBytesReader[] = [gatlingBinaryReader];

/** How many of a file's first bytes pickBytesReader needs. */
export const BYTES_SNIFF_LENGTH = 128;

/** The binary format that reads a file with these first bytes, or null (then it is read as text). */
export function pickBytesReader(name: string, head: Uint8Array): FormatBytesReader | null {
  return BYTES_READERS.find((r) => r.sniff(head, name)) ?? null;
}
