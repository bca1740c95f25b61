import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bucketsOf, highestEquivalent, maxOf } from "../core/histogram";
import { gatlingBinaryLog, gatlingBinaryOfSamples, unmatchedEnd, type GatlingBinaryRecord } from "../../tests/support/gatling-binary-writer";
import { byCompletion, factsOfParsed, factsOfSamples, generateSamples, msValue } from "../../tests/support/loadgen-fixtures";
import { main } from "../cli/main";
import { loadFiles } from "../engine/load-files";
import { Store } from "../engine/store";
import { isGatlingBinary, gatlingBinaryReader } from "./gatling-binary";
import { BYTES_SNIFF_LENGTH, pickBytesReader } from "./detect";
import type { Histogram } from "../core/histogram";
import type { ParsedSource } from "./source";
import { gatlingReport } from "../../tests/support/gatling-report";

const FIXTURE = "fixtures/producers/gatling";

function read(bytes: Uint8Array, chunk = bytes.length || 1): ParsedSource {
  const p = gatlingBinaryReader.create("simulation.log");
  for (let i = 0; i < bytes.length; i += chunk) p.push(bytes.slice(i, i + chunk));
  return p.finish();
}

/** The recorded values in order, each as its bucket's highest equivalent value (exact below 2048 ms). */
function valuesOf(h: Histogram): number[] {
  const b = bucketsOf(h);
  const out: number[] = [];
  for (let i = 0; i < b.values.length; i++) for (let k = b.cumulative[i - 1] ?? 0; k < b.cumulative[i]!; k++) out.push(b.values[i]!);
  return out;
}

describe("Gatling binary simulation.log, a real run (Gatling 3.13.5)", () => {
  const have = existsSync(`${FIXTURE}/simulation.log`) && existsSync(`${FIXTURE}/stats.js.txt`);
  it.skipIf(!have)("every request Gatling's report lists, with its OK and KO counts, min and max; its percentiles fall between our neighbouring values", () => {
    const bytes = new Uint8Array(readFileSync(`${FIXTURE}/simulation.log`));
    const p = read(bytes);
    expect(p.problems.filter((x) => !x.note)).toEqual([]);
    const report = gatlingReport();
    expect(new Set(p.series.map((s) => s.tag))).toEqual(new Set(report.keys()));
    expect([...report.keys()]).toContain("checkout / pay"); // a request in a group
    for (const s of p.series) {
      const r = report.get(s.tag)!.stats as Record<string, { ok: string; ko: string }>;
      expect(s.unit).toBe("ms");
      expect(s.histogram.totalCount, s.tag).toBe(Number(r.numberOfRequests!.ok));
      expect(s.failures ?? 0, s.tag).toBe(Number(r.numberOfRequests!.ko));
      if (s.histogram.totalCount === 0) continue;
      const v = valuesOf(s.histogram);
      // at the histogram's resolution (3 digits: 1 ms below 2048 ms, 2 ms to 4096 ms, …)
      const at = (x: number) => highestEquivalent(s.histogram, x);
      expect(v[0], s.tag).toBe(at(Number(r.minResponseTime!.ok)));
      expect(maxOf(s.histogram), s.tag).toBe(at(Number(r.maxResponseTime!.ok)));
      // Gatling's report gives a t-digest's percentiles, interpolated between recorded values:
      // each lies between the values at the ranks around it.
      const n = v.length;
      for (const [key, q] of [
        ["percentiles1", 0.5],
        ["percentiles2", 0.75],
        ["percentiles3", 0.95],
        ["percentiles4", 0.99],
      ] as const) {
        const g = Number(r[key]!.ok);
        const lo = v[Math.max(0, Math.floor(q * n) - 1)]!;
        const hi = v[Math.min(n - 1, Math.ceil(q * n))]!;
        expect(at(g), `${s.tag} ${key}`).toBeGreaterThanOrEqual(lo);
        expect(at(g), `${s.tag} ${key}`).toBeLessThanOrEqual(hi);
      }
    }
    // the whole run, as Gatling's console summary printed it
    const summary = readFileSync(`${FIXTURE}/console-summary.txt`, "utf8");
    const row = (what: string) =>
      /\|\s*([\d,.]+) \|\s*([\d,.]+) \|\s*([\d,.]+)/
        .exec(summary.split("\n").find((l) => l.includes(what))!)!
        .slice(1)
        .map((x) => Number(x.replace(/,/g, "")));
    const [total, ok, ko] = row("request count");
    expect(p.series.reduce((a, s) => a + s.histogram.totalCount, 0)).toBe(ok);
    expect(p.series.reduce((a, s) => a + (s.failures ?? 0), 0)).toBe(ko);
    expect(ok! + ko!).toBe(total);
    const top = p.series.reduce((m, s) => (maxOf(s.histogram) > maxOf(m.histogram) ? s : m));
    expect(maxOf(top.histogram)).toBe(highestEquivalent(top.histogram, row("max response time")[1]!));
    // users as context
    const note = p.problems.find((x) => x.note)!.reason;
    expect(note).toMatch(/^Gatling 3\.13\.5 run of sim\.Tiny \("fixture run"\), started 20\d\d-/);
    expect(note).toContain("66 users started (browse 60, buy 6)");
    expect(note).toContain(`${total} requests, ${ko} KO`);
  });

  it.skipIf(!have)("is read the same in chunks of any size (a record cut anywhere)", () => {
    const bytes = new Uint8Array(readFileSync(`${FIXTURE}/simulation.log`));
    const whole = read(bytes);
    for (const chunk of [1, 2, 3, 5, 64, 1000]) {
      const p = read(bytes, chunk);
      expect(p.problems).toEqual(whole.problems);
      expect(factsOfParsed(p, 0)).toEqual(factsOfParsed(whole, 0));
    }
  });

  it.skipIf(!have)("the page's and the command line's loading path picks it by its bytes, whatever the name", async () => {
    const bytes = readFileSync(`${FIXTURE}/simulation.log`);
    expect(pickBytesReader("run.bin", new Uint8Array(bytes.subarray(0, BYTES_SNIFF_LENGTH)))?.id).toBe("gatling");
    for (const name of ["simulation.log", "gatling-run.bin"]) {
      const store = new Store();
      const [out] = await loadFiles(store, [new File([bytes], name)], () => undefined, undefined, undefined, null);
      expect(out!.problems.filter((x) => !x.note)).toEqual([]);
      const tags = store.series.map((s) => s.tag);
      expect(new Set(tags)).toEqual(new Set(["home page", "search_items", "checkout / cart", "checkout / pay"]));
    }
  });

  it.skipIf(!have)("the command line reads it too: report prints a row per request and the run's note", async () => {
    let stdout = "";
    let stderr = "";
    const code = await main(["report", `${FIXTURE}/simulation.log`], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stderrIsTTY: false });
    expect(code, stderr).toBe(0);
    const counts = Object.fromEntries([...stdout.matchAll(/^\| simulation \\\[(.+?)\\\] \|.* \| (\d+) \|$/gm)].map((m) => [m[1], Number(m[2])]));
    expect(counts).toEqual({ "checkout / cart": 6, "checkout / pay": 0, "home page": 60, search_items: 60 });
    expect(stderr).toContain("Gatling 3.13.5 run of sim.Tiny");
  });
});

describe("Gatling binary simulation.log, written after Gatling's source", () => {
  /** Request names with spaces, as a Gatling simulation names them. */
  const labels = ["Home", "Search", "Add to cart"];
  const samples = generateSamples({ seed: 31, seconds: 12, rate: 200, labels, medianMs: 9, sigma: 0.6, failureRate: 0.05, stalls: [{ at: 5, duration: 1.2 }] });
  const ms = (s: (typeof samples)[number]) => Math.floor(s.startUs / 1000);

  it("every request at end − start ms in its interval, KO counted as failures, groups in the name", () => {
    const { bytes } = gatlingBinaryOfSamples(samples, (l) => (l === "Home" ? [] : ["Shop", "Browse"]));
    const p = read(bytes);
    expect(p.problems.filter((x) => !x.note)).toEqual([]);
    const label = (s: (typeof samples)[number]) => (s.label === "Home" ? "Home" : `Shop / Browse / ${s.label}`);
    const exp = factsOfSamples(byCompletion(samples), msValue, ms, 1000, 1, label);
    expect(factsOfParsed(p, exp.minIndex)).toEqual(exp.facts);
  });

  it("reads UTF-16 names (Java's strings beyond Latin-1), empty strings and cached strings", () => {
    const recs: GatlingBinaryRecord[] = [
      { kind: "request", groups: ["Überweisung", "支付"], name: "zahlen €", start: 10, end: 25, ok: true, message: "" },
      { kind: "request", groups: ["Überweisung", "支付"], name: "zahlen €", start: 30, end: 31, ok: true, message: "" },
      { kind: "request", groups: [], name: "", start: 40, end: 47, ok: true, message: "" },
    ];
    const p = read(gatlingBinaryLog({ start: 1_700_000_000_000, scenarios: ["Käufer"] }, recs));
    expect(p.problems.filter((x) => !x.note)).toEqual([]);
    expect(p.series.map((s) => [s.tag, s.histogram.totalCount, maxOf(s.histogram)])).toEqual([
      ["Überweisung / 支付 / zahlen €", 2, 15],
      ["", 1, 7],
    ]);
    expect(p.series[0]!.startTime).toBe(1_700_000_000.01); // its first request, 10 ms after the run's start
  });

  it("an incoming message no request matched has no response time: said once, not counted", () => {
    const start = 1_733_000_000_123;
    const recs: GatlingBinaryRecord[] = [
      { kind: "request", groups: [], name: "ws", start: 10, end: 20, ok: true, message: "" },
      { kind: "request", groups: [], name: "ws", start: 30, end: unmatchedEnd(start), ok: true, message: "" },
    ];
    const p = read(gatlingBinaryLog({ start }, recs));
    expect(p.series[0]!.histogram.totalCount).toBe(1);
    expect(p.problems.filter((x) => !x.note).map((x) => x.reason)).toEqual(["incoming messages that matched no request have no response time: not counted"]);
  });

  it("a truncated file keeps the records before the cut, and says which record was cut", () => {
    const { bytes } = gatlingBinaryOfSamples(samples.slice(0, 50));
    const whole = read(bytes);
    const cut = read(bytes.slice(0, bytes.length - 30));
    const problems = cut.problems.filter((x) => !x.note);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.reason).toMatch(/^the file ends inside record \d+ \(byte \d+, \d+ bytes\): a truncated log/);
    const count = (p: ParsedSource) => p.series.reduce((a, s) => a + s.histogram.totalCount + (s.failures ?? 0), 0);
    expect(count(cut)).toBeLessThan(count(whole));
    expect(count(cut)).toBeGreaterThan(count(whole) - 3);
  });

  it("damage stops the reading with the record, its byte and the reason; what came before is kept", () => {
    const recs: GatlingBinaryRecord[] = [
      { kind: "request", groups: [], name: "a", start: 10, end: 20, ok: true, message: "" },
      { kind: "request", groups: [], name: "a", start: 30, end: 35, ok: true, message: "" },
    ];
    const good = gatlingBinaryLog({ start: 1_700_000_000_000 }, recs);
    const withJunk = new Uint8Array([...good, 9, 1, 2, 3]);
    const p = read(withJunk);
    expect(p.series[0]!.histogram.totalCount).toBe(2);
    expect(p.problems.filter((x) => !x.note)).toEqual([
      {
        file: "simulation.log",
        line: 4,
        reason: `record 4 (byte ${good.length}): unknown record type 9 (Gatling writes 0 to 4); nothing after it is read (not what Gatling writes: a damaged file?)`,
      },
    ]);
    // a name that refers to a string no record wrote: record type 1, no groups, cache index −7
    const q = read(new Uint8Array([...good, 1, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xf9]));
    expect(q.problems.filter((x) => !x.note).map((x) => x.reason)).toEqual([
      `record 4 (byte ${good.length}): the request name refers to string #7, which no earlier record wrote; nothing after it is read (not what Gatling writes: a damaged file?)`,
    ]);
  });

  it("a record longer than many chunks (a RUN record naming 2,000 scenarios) is read in one pass's time, not once per chunk", () => {
    const scenarios = Array.from({ length: 2000 }, (_, i) => `scenario ${i} `.padEnd(100, "x"));
    const recs: GatlingBinaryRecord[] = [
      { kind: "user", scenario: 1999, start: true, at: 1 },
      { kind: "request", groups: [], name: "a", start: 10, end: 20, ok: true, message: "" },
    ];
    const bytes = gatlingBinaryLog({ start: 1_700_000_000_000, scenarios }, recs);
    expect(bytes.length).toBeGreaterThan(200_000);
    const t0 = performance.now();
    const p = read(bytes, 1); // re-reading the cut record at every byte would take ~10^10 steps
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect(p.series.map((s) => s.histogram.totalCount)).toEqual([1]);
    expect(p.problems.find((x) => x.note)!.reason).toMatch(/1 user started \(scenario 0 x+\S* 0, .*, and 1990 more scenarios\)/);
  });

  it("is told by its first bytes, never from text that merely starts with NULs", () => {
    const { bytes } = gatlingBinaryOfSamples(samples.slice(0, 5));
    expect(isGatlingBinary(bytes.slice(0, BYTES_SNIFF_LENGTH))).toBe(true);
    expect(isGatlingBinary(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))).toBe(false);
    expect(isGatlingBinary(new TextEncoder().encode("RUN\tsim\t3.13.5\n"))).toBe(false);
    expect(isGatlingBinary(new Uint8Array([0, 0, 0, 0, 6, ..."3.13.5".split("").map((c) => c.charCodeAt(0)), 1]))).toBe(false);
  });
});
