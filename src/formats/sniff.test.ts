import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isIntervalLog } from "../engine/ingest";
import { gatlingBinaryOfSamples } from "../../tests/support/gatling-binary-writer";
import { gatlingLog, generateSamples, jmeterCsv, k6Json, plainValues, samplesTable, vegetaCsv } from "../../tests/support/loadgen-fixtures";
import { hlogFixture } from "../../tests/fuzz/generators";
import { BYTES_SNIFF_LENGTH, pickBytesReader, pickFormat } from "./detect";
import { detectionHead, HDR_FORMATS, isHdrHistogramText, mayBeBinary } from "./sniff";

const samples = generateSamples({ seed: 5, seconds: 2, rate: 50, labels: ["a"], medianMs: 4, sigma: 0.6, failureRate: 0 });
const wrk2 = "  Detailed Percentile spectrum:\n       Value   Percentile   TotalCount 1/(1-Percentile)\n\n       0.031     0.000000            1         1.00\n";
const texts = [
  hlogFixture(1).text,
  wrk2,
  jmeterCsv(samples),
  gatlingLog(samples),
  k6Json(samples),
  vegetaCsv(samples),
  plainValues(samples),
  samplesTable(samples),
  "#[Mean = 1.0, StDev = 0.1]\n",
  "Value Percentile TotalCount\n1.0 0.5 10\n",
  "not a log at all\n",
];
const names = ["run.hlog", "run.hgrm", "x.histogram", "results.jtl", "simulation.log", "out.csv", "x.txt", "data"];

describe("sniff: HdrHistogram's text told without the registry of readers", () => {
  it("leaves only HdrHistogram text to HdrHistogram's formats, and tells an interval log as the registry does", () => {
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.constantFrom(...texts), fc.nat(), fc.string({ maxLength: 40 }), (name, text, cut, noise) => {
        const head = detectionHead((noise + text).slice(0, 200 + (cut % 4000)));
        const picked = pickFormat(name, head);
        // Other text never goes to an HdrHistogram format: the loader may leave it to the registry.
        if (!isHdrHistogramText(name, head)) expect(HDR_FORMATS).not.toContain(picked);
        // So the loader tells an interval log without the readers, as the registry would.
        expect(isIntervalLog(name, head)).toBe(picked?.id === "hlog");
      }),
      { numRuns: 400 },
    );
  });

  it("lets a binary format's first bytes through to the registry, and never text", () => {
    const bytes = gatlingBinaryOfSamples(samples).bytes.subarray(0, BYTES_SNIFF_LENGTH);
    expect(mayBeBinary(bytes)).toBe(true);
    expect(pickBytesReader("simulation.log", bytes)?.id).toBe("gatling");
    const utf8 = new TextEncoder();
    for (const t of texts) expect(mayBeBinary(utf8.encode(t).subarray(0, BYTES_SNIFF_LENGTH))).toBe(false);
    // Tabs and line ends are text; a NUL or an escape is not.
    expect(mayBeBinary(Uint8Array.of(0x41, 0x09, 0x0d, 0x0a, 0x42))).toBe(false);
    expect(mayBeBinary(Uint8Array.of(0x41, 0x00))).toBe(true);
    expect(mayBeBinary(Uint8Array.of(0x1b, 0x41))).toBe(true);
  });
});
