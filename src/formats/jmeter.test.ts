import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itReadsTheSameInChunks, itSurvivesGarbage, expectSamplesRead, expectProblems, expectReadExactly } from "../../tests/support/reader-tests";
import {
  JMETER_HEADER,
  byCompletion,
  factsOfParsed,
  factsOfSamples,
  generateSamples,
  jmeterCsv,
  jmeterXml,
  linesOf,
  msValue,
  parseByLines,
} from "../../tests/support/loadgen-fixtures";
import { jmeterReader, xmlSampleTags } from "./jmeter";
import { budgetMs } from "../../tests/support/budget";

const samples = generateSamples({
  seed: 11,
  seconds: 20,
  rate: 200,
  labels: ["login", "search, paged", 'say "hi"', "checkout"],
  medianMs: 6,
  sigma: 0.7,
  failureRate: 0.05,
  stalls: [{ at: 8, duration: 2 }],
});
// JMeter writes a result when the sample completes; its timeStamp is the start.
const written = byCompletion(samples);
const ms = (s: (typeof samples)[number]) => Math.floor(s.startUs / 1000);

describe("JMeter CSV", () => {
  const text = jmeterCsv(written);

  it("reads the default CSV: one series per label, elapsed in ms, failures counted, intervals per second", () => {
    const p = parseByLines(jmeterReader, "run.jtl", text);
    expect(p.problems).toEqual([]);
    expect(p.format).toBe("jmeter");
    const exp = factsOfSamples(written, msValue, ms, 1000);
    expect(factsOfParsed(p, exp.minIndex)).toEqual(exp.facts);
    for (const s of p.series) {
      expect(s.unit).toBe("ms");
      expect(s.name).toBe(`run [${s.tag}]`);
    }
    // The earliest interval starts at 0; StartTime is the first line's timeStamp moved back by
    // whole intervals to cover samples that started before it.
    const first = ms(written[0]!);
    expect(p.series[0]!.startTime).toBeCloseTo(first / 1000 + exp.minIndex, 6);
    expect(Math.min(...p.series.flatMap((s) => s.intervals!.map((iv) => iv.start)))).toBe(0);
    expect(p.series.reduce((n, s) => n + (s.failures ?? 0), 0)).toBe(samples.filter((s) => !s.success).length);
  });

  it("finds columns by header name in any order, with tab or semicolon delimiters", () => {
    const names = JMETER_HEADER.split(",");
    const order = [7, 2, 0, 5, 1, 3, 4, 6, ...names.keys()].filter((v, i, a) => a.indexOf(v) === i);
    // Permute the columns of the default file (a small RFC 4180 splitter of its own).
    const csv = jmeterCsv(written).trimEnd().split("\n");
    const parse = (line: string) => {
      const out: string[] = [];
      let cur = "";
      let q = false;
      for (let i = 0; i < line.length; i++) {
        const c = line[i]!;
        if (q) {
          if (c === '"' && line[i + 1] === '"') {
            cur += '"';
            i++;
          } else if (c === '"') q = false;
          else cur += c;
        } else if (c === '"') q = true;
        else if (c === ",") {
          out.push(cur);
          cur = "";
        } else cur += c;
      }
      out.push(cur);
      return out;
    };
    const quote = (f: string, d: string) => (f.includes(d) || f.includes('"') ? `"${f.replace(/"/g, '""')}"` : f);
    for (const d of ["\t", ";"]) {
      const permuted = csv.map((l) => order.map((k) => quote(parse(l)[k]!, d)).join(d)).join("\n");
      expectReadExactly(jmeterReader, "perm.csv", permuted, written, msValue, ms, 1000);
    }
  });

  it("reads a file without header in JMeter's default column order", () => {
    const p = parseByLines(jmeterReader, "nohead.jtl", jmeterCsv(written, { header: false }));
    expect(p.problems.map((x) => x.reason)).toEqual([expect.stringMatching(/no header line/)]);
    expectSamplesRead(p, written, msValue, ms, 1000);
  });

  it("cuts intervals of intervalSec", () => {
    const p = parseByLines(jmeterReader, "run.jtl", text, { intervalSec: 5 });
    expectSamplesRead(p, written, msValue, ms, 1000, 5);
    expect(p.series[0]!.intervals![0]!.length).toBe(5);
  });

  itReadsTheSameInChunks(jmeterReader, "a.jtl", jmeterCsv(written.slice(0, 600)), 500, 50);

  it("reads timeStamp written as a date-time", () => {
    const p = parseByLines(jmeterReader, "d.jtl", "timeStamp,elapsed,label,success\n2026/01/02 03:04:05.250,12,a,true\n2026/01/02 03:04:06.300,13,a,true\n");
    expect(p.series[0]!.startTime).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 250) / 1000);
    expect(p.series[0]!.intervals!.map((iv) => iv.histogram.totalCount)).toEqual([1, 1]);
    expect(p.problems.map((x) => x.reason)).toEqual([expect.stringMatching(/without a time zone/)]);
  });
});

describe("JMeter XML", () => {
  it("reads httpSample elements", () => {
    expectReadExactly(jmeterReader, "run.jtl", jmeterXml(written), written, msValue, ms, 1000);
  });
});

/** The tag and attribute regexes the reader used before (quadratic on hostile lines): the reference for what matches. */
function regexSampleTags(line: string): { tag: string; attrs: Map<string, string> }[] {
  const sample = /<(httpSample|sample)\s([^>]*?)\/?>/g;
  const attr = /([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  const out: { tag: string; attrs: Map<string, string> }[] = [];
  let m: RegExpExecArray | null;
  while ((m = sample.exec(line))) {
    const attrs = new Map<string, string>();
    let a: RegExpExecArray | null;
    attr.lastIndex = 0;
    while ((a = attr.exec(m[2]!))) attrs.set(a[1]!, a[2] ?? a[3] ?? "");
    out.push({ tag: m[1]!, attrs });
  }
  return out;
}

describe("JMeter XML tag scanning", () => {
  const plain = (tags: { tag: string; attrs: Map<string, string> }[]) => tags.map((t) => [t.tag, [...t.attrs]]);

  it("finds the same tags and attributes as the regexes did (property, no entities)", () => {
    const token = fc.constantFrom(
      "<sample",
      "<httpSample",
      "<samples",
      " ",
      "\t",
      "\u00a0",
      "\u2028",
      ">",
      "/",
      "/>",
      "=",
      '"',
      "'",
      "t",
      "lb",
      "a-b.c:d",
      "1",
      "x",
      "_",
      "<",
      "ts=",
      ' t="5"',
      " s='true'",
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (parts) => {
        const line = parts.join("");
        expect(plain(xmlSampleTags(line))).toEqual(plain(regexSampleTags(line)));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads empty elements, start tags, both quote kinds and entities", () => {
    const line = `<sample t="5" lb='a "b"' ts="1700000000000"/><httpSample\tt = '7' lb="x&amp;y&#x41;&lt;" s="true"></httpSample><sample />`;
    expect(plain(xmlSampleTags(line))).toEqual([
      [
        "sample",
        [
          ["t", "5"],
          ["lb", 'a "b"'],
          ["ts", "1700000000000"],
        ],
      ],
      [
        "httpSample",
        [
          ["t", "7"],
          ["lb", "x&yA<"],
          ["s", "true"],
        ],
      ],
      ["sample", []],
    ]);
  });

  it("is linear on unterminated tags, long names and unclosed quotes (1 MB lines; the regexes took minutes)", () => {
    const lines = ["<sample ".repeat(125_000), "<sample " + "a".repeat(1_000_000) + ">", '<sample t="5" ' + 'a="x '.repeat(200_000) + ">", "<sample " + "a=".repeat(500_000) + ">"];
    const t0 = performance.now();
    for (const l of lines) xmlSampleTags(l);
    expect(performance.now() - t0).toBeLessThan(budgetMs(500));
    const small = '<sample t="5" ' + 'a="x '.repeat(3) + ">";
    expect(plain(xmlSampleTags(small))).toEqual(plain(regexSampleTags(small)));
  });
});

describe("JMeter bad input", () => {
  it("reports bad lines with their numbers, keeps the good ones, never throws", () => {
    // Line 3 is cut short.
    const lines = linesOf`
      timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success
      1767323045250,12,a,200,OK,t,text,true
      1767323045300,12,a,200
      1767323045300,abc,a,200,OK,t,text,true
      1767323045300,-5,a,200,OK,t,text,true
      1767323045300,NaN,a,200,OK,t,text,true
      1767323045300,Infinity,a,200,OK,t,text,true
      1767323045300,99999999999999999999,a,200,OK,t,text,true
      1767323045300,12,a,200,OK,t,text,maybe
      yesterday,12,a,200,OK,t,text,true
      1767323046300,14,a,500,Err,t,text,false
      1767323046300,15,a,200,OK,t,text,true
    `;
    const p = parseByLines(jmeterReader, "bad.jtl", lines.join("\n"));
    expectProblems(p, [
      [3, /expected at least 8 columns, found 4/],
      [4, /not a number/],
      [5, /negative/],
      [6, /not a finite number/],
      [7, null],
      [8, /too large/],
      [9, /success/],
      [10, /timestamp/],
    ]);
    expect(p.series[0]!.histogram.totalCount).toBe(2);
    expect(p.series[0]!.failures).toBe(1);
  });

  it("says so when the header has no elapsed column", () => {
    const p = parseByLines(jmeterReader, "x.jtl", "timeStamp,label,success\n1767323045250,a,true\n");
    expect(p.series).toEqual([]);
    expect(p.problems).toEqual([{ file: "x.jtl", line: 1, reason: 'the header has no elapsed column: "timeStamp,label,success"' }]);
  });

  itSurvivesGarbage(
    jmeterReader,
    "x.jtl",
    fc.array(fc.string({ maxLength: 60 }), { maxLength: 30 }).map((lines) => [JMETER_HEADER, ...lines]),
  );
});

describe("JMeter detection", () => {
  it("by name or header", () => {
    expect(jmeterReader.detect("x.jtl", "")).toBe(true);
    expect(jmeterReader.detect("x.csv", JMETER_HEADER + "\n")).toBe(true);
    expect(jmeterReader.detect("x.xml", '<?xml version="1.0"?>\n<testResults version="1.2">\n')).toBe(true);
    expect(jmeterReader.detect("x.csv", jmeterCsv(written.slice(0, 5), { header: false }))).toBe(true);
    expect(jmeterReader.detect("x.csv", "a,b\n1,2\n")).toBe(false);
    // saved without elapsed: still JMeter's header, so its reader says the column is missing
    const noElapsed = jmeterCsv(written.slice(0, 5), { omit: ["elapsed", "Latency"] });
    expect(jmeterReader.detect("x.csv", noElapsed)).toBe(true);
    const p = parseByLines(jmeterReader, "x.csv", noElapsed);
    expect(p.series).toEqual([]);
    expect(p.problems).toEqual([{ file: "x.csv", line: 1, reason: expect.stringMatching(/^the header has no elapsed column: "timeStamp,label,responseCode,/) }]);
  });
});
