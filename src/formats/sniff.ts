// What a file's first characters and bytes say before any load-generator reader is loaded:
// HdrHistogram's own two formats (the interval log and the percentile file) are told here, and
// text or bytes that may be something else go to the whole registry (detect.ts), which a thread
// loads only then. The decisions are detect.ts's own: it decides HdrHistogram text through
// pickHdrFormat below, so both ways give the same format.
import { detectPercentileFile, percentileFormat } from "./hgrm";
import { detectHlog, hlogFormat } from "./hlog";
import type { HdrFormat } from "./source";
import { READABLE_FORMATS } from "./readable";

/** HdrHistogram's own formats, in priority order (see FORMATS in detect.ts). */
export const HDR_FORMATS: readonly HdrFormat[] = [percentileFormat, hlogFormat];

/** HdrHistogram text that the load-generator readers must leave to the hlog/hgrm readers. */
export function isHdrHistogramText(name: string, head: string): boolean {
  if (detectHlog(name, head) || detectPercentileFile(name, head)) return true;
  if (/\.(hlog|hgrm)$/i.test(name)) return true;
  // #[StartTime: …], #[Mean = …] headers and footers. Indentation within the line only: `\s*`
  // after a multiline `^` crosses line breaks and rescans every blank line after each line start.
  if (/^[^\S\r\n\u2028\u2029]*#\[/m.test(head)) return true;
  if (/(^|[\s,])D?HIST[A-Za-z0-9+/]{16}/m.test(head) && /^(Tag=[^,\s]*,)?[\d.]+[,\s]/m.test(head)) return true;
  return /\bPercentile\b/.test(head) && /\bTotalCount\b/.test(head);
}

/**
 * The HdrHistogram format that reads text isHdrHistogramText says is HdrHistogram's, or null
 * (then no format reads it: a load-generator reader never takes such text).
 */
export function pickHdrFormat(name: string, head: string): HdrFormat | null {
  for (const f of HDR_FORMATS)
    if (f.nameMatch(name)) {
      // An HdrHistogram name that lies (memtier_benchmark's --hdr-file-prefix writes an interval
      // log as .hgrm) yields to the other HdrHistogram format when only that one's content matches.
      if (!f.detect("", head)) {
        const other = HDR_FORMATS.find((g) => g !== f && g.detect("", head));
        if (other) return other;
      }
      return f;
    }
  for (const f of HDR_FORMATS) if (f.detect(name, head)) return f;
  return null;
}

/**
 * Detection sees the same head whatever the chunking: the first 4096 characters, cut after the
 * last line end (\n or a lone \r: old Mac files) in them when more text follows.
 */
export const HEAD_CHARS = 4096;
export function detectionHead(head: string): string {
  if (head.length <= HEAD_CHARS) return head;
  const nl = Math.max(head.lastIndexOf("\n", HEAD_CHARS - 1), head.lastIndexOf("\r", HEAD_CHARS - 1));
  return head.slice(0, nl > 0 ? nl + 1 : HEAD_CHARS);
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

/** How many of a file's first bytes pickBytesReader (detect.ts) needs. */
export const BYTES_SNIFF_LENGTH = 128;

/**
 * Whether a file's first bytes may be a binary format's: they hold a control byte (those
 * unreadableReason takes for a binary file's), as every binary format's first record does
 * (Gatling's starts with its record type 0) and text does not. Text is then read as text
 * without loading the binary readers.
 */
export function mayBeBinary(head: Uint8Array): boolean {
  for (let i = 0; i < head.length; i++) {
    const b = head[i]!;
    if (b < 9 || (b > 13 && b < 32)) return true;
  }
  return false;
}
