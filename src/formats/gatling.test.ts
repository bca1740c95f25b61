import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itReadsTheSameInChunks, itSurvivesGarbage, expectSamplesRead, expectProblems, expectReadExactly } from "../../tests/support/reader-tests";
import { byCompletion, factsOfParsed, factsOfSamples, gatlingLog, type GatlingLayout, generateSamples, msValue, parseByLines } from "../../tests/support/loadgen-fixtures";
import { GATLING_BINARY_PROBLEM, gatlingReader } from "./gatling";

/** Request names with spaces, as a Gatling simulation names them. */
const labels = ["Home", "Search", "Add to cart"];
const samples = generateSamples({ seed: 23, seconds: 15, rate: 250, labels, medianMs: 9, sigma: 0.5, failureRate: 0.04, stalls: [{ at: 6, duration: 1.5 }] });
const written = byCompletion(samples); // Gatling logs a request when its response arrives
const ms = (s: (typeof samples)[number]) => Math.floor(s.startUs / 1000);

describe("Gatling text simulation.log", () => {
  it("reads 3.4–3.12 REQUEST records: end − start in ms, one series per request, KO as failures", () => {
    const p = expectReadExactly(gatlingReader, "simulation.log", gatlingLog(written), written, msValue, ms, 1000);
    expect(p.format).toBe("gatling");
    for (const s of p.series) {
      expect(s.unit).toBe("ms");
      expect(s.name).toBe(`simulation [${s.tag}]`);
    }
  });

  it("reads the 3.0–3.3 layout (user id after REQUEST)", () => {
    const p = parseByLines(gatlingReader, "simulation.log", gatlingLog(written, { layout: "3.0" }));
    expect(p.problems).toEqual([]);
    const exp = factsOfSamples(written, msValue, ms, 1000);
    expect(factsOfParsed(p, exp.minIndex)).toEqual(exp.facts);
  });

  // Each layout Gatling wrote, with and without the message of OK requests (a file whose trailing
  // white space was stripped ends those lines at the status), against the samples written.
  const layouts: { layout: GatlingLayout; version?: string; what: string }[] = [
    { layout: "3.4", version: "3.4.0", what: "3.4" },
    { layout: "3.4", version: "3.5.1", what: "3.5" },
    { layout: "3.4", version: "3.12.0", what: "3.12" },
    { layout: "3.0", version: "3.0.3", what: "3.0" },
    { layout: "3.0", version: "3.3.0", what: "3.3" },
    { layout: "2.2", what: "2.2–2.3" },
    { layout: "2.2-M", what: "the 2.2 milestones" },
    { layout: "2.0", what: "2.0–2.1" },
  ];
  for (const { layout, version, what } of layouts) {
    for (const okMessage of [true, false]) {
      it(`reads Gatling ${what} REQUEST lines ${okMessage ? "with" : "without"} the message of OK requests`, () => {
        expectReadExactly(gatlingReader, "simulation.log", gatlingLog(written, { layout, version, okMessage }), written, msValue, ms, 1000);
      });
    }
  }

  it("tells the layouts apart by the fields' shape when the RUN line is missing", () => {
    for (const layout of ["3.4", "3.0", "2.2", "2.2-M", "2.0"] as const) {
      for (const okMessage of [true, false]) {
        const text = gatlingLog(written, { layout, okMessage, runLine: false });
        const p = parseByLines(gatlingReader, "simulation.log", text);
        expect(p.problems, `${layout} ${okMessage}`).toEqual([]);
        const exp = factsOfSamples(written, msValue, ms, 1000);
        expect(factsOfParsed(p, exp.minIndex), `${layout} ${okMessage}`).toEqual(exp.facts);
        expect(gatlingReader.detect("run.log", text), layout).toBe(true);
      }
    }
  });

  it("reads a 3.3 line without its message by the RUN line's version, not as the 3.4 layout", () => {
    // REQUEST userId groups name start end status: 7 fields, as many as a 3.4 line with its message
    const run = "RUN\tsim.Basic\tbasic\t1767323045000\t \t3.3.1";
    const p = parseByLines(gatlingReader, "simulation.log", [run, "REQUEST\t12\t\tHome\t1767323045100\t1767323045137\tOK"].join("\n"));
    expect(p.problems).toEqual([]);
    expect(p.series.map((s) => s.tag)).toEqual(["Home"]);
    expect(p.series[0]!.histogram.maxValue).toBe(37);
    expect(p.series[0]!.startTime).toBe(1767323045.1);
  });

  it("names requests in groups by their group path", () => {
    const groupOf = (l: string) => (l === "Search" ? ["Browse", "Catalog"] : []);
    const p = parseByLines(gatlingReader, "simulation.log", gatlingLog(written, { groupOf }));
    expectSamplesRead(p, written, msValue, ms, 1000, 1, (s) => (s.label === "Search" ? "Browse / Catalog / Search" : s.label));
  });

  itReadsTheSameInChunks(gatlingReader, "simulation.log", gatlingLog(written.slice(0, 500)), 400, 50);
});

describe("Gatling binary simulation.log (3.13+) given to the text reader", () => {
  // Record type 0 (RUN), the version as an int-length-prefixed string, then more binary.
  const binary = "\u0000\u0000\u0000\u0000\u00063.13.1\u0000\u0000\u0000\u0000\u0017computerdatabase.Basic\u0001\u0000\u0000\u0001\u0093\ufffd\u0012";
  // The loading path gives a binary log's bytes to gatling-binary.ts; what still reaches this
  // reader (a start that is not Gatling's RUN record, or text) is refused once.
  it("is refused with one clear problem", () => {
    const p = gatlingReader.create("simulation.log");
    p.line(binary, 1);
    p.line("\u0001\u0000\u0000\u0000\u0002\ufffd\u0000x", 2);
    p.line("REQUEST\t\tx\t1\t2\tOK\t ", 3); // whatever follows is not read
    const r = p.finish();
    expect(r.series).toEqual([]);
    expect(r.problems).toEqual([{ file: "simulation.log", line: null, reason: GATLING_BINARY_PROBLEM }]);
    expect(GATLING_BINARY_PROBLEM).toMatch(/^this looks like Gatling's binary simulation\.log \(3\.13 and later\), but it does not start with the RUN record/);
  });
  it("is recognised by content under another name", () => {
    expect(gatlingReader.detect("results.bin", binary)).toBe(true);
  });
});

describe("Gatling bad input", () => {
  it("reports bad lines with their numbers and keeps the good ones", () => {
    const lines = [
      "RUN\tsim.Basic\tbasic\t1767323045000\t \t3.9.5",
      "REQUEST\t\ta\t1767323045100\t1767323045120\tOK\t ",
      "REQUEST\t\ta\t1767323045100\t1767323045", // truncated
      "REQUEST\t\ta\tabc\t1767323045120\tOK\t ",
      "REQUEST\t\ta\t1767323045200\t1767323045100\tOK\t ", // negative
      "REQUEST\t\ta\t1767323045100\tNaN\tOK\t ",
      "REQUEST\t\ta\t1767323045100\t99999999999999\tOK\t ", // huge
      "REQUEST\t\ta\t1767323045100\t1767323045120\tMAYBE\t ",
      "garbage line",
      "REQUEST\t\ta\t1767323046100\t1767323046130\tKO\tboom",
      "REQUEST\t\ta\t1767323046100\t1767323046140\tOK\t ",
      "USER\tUsers\tEND\t1767323047000",
    ];
    const p = parseByLines(gatlingReader, "simulation.log", lines.join("\n"));
    expectProblems(p, [
      [3, /5 fields/],
      [4, /start "abc"/],
      [5, /ends .* before it starts/],
      [6, /end "NaN"/],
      [7, /too large/],
      [8, /neither OK nor KO/],
      [9, /not a simulation.log record/],
    ]);
    expect(p.series[0]!.histogram.totalCount).toBe(2);
    expect(p.series[0]!.failures).toBe(1);
  });

  it("reports a REQUEST line that does not fit the layout the RUN line states, naming it", () => {
    const lines = ["RUN\tsim.Basic\tbasic\t1767323045000\t \t3.3.1", "REQUEST\t\ta\t1767323045100\t1767323045120\tOK\t ", "REQUEST\t7\t\ta\t1767323045100\t1767323045120\tOK"];
    const p = parseByLines(gatlingReader, "simulation.log", lines.join("\n"));
    expect(p.problems).toHaveLength(1);
    expect(p.problems[0]!.line).toBe(2);
    expect(p.problems[0]!.reason).toMatch(/Gatling 3\.0–3\.3/);
    expect(p.series[0]!.histogram.totalCount).toBe(1);
  });

  itSurvivesGarbage(
    gatlingReader,
    "simulation.log",
    fc.array(
      fc.string({ maxLength: 60 }).map((s) => s.replace(/,/g, "\t")),
      { maxLength: 30 },
    ),
  );
});

describe("Gatling detection", () => {
  it("by name or records", () => {
    expect(gatlingReader.detect("results/basic-2026/simulation.log", "")).toBe(true);
    expect(gatlingReader.detect("run.log", gatlingLog(written.slice(0, 3)))).toBe(true);
    expect(gatlingReader.detect("run.log", "INFO starting\nREQUESTED\n")).toBe(false);
  });
});
