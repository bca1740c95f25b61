// The fuzz properties, shared by the quick Vitest run (properties.test.ts) and the long runner
// (tests/fuzz/run.ts: `npm run fuzz -- --count 20000`). Each property states what must hold for
// every generated case; `quickRuns` keeps the Vitest run of the whole folder within ~30 s.
import fc from "fast-check";
import { decodeFromCompressedBase64 } from "hdr-histogram-js";
import { newHistogram } from "../../src/core/histogram";
import { LineSplitter, MAX_LINE_CHARS } from "../../src/core/lines";
import { formatRequirement, parseRequirement, parseSlaDat } from "../../src/core/requirements";
import { Store } from "../../src/engine/store";
import type { Unit } from "../../src/core/types";
import type { SampleOptions } from "../../src/formats/source";
import { decodeHistogramPayload, valueFromIndex } from "../../src/formats/hlog-encoding";
import { countsArrayLengthFor, subBucketCountMagnitude, unitMagnitudeOf } from "../../src/core/counts-layout";
import { encodeHistogram, type EncodeOptions } from "../support/hlog-encoders";
import { seriesMeta, viewMeta } from "../support/share-meta";
import { decodeShare, encodeShare, type ShareState } from "../../src/share";
import { ByteWriter, base64urlEncode, zlibDeflate } from "../../src/share/bytes";
import { buildPayload, wrapPayload } from "../../src/share/codec";
import {
  applyMutation,
  binaryFileArb,
  craftPayload,
  craftedPayloadArb,
  cutsArb,
  deflateBomb,
  fixtureArb,
  generatedFixture,
  HOSTILE_LINES,
  GENERATED_KINDS,
  STRUCTURED_KINDS,
  structuredFixture,
  hlogFixture,
  mutatedFileArb,
  mutationArb,
  nameArb,
  slaDat,
  sparseV2Payload,
  tokenLineArb,
  tokenSoupArb,
  utf16Garbage,
  type Mutation,
} from "./generators";
import {
  MAX_PROBLEMS,
  checkBudget,
  checkChunkingInvariance,
  checkIngestResult,
  chunkAt,
  countLines,
  digest,
  fail,
  ingestChecked,
  preview,
  skipKnownSlow,
  storeLoadChecked,
} from "./harness";
import { openShareIn, shareOf } from "../../src/engine/share-query";
import { headOfChunks, ingestBytes, type IngestResult } from "../../src/engine/ingest";
import { BYTES_SNIFF_LENGTH, detectedFormat, pickBytesReader } from "../../src/formats/detect";
import { gatlingBinaryOfSamples } from "../support/gatling-binary-writer";
import { generateSamples } from "../support/loadgen-fixtures";
import { TOOL_KINDS, toolFixture } from "./tool-generators";

export interface FuzzProperty {
  name: string;
  /** What is checked, one line. */
  description: string;
  /** Cases in the quick Vitest run. */
  quickRuns: number;
  /** At most this many cases in a long run (a few distinct inputs, or costly ones). */
  maxRuns?: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each property has its own argument tuple; unknown would make fast-check infer {} for them
  build(): fc.IRawProperty<any, boolean>;
}

/** Long runs (tests/fuzz/run.ts) may use bigger inputs. */
export let longMode = false;
export function setLongMode(on: boolean): void {
  longMode = on;
}

/** Called with each case's input before it runs (the long runner reports it when a case hangs). */
export let onCase: ((input: unknown) => void) | null = null;
export function setCaseHook(h: ((input: unknown) => void) | null): void {
  onCase = h;
}
function begin(input: unknown): number {
  onCase?.(input);
  return performance.now();
}

// ---------------------------------------------------------------------------------------------
// Helpers for the payload properties

function checkDecode(payload: string): ReturnType<typeof decodeHistogramPayload> {
  const t0 = performance.now();
  let r: ReturnType<typeof decodeHistogramPayload>;
  try {
    r = decodeHistogramPayload(payload);
  } catch (e) {
    fail(`decodeHistogramPayload threw: ${String(e)}`);
  }
  checkBudget(t0, `decoding a ${payload.length}-char payload`);
  if (!r || typeof r.ok !== "boolean") fail("decodeHistogramPayload returned no result");
  if (!r.ok) {
    if (typeof r.reason !== "string" || r.reason.trim() === "") fail("decode failure without a reason");
    if (/internal error/.test(r.reason)) fail(`decode caught its own exception: ${r.reason}`);
    return r;
  }
  const d = r.value;
  const sub = subBucketCountMagnitude(d.numberOfSignificantValueDigits);
  const unit = unitMagnitudeOf(d.lowestDiscernibleValue);
  if (sub < 0) fail(`decoded digits ${d.numberOfSignificantValueDigits}`);
  if (unit < 0) fail(`decoded lowest ${d.lowestDiscernibleValue}`);
  if (!(d.highestTrackableValue >= 2 * d.lowestDiscernibleValue)) fail(`decoded highest ${d.highestTrackableValue} < 2 × lowest ${d.lowestDiscernibleValue}`);
  const length = countsArrayLengthFor(unit, sub, d.highestTrackableValue);
  if (d.indices.length !== d.counts.length) fail("indices and counts differ in length");
  let total = 0;
  for (let k = 0; k < d.indices.length; k++) {
    const i = d.indices[k]!;
    const c = d.counts[k]!;
    if (!Number.isInteger(i) || i < 0 || i >= length) fail(`index ${i} outside the counts array (length ${length})`);
    if (k > 0 && i <= d.indices[k - 1]!) fail(`indices not ascending at ${k}`);
    if (!Number.isSafeInteger(c) || c <= 0) fail(`count ${c} at index ${i}`);
    if (!Number.isFinite(valueFromIndex(i, d.lowestDiscernibleValue, d.numberOfSignificantValueDigits))) fail(`value of index ${i} is not finite`);
    total += c;
  }
  if (total !== d.totalCount) fail(`counts add up to ${total}, totalCount says ${d.totalCount}`);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Properties

const ingestTokenSoup: FuzzProperty = {
  name: "ingest-token-soup",
  description:
    "ingest of random lines built from format tokens, hostile numbers and hostile lines, under any file name and in random chunks: a result or well-formed problems, within the budget",
  quickRuns: 150,
  build: () =>
    fc.asyncProperty(nameArb, tokenSoupArb, cutsArb, async (name, text, cuts) => {
      begin({ name, text, cuts });
      await ingestChecked(name, chunkAt(text, cuts), text);
      return true;
    }),
};

const ingestRandomText: FuzzProperty = {
  name: "ingest-random-text",
  description: "ingest of random Unicode / binary strings under any file name: a result or well-formed problems",
  quickRuns: 150,
  build: () =>
    fc.asyncProperty(
      nameArb,
      fc.oneof(
        fc.string({ maxLength: 3000 }),
        fc.string({ unit: "binary", maxLength: 3000 }),
        fc.string({ unit: "grapheme", maxLength: 500 }),
        fc.uint8Array({ maxLength: 5000 }).map((b) => new TextDecoder().decode(b)),
      ),
      cutsArb,
      async (name, text, cuts) => {
        begin({ name, text, cuts });
        await ingestChecked(name, chunkAt(text, cuts), text);
        return true;
      },
    ),
};

const ingestMutated: FuzzProperty = {
  name: "ingest-mutated-files",
  description:
    "valid files of every format (generated and real) with bytes flipped, truncated, lines shuffled/duplicated/reversed, hostile lines and numbers, CRLF/CR, BOM, UTF-16, corrupt payloads; fed in random chunks",
  quickRuns: 120,
  build: () =>
    fc.asyncProperty(mutatedFileArb, cutsArb, async (c, cuts) => {
      begin({ name: c.name, origin: c.origin, mutations: c.mutations, cuts });
      await ingestChecked(c.name, chunkAt(c.text, cuts), c.text);
      return true;
    }),
};

const ingestChunking: FuzzProperty = {
  name: "ingest-chunking-invariance",
  description: "the same text in random chunk sizes gives exactly the one-chunk outcome (series, histograms, intervals, problems)",
  quickRuns: 80,
  build: () =>
    fc.asyncProperty(
      fc.oneof(
        { weight: 3, arbitrary: mutatedFileArb },
        { weight: 1, arbitrary: fc.tuple(nameArb, tokenSoupArb).map(([name, text]) => ({ name, text, origin: "soup", mutations: [] as Mutation[] })) },
      ),
      fc.oneof(
        cutsArb,
        fc.integer({ min: 1, max: 9000 }).map((size) => [size] as number[]),
      ),
      async (c, cutSpec) => {
        begin({ name: c.name, origin: c.origin, mutations: c.mutations, cutSpec });
        // One number: fixed-size chunks of that many characters; a list: cut points.
        const chunks: string[] = [];
        if (cutSpec.length === 1 && cutSpec[0]! >= 1) {
          const size = cutSpec[0]!;
          for (let i = 0; i < c.text.length; i += size) chunks.push(c.text.slice(i, i + size));
          if (chunks.length === 0) chunks.push("");
        } else chunks.push(...chunkAt(c.text, cutSpec));
        await checkChunkingInvariance(c.name, c.text, chunks);
        return true;
      },
    ),
};

const ingestBinary: FuzzProperty = {
  name: "ingest-binary-utf16",
  description:
    "binary files (PNG, ZIP, gzip, PDF, Gatling 3.13 magic) and UTF-16 text read as UTF-8, under any name: no series; UTF-16 is one problem saying so, binary files are never called UTF-16",
  quickRuns: 80,
  build: () =>
    fc.asyncProperty(
      nameArb,
      fc.oneof(
        binaryFileArb.map((text) => ({ text, what: "binary" })),
        fc.tuple(fixtureArb, fc.boolean()).map(([f, be]) => ({ text: utf16Garbage(f.text, be), what: `utf16:${f.kind}` })),
      ),
      cutsArb,
      async (name, c, cuts) => {
        begin({ name, what: c.what, text: c.text, cuts });
        const r = await ingestChecked(name, chunkAt(c.text, cuts), c.text);
        if (r.series.length > 0) fail(`${c.what} input read as ${r.series.length} series (${r.series.map((s) => `${s.format}:${s.histogram.totalCount}`).join(", ")})`);
        const saysUtf16 = r.problems.some((p) => /UTF-16/.test(p.reason));
        if (c.what === "binary" && saysUtf16) fail(`a binary file reported as UTF-16: ${preview(r.problems)}`);
        if (c.what !== "binary" && !(saysUtf16 && r.problems.length === 1)) fail(`UTF-16 text not reported as one UTF-16 problem: ${preview(r.problems)}`);
        return true;
      },
    ),
};

/** Total count of each tag's intervals, decoded with hdr-histogram-js (an independent decoder). */
function referenceTotals(text: string): Map<string, { total: number; intervals: number }> {
  const out = new Map<string, { total: number; intervals: number }>();
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    const m = /^(?:Tag=([^,\s]*),)?[\d.]+,[\d.]+,[\d.]+,(HIST\S+)$/.exec(line);
    if (!m) continue;
    const h = decodeFromCompressedBase64(m[2]!, 64);
    const tag = m[1] ?? "";
    const e = out.get(tag) ?? { total: 0, intervals: 0 };
    e.total += h.totalCount;
    e.intervals++;
    out.set(tag, e);
  }
  return out;
}

const LINE_LEVEL: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("shuffle" as const), seed: fc.integer() }),
  fc.constant({ op: "reverse" as const }),
  fc.record({ op: fc.constant("duplicate" as const), at: fc.double({ min: 0, max: 1, noNaN: true }), times: fc.integer({ min: 1, max: 20 }) }),
  fc.constant({ op: "crlf" as const }),
  fc.constant({ op: "cr" as const }),
  fc.constant({ op: "bom" as const }),
);

const hlogValid: FuzzProperty = {
  name: "hlog-valid-totals",
  description:
    "generated interval logs (1-3 tags), lines shuffled/duplicated/reversed, CRLF/CR/BOM, any chunks: per tag the series total equals the sum of the interval counts written (checked with hdr-histogram-js's decoder) and every interval is loaded",
  quickRuns: 40,
  build: () =>
    fc.asyncProperty(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 3 }), fc.array(LINE_LEVEL, { maxLength: 3 }), cutsArb, async (seed, nTags, mutations, cuts) => {
      begin({ seed, nTags, mutations, cuts });
      const f = hlogFixture(seed, { tags: ["", "A", "B"].slice(0, nTags), seconds: 1 + (seed % 12) });
      let text = f.text;
      for (const m of mutations) text = applyMutation(text, m);
      const expected = referenceTotals(text);
      if (mutations.length === 0)
        for (const [tag, t] of f.totals!) if (expected.get(tag)?.total !== t) fail(`fixture self-check: tag ${tag} wrote ${t}, decodes to ${expected.get(tag)?.total}`);
      const r = await ingestChecked(f.name, chunkAt(text, cuts), text);
      if (r.problems.length > 0) fail(`valid log gave problems: ${preview(r.problems)}`);
      const got = new Map(r.series.map((s) => [s.tag, s]));
      for (const [tag, e] of expected) {
        const s = got.get(tag);
        if (!s) fail(`tag ${JSON.stringify(tag)} missing`);
        if (s.histogram.totalCount !== e.total) fail(`tag ${JSON.stringify(tag)}: total ${s.histogram.totalCount}, intervals written add up to ${e.total}`);
        if (s.intervals?.n !== e.intervals) fail(`tag ${JSON.stringify(tag)}: ${s.intervals?.n} intervals loaded, ${e.intervals} written`);
      }
      if (got.size !== expected.size) fail(`${got.size} series for ${expected.size} tags`);
      return true;
    }),
};

const LOADGEN_KINDS = ["jmeter-csv", "jmeter-xml", "gatling", "k6-json", "k6-csv", "vegeta-csv", "vegeta-json", "ghz", "siege", "plain", "samples-table"] as const;

const loadgenValid: FuzzProperty = {
  name: "loadgen-valid-totals",
  description: "generated JMeter/Gatling/k6/Vegeta/plain/CSV files, CRLF/CR/BOM, any chunks: recorded values + failures = requests written, no problems",
  quickRuns: 40,
  build: () =>
    fc.asyncProperty(
      fc.constantFrom(...LOADGEN_KINDS),
      fc.integer({ min: 1, max: 1e6 }),
      fc.option(fc.constantFrom<Mutation>({ op: "crlf" }, { op: "cr" }, { op: "bom" }), { freq: 2 }),
      cutsArb,
      async (kind, seed, m, cuts) => {
        begin({ kind, seed, m, cuts });
        const f = generatedFixture(kind, seed);
        const text = m ? applyMutation(f.text, m) : f.text;
        const written = countWritten(kind, f.text);
        const r = await ingestChecked(f.name, chunkAt(text, cuts), text);
        if (written === 0) return true;
        if (r.problems.some((p) => p.line !== null)) fail(`valid ${kind} file gave line problems: ${preview(r.problems)}`);
        const got = r.series.reduce((a, s) => a + s.histogram.totalCount + s.failures, 0);
        if (got !== written) fail(`${kind}: ${got} values + failures read, ${written} requests written`);
        return true;
      },
    ),
};

// Gatling's binary simulation.log (read from bytes) ----------------------------------------------

/** A byte-level damage of a binary file. */
const byteMutationArb = fc.oneof(
  fc.record({ op: fc.constant("flip" as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant("cut" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 16 }) }),
  fc.record({ op: fc.constant("drop" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant("repeat" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 60 }) }),
);
type ByteMutation = typeof byteMutationArb extends fc.Arbitrary<infer T> ? T : never;

function mutateBytes(b: Uint8Array, m: ByteMutation): Uint8Array {
  const at = b.length === 0 ? 0 : m.at % b.length;
  switch (m.op) {
    case "flip": {
      const out = b.slice();
      if (out.length > 0) out[at] = m.value;
      return out;
    }
    case "cut":
      return b.slice(0, at);
    case "insert":
      return new Uint8Array([...b.subarray(0, at), ...m.bytes, ...b.subarray(at)]);
    case "drop":
      return new Uint8Array([...b.subarray(0, at), ...b.subarray(at + m.length)]);
    case "repeat":
      return new Uint8Array([...b.subarray(0, at + m.length), ...b.subarray(at)]);
  }
}

const GATLING_LABELS = [["Home", "Search", "Add to cart"], ["ä_ö", "支付", "a,b", ""], ["x"]];

const gatlingBinary: FuzzProperty = {
  name: "gatling-binary-bytes",
  description:
    "Gatling 3.13+ binary simulation.log files (Latin-1 and UTF-16 names, groups) whole or with bytes flipped, cut, inserted, dropped or repeated, in any chunks: never throws, within the budget, problems name a record of the file, chunking changes nothing; whole files read every request",
  quickRuns: 60,
  build: () =>
    fc.asyncProperty(
      fc.integer({ min: 1, max: 1e6 }),
      fc.constantFrom(...GATLING_LABELS),
      fc.array(byteMutationArb, { maxLength: 3 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      async (seed, labels, mutations, cuts) => {
        begin({ seed, labels, mutations, cuts });
        const samples = generateSamples({ seed, seconds: 2, rate: 40, labels, medianMs: 8, sigma: 0.8, failureRate: 0.1 });
        const written = gatlingBinaryOfSamples(samples, (l) => (l.length % 2 === 0 ? ["Shop", l] : []));
        let bytes = written.bytes;
        for (const m of mutations) bytes = mutateBytes(bytes, m);
        const reader = pickBytesReader("simulation.log", bytes.subarray(0, BYTES_SNIFF_LENGTH));
        if (mutations.length === 0 && !reader) fail("a whole binary log is not recognised by its first bytes");
        if (!reader) return true;
        const at = [...new Set(cuts.map((c) => (bytes.length === 0 ? 0 : c % bytes.length)))].sort((a, b) => a - b);
        const pieces = [0, ...at, bytes.length].slice(1).map((end, i, ends) => bytes.slice(i === 0 ? 0 : ends[i - 1], end));
        const t0 = performance.now();
        let whole: IngestResult;
        let chunked: IngestResult;
        try {
          whole = await ingestBytes("simulation.log", reader, [bytes]);
          chunked = await ingestBytes("simulation.log", reader, pieces);
        } catch (e) {
          fail(`ingestBytes threw: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
        }
        checkBudget(t0, `reading a ${bytes.length}-byte binary log twice`);
        // a record is at least a byte: a problem's record number is within the file's bytes
        checkIngestResult(whole, { name: "simulation.log", text: "\n".repeat(bytes.length) });
        if (digest(whole) !== digest(chunked)) fail(`chunks change the outcome: ${preview(whole.problems)} vs ${preview(chunked.problems)}`);
        if (mutations.length === 0) {
          if (whole.problems.some((p) => !p.note)) fail(`a whole log gave problems: ${preview(whole.problems)}`);
          const got = whole.series.reduce((a, s) => a + s.histogram.totalCount + s.failures, 0);
          if (got !== samples.length) fail(`${got} values + failures read, ${samples.length} requests written`);
        }
        return true;
      },
    ),
};

// Load generators' and system tools' text outputs ----------------------------------------------

const toolValid: FuzzProperty = {
  name: "tool-outputs-valid-totals",
  description:
    "hey, h2load, pgbench, redis-benchmark, sysbench, cyclictest, sockperf, ping, ioping and hyperfine files as each tool writes them, CRLF/CR/BOM, any chunks: their own reader, recorded values + failures = requests written, no line problems",
  quickRuns: 40,
  build: () =>
    fc.asyncProperty(
      fc.constantFrom(...TOOL_KINDS),
      fc.integer({ min: 1, max: 1e6 }),
      fc.option(fc.constantFrom<Mutation>({ op: "crlf" }, { op: "cr" }, { op: "bom" }), { freq: 2 }),
      cutsArb,
      async (kind, seed, m, cuts) => {
        begin({ kind, seed, m, cuts });
        const f = toolFixture(kind, seed);
        const text = m ? applyMutation(f.text, m) : f.text;
        const format = detectedFormat(f.name, headOfChunks([text]));
        if (f.written > 0 && format !== kind) fail(`${kind} file detected as ${format}`);
        const r = await ingestChecked(f.name, chunkAt(text, cuts), text);
        if (f.written === 0) return true;
        if (r.problems.some((p) => p.line !== null && !p.note)) fail(`valid ${kind} file gave line problems: ${preview(r.problems)}`);
        const got = r.series.reduce((a, s) => a + s.histogram.totalCount + s.failures, 0);
        if (got !== f.written) fail(`${kind}: ${got} values + failures read, ${f.written} requests written`);
        return true;
      },
    ),
};

function countWritten(kind: (typeof LOADGEN_KINDS)[number], text: string): number {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  switch (kind) {
    case "jmeter-csv":
      return lines.filter((l) => /^\d{13}/.test(l)).length;
    case "jmeter-xml":
      return lines.filter((l) => l.startsWith("<httpSample")).length;
    case "gatling":
      return lines.filter((l) => l.startsWith("REQUEST\t")).length;
    case "k6-json":
      return lines.filter((l) => l.includes('"metric":"http_req_duration"') && l.includes('"type":"Point"')).length;
    case "k6-csv":
      return lines.filter((l) => l.startsWith("http_req_duration,")).length;
    case "vegeta-csv":
    case "vegeta-json":
      return lines.length;
    case "ghz":
      return (text.match(/"timestamp":/g) ?? []).length;
    case "siege":
      return lines.filter((l) => l.includes(" secs: ")).length;
    case "plain":
      return lines.filter((l) => /^[\d.]+$/.test(l)).length;
    case "samples-table":
      return lines.length - 1;
  }
}

const structuredValid: FuzzProperty = {
  name: "structured-valid-totals",
  description: "generated fio, OTLP, Prometheus API, JMH and Nighthawk files, CRLF/BOM, any chunks: no problems but notes, every value written is read",
  quickRuns: 30,
  build: () =>
    fc.asyncProperty(
      fc.constantFrom(...STRUCTURED_KINDS),
      fc.integer({ min: 1, max: 1e6 }),
      fc.option(fc.constantFrom<Mutation>({ op: "crlf" }, { op: "bom" }), { freq: 2 }),
      cutsArb,
      async (kind, seed, m, cuts) => {
        begin({ kind, seed, m, cuts });
        const f = structuredFixture(kind, seed);
        const text = m ? applyMutation(f.text, m) : f.text;
        const written = f.totals!.get("")!;
        const r = await ingestChecked(f.name, chunkAt(text, cuts), text);
        if (written === 0) return true;
        const bad = r.problems.filter((p) => !p.note && !/calls failed/.test(p.reason));
        if (bad.length > 0) fail(`valid ${kind} file gave problems: ${preview(bad)}`);
        const got = r.series.reduce((a, s) => a + s.histogram.totalCount, 0);
        if (got !== written) fail(`${kind}: ${got} values read, ${written} written`);
        return true;
      },
    ),
};

const hgrmValid: FuzzProperty = {
  name: "hgrm-valid-totals",
  description: "percentile distributions written by formatPercentileDistribution, CRLF/CR/BOM, any chunks: no problems, the rebuilt total count equals the written one",
  quickRuns: 30,
  build: () =>
    fc.asyncProperty(
      fc.integer({ min: 1, max: 1e6 }),
      fc.option(fc.constantFrom<Mutation>({ op: "crlf" }, { op: "cr" }, { op: "bom" }), { freq: 2 }),
      cutsArb,
      async (seed, m, cuts) => {
        begin({ seed, m, cuts });
        const f = generatedFixture("hgrm", seed);
        const text = m ? applyMutation(f.text, m) : f.text;
        const footer = /Total count\s*=\s*(\d+)/.exec(text);
        const r = await ingestChecked(f.name, chunkAt(text, cuts), text);
        if (r.problems.length > 0) fail(`valid hgrm gave problems: ${preview(r.problems)}`);
        if (r.series.length !== 1 || r.series[0]!.histogram.totalCount !== Number(footer?.[1])) fail(`rebuilt total ${r.series[0]?.histogram.totalCount}, footer ${footer?.[1]}`);
        return true;
      },
    ),
};

const payloadCrafted: FuzzProperty = {
  name: "payload-crafted-headers",
  description:
    "hand-built V0/V1/V2 payloads (plain and compressed) with wrong cookies, word sizes, payload/compressed lengths far off, digits outside 0..5, lowest/highest anywhere in 64 bits, negative and huge counts, truncated/flipped base64: decodeHistogramPayload never throws and returns a sane histogram or a reason; ingest of a log of such lines holds",
  quickRuns: 400,
  build: () =>
    fc.asyncProperty(fc.array(craftedPayloadArb, { minLength: 1, maxLength: 4 }), async (ps) => {
      const payloads = ps.map(craftPayload);
      begin({ payloads });
      for (const p of payloads) checkDecode(p);
      const text = payloads.map((p, i) => `${i % 2 ? "Tag=t," : ""}${i}.0,1.0,1.0,${p}`).join("\n") + "\n";
      await ingestChecked("crafted.hlog", [text], text);
      return true;
    }),
};

/** Random sparse counts in a layout, as a dense array (kept small: the layout's first buckets). */
const denseArb = fc
  .record({
    digits: fc.integer({ min: 0, max: 5 }),
    lowest: fc.constantFrom(1, 1, 2, 1000, 1024, 3),
    spread: fc.integer({ min: 1, max: 3000 }),
    entries: fc.array(fc.tuple(fc.nat(), fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }))), { minLength: 0, maxLength: 40 }),
    version: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
    wordSize: fc.constantFrom<2 | 4 | 8>(2, 4, 8),
    compressed: fc.boolean(),
  })
  .map((r) => {
    const unit = unitMagnitudeOf(r.lowest);
    const sub = subBucketCountMagnitude(r.digits);
    const highest = Math.max(2 * r.lowest, 3600e9);
    const length = Math.min(countsArrayLengthFor(unit, sub, highest), r.spread + 16);
    const counts = new Array<number>(length).fill(0);
    const maxCount = r.version === 2 ? 2 ** 31 - 1 : r.wordSize === 2 ? 32767 : 2 ** 31 - 1;
    for (const [i, c] of r.entries) counts[i % length] = Math.min(c, maxCount);
    return { h: { digits: r.digits, lowest: r.lowest, highest, counts }, opts: { version: r.version, wordSize: r.wordSize, compressed: r.compressed } as EncodeOptions };
  });

const payloadRoundTrip: FuzzProperty = {
  name: "payload-roundtrip",
  description:
    "random histograms encoded as Java writes V0/V1/V2 (2/4/8-byte words, plain or compressed) decode to exactly their counts; the same payload truncated anywhere or with a character flipped never throws",
  quickRuns: 300,
  build: () =>
    fc.property(denseArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom("A", "/", "+", "=", "*", " "), ({ h, opts }, cut, ch) => {
      const payload = encodeHistogram(h, opts);
      begin({ h: { ...h, counts: `${h.counts.length} slots` }, opts, cut, ch });
      const r = checkDecode(payload);
      if (!r.ok) fail(`valid payload refused: ${r.reason}`);
      const expected = new Map<number, number>();
      h.counts.forEach((c, i) => c !== 0 && expected.set(i, c));
      if (r.value.indices.length !== expected.size) fail(`${r.value.indices.length} non-zero counts decoded, ${expected.size} written`);
      r.value.indices.forEach((i, k) => {
        if (expected.get(i) !== r.value.counts[k]) fail(`index ${i}: decoded ${r.value.counts[k]}, written ${expected.get(i)}`);
      });
      const at = Math.floor(cut * payload.length);
      checkDecode(payload.slice(0, at));
      checkDecode(payload.slice(0, at) + ch + payload.slice(at + 1));
      return true;
    }),
};

const payloadBombs: FuzzProperty = {
  name: "payload-deflate-bombs",
  description:
    "compressed payloads that inflate to 8-256 MiB (headers declaring small, maximal or impossible payloads; V0 and V2; 3 and 5 digits) are decoded or refused within the budget, never inflated past what the header can need",
  quickRuns: 8,
  maxRuns: 200,
  build: () =>
    fc.property(
      fc.constantFrom<0 | 2>(0, 2),
      fc.constantFrom(8, 64, 256),
      fc.constantFrom("small", "max", "impossible"),
      fc.constantFrom(3, 5),
      (version, mib, declared, digits) => {
        begin({ version, mib, declared, digits });
        const highest = digits === 5 ? (1n << 63n) - 1n : 3600000000000n;
        const length = countsArrayLengthFor(0, subBucketCountMagnitude(digits), Number(highest));
        const d = declared === "small" ? 100 : declared === "max" ? length * 9 : 0x7fffffff;
        const payload = deflateBomb(version, mib, d, digits, highest);
        const r = checkDecode(payload);
        if (declared === "impossible" && version === 2 && r.ok) fail("a payload longer than the value range could need was accepted");
        return true;
      },
    ),
};

const hugeLines: FuzzProperty = {
  name: "huge-lines",
  description:
    "a 4-10 MB single line (digits, commas, base64, quotes, spaces) at the start, middle or end of a file of any format: bounded time, the line reported (by number) or read, the other lines still read",
  quickRuns: 6,
  maxRuns: 300,
  build: () =>
    fc.asyncProperty(
      fc.constantFrom(...(["hlog", "hgrm", "jmeter-csv", "gatling", "k6-json", "k6-csv", "vegeta-csv", "plain", "samples-table"] as const)),
      fc.constantFrom(MAX_LINE_CHARS - 1, MAX_LINE_CHARS + 1, 10 * 1024 * 1024),
      fc.constantFrom("9", "1,", "A", '"', " ", "HIST", "\u00e9"),
      fc.constantFrom("start", "middle", "end"),
      fc.integer({ min: 1, max: 1000 }),
      async (kind, size, unit, where, seed) => {
        begin({ kind, size, unit, where, seed });
        const f = generatedFixture(kind, seed);
        const big = unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
        const lines = f.text.split("\n");
        const at = where === "start" ? 0 : where === "end" ? lines.length : Math.floor(lines.length / 2);
        lines.splice(at, 0, big);
        const text = lines.join("\n");
        const chunks: string[] = [];
        for (let i = 0; i < text.length; i += 65536) chunks.push(text.slice(i, i + 65536));
        const r = await ingestChecked(f.name, chunks, text);
        // A percentile file ignores text before its header and after its footer by design.
        const ignoredByDesign = kind === "hgrm" && (where !== "middle" || unit.trim() === "");
        if (size > MAX_LINE_CHARS && !ignoredByDesign && r.series.length > 0 && !r.problems.some((p) => p.line === at + 1 || /characters long|too large/.test(p.reason))) {
          fail(`the ${size}-char line ${at + 1} was neither reported nor refused: ${preview(r.problems)}`);
        }
        return true;
      },
    ),
};

// Share links ----------------------------------------------------------------------------------

const VIEW = viewMeta({ yLog: true, requirement: "p99<=5ms", timeline: { percentiles: [50, 99] } });

const shareStateArb: fc.Arbitrary<ShareState> = fc
  .array(
    fc.record({
      values: fc.array(fc.integer({ min: 0, max: 1e12 }), { maxLength: 60 }),
      sig: fc.integer({ min: 1, max: 5 }),
      timeline: fc.option(fc.array(fc.oneof(fc.double({ min: 0, max: 1e12, noNaN: true }), fc.constant(Number.NaN)), { maxLength: 30 })),
      name: fc.string({ maxLength: 30 }),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((ss) => ({
    view: { ...VIEW, range: { ...VIEW.range }, timeline: { ...VIEW.timeline, percentiles: [...VIEW.timeline.percentiles] } },
    series: ss.map((s) => {
      const h = newHistogram(s.sig, 1);
      for (const v of s.values) h.recordValue(v);
      return {
        name: s.name,
        source: "a.hlog",
        tag: "",
        config: "",
        throughput: null,
        kind: "" as const,
        unit: "ns" as const,
        visible: true,
        histogram: h,
        timeline: s.timeline ? { t0: 0, t1: 10, max: s.timeline } : null,
        startTime: null,
      };
    }),
  }));

/** What a link says its author's page showed for a series (v5), often valid, with odd numbers. */
const shownArb = fc.record({
  at: fc.dictionary(fc.constantFrom("50", "90", "99", "99.9", "100", "0.5", "150", "x"), fc.oneof(fc.double(), fc.nat())),
  min: fc.oneof(fc.double(), fc.constant({ $n: "NaN" })),
  mean: fc.oneof(fc.double(), fc.constant({ $n: "Inf" })),
  stdDeviation: fc.double(),
  count: fc.oneof(fc.nat(), fc.double()),
  warnings: fc.array(fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.record({ kind: fc.constant("saturation"), series: fc.string(), rise: fc.double() })), { maxLength: 2 }),
});

const fragmentArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 200 }).map((s) => `#s=2.${s}`),
  fc.uint8Array({ maxLength: 400 }).map((b) => `s=2.${base64urlEncode(zlibDeflate(b))}`),
  fc.tuple(fc.constantFrom(1, 2), fc.jsonValue({ maxDepth: 4 }), fc.uint8Array({ maxLength: 200 })).map(([v, meta, data]) => {
    try {
      return wrapPayload(buildPayload(meta, data), v);
    } catch {
      return "s=2.";
    }
  }),
  fc.tuple(shareStateArb, fc.boolean(), fc.array(mutationArb, { maxLength: 2 })).map(([state, full, ms]) => {
    let f: string;
    try {
      f = "#" + encodeShare(state, { fullPrecision: full }).fragment;
    } catch {
      return "s=2.AAAA";
    }
    for (const m of ms) f = applyMutation(f, m);
    return f;
  }),
  fc.tuple(fc.integer({ min: 1, max: 3 }), fc.uint8Array({ maxLength: 60 }), fc.boolean(), fc.constantFrom(1, 2, 3, 5)).map(([n, data, lossy, sig]) => {
    // Valid metadata, random data bytes: the packed histograms and timelines are hostile.
    const meta = {
      lossy,
      view: VIEW,
      series: Array.from({ length: n }, (_, i) => seriesMeta({ name: `s${i}`, hist: { sig, ldv: 1 }, ...(i === 0 ? { timeline: { t0: 0, t1: 1 } } : {}) })),
    };
    return wrapPayload(buildPayload(meta, data));
  }),
  fc.tuple(fc.oneof(fc.jsonValue({ maxDepth: 5 }), shownArb), fc.jsonValue({ maxDepth: 5 }), fc.boolean()).map(([shown, compare, asAnswer]) => {
    // Valid metadata and data, hostile carried results (v5): what the author's page showed and the comparison.
    const meta = {
      lossy: false,
      view: VIEW,
      series: [seriesMeta({ name: "a", hist: { sig: 3, ldv: 1 }, shown })],
      results: asAnswer ? { compare } : compare,
    };
    const w = new ByteWriter();
    w.varint(1);
    w.varint(1000);
    w.svarint(5);
    return wrapPayload(buildPayload(meta, w.finish()));
  }),
);

const shareFragments: FuzzProperty = {
  name: "share-fragments",
  description:
    "hostile share fragments (random text, random zlib data, random JSON metadata, valid links mutated, damaged data): decodeShare and Store.openShare never throw; accepted links hold sane histograms",
  quickRuns: 300,
  build: () =>
    fc.property(fragmentArb, (fragment) => {
      const t0 = begin({ fragment });
      let r: ReturnType<typeof decodeShare>;
      try {
        r = decodeShare(fragment);
      } catch (e) {
        fail(`decodeShare threw: ${String(e)}`);
      }
      if (!r.ok) {
        if (typeof r.reason !== "string" || r.reason.trim() === "") fail("refused without a reason");
      } else {
        for (const s of r.state.series) {
          if (!Number.isSafeInteger(s.histogram.totalCount) || s.histogram.totalCount < 0) fail(`shared series total ${s.histogram.totalCount}`);
          for (const v of s.timeline?.max ?? []) if (!(Number.isNaN(v) || (Number.isFinite(v) && v >= 0))) fail(`timeline value ${v}`);
        }
      }
      const store = new Store();
      try {
        const o = openShareIn(store, fragment);
        if (o.ok) {
          store.views();
          store.timeline({ t0: null, t1: null, columns: 100, percentiles: [50, 99] });
        }
      } catch (e) {
        fail(`Store.openShare or a query on its result threw: ${String(e)}`);
      }
      checkBudget(t0, "decoding a share fragment");
      return true;
    }),
};

// Requirements -------------------------------------------------------------------------------

const requirementTextArb = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom("max", "p", "P", "p0", "p100", "p100.0", "p-1", "p1e3"),
          fc.double({ min: -1, max: 101, noNaN: true }).map((x) => `p${x}`),
          fc.integer({ min: 0, max: 100 }).map((x) => `p${x}`),
        ),
        fc.constantFrom("<=", "≤", "=<", " <= ", "<", ">=", "", "=="),
        fc.oneof(fc.double().map(String), fc.constantFrom("5", "0", "-1", "1e400", "NaN", "Infinity", ".5", "5.", "1e-400", "")),
        fc.constantFrom("ms", "s", "us", "µs", "μs", "ns", " ms", "", "m", "sec", "MS"),
      ),
      { maxLength: 6 },
    )
    .chain((es) => fc.constantFrom(", ", ";", " ", ",", "\n").map((sep) => es.map((e) => e.join("")).join(sep))),
);

const requirements: FuzzProperty = {
  name: "requirements",
  description:
    "parseRequirement on hostile text never throws; accepted requirements have unique sorted percentiles in (0,100], finite positive limits, and format back to themselves; parseSlaDat on hostile and mutated SLA files never throws and names lines within the file",
  quickRuns: 400,
  build: () =>
    fc.property(
      requirementTextArb,
      fc.oneof(
        tokenSoupArb,
        fc.array(mutationArb, { maxLength: 3 }).map((ms) => ms.reduce((t, m) => applyMutation(t, m), slaDat() ?? "1 1 a\n10 1 b\n10 5 c\n100 5 d\n")),
      ),
      (text, sla) => {
        const t0 = begin({ text, sla });
        let r: ReturnType<typeof parseRequirement>;
        try {
          r = parseRequirement(text);
        } catch (e) {
          fail(`parseRequirement threw: ${String(e)}`);
        }
        if (!r.ok) {
          if (r.errors.length === 0 || r.errors.some((e) => typeof e !== "string" || e.trim() === "")) fail("refused without reasons");
        } else if (r.value) {
          const es = r.value.entries;
          es.forEach((e, i) => {
            if (!(e.percentile > 0 && e.percentile <= 100)) fail(`percentile ${e.percentile}`);
            if (!(Number.isFinite(e.limitNs) && e.limitNs > 0)) fail(`limit ${e.limitNs}`);
            if (i > 0 && !(e.percentile > es[i - 1]!.percentile)) fail("percentiles not unique and ascending");
          });
          const again = parseRequirement(formatRequirement(r.value));
          if (!again.ok || JSON.stringify(again.value) !== JSON.stringify(r.value)) fail(`format/parse round trip: ${formatRequirement(r.value)} → ${preview(again)}`);
        }
        let s: ReturnType<typeof parseSlaDat>;
        try {
          s = parseSlaDat(sla);
        } catch (e) {
          fail(`parseSlaDat threw: ${String(e)}`);
        }
        const n = countLines(sla);
        for (const p of s.problems) if (!(p.line >= 1 && p.line <= n) || p.reason.trim() === "") fail(`SLA problem ${preview(p)} (file has ${n} lines)`);
        for (const e of s.value?.entries ?? []) {
          if (!(e.percentile >= 0 && e.percentile <= 100 && Number.isFinite(e.limitNs) && e.limitNs > 0)) fail(`SLA entry ${preview(e)}`);
        }
        checkBudget(t0, "parsing a requirement");
        return true;
      },
    ),
};

// Line splitter ------------------------------------------------------------------------------

function splitAll(chunks: readonly string[]): { lines: [number, string][]; overlong: [number, number][]; count: number } {
  const lines: [number, string][] = [];
  const overlong: [number, number][] = [];
  const s = new LineSplitter({ line: (t, n) => lines.push([n, t]), overlong: (n, len) => overlong.push([n, len]) });
  for (const c of chunks) s.push(c);
  s.end();
  return { lines, overlong, count: s.linesRead };
}

const lineSplitter: FuzzProperty = {
  name: "line-splitter",
  description:
    "LineSplitter gives the same lines, numbers and overlong reports for any chunking (\\r\\n split across chunks, empty chunks), and counts lines as \\n, \\r\\n and lone \\r end them",
  quickRuns: 500,
  build: () =>
    fc.property(
      fc.oneof(
        fc.array(fc.constantFrom("a", "b", "\r", "\n", "\r\n", "", "\u2028", "\ufeff", " "), { maxLength: 200 }).map((p) => p.join("")),
        tokenSoupArb,
        fc.string({ maxLength: 500 }),
      ),
      cutsArb,
      (text, cuts) => {
        begin({ text, cuts });
        const whole = splitAll([text]);
        const parts = splitAll(chunkAt(text, cuts));
        if (JSON.stringify(whole) !== JSON.stringify(parts)) fail(`chunked split differs: ${preview(whole.lines)} vs ${preview(parts.lines)}`);
        if (whole.count !== countLines(text)) fail(`counted ${whole.count} lines, expected ${countLines(text)}`);
        const expected = text.split(/\r\n|\r|\n/);
        if (expected.length > 0 && expected[expected.length - 1] === "") expected.pop();
        if (JSON.stringify(whole.lines.map((l) => l[1])) !== JSON.stringify(expected)) fail(`lines ${preview(whole.lines)} vs split ${preview(expected)}`);
        return true;
      },
    ),
};

// Store queries on whatever a hostile file parsed into --------------------------------------

const storeQueries: FuzzProperty = {
  name: "store-load-and-query",
  description:
    "Store.load of mutated files never throws and reports ingest failures as problems; views, time windows, timeline, .hgrm export and a share link of whatever loaded work within the budget",
  quickRuns: 60,
  build: () =>
    fc.asyncProperty(
      fc.oneof(
        { weight: 4, arbitrary: mutatedFileArb },
        { weight: 1, arbitrary: fc.tuple(nameArb, tokenSoupArb).map(([name, text]) => ({ name, text, origin: "soup", mutations: [] as Mutation[] })) },
      ),
      async (c) => {
        begin({ name: c.name, origin: c.origin, mutations: c.mutations });
        if (skipKnownSlow(c.name, c.text)) return true;
        const store = await storeLoadChecked(c.name, [c.text], c.text);
        const t0 = performance.now();
        try {
          const views = store.views();
          store.views({ start: 1, end: 5 });
          const tl = store.timeline({ t0: null, t1: null, columns: 200, percentiles: [50, 99.9] });
          for (const s of tl.series) for (let k = 0; k < s.max.length; k++) if (!(s.max[k]! >= 0)) fail(`timeline max ${s.max[k]} in bucket ${k}`);
          for (const v of views) {
            store.exportHgrm(v.id, { start: null, end: null }, "ms");
            for (const [p, x] of Object.entries(v.spectrum.percentiles)) if (!(Number.isFinite(x) && x >= 0)) fail(`${v.name}: p${p} = ${x}`);
          }
          if (views.length > 0) {
            try {
              shareOf(
                store,
                { ...VIEW, range: { ...VIEW.range }, timeline: { ...VIEW.timeline, percentiles: [50] } },
                views.map((v) => ({ id: v.id, color: "#000", visible: true })),
                { start: null, end: null },
                false,
              );
            } catch (e) {
              if (!(e instanceof RangeError)) throw e; // a view too big to share is refused by design
            }
          }
        } catch (e) {
          if (e instanceof Error && e.name === "FuzzFailure") throw e;
          fail(`a query on the loaded data threw: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
        }
        checkBudget(t0, "queries on the loaded data");
        return true;
      },
    ),
};

// Long repetitions: the shapes that make regexes backtrack and loops go quadratic ----------

const HOSTILE_LINES_FOR_REPEAT = HOSTILE_LINES;
const GENERATED_FOR_REPEAT = GENERATED_KINDS;
const REPEAT_TOKENS = [
  "<sample ",
  '<httpSample t="1" ',
  "1",
  "1,",
  "1\t",
  "1;",
  " ",
  "\t",
  '"',
  '""',
  "x\n",
  "\n",
  "1\n",
  ",\n",
  '"\n',
  "#[",
  "a ",
  "a=",
  "=",
  "HIST",
  "A",
  ",",
  "0.",
  ".",
  "e",
  "1e",
  "-",
  "{",
  '{"',
  "[",
  "\\",
  "Tag=",
  "Value ",
  "\r",
  "\r\n",
  "\u00e9",
  "\ufffd",
  "<",
  ">",
];
const REPEAT_SUFFIXES = ["", "x", "\n", "=", '"', ">", "1", "]", "}", ".", " x"];

const repetitionArb = fc
  .record({
    name: nameArb,
    head: fc.oneof(
      fc.constant(""),
      fc.constantFrom(...HOSTILE_LINES_FOR_REPEAT),
      fc
        .tuple(fc.constantFrom(...GENERATED_FOR_REPEAT), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 8 }))
        .map(([k, seed, n]) => generatedFixture(k, seed).text.split("\n").slice(0, n).join("\n")),
    ),
    lead: fc.constantFrom("", "a", "#[a", '1700000000000,5,"', "  ", "1"),
    token: fc.constantFrom(...REPEAT_TOKENS),
    n: fc.integer({ min: 100, max: 30_000 }),
    suffix: fc.constantFrom(...REPEAT_SUFFIXES),
    tail: fc.oneof(fc.constant(""), fc.constant("1\n2\n3\n"), tokenLineArb),
    useFixtureName: fc.boolean(),
  })
  .map((r) => ({
    name: r.name,
    text: `${r.head}${r.head ? "\n" : ""}${r.lead}${r.token.repeat(r.n)}${r.suffix}\n${r.tail}`,
    shape: { head: r.head.slice(0, 60), lead: r.lead, token: r.token, n: r.n, suffix: r.suffix },
  }));

const ingestRepetitions: FuzzProperty = {
  name: "ingest-long-repetitions",
  description:
    "a format's first lines, then one token repeated 100-30 000 times (quotes, digits, delimiters, <sample, #[, spaces, line breaks) and a suffix that breaks the pattern: within the budget (catches regex backtracking and quadratic loops)",
  quickRuns: 60,
  build: () =>
    fc.asyncProperty(repetitionArb, async (c) => {
      begin({ name: c.name, shape: c.shape });
      if (skipKnownSlow(c.name, c.text)) return true;
      await ingestChecked(c.name, [c.text], c.text);
      return true;
    }),
};

const optionsArb: fc.Arbitrary<SampleOptions> = fc.record(
  {
    valueColumn: fc.oneof(fc.constantFrom<string | number>(0, 1, 2, -1, 1.5, 1e9, Number.NaN, "", "latency_ms", "elapsed", "nope", "0", "99")),
    timestampColumn: fc.constantFrom<string | number | null>(null, 0, 1, 5, -1, "timestamp", "timeStamp", "nope"),
    labelColumn: fc.constantFrom<string | number | null>(null, 0, 2, 7, "label", "nope"),
    valueUnit: fc.constantFrom<Unit>("ns", "us", "ms", "s"),
    timestampUnit: fc.constantFrom<"s" | "ms" | "us" | "ns">("s", "ms", "us", "ns"),
    intervalSec: fc.constantFrom(Number.NaN, -1, 0, 1e-9, 1e-3, 0.5, 1, 7, 86400, 1e300, Infinity),
    expectedInterval: fc.constantFrom(Number.NaN, -1, 0, 1e-300, 0.001, 1, 10, 1000, 1e6, 1e9, 1e300, Infinity),
  },
  { requiredKeys: [] },
);

const ingestOptions: FuzzProperty = {
  name: "ingest-sample-options",
  description:
    "load-generator and sample files (valid or mutated) with hostile SampleOptions (columns that do not exist, NaN/negative/tiny/huge interval lengths and expected intervals, every unit): a result or problems, within the budget",
  quickRuns: 60,
  maxRuns: 5000,
  build: () =>
    fc.asyncProperty(
      fc.constantFrom(...LOADGEN_KINDS),
      fc.integer({ min: 1, max: 1e6 }),
      fc.array(mutationArb, { maxLength: 2 }),
      optionsArb,
      async (kind, seed, mutations, options) => {
        begin({ kind, seed, mutations, options });
        const f = generatedFixture(kind, seed);
        const text = mutations.reduce((t, m) => applyMutation(t, m), f.text);
        await ingestChecked(f.name, [text], text, options);
        return true;
      },
    ),
};

// Interval logs mixing histogram layouts -----------------------------------------------------

const layoutArb = fc
  .record({
    digits: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 4, max: 5 }) }),
    lowest: fc.constantFrom(1, 1, 2, 3, 1000, 1024, 2 ** 20, 2 ** 40),
    highestExp: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 45 }) }, { weight: 1, arbitrary: fc.integer({ min: 46, max: 62 }) }),
    /** Mostly values within 2^52; beyond 2^53 such intervals are refused with a problem. */
    safe: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    entries: fc.array(
      fc.tuple(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 1000 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 ** 40 }) }),
      ),
      { minLength: 0, maxLength: 8 },
    ),
    top: fc.boolean(),
    tag: fc.constantFrom("", "", "A", "B"),
  })
  .filter((l) => l.digits + Math.log2(l.lowest) <= 58)
  .map((l) => {
    const unit = unitMagnitudeOf(l.lowest);
    const sub = subBucketCountMagnitude(l.digits);
    const highest = Math.max(2 * l.lowest, 2 ** l.highestExp);
    const length = countsArrayLengthFor(unit, sub, highest);
    // Indices anywhere in the layout, the last slot too (the largest value it can hold).
    let entries = l.entries.map(([f, c]) => [Math.min(length - 1, Math.floor(f * length)), c] as [number, number]);
    if (l.top) entries.push([length - 1, 1]);
    if (l.safe) entries = entries.filter(([i]) => valueFromIndex(i + 1, l.lowest, l.digits) <= 2 ** 52);
    return { ...l, highest, length, entries };
  });

const hlogLayouts: FuzzProperty = {
  name: "hlog-mixed-layouts",
  description:
    "interval logs whose lines use different layouts (0-5 digits, lowest 1..2^40, highest up to 2^62, counts in the top slot, counts up to 2^40) and tags: per tag the total equals the counts written, values and maxes finite; Store queries on it work",
  quickRuns: 60,
  maxRuns: 5000,
  build: () =>
    fc.asyncProperty(fc.array(layoutArb, { minLength: 1, maxLength: 6 }), fc.boolean(), async (layouts, reverse) => {
      begin({ layouts: layouts.map((l) => ({ digits: l.digits, lowest: l.lowest, highest: l.highest, entries: l.entries, tag: l.tag })), reverse });
      const lines = layouts.map(
        (l, i) => `${l.tag ? `Tag=${l.tag},` : ""}${reverse ? layouts.length - i : i}.000,1.000,1.000,${sparseV2Payload(l.digits, l.lowest, l.highest, l.entries)}`,
      );
      const text = `#[StartTime: 1700000000.000 (seconds since epoch)]\n${lines.join("\n")}\n`;
      const r = await ingestChecked("layouts.hlog", [text], text);
      // Intervals holding values above 2^53 are refused with a problem (a float64 cannot count
      // them exactly); every other interval must be counted.
      const beyond = (l: (typeof layouts)[number]) => l.entries.some(([i]) => valueFromIndex(i + 1, l.lowest, l.digits) - 1 > Number.MAX_SAFE_INTEGER);
      const expected = new Map<string, number>();
      for (const l of layouts) if (!beyond(l)) expected.set(l.tag, (expected.get(l.tag) ?? 0) + [...new Map(l.entries).values()].reduce((a, c) => a + c, 0));
      const refused = layouts.filter(beyond).length;
      const unexpected = r.problems.filter((p) => !/above 2\^53/.test(p.reason) && !/lines? skipped/.test(p.reason));
      if (unexpected.length > 0) fail(`valid payloads gave problems: ${preview(unexpected)}`);
      if (r.problems.filter((p) => /above 2\^53/.test(p.reason)).length !== refused) fail(`${refused} intervals beyond 2^53, problems: ${preview(r.problems)}`);
      for (const [tag, total] of expected) {
        const s = r.series.find((x) => x.tag === tag);
        if (!s) fail(`no series for tag ${JSON.stringify(tag)}`);
        if (s.histogram.totalCount !== total) fail(`tag ${JSON.stringify(tag)}: total ${s.histogram.totalCount}, ${total} written`);
      }
      const store = await storeLoadChecked("layouts.hlog", [text], text);
      {
        const t0 = performance.now();
        try {
          for (const v of store.views({ start: 0, end: 2 })) for (const [p, x] of Object.entries(v.spectrum.percentiles)) if (!(Number.isFinite(x) && x >= 0)) fail(`p${p} = ${x}`);
          store.timeline({ t0: null, t1: null, columns: 50, percentiles: [50, 99] });
        } catch (e) {
          if (e instanceof Error && e.name === "FuzzFailure") throw e;
          fail(`a query threw: ${String(e)}`);
        }
        checkBudget(t0, "queries");
      }
      return true;
    }),
};

// Volume: a large file of bad lines must not list a problem per line -------------------------

const garbageVolume: FuzzProperty = {
  name: "ingest-garbage-volume",
  description: "10 000 to 1 000 000 bad lines (long runs) under every file name: problems stay bounded (≤ 128), time within the budget",
  quickRuns: 6,
  maxRuns: 200,
  build: () =>
    fc.asyncProperty(
      nameArb,
      fc.constantFrom(...HOSTILE_LINES_FOR_REPEAT, "garbage", "1,2,3", "REQUEST\tx", "x\ty\tz"),
      fc.integer({ min: 10_000, max: longMode ? 1_000_000 : 60_000 }),
      fc.boolean(),
      async (name, line, n, header) => {
        begin({ name, line, n, header });
        // Up to 1e6 lines, at most 16 MB (ingest reads ~50 MB/s: the budget is for pathologies, not volume).
        const lines = Math.min(n, Math.floor(16e6 / (line.length + 1)));
        const text = (header ? "timeStamp,elapsed,label,success\n" : "") + (line + "\n").repeat(lines);
        if (skipKnownSlow(name, text)) return true;
        const chunks: string[] = [];
        for (let i = 0; i < text.length; i += 65536) chunks.push(text.slice(i, i + 65536));
        const r = await ingestChecked(name, chunks, text);
        if (r.problems.length > MAX_PROBLEMS) fail(`${r.problems.length} problems`);
        return true;
      },
    ),
};

export const PROPERTIES: FuzzProperty[] = [
  ingestTokenSoup,
  ingestRandomText,
  ingestMutated,
  ingestChunking,
  ingestBinary,
  ingestRepetitions,
  ingestOptions,
  garbageVolume,
  hlogValid,
  hlogLayouts,
  loadgenValid,
  toolValid,
  gatlingBinary,
  structuredValid,
  hgrmValid,
  payloadCrafted,
  payloadRoundTrip,
  payloadBombs,
  hugeLines,
  shareFragments,
  requirements,
  lineSplitter,
  storeQueries,
];
