// Every real sample file (../shared/samples, when present) and one generated file of every
// format, read through the engine's own path (detection, then the reader), summed up in a few
// numbers and compared with a committed golden file (reader-snapshots.golden.json). A change in
// what any reader makes of any file (a series name, a count, a percentile, the number of
// problems) shows here, file by file. The per-format tests hold the readers to independent
// references; this one holds them to what they did before.
//
// UPDATE_GOLDEN=1 npx vitest run src/formats/reader-snapshots.test.ts rewrites the golden file;
// read its diff before committing it.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ingest, headOfChunks } from "../engine/ingest";
import { detectedFormat } from "./detect";
import { maxOf, valueAtPercentile } from "../core/histogram";
import { GENERATED_KINDS, generatedFixture, realSamples, slaDat, type Fixture } from "../../tests/fuzz/generators";
import { abGnuplot, generateSamples, jmeterAggregate, locustStats } from "../../tests/support/loadgen-fixtures";

const GOLDEN = path.join(__dirname, "reader-snapshots.golden.json");
const update = process.env.UPDATE_GOLDEN === "1";
const golden: Record<string, unknown> = existsSync(GOLDEN) ? (JSON.parse(readFileSync(GOLDEN, "utf8")) as Record<string, unknown>) : {};

interface Summary {
  format: string;
  series: { name: string; tag: string; unit: string; count: number; p50: number; p99: number; max: number; intervals: number; failures: number }[];
  problems: number;
}

async function summarise(f: Fixture): Promise<Summary> {
  const r = await ingest(f.name, [f.text]);
  return {
    format: detectedFormat(f.name, headOfChunks([f.text])),
    series: r.series.map((s) => ({
      name: s.name,
      tag: s.tag,
      unit: s.recordedUnit,
      count: s.histogram.totalCount,
      p50: valueAtPercentile(s.histogram, 50),
      p99: valueAtPercentile(s.histogram, 99),
      max: maxOf(s.histogram),
      intervals: s.intervals?.n ?? 0,
      failures: s.failures,
    })),
    problems: r.problems.length,
  };
}

const loadgen = generateSamples({ seed: 5, seconds: 2, rate: 40, labels: ["home", "login"], medianMs: 8, sigma: 0.6, failureRate: 0.05 });
const generated: Fixture[] = [
  ...GENERATED_KINDS.map((k) => generatedFixture(k, 7)),
  // Other tools' outputs: ab's gnuplot file (read as samples), Locust's and JMeter's summaries (refused).
  { kind: "ab", name: "ab.tsv", text: abGnuplot(loadgen) },
  { kind: "locust", name: "run_stats.csv", text: locustStats(loadgen) },
  { kind: "jmeter-aggregate", name: "aggregate.csv", text: jmeterAggregate(loadgen) },
];
const sla = slaDat();
const real: Fixture[] = [...realSamples(), ...(sla !== null ? [{ kind: "real:hgrm", name: "SLA_msec.dat", text: sla }] : [])];

const seen: Record<string, Summary> = {};

describe("what each reader makes of each file", () => {
  it.each(real.map((f) => [`${f.kind}/${f.name}`, f] as const))("%s", async (key, f) => {
    const s = await summarise(f);
    seen[key] = s;
    if (!update) expect(s, `${key} differs from reader-snapshots.golden.json`).toEqual(golden[key]);
  });

  it.each(generated.map((f) => [`generated:${f.kind}/${f.name}`, f] as const))("%s", async (key, f) => {
    const s = await summarise(f);
    seen[key] = s;
    if (!update) expect(s, `${key} differs from reader-snapshots.golden.json`).toEqual(golden[key]);
  });

  it("covers every file the golden file names (none lost from the list)", () => {
    if (update || real.length === 0) return; // rewriting, or samples absent: nothing to hold the list to
    expect(Object.keys(golden).sort()).toEqual([...real, ...generated].map((f) => (f.kind.startsWith("real:") ? `${f.kind}/${f.name}` : `generated:${f.kind}/${f.name}`)).sort());
  });
});

afterAll(() => {
  if (!update) return;
  const keys = Object.keys(seen).sort();
  // A file per line of series: a change reads as the lines of the files it touches.
  const entry = (k: string) => {
    const s = seen[k]!;
    const series = s.series.map((x) => `      ${JSON.stringify(x)}`).join(",\n");
    return `  ${JSON.stringify(k)}: {\n    "format": ${JSON.stringify(s.format)},\n    "problems": ${s.problems},\n    "series": [${series ? `\n${series}\n    ` : ""}]\n  }`;
  };
  writeFileSync(GOLDEN, `{\n${keys.map(entry).join(",\n")}\n}\n`);
});

describe("series names users see: the file's name without folders and its extension", () => {
  const hlog = generatedFixture("hlog", 3).text;
  const hgrm = generatedFixture("hgrm", 3).text;
  const jtl = generatedFixture("jmeter-csv", 3).text;
  it.each([
    ["logs/2026-11-01/run.v2.hlog", hlog, ["run.v2"]],
    ["C:\\runs\\sysA_40k.response.hlog", hlog, ["sysA_40k.response"]],
    ["noext", hlog, ["noext"]],
    ["C:\\runs\\dist.v2.hgrm", hgrm, ["dist.v2"]],
    ["out/results.jtl", jtl, ["results"]],
  ])("%s", async (name, text, expected) => {
    const r = await ingest(name, [text]);
    expect(r.series.map((s) => s.name)).toEqual(expected);
  });
});
