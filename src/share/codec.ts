// The share link: `s=<version>.<base64url(zlib(payload))>` in the URL fragment, where payload =
// varint(length of metadata) · metadata as UTF-8 JSON · data. Data: each series' histogram
// (histogram-pack.ts) in series order, then the timelines of the series that have one, in series order.
// The version is outside the compressed part, so a link from a newer app is recognised
// without decoding anything.
import { ByteReader, ByteWriter, ShareFormatError, base64urlDecode, base64urlEncode, zlibDeflate, zlibInflateBounded } from "./bytes";
import { buildHistogram, cellsOf, checkTimelineValues, packExact, packLossy, readPacked, readTimeline, writePacked, writeTimeline } from "./histogram-pack";
import {
  MAX_FRAGMENT_CHARS,
  MAX_INFLATED_BYTES,
  MAX_META_BYTES,
  MAX_NAME_CHARS,
  MAX_TOTAL_CELLS,
  SHARE_VERSION,
  fail,
  identityFields,
  packSeriesTime,
  unpackSeriesTime,
  validateMeta,
  type MetaDoc,
  type SeriesMeta,
  type ShareState,
  type SharedSeries,
} from "./schema";
import { OLDEST_VERSION, upgradeDoc } from "./upgrade";
import { packResults, packShown } from "./results";

export interface EncodeOptions {
  /** Default false: values within 1 % (counts always exact). True: the histograms bucket for bucket. */
  fullPrecision?: boolean;
}

export interface Encoded {
  /** The fragment without the leading '#'. */
  fragment: string;
  /** Characters. */
  length: number;
  lossy: boolean;
}

export type DecodeResult = { ok: true; state: ShareState; lossy: boolean; upgradedFrom: number | null } | { ok: false; reason: string };

const PARAM = "s=";

/** Writes the payload a link of the current version carries (exported for tests that hand-build links). */
export function buildPayload(meta: unknown, data: Uint8Array): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(meta));
  if (json.length > MAX_META_BYTES) throw new RangeError(`cannot share this view: its names and settings take ${json.length} bytes (at most ${MAX_META_BYTES})`);
  const w = new ByteWriter();
  w.varint(json.length);
  w.bytes(json);
  w.bytes(data);
  return w.finish();
}

/** `s=<version>.<base64url(zlib(payload))>`. */
export function wrapPayload(payload: Uint8Array, version = SHARE_VERSION): string {
  return `${PARAM}${version}.${base64urlEncode(zlibDeflate(payload))}`;
}

/**
 * Encodes the state into a fragment. Throws a RangeError naming the field when the state cannot
 * be shared (a name over 500 characters, a non-finite number, too many series, a fragment over
 * MAX_FRAGMENT_CHARS): whatever this returns, decodeShare accepts.
 */
export function encodeShare(state: ShareState, opts: EncodeOptions = {}): Encoded {
  const lossy = !opts.fullPrecision;
  const data = new ByteWriter();
  let cells = 0;
  const series: SeriesMeta[] = state.series.map((s, i) => {
    const packed = lossy ? packLossy(s.histogram) : packExact(s.histogram);
    cells += cellsOf(packed);
    writePacked(data, packed, lossy);
    const m: SeriesMeta = {
      ...identityFields(s),
      unit: s.unit,
      visible: s.visible,
      startTime: s.startTime,
      hist: { sig: packed.sig, ldv: packed.ldv },
    };
    if (s.color !== undefined) m.color = s.color;
    if (s.origin !== undefined) m.origin = s.origin.slice(0, MAX_NAME_CHARS);
    if (s.time !== undefined) m.time = packSeriesTime(s.time);
    if (s.shown !== undefined) (m as { shown?: unknown }).shown = packShown(s.shown);
    if (s.timeline === null) m.timeline = null;
    else if (s.timeline !== undefined) {
      checkTimelineValues(s.timeline.max, `series[${i}]`);
      m.timeline = { t0: s.timeline.t0, t1: s.timeline.t1 };
    }
    return m;
  });
  for (const s of state.series) if (s.timeline) writeTimeline(data, s.timeline.max, lossy);
  const v = state.view;
  const meta: MetaDoc = {
    lossy,
    view: {
      displayUnit: v.displayUnit,
      yLog: v.yLog,
      sideBySide: v.sideBySide,
      requirement: v.requirement,
      range: { start: v.range.start, end: v.range.end },
      timeline: { percentiles: [...v.timeline.percentiles], perLane: v.timeline.perLane, wallClock: v.timeline.wallClock, log: v.timeline.log },
      ...(v.time ? { time: { window: v.time.window, wallClock: v.time.wallClock, tailNs: v.time.tailNs } } : {}),
      ...(v.compare ? { compare: { ...v.compare } } : {}),
      ...(v.coInterval !== undefined ? { coInterval: v.coInterval } : {}),
    },
    series,
  };
  if (state.results) (meta as { results?: unknown }).results = packResults(state.results);
  if (cells > MAX_TOTAL_CELLS)
    throw new RangeError(`cannot share this view: its histograms need ${cells} buckets to rebuild (at most ${MAX_TOTAL_CELLS})${lossy ? "" : "; share it without full precision"}`);
  try {
    validateMeta(meta);
  } catch (e) {
    if (e instanceof ShareFormatError) throw new RangeError(`cannot share this view: ${e.message}`, { cause: e });
    throw e;
  }
  const fragment = wrapPayload(buildPayload(meta, data.finish()));
  if (fragment.length > MAX_FRAGMENT_CHARS) throw new RangeError(`cannot share this view: the link would be ${fragment.length} characters (at most ${MAX_FRAGMENT_CHARS})`);
  return { fragment, length: fragment.length, lossy };
}

/** Decodes a fragment (with or without '#', or a whole address). Never throws: a bad link gives ok:false and why. */
export function decodeShare(fragment: string): DecodeResult {
  try {
    return decode(fragment);
  } catch (e) {
    if (e instanceof ShareFormatError) return { ok: false, reason: e.message };
    return { ok: false, reason: `the link could not be read (${e instanceof Error ? e.message : String(e)})` };
  }
}

function decode(fragment: string): DecodeResult {
  if (typeof fragment !== "string") fail("the link is not text");
  if (fragment.length > MAX_FRAGMENT_CHARS) fail(`the link is ${fragment.length} characters long; at most ${MAX_FRAGMENT_CHARS} are accepted`);
  // "#s=…", "s=…" or a whole address ending in "#s=…" (base64url has no '#').
  const text = fragment.slice(fragment.lastIndexOf("#") + 1);
  if (text.length === 0) fail("the link has no shared view (its fragment is empty)");
  const param = text.split("&").find((p) => p.startsWith(PARAM));
  if (param === undefined) fail("the link has no shared view (no s= in its fragment)");
  const body = param.slice(PARAM.length);
  const dot = body.indexOf(".");
  const versionText = dot < 0 ? "" : body.slice(0, dot);
  if (!/^[0-9]{1,9}$/.test(versionText)) fail("the link is malformed: it does not start with a version number (s=<version>.<data>)");
  const version = Number(versionText);
  if (version > SHARE_VERSION) fail(`this link was made by a newer version of the app (v${version}; this app reads up to v${SHARE_VERSION}): update the app`);
  if (version < OLDEST_VERSION) fail(`the link declares version ${version}, which never existed`);
  const payload = zlibInflateBounded(base64urlDecode(body.slice(dot + 1)), MAX_INFLATED_BYTES);

  const r = new ByteReader(payload, "the link's data");
  const metaLength = r.varint();
  if (metaLength > MAX_META_BYTES) fail(`the link's metadata is larger than ${MAX_META_BYTES} bytes: refused`);
  if (metaLength > r.remaining) fail("the link's metadata is cut off");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(r.take(metaLength)));
  } catch {
    fail("the link's metadata is not valid JSON");
  }
  const doc = upgradeDoc({ meta: json, data: payload.subarray(r.pos) }, version);
  const meta = validateMeta(doc.meta);
  const data = new ByteReader(doc.data, "the link's data");

  let cells = 0;
  const series: SharedSeries[] = meta.series.map((m, i) => {
    const packed = readPacked(data, m.hist.sig, m.hist.ldv, meta.lossy, `series[${i}] (${JSON.stringify(m.name.slice(0, 40))})`, version < 4);
    cells += cellsOf(packed);
    if (cells > MAX_TOTAL_CELLS) fail(`the link's histograms together need more than ${MAX_TOTAL_CELLS} buckets: refused`);
    const s: SharedSeries = {
      name: m.name,
      source: m.source,
      tag: m.tag,
      config: m.config,
      throughput: m.throughput,
      kind: m.kind,
      unit: m.unit,
      visible: m.visible,
      histogram: buildHistogram(packed),
      startTime: m.startTime,
    };
    if (m.color !== undefined) s.color = m.color;
    if (m.origin !== undefined) s.origin = m.origin;
    if (m.time !== undefined) s.time = unpackSeriesTime(m.time);
    if (m.shown !== undefined) s.shown = m.shown;
    if (m.timeline === null) s.timeline = null;
    return s;
  });
  meta.series.forEach((m, i) => {
    if (m.timeline) series[i]!.timeline = { t0: m.timeline.t0, t1: m.timeline.t1, max: readTimeline(data, meta.lossy, `series[${i}]`) };
  });
  if (data.remaining !== 0) fail(`the link has ${data.remaining} unexplained bytes after its data`);
  const state: ShareState = { view: meta.view, series };
  if (meta.results) state.results = meta.results;
  return { ok: true, state, lossy: meta.lossy, upgradedFrom: version === SHARE_VERSION ? null : version };
}
