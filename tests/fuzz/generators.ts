// Input generators for the fuzz properties: valid files of every format (from the project's own
// fixture writers and the real sample files), mutations of them, token soup, binary and UTF-16
// garbage, and hand-crafted HdrHistogram payloads with hostile headers.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";
import fc from "fast-check";
import { build } from "hdr-histogram-js";
import { writeHlog } from "../support/hlog-fixture";
import { simulateQueue, mulberry32 } from "../support/queue-sim";
import { gatlingLog, generateSamples, jmeterCsv, jmeterXml, k6Csv, k6Json, plainValues, samplesTable, vegetaCsv, vegetaJson } from "../support/loadgen-fixtures";
import { fortioJson, ghzJson, siegeVerbose } from "../support/producer-fixtures";
import { fioHistLog, fioJsonPlus, fioLatLog, jmhJson, nighthawkJson, otlpJsonLines, prometheusRange } from "../support/structured-fixtures";
import { PRODUCER_FIXTURES } from "../support/producer-outputs";
import { formatPercentileDistribution } from "../../src/core/hgrm-export";
import { toolFixtureArb } from "./tool-generators";

// ---------------------------------------------------------------------------------------------
// Real sample files (read in place; absent folder: none)

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const SAMPLES_DIR = path.resolve(HERE, "../../../shared/samples");

export interface Fixture {
  kind: string;
  name: string;
  text: string;
  /** For generated interval logs: the total count written, per tag ("" = untagged). */
  totals?: Map<string, number>;
  /** For generated interval logs: the number of intervals written, per tag. */
  intervals?: Map<string, number>;
}

let realCache: Fixture[] | null = null;
export function realSamples(): Fixture[] {
  if (realCache) return realCache;
  realCache = [];
  for (const sub of ["hdrhistogram", "hgrm"]) {
    const dir = path.join(SAMPLES_DIR, sub);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      if (f === "SLA_msec.dat") continue;
      realCache.push({ kind: `real:${sub}`, name: f, text: readFileSync(path.join(dir, f), "utf8") });
    }
  }
  return realCache;
}

export function slaDat(): string | null {
  const p = path.join(SAMPLES_DIR, "hgrm", "SLA_msec.dat");
  return existsSync(p) ? readFileSync(p, "utf8") : null;
}

// ---------------------------------------------------------------------------------------------
// Generated valid files

export const GENERATED_KINDS = [
  "hlog",
  "hlog-tagged",
  "hgrm",
  "jmeter-csv",
  "jmeter-xml",
  "gatling",
  "k6-json",
  "k6-csv",
  "vegeta-csv",
  "vegeta-json",
  "ghz",
  "fortio",
  "siege",
  "plain",
  "samples-table",
] as const;
export type GeneratedKind = (typeof GENERATED_KINDS)[number];

/** A valid interval log from the queue simulator, with what it holds. */
export function hlogFixture(seed: number, opts: { tags?: string[]; seconds?: number; rate?: number } = {}): Fixture {
  const rnd = mulberry32(seed);
  const seconds = opts.seconds ?? 2 + Math.floor(rnd() * 10);
  const rate = opts.rate ?? 20 + Math.floor(rnd() * 200);
  const tags = opts.tags ?? [""];
  const totals = new Map<string, number>();
  const intervals = new Map<string, number>();
  let text = "";
  tags.forEach((tag, k) => {
    const sim = simulateQueue({
      rate,
      seconds,
      medianServiceSec: 0.0005 + rnd() * 0.002,
      sigma: 0.3 + rnd() * 0.6,
      stalls: rnd() < 0.3 ? [{ at: rnd() * seconds, duration: rnd() * 0.5 }] : [],
      seed: seed + k,
      intervalSec: rnd() < 0.5 ? 1 : 0.5,
    });
    totals.set(
      tag,
      sim.reduce((a, iv) => a + iv.histogram.totalCount, 0),
    );
    intervals.set(tag, sim.length);
    const log = writeHlog(sim, { tag: tag || undefined, maxRatio: rnd() < 0.5 ? 1e6 : 1e3 });
    // One header for the whole file: the later tags' lines only.
    text +=
      k === 0
        ? log
        : log
            .split("\n")
            .filter((l) => l.startsWith("Tag="))
            .join("\n") + "\n";
  });
  return { kind: tags.length > 1 || tags[0] !== "" ? "hlog-tagged" : "hlog", name: `run-${seed}.hlog`, text, totals, intervals };
}

function hgrmFixture(seed: number): Fixture {
  const rnd = mulberry32(seed);
  const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: (2 + Math.floor(rnd() * 2)) as 2 | 3 });
  const n = 10 + Math.floor(rnd() * 2000);
  for (let i = 0; i < n; i++) h.recordValue(Math.max(1, Math.round(1e6 * Math.exp(rnd() * 6))));
  return { kind: "hgrm", name: `dist-${seed}.hgrm`, text: formatPercentileDistribution(h, 1e6) };
}

function loadgenFixture(kind: GeneratedKind, seed: number): Fixture {
  const rnd = mulberry32(seed);
  const samples = generateSamples({
    seed,
    seconds: 1 + Math.floor(rnd() * 6),
    rate: 5 + Math.floor(rnd() * 80),
    labels: rnd() < 0.5 ? [""] : ["home", "login", 'a,b "q"'].slice(0, 1 + Math.floor(rnd() * 3)),
    medianMs: 1 + rnd() * 50,
    sigma: 0.2 + rnd(),
    failureRate: rnd() < 0.5 ? 0 : rnd() * 0.3,
  });
  switch (kind) {
    case "jmeter-csv":
      return { kind, name: `results-${seed}.jtl`, text: jmeterCsv(samples, { delimiter: rnd() < 0.8 ? "," : rnd() < 0.5 ? "\t" : ";", header: rnd() < 0.9 }) };
    case "jmeter-xml":
      return { kind, name: `results-${seed}.jtl`, text: jmeterXml(samples) };
    case "gatling":
      return { kind, name: "simulation.log", text: gatlingLog(samples, { layout: rnd() < 0.7 ? "3.4" : "3.0" }) };
    case "k6-json":
      return { kind, name: `k6-${seed}.json`, text: k6Json(samples) };
    case "k6-csv":
      return { kind, name: `k6-${seed}.csv`, text: k6Csv(samples) };
    case "vegeta-csv":
      return { kind, name: `vegeta-${seed}.csv`, text: vegetaCsv(samples, { columns: rnd() < 0.5 ? 12 : 9 }) };
    case "vegeta-json":
      return { kind, name: `vegeta-${seed}.json`, text: vegetaJson(samples) };
    case "ghz":
      return {
        kind,
        name: `ghz-${seed}.json`,
        text: ghzJson(
          samples.map((s) => ({ ...s, label: "" })),
          { pretty: rnd() < 0.5 },
        ),
      };
    case "fortio":
      return { kind, name: `fortio-${seed}.json`, text: fortioJson(samples) };
    case "siege":
      return { kind, name: `siege-${seed}.txt`, text: siegeVerbose(samples, { timestamps: rnd() < 0.5, color: rnd() < 0.7 }) };
    case "plain":
      return {
        kind,
        name: `values-${seed}.txt`,
        text: plainValues(samples, { decimals: ([0, 3, 6] as const)[Math.floor(rnd() * 3)], header: rnd() < 0.5 ? "latency_ms" : undefined }),
      };
    default:
      return { kind, name: `samples-${seed}.csv`, text: samplesTable(samples, { delimiter: rnd() < 0.7 ? "," : "\t" }) };
  }
}

export function generatedFixture(kind: GeneratedKind, seed: number): Fixture {
  if (kind === "hlog") return hlogFixture(seed);
  if (kind === "hlog-tagged") return hlogFixture(seed, { tags: ["", "A", "B"].slice(0, 2 + (seed & 1)) });
  if (kind === "hgrm") return hgrmFixture(seed);
  return loadgenFixture(kind, seed);
}

// Benchmarks, storage and telemetry: generated in the real producers' shapes, and the real
// producers' outputs kept as fixtures.

export const STRUCTURED_KINDS = ["fio-json", "fio-hist", "fio-hist-coarse", "fio-lat", "otlp", "prometheus", "jmh", "nighthawk"] as const;
export type StructuredKind = (typeof STRUCTURED_KINDS)[number];

/** A generated file of a structured format, with the number of values it holds (`totals` under ""). */
export function structuredFixture(kind: StructuredKind, seed: number): Fixture {
  const rnd = mulberry32(seed);
  const samples = generateSamples({
    seed,
    seconds: 1 + Math.floor(rnd() * 5),
    rate: 5 + Math.floor(rnd() * 60),
    labels: rnd() < 0.5 ? [""] : ["home", "login", 'a,b "q"'].slice(0, 1 + Math.floor(rnd() * 3)),
    medianMs: 0.05 + rnd() * 50,
    sigma: 0.2 + rnd(),
    failureRate: 0,
  });
  const made = (name: string, w: { text: string; total: number }): Fixture => ({ kind, name, text: w.text, totals: new Map([["", w.total]]) });
  switch (kind) {
    case "fio-json":
      return made(`fio-${seed}.json`, fioJsonPlus(samples));
    case "fio-hist":
      return made(`fio-${seed}_clat_hist.1.log`, fioHistLog(samples));
    case "fio-hist-coarse":
      return made(`fio-${seed}.txt`, fioHistLog(samples, 1 + Math.floor(rnd() * 6)));
    case "fio-lat":
      return made(`fio-${seed}_clat.1.log`, fioLatLog(samples));
    case "otlp":
      return made(`otel-${seed}.jsonl`, otlpJsonLines(samples));
    case "prometheus":
      return made(`prom-${seed}.json`, prometheusRange(samples));
    case "jmh":
      return made(`jmh-${seed}.json`, jmhJson(samples));
    default:
      return made(`nighthawk-${seed}.json`, { text: nighthawkJson(samples), total: samples.length });
  }
}

let producerCache: Fixture[] | null = null;
/** The real producers' outputs (fixtures/producers/structured). */
export function producerOutputs(): Fixture[] {
  if (producerCache) return producerCache;
  producerCache = existsSync(PRODUCER_FIXTURES)
    ? readdirSync(PRODUCER_FIXTURES)
        .sort()
        .filter((f) => !/values\.json$/.test(f))
        .map((f) => ({ kind: "producer", name: f, text: readFileSync(path.join(PRODUCER_FIXTURES, f), "utf8") }))
    : [];
  return producerCache;
}

/** Any valid file: generated (most) or a real sample. */
export const fixtureArb: fc.Arbitrary<Fixture> = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...GENERATED_KINDS), fc.integer({ min: 1, max: 1e6 })).map(([k, s]) => generatedFixture(k, s)) },
  // Load generators' and system tools' text outputs (tool-generators.ts).
  { weight: 2, arbitrary: toolFixtureArb },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 1e6 }).map((i) => {
      const real = realSamples();
      return real.length > 0 ? real[i % real.length]! : generatedFixture("hlog", i);
    }),
  },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...STRUCTURED_KINDS), fc.integer({ min: 1, max: 1e6 })).map(([k, s]) => structuredFixture(k, s)) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 1e6 }).map((i) => {
      const real = producerOutputs();
      return real.length > 0 ? real[i % real.length]! : structuredFixture("fio-lat", i);
    }),
  },
);

// ---------------------------------------------------------------------------------------------
// Names

export const NAMES = ["x.hlog", "x.hgrm", "x.txt", "x.csv", "x.tsv", "x.dat", "x.jtl", "simulation.log", "x.json", "x.log", "x", "x.histogram", "x.png", "x.zip"];
export const nameArb = fc.constantFrom(...NAMES);

// ---------------------------------------------------------------------------------------------
// Hostile numbers and lines

export const HOSTILE_NUMBERS = [
  "NaN",
  "nan",
  "Infinity",
  "-Infinity",
  "inf",
  "-1",
  "-0",
  "0",
  "1e308",
  "1e309",
  "1e999",
  "-1e999",
  "4.9e-324",
  "9007199254740993",
  "99999999999999999999999999",
  "0x1F",
  "1_000",
  "1,5",
  ".",
  "-",
  "+",
  "e",
  "",
  " ",
  "1e",
  "1.2.3",
  "١٢٣",
  "３",
];

const hostileNumberArb = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.double().map(String),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
);

export const HOSTILE_LINES = [
  "#[StartTime: .]",
  "#[StartTime: 1e999]",
  "#[StartTime: -1e999]",
  "#[StartTime: NaN]",
  "#[BaseTime: -]",
  "#[BaseTime: 99999999999999999999]",
  "#[StartTime: -5]",
  "#[Histogram log format version 99]",
  '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"',
  "Tag=",
  "Tag=,",
  "Tag=a",
  "0,1,2,HIST",
  "0,1,2,HISTAAAA",
  "0,1,2,DHISTAAAA",
  "0,1,2,HISTFAAAACh42pNpmSzMwMBgwQABzFCaEUzOmNZg/wEiIgIBACjBBAg=",
  "-1,-1,-1,HISTFAAAACh42pNpmSzMwMBgwQABzFCaEUzOmNZg/wEiIgIBACjBBAg=",
  "1e300,1e300,1e300,HISTFAAAACh42pNpmSzMwMBgwQABzFCaEUzOmNZg/wEiIgIBACjBBAg=",
  "       Value     Percentile TotalCount 1/(1-Percentile)",
  '"Value","Percentile","TotalCount","1/(1-Percentile)"',
  "#[Mean    =        NaN, StdDeviation   =       Infinity]",
  "#[Max     =      -1, Total count    =        -5]",
  "#[Buckets =           21, SubBuckets     =          256]",
  "      1.000 0.500000000000          5           2.00",
  "      -1.000 0.500000000000          -5           2.00",
  "      1e400 2 99999999999999999999 inf",
  "Detailed Percentile spectrum:",
  "Running 30s test @ http://localhost:8080",
  "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success",
  "1700000000000,-5,x,200,OK,t,text,true",
  "1700000000000,NaN,x,200,OK,t,text,maybe",
  '<httpSample t="-1" ts="99999999999999999999" s="true" lb="x"/>',
  '<sample t="5" ts="1700000000000" s="true" lb="&#0;&#x110000;&amp;"/>',
  '<testResults version="1.2">',
  "RUN\tsim\tsim\t0\t \t3.9.5",
  "REQUEST\t\treq\t1700000000000\t1699999999999\tOK\t ",
  "REQUEST\t\treq\t9999999999999999\t0\tOK\t ",
  "REQUEST\t1\t\treq\t1\t2\tOK\t ",
  "1\tscen\tREQUEST\tx",
  "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata",
  "http_req_duration,NaN,-1,,,,true,,GET,n,,,,200,,,,,",
  '{"metric":"http_req_duration","type":"Point","data":{"time":"2017-05-09T14:34:45.239531499+02:00","value":-1,"tags":{}}}',
  '{"metric":"http_req_duration","type":"Point","data":{"time":"9999-99-99T99:99:99Z","value":1e308,"tags":null}}',
  '{"metric":"http_req_duration","type":"Point","data":null}',
  '{"attack":"","seq":0,"code":200,"timestamp":"2026-01-01T00:00:00Z","latency":-5,"bytes_out":0,"bytes_in":0,"error":""}',
  '{"attack":"","seq":0,"code":1e400,"timestamp":"1969-12-31T23:59:59Z","latency":1e300,"bytes_out":0,"bytes_in":0,"error":""}',
  "1700000000000000000,200,-5,0,0,,,,",
  "99999999999999999999,200,5,0,0,,,,",
  "0000000000000000,200,5,0,0,,,,",
  '"unterminated,quoted',
  '"',
  '""""',
  "\u0000\u0000\u0000\u0000",
  "\ufeff",
  "\ufffd\ufffd",
  "\u2028\u2029",
  "a\u0085b",
];

/** A text line made of format-relevant tokens, hostile numbers and random strings. */
export const tokenLineArb: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          "HIST",
          "Tag=",
          "#[",
          "StartTime:",
          "BaseTime:",
          "Value",
          "Percentile",
          "TotalCount",
          "1/(1-Percentile)",
          "REQUEST",
          "RUN",
          "OK",
          "KO",
          "{",
          "}",
          '"',
          "<httpSample",
          "/>",
          "http_req_duration",
          "true",
          "false",
          "=",
          "]",
        ),
      },
      { weight: 3, arbitrary: fc.constantFrom(",", "\t", " ", ";", ":", "  ") },
      { weight: 4, arbitrary: hostileNumberArb },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(""));

export const LINE_ENDS = ["\n", "\r\n", "\r"];

/** A whole file of token lines and hostile lines, with mixed line ends. */
export const tokenSoupArb: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: tokenLineArb }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_LINES) }), fc.constantFrom(...LINE_ENDS)), { maxLength: 60 })
  .map((ls) => ls.map(([l, e]) => l + e).join(""));

// ---------------------------------------------------------------------------------------------
// Bytes as the app would decode them

const utf8 = new TextDecoder("utf-8");

/** Bytes decoded as the app's file reader does (UTF-8, replacement characters, BOM stripped). */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

export function utf16Garbage(text: string, bigEndian: boolean): string {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = bigEndian ? 0xfe : 0xff;
  out[1] = bigEndian ? 0xff : 0xfe;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[2 + 2 * i] = bigEndian ? c >> 8 : c & 0xff;
    out[3 + 2 * i] = bigEndian ? c & 0xff : c >> 8;
  }
  return decodeUtf8(out);
}

const MAGIC: Record<string, number[]> = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52],
  zip: [0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0],
  gzip: [0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03],
  pdf: [0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a],
  gatling13: [0, 0, 0, 0, 0, 0, 0, 6, 0x33, 0x2e, 0x31, 0x33, 0x2e, 0x31],
};

/** A binary file as text: a known magic number, then random bytes (or deflated text, as in a zip). */
export const binaryFileArb: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...Object.keys(MAGIC)), fc.uint8Array({ maxLength: 3000 }), fc.boolean())
  .map(([kind, rest, deflated]) => {
    const body = deflated ? new Uint8Array(deflateSync(rest.length ? rest : new Uint8Array([1, 2, 3]))) : rest;
    const b = new Uint8Array(MAGIC[kind]!.length + body.length);
    b.set(MAGIC[kind]!);
    b.set(body, MAGIC[kind]!.length);
    return decodeUtf8(b);
  });

// ---------------------------------------------------------------------------------------------
// Mutations of valid text

export type Mutation =
  | { op: "flip"; at: number; char: string }
  | { op: "truncate"; at: number }
  | { op: "delete-range"; at: number; len: number }
  | { op: "shuffle"; seed: number }
  | { op: "reverse" }
  | { op: "duplicate"; at: number; times: number }
  | { op: "insert-line"; at: number; line: string }
  | { op: "number"; k: number; value: string }
  | { op: "crlf" }
  | { op: "cr" }
  | { op: "bom" }
  | { op: "utf16"; bigEndian: boolean }
  | { op: "payload"; k: number; how: "truncate" | "flip" | "garbage"; at: number; char: string };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    op: fc.constant("flip" as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    char: fc.oneof(fc.string({ minLength: 1, maxLength: 1 }), fc.constantFrom("\n", "\r", ",", "\t", " ", '"', "\u0000", "#", "-", ".", "e", "\ufffd")),
  }),
  fc.record({ op: fc.constant("truncate" as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ op: fc.constant("delete-range" as const), at: fc.double({ min: 0, max: 1, noNaN: true }), len: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ op: fc.constant("shuffle" as const), seed: fc.integer() }),
  fc.constant({ op: "reverse" as const }),
  fc.record({ op: fc.constant("duplicate" as const), at: fc.double({ min: 0, max: 1, noNaN: true }), times: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ op: fc.constant("insert-line" as const), at: fc.double({ min: 0, max: 1, noNaN: true }), line: fc.oneof(fc.constantFrom(...HOSTILE_LINES), tokenLineArb) }),
  fc.record({ op: fc.constant("number" as const), k: fc.nat(), value: hostileNumberArb }),
  fc.constant({ op: "crlf" as const }),
  fc.constant({ op: "cr" as const }),
  fc.constant({ op: "bom" as const }),
  fc.record({ op: fc.constant("utf16" as const), bigEndian: fc.boolean() }),
  fc.record({
    op: fc.constant("payload" as const),
    k: fc.nat(),
    how: fc.constantFrom("truncate" as const, "flip" as const, "garbage" as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    char: fc.constantFrom("A", "/", "+", "=", "!", " ", "\u00e9"),
  }),
);

function splitKeepingEnds(text: string): string[] {
  return text.split(/(?<=\r\n|\n|\r(?!\n))/);
}

export function applyMutation(text: string, m: Mutation): string {
  const pos = (f: number) => Math.min(text.length, Math.floor(f * text.length));
  switch (m.op) {
    case "flip": {
      const i = pos(m.at);
      return text.slice(0, i) + m.char + text.slice(i + 1);
    }
    case "truncate":
      return text.slice(0, pos(m.at));
    case "delete-range": {
      const i = pos(m.at);
      return text.slice(0, i) + text.slice(i + m.len);
    }
    case "shuffle": {
      const lines = splitKeepingEnds(text);
      const rnd = mulberry32(m.seed);
      for (let i = lines.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      }
      return lines.join("");
    }
    case "reverse":
      return splitKeepingEnds(text).reverse().join("");
    case "duplicate": {
      const lines = splitKeepingEnds(text);
      if (lines.length === 0) return text;
      const i = Math.min(lines.length - 1, Math.floor(m.at * lines.length));
      const line = lines[i]!.endsWith("\n") || lines[i]!.endsWith("\r") ? lines[i]! : lines[i]! + "\n";
      lines.splice(i, 0, ...new Array<string>(m.times).fill(line));
      return lines.join("");
    }
    case "insert-line": {
      const lines = splitKeepingEnds(text);
      const i = Math.min(lines.length, Math.floor(m.at * (lines.length + 1)));
      lines.splice(i, 0, m.line + "\n");
      return lines.join("");
    }
    case "number": {
      const re = /-?\d+(\.\d+)?([eE][-+]?\d+)?/g;
      const hits: [number, number][] = [];
      let x: RegExpExecArray | null;
      while ((x = re.exec(text)) && hits.length < 5000) hits.push([x.index, x[0].length]);
      if (hits.length === 0) return text;
      const [at, len] = hits[m.k % hits.length]!;
      return text.slice(0, at) + m.value + text.slice(at + len);
    }
    case "crlf":
      return text.replace(/\r?\n/g, "\r\n");
    case "cr":
      return text.replace(/\r?\n/g, "\r");
    case "bom":
      return "\ufeff" + text;
    case "utf16":
      return utf16Garbage(text, m.bigEndian);
    case "payload": {
      const re = /HIST[A-Za-z0-9+/=]+/g;
      const hits: [number, number][] = [];
      let x: RegExpExecArray | null;
      while ((x = re.exec(text)) && hits.length < 5000) hits.push([x.index, x[0].length]);
      if (hits.length === 0) return text;
      const [at, len] = hits[m.k % hits.length]!;
      const cut = at + 4 + Math.floor(m.at * (len - 4));
      if (m.how === "truncate") return text.slice(0, cut) + text.slice(at + len);
      if (m.how === "flip") return text.slice(0, cut) + m.char + text.slice(cut + 1);
      return text.slice(0, at) + "HIST" + m.char.repeat(1 + (cut % 40)) + text.slice(at + len);
    }
  }
}

export interface MutatedCase {
  name: string;
  text: string;
  origin: string;
  mutations: Mutation[];
}

/** A valid file, perhaps renamed, with 0..4 mutations applied. */
export const mutatedFileArb: fc.Arbitrary<MutatedCase> = fc
  .tuple(fixtureArb, fc.array(mutationArb, { maxLength: 4 }), fc.option(nameArb, { freq: 6 }))
  .map(([f, mutations, rename]) => {
    let text = f.text;
    for (const m of mutations) text = applyMutation(text, m);
    return { name: rename ?? f.name, text, origin: `${f.kind}:${f.name}`, mutations };
  });

/** Chunk cut points (fractions of the text length), sorted by chunkAt. */
export const cutsArb = fc.oneof(
  fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }),
  fc.integer({ min: 1, max: 64 }).map((n) => Array.from({ length: n }, (_, i) => (i + 1) / (n + 1))),
);

// ---------------------------------------------------------------------------------------------
// Hand-crafted HdrHistogram payloads

export const COOKIES = {
  V0: 0x1c849308,
  V0C: 0x1c849309,
  V1: 0x1c849301,
  V1C: 0x1c849302,
  V2: 0x1c849303,
  V2C: 0x1c849304,
  DHIST: 0x0c72124e,
  DHISTC: 0x0c72124f,
} as const;

class Bytes {
  private parts: number[] = [];
  u8(v: number): void {
    this.parts.push(v & 0xff);
  }
  i32(v: number): void {
    const x = v | 0;
    this.parts.push((x >>> 24) & 0xff, (x >>> 16) & 0xff, (x >>> 8) & 0xff, x & 0xff);
  }
  i64(v: bigint): void {
    const x = BigInt.asUintN(64, v);
    for (let s = 56n; s >= 0n; s -= 8n) this.parts.push(Number((x >> s) & 0xffn));
  }
  f64(v: number): void {
    const b = new DataView(new ArrayBuffer(8));
    b.setFloat64(0, v);
    for (let i = 0; i < 8; i++) this.parts.push(b.getUint8(i));
  }
  bytes(b: ArrayLike<number>): void {
    for (let i = 0; i < b.length; i++) this.parts.push(b[i]! & 0xff);
  }
  get length(): number {
    return this.parts.length;
  }
  result(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

/** Java ZigZagEncoding.putLong of a signed 64-bit value. */
export function zigzag(value: bigint): number[] {
  const out: number[] = [];
  let zz = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
  for (let k = 0; k < 8; k++) {
    if (zz >> 7n === 0n) {
      out.push(Number(zz));
      return out;
    }
    out.push(Number(zz & 0x7fn) | 0x80);
    zz >>= 7n;
  }
  out.push(Number(zz & 0xffn));
  return out;
}

export interface CraftedPayload {
  version: 0 | 1 | 2;
  cookie: "right" | "wordsize" | "random" | "dhist" | "nested";
  wordNibble: number;
  randomCookie: number;
  payloadLength: "actual" | "plus" | "minus" | "huge" | "negative" | "random";
  randomLength: number;
  digits: number;
  lowest: bigint;
  highest: bigint;
  ratio: number;
  body: { kind: "zigzag"; values: bigint[] } | { kind: "words"; values: bigint[] } | { kind: "bytes"; bytes: Uint8Array };
  compressed: boolean;
  compressedLength: "actual" | "plus" | "minus" | "negative" | "random";
  truncateBase64: number | null;
  flipBase64: number | null;
}

const bigArb = fc.oneof(
  fc.constantFrom(0n, 1n, 2n, 3n, 1000n, 1n << 31n, (1n << 32n) - 1n, 1n << 53n, (1n << 53n) + 1n, 1n << 62n, (1n << 63n) - 1n, -1n, -(1n << 63n), 3600000000000n),
  fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
  fc.bigInt({ min: 0n, max: 1n << 40n }),
);
const countArb = fc.oneof(
  { weight: 5, arbitrary: fc.bigInt({ min: 0n, max: 1000n }) },
  { weight: 2, arbitrary: fc.bigInt({ min: -1000000n, max: -1n }) },
  { weight: 1, arbitrary: fc.constantFrom(-(1n << 31n), -(1n << 31n) - 1n, (1n << 53n) - 1n, 1n << 53n, (1n << 63n) - 1n, -(1n << 63n)) },
  { weight: 1, arbitrary: bigArb },
);

export const craftedPayloadArb: fc.Arbitrary<CraftedPayload> = fc.record({
  version: fc.constantFrom(0 as const, 1 as const, 2 as const),
  cookie: fc.constantFrom("right" as const, "right" as const, "right" as const, "wordsize" as const, "random" as const, "dhist" as const, "nested" as const),
  wordNibble: fc.integer({ min: 0, max: 15 }),
  randomCookie: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  payloadLength: fc.constantFrom("actual" as const, "actual" as const, "plus" as const, "minus" as const, "huge" as const, "negative" as const, "random" as const),
  randomLength: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  digits: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 5 }) },
    { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) },
    { weight: 1, arbitrary: fc.constantFrom(-1, 6, 7, 63, 64) },
  ),
  lowest: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(1n, 1n, 2n, 1000n) }, { weight: 1, arbitrary: bigArb }),
  highest: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(2n, 3600000000000n, 1n << 62n, (1n << 63n) - 1n) }, { weight: 1, arbitrary: bigArb }),
  ratio: fc.oneof(fc.constant(1), fc.double()),
  body: fc.oneof(
    fc.record({ kind: fc.constant("zigzag" as const), values: fc.array(countArb, { maxLength: 300 }) }),
    fc.record({ kind: fc.constant("words" as const), values: fc.array(countArb, { maxLength: 300 }) }),
    fc.record({ kind: fc.constant("bytes" as const), bytes: fc.uint8Array({ maxLength: 400 }) }),
  ),
  compressed: fc.boolean(),
  compressedLength: fc.constantFrom("actual" as const, "actual" as const, "actual" as const, "plus" as const, "minus" as const, "negative" as const, "random" as const),
  truncateBase64: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { freq: 8 }),
  flipBase64: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { freq: 8 }),
});

function wordBytes(values: bigint[], wordSize: number): number[] {
  const out: number[] = [];
  for (const v of values) {
    const x = BigInt.asUintN(64, v);
    for (let k = wordSize - 1; k >= 0; k--) out.push(Number((x >> BigInt(8 * k)) & 0xffn));
  }
  return out;
}

function bodyBytes(p: CraftedPayload, wordSize: number): number[] {
  if (p.body.kind === "bytes") return Array.from(p.body.bytes);
  if (p.body.kind === "zigzag") return p.body.values.flatMap((v) => zigzag(v));
  return wordBytes(p.body.values, wordSize || 8);
}

export function craftPayloadBytes(p: CraftedPayload): Uint8Array {
  const inner = new Bytes();
  const plain = p.version === 0 ? COOKIES.V0 : p.version === 1 ? COOKIES.V1 : COOKIES.V2;
  const nibble = p.version === 2 ? 1 : [2, 4, 8][p.wordNibble % 3]!;
  const wordSize = p.version === 2 ? 0 : p.cookie === "wordsize" ? p.wordNibble & 0xe : nibble;
  let cookie: number;
  if (p.cookie === "random") cookie = p.randomCookie;
  else if (p.cookie === "dhist") cookie = COOKIES.DHIST;
  else if (p.cookie === "nested") cookie = p.version === 0 ? COOKIES.V0C : p.version === 1 ? COOKIES.V1C : COOKIES.V2C;
  else if (p.cookie === "wordsize") cookie = plain | (p.wordNibble << 4);
  else cookie = plain | (nibble << 4);
  const body = bodyBytes(p, wordSize);
  inner.i32(cookie);
  if (p.version === 0) {
    inner.i32(p.digits);
    inner.i64(p.lowest);
    inner.i64(p.highest);
    inner.i64(BigInt(body.length));
  } else {
    const actual = body.length;
    const len = { actual, plus: actual + 1, minus: actual - 1, huge: 0x7fffffff, negative: -1, random: p.randomLength }[p.payloadLength];
    inner.i32(len);
    inner.i32(0);
    inner.i32(p.digits);
    inner.i64(p.lowest);
    inner.i64(p.highest);
    inner.f64(p.ratio);
  }
  inner.bytes(body);
  const plainBytes = inner.result();
  if (!p.compressed) return plainBytes;
  const deflated = new Uint8Array(deflateSync(plainBytes));
  const outer = new Bytes();
  const outerCookie = p.cookie === "dhist" ? COOKIES.DHISTC : p.version === 0 ? COOKIES.V0C | (nibble << 4) : p.version === 1 ? COOKIES.V1C | (nibble << 4) : COOKIES.V2C | 0x10;
  outer.i32(outerCookie);
  const actual = deflated.length;
  outer.i32({ actual, plus: actual + 1, minus: actual - 1, negative: -1, random: p.randomLength }[p.compressedLength]);
  outer.bytes(deflated);
  return outer.result();
}

export function craftPayload(p: CraftedPayload): string {
  const b = craftPayloadBytes(p);
  let s = Buffer.from(b).toString("base64");
  if (p.truncateBase64 !== null) s = s.slice(0, Math.floor(p.truncateBase64 * s.length));
  if (p.flipBase64 !== null && s.length > 0) {
    const i = Math.floor(p.flipBase64 * (s.length - 1));
    s = s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
  }
  return s;
}

// Deflate bombs: a valid header, then far more zeros than it declares (or declaring all of
// them). Built once per process: deflating 256 MiB of zeros takes a moment.
const bombCache = new Map<string, string>();

/**
 * A compressed payload whose zlib stream inflates to about `inflatedMiB` MiB: a V2 (or V0)
 * header declaring `declared` payload bytes, then zeros.
 */
export function deflateBomb(version: 0 | 2, inflatedMiB: number, declared: number, digits = 3, highest = 3600000000000n): string {
  const key = `${version}/${inflatedMiB}/${declared}/${digits}/${highest}`;
  const hit = bombCache.get(key);
  if (hit) return hit;
  const header = new Bytes();
  if (version === 2) {
    header.i32(COOKIES.V2 | 0x10);
    header.i32(declared);
    header.i32(0);
    header.i32(digits);
    header.i64(1n);
    header.i64(highest);
    header.f64(1);
  } else {
    header.i32(COOKIES.V0 | 0x80);
    header.i32(digits);
    header.i64(1n);
    header.i64(highest);
    header.i64(0n);
  }
  const h = header.result();
  const total = Math.floor(inflatedMiB * 1024 * 1024);
  const plain = new Uint8Array(total);
  plain.set(h);
  const deflated = new Uint8Array(deflateSync(plain, { level: 9 }));
  const outer = new Bytes();
  outer.i32(version === 2 ? COOKIES.V2C | 0x10 : COOKIES.V0C | 0x80);
  outer.i32(deflated.length);
  outer.bytes(deflated);
  const s = Buffer.from(outer.result()).toString("base64");
  bombCache.set(key, s);
  return s;
}

/**
 * A compressed V2 payload (what HdrHistogram Java 2.1.7+ writes) from sparse (index, count)
 * entries, with zero runs encoded as negative values: any layout, even a 6-million-slot one,
 * in a few bytes.
 */
export function sparseV2Payload(digits: number, lowest: number, highest: number, entries: readonly [number, number][]): string {
  const sorted = [...new Map(entries.filter(([, c]) => c > 0)).entries()].sort((a, b) => a[0] - b[0]);
  const body: number[] = [];
  let next = 0;
  for (const [index, count] of sorted) {
    const gap = index - next;
    if (gap === 1) body.push(...zigzag(0n));
    else if (gap > 1) body.push(...zigzag(BigInt(-gap)));
    body.push(...zigzag(BigInt(count)));
    next = index + 1;
  }
  const inner = new Bytes();
  inner.i32(COOKIES.V2 | 0x10);
  inner.i32(body.length);
  inner.i32(0);
  inner.i32(digits);
  inner.i64(BigInt(lowest));
  inner.i64(BigInt(highest));
  inner.f64(1);
  inner.bytes(body);
  const deflated = new Uint8Array(deflateSync(inner.result()));
  const outer = new Bytes();
  outer.i32(COOKIES.V2C | 0x10);
  outer.i32(deflated.length);
  outer.bytes(deflated);
  return Buffer.from(outer.result()).toString("base64");
}
