import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ingest } from "../engine/ingest";
import { gatlingLog, generateSamples, jmeterCsv, jmeterXml, k6Csv, k6Json, plainValues, samplesTable, vegetaCsv, vegetaJson } from "../../tests/support/loadgen-fixtures";
import { FORMATS, READABLE_FORMATS, READERS, UTF16_REASON, isHdrHistogramText, looksLikeUtf16, pickFormat, pickReader, unreadableReason } from "./detect";
import { budgetMs } from "../../tests/support/budget";
import { build } from "hdr-histogram-js";
import { hlogFixture } from "../../tests/fuzz/generators";
import { formatPercentileDistribution } from "../core/hgrm-export";

const samples = generateSamples({ seed: 3, seconds: 2, rate: 100, labels: ["a", "b"], medianMs: 5, sigma: 0.5, failureRate: 0.1 });
/** What the engine hands pickReader: the first 4 KB or so. */
const head = (text: string) => text.slice(0, 4096);

describe("pickFormat: one registry for every format", () => {
  const hlogText = "#[StartTime: 1767323045.250 (seconds since epoch)]\n0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMCgyAABTFCaEUzMByQeJjS\n";
  const wrk2Text = "  Detailed Percentile spectrum:\n       Value   Percentile   TotalCount 1/(1-Percentile)\n\n       0.031     0.000000            1         1.00\n";

  it("lists HdrHistogram's formats first, then the line readers in their order", () => {
    expect(FORMATS.map((f) => f.id)).toEqual(["percentiles", "hlog", ...READERS.map((r) => r.id)]);
  });

  it.each([
    ["run.hlog", "anything", "hlog"],
    ["run.hgrm", "anything", "percentiles"],
    ["x.txt", hlogText, "hlog"],
    ["x.txt", wrk2Text, "percentiles"],
    // A wrk2 report under a name detectHlog takes (.histogram) is still a percentile file.
    ["x.histogram", wrk2Text, "percentiles"],
    // HdrHistogram text is never claimed by a load generator's name match.
    ["results.jtl", hlogText, "hlog"],
    ["simulation.log", wrk2Text, "percentiles"],
    ["results.jtl", jmeterCsv(samples), "jmeter"],
    ["latencies.txt", plainValues(samples), "samples"],
  ])("%s → %s (%#)", (name, text, id) => {
    expect(pickFormat(name, head(text))?.id).toBe(id);
  });
});

describe("pickReader", () => {
  it("has the specific readers before generic samples", () => {
    const ids = READERS.map((r) => r.id);
    expect(ids.slice(0, 8)).toEqual(["statistics", "jmeter", "gatling", "k6", "vegeta", "ghz", "fortio", "siege"]);
    expect(ids[ids.length - 1]).toBe("samples");
    // benchmarks, storage and telemetry (their own marks), then load generators' and system tools' text outputs
    expect(ids.slice(8, 14)).toEqual(["fio-json", "fio-hist", "fio-lat", "otlp", "prometheus-api", "jmh"]);
    expect(ids).toEqual(expect.arrayContaining(["hey", "h2load", "pgbench", "redis-benchmark", "sysbench", "cyclictest", "sockperf", "ping", "ioping", "hyperfine"]));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each([
    ["results.jtl", jmeterCsv(samples), "jmeter"],
    ["results.csv", jmeterCsv(samples), "jmeter"],
    ["results.xml", jmeterXml(samples), "jmeter"],
    ["results.jtl", jmeterXml(samples), "jmeter"],
    ["simulation.log", gatlingLog(samples), "gatling"],
    ["sim-3.3.log", gatlingLog(samples, { layout: "3.0" }), "gatling"],
    ["simulation.log", "\u0000\u0000\u0000\u0000\u00063.13.1\u0000binary", "gatling"],
    ["k6.json", k6Json(samples), "k6"],
    ["k6.csv", k6Csv(samples), "k6"],
    ["results.csv", vegetaCsv(samples), "vegeta"],
    ["results.json", vegetaJson(samples), "vegeta"],
    ["latencies.txt", plainValues(samples), "samples"],
    ["latencies", plainValues(samples, { header: "latency_ms" }), "samples"],
    ["table.csv", samplesTable(samples), "samples"],
    ["table.tsv", samplesTable(samples, { delimiter: "\t" }), "samples"],
  ])("%s → %s (%#)", (name, text, id) => {
    expect(pickReader(name, head(text))?.id).toBe(id);
  });

  it("leaves unknown text alone", () => {
    expect(pickReader("notes.txt", "Dear diary,\ntoday I ran a load test.\n")).toBeNull();
    expect(pickReader("x.bin", "\u0001\u0002\u0003")).toBeNull();
  });

  const shared = path.resolve(__dirname, "../../../shared/samples");
  describe.skipIf(!existsSync(shared))("never claims HdrHistogram's own formats", () => {
    const files = existsSync(shared)
      ? ["hdrhistogram", "hgrm"].flatMap((d) =>
          readdirSync(path.join(shared, d))
            .filter((f) => !f.endsWith(".dat"))
            .map((f) => path.join(d, f)),
        )
      : [];
    it.each(files)("%s", (f) => {
      const text = readFileSync(path.join(shared, f), "utf8");
      expect(pickReader(path.basename(f), head(text))).toBeNull();
      // nor under a neutral name
      expect(pickReader("upload.txt", head(text))).toBeNull();
    });
  });

  it("finds an indented #[ header after many blank lines in linear time", () => {
    const blanks = "\n".repeat(100_000);
    const t0 = performance.now();
    expect(pickReader("x.txt", blanks + " \t#[StartTime: 1 (seconds since epoch)]\n")).toBeNull();
    expect(pickReader("x.txt", blanks + "1\n2\n")?.id).toBe("samples");
    // (quadratic: ~0.8 s per 20 000 blank lines, growing with the square)
    expect(performance.now() - t0).toBeLessThan(budgetMs(300));
    // `#[` must start its line (after indentation): not in the middle of one
    expect(isHdrHistogramText("x.txt", "a #[b]\nc\n")).toBe(false);
    expect(isHdrHistogramText("x.txt", "a\n\u00a0\t#[b]\n")).toBe(true);
  });

  it("never claims HdrHistogram headers, payloads or percentile tables", () => {
    expect(pickReader("x.txt", "#[StartTime: 1767323045.250 (seconds since epoch)]\n0.1,1.0,2.0,HISTFAAAAB54nJNpmSzMwMDAxQABzFCaEUzMB\n")).toBeNull();
    expect(pickReader("x.txt", "0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMCgyAABTFCaEUzMByQeJjS\n")).toBeNull();
    expect(pickReader("x.txt", "       Value   Percentile   TotalCount 1/(1-Percentile)\n\n       0.031     0.000000            1         1.00\n")).toBeNull();
    expect(pickReader("x.txt", "  Detailed Percentile spectrum:\n       Value   Percentile   TotalCount 1/(1-Percentile)\n")).toBeNull();
    expect(pickReader("x.csv", '"Value","Percentile","TotalCount","1/(1-Percentile)"\n0.031,0.000000,1,1.00\n')).toBeNull();
  });
});

/** `text` written as UTF-16 (Node's encoder), with or without a byte-order mark, then decoded as UTF-8 as the app decodes every file. */
function asUtf16ReadAsUtf8(text: string, bigEndian: boolean, bom: boolean): string {
  const body = Buffer.from(text, "utf16le");
  if (bigEndian) body.swap16();
  const mark = bom ? Buffer.from(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]) : Buffer.alloc(0);
  return new TextDecoder("utf-8").decode(Buffer.concat([mark, body]));
}

const HLOG_TEXT =
  '#[StartTime: 1767323045.250 (seconds since epoch)]\n"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\n0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMCgyAABTFCaEUzMByQeJjS\n';
const HGRM_TEXT =
  "       Value     Percentile TotalCount 1/(1-Percentile)\n\n       0.031 0.000000000000          1           1.00\n#[Mean    =        0.031, StdDeviation   =        0.000]\n";
/** A text of each kind, and the name it is ingested under (null: not ingested). */
const TEXTS: [kind: string, text: string, fileName: string | null][] = [
  ["hlog", HLOG_TEXT, "x.hlog"],
  ["hgrm", HGRM_TEXT, "x.hgrm"],
  ["jmeter csv", jmeterCsv(samples), "x.jtl"],
  ["jmeter xml", jmeterXml(samples), null],
  ["gatling", gatlingLog(samples), "simulation.log"],
  ["k6 json", k6Json(samples), null],
  ["k6 csv", k6Csv(samples), "k6.csv"],
  ["vegeta csv", vegetaCsv(samples), "upload"],
  ["plain values", plainValues(samples), "v.txt"],
  ["labels not in ASCII", "label,latency_ms\nbüro,1.5\n日本,2.5\nçé,3\n", null],
];

describe("UTF-16 sniff", () => {
  it.each(TEXTS)("recognises %s written as UTF-16 (LE, BE; with and without BOM)", (_, text) => {
    for (const bigEndian of [false, true]) {
      for (const bom of [true, false]) expect({ bigEndian, bom, utf16: looksLikeUtf16(head(asUtf16ReadAsUtf8(text, bigEndian, bom))) }).toEqual({ bigEndian, bom, utf16: true });
    }
    expect(looksLikeUtf16(head(text))).toBe(false);
  });

  it("does not take binary files or NUL padding for UTF-16", () => {
    const bytes = (b: number[] | Uint8Array) => new TextDecoder("utf-8").decode(Uint8Array.from(b));
    const gatling313 = [0, 0, 0, 0, 0, 0, 0, 6, 0x33, 0x2e, 0x31, 0x33, 0x2e, 0x31];
    expect(looksLikeUtf16(bytes([...gatling313, ...Array.from({ length: 200 }, (_, i) => (i * 37) & 0xff)]))).toBe(false);
    expect(looksLikeUtf16(bytes(gzipSync(Buffer.from(HLOG_TEXT.repeat(20)))))).toBe(false);
    expect(looksLikeUtf16(HGRM_TEXT + "\0".repeat(2000))).toBe(false);
    // small binary integers, 16 bits each: NULs alternate, but the other bytes are control characters
    expect(looksLikeUtf16(bytes(Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? 1 + (i % 30) : 0))))).toBe(false);
    expect(looksLikeUtf16("\uFFFD\uFFFD")).toBe(false);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 2000 }), (b) => {
        expect(looksLikeUtf16(bytes(b))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("says why an unreadable file is refused, listing the formats the app reads", () => {
    expect(unreadableReason(asUtf16ReadAsUtf8("1\n2\n", false, true))).toBe(UTF16_REASON);
    expect(unreadableReason("Dear diary,\n")).toBe(`not a recognised format: expected ${READABLE_FORMATS}`);
    expect(unreadableReason("\u0001\u0002PK")).toMatch(/^this looks like a binary file, not a latency log: expected /);
    for (const f of ["(.hlog)", "(.hgrm)", "wrk2", "plain values", "CSV/TSV", "JMeter", "Gatling simulation.log", "k6", "Vegeta", "hey -o csv", "pgbench --log", "hyperfine"])
      expect(READABLE_FORMATS).toContain(f);
  });
});

describe("ingest of UTF-16 files", () => {
  it.each(TEXTS.flatMap(([, text, name]) => (name === null ? [] : [[name, text]])))("%s: one problem saying UTF-16, whatever the chunks", async (name, text) => {
    for (const bigEndian of [false, true]) {
      for (const bom of [true, false]) {
        const u = asUtf16ReadAsUtf8(text, bigEndian, bom);
        for (const chunks of [[u], u.match(/[^]{1,700}/g)!]) {
          const r = await ingest(name, chunks);
          expect({ bigEndian, bom, r: { series: r.series.length, problems: r.problems } }).toEqual({
            bigEndian,
            bom,
            r: { series: 0, problems: [{ file: name, line: null, reason: UTF16_REASON }] },
          });
        }
      }
    }
  });

  it("the same files as UTF-8 still load", async () => {
    const r = await ingest("k6.csv", [k6Csv(samples)]);
    expect(r.series.length).toBeGreaterThan(0);
  });
});

// memtier_benchmark --hdr-file-prefix=P writes P_FULL_RUN_1.hgrm holding an HdrHistogram interval
// log (HdrHistogram_c's hdr_log_write) and P_FULL_RUN_1.txt holding a percentile distribution.
describe("HdrHistogram files whose names lie (memtier_benchmark)", () => {
  it("reads an interval log named .hgrm as an interval log, exactly as under its own name", async () => {
    const f = hlogFixture(11);
    expect(pickFormat("memtier_FULL_RUN_1.hgrm", f.text.slice(0, 4096))?.id).toBe("hlog");
    const asHgrm = await ingest("memtier_FULL_RUN_1.hgrm", [f.text]);
    const asHlog = await ingest("memtier_FULL_RUN_1.hlog", [f.text]);
    expect(asHgrm.problems).toEqual([]);
    expect(asHgrm.series.map((s) => s.histogram.totalCount)).toEqual([f.totals!.get("")!]);
    expect(asHgrm.series.map((s) => [s.histogram.totalCount, s.intervals?.n])).toEqual(asHlog.series.map((s) => [s.histogram.totalCount, s.intervals?.n]));
  });

  it("reads a percentile distribution named .txt or .hlog as a percentile distribution", () => {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (let i = 1; i <= 1000; i++) h.recordValue(i * 1000);
    const text = formatPercentileDistribution(h, 1e6);
    expect(pickFormat("memtier_FULL_RUN_1.txt", text)?.id).toBe("percentiles");
    expect(pickFormat("memtier_FULL_RUN_1.hlog", text)?.id).toBe("percentiles");
    expect(pickFormat("memtier_FULL_RUN_1.hgrm", text)?.id).toBe("percentiles");
  });
});
