import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itReadsTheSameInChunks, itSurvivesGarbage, expectProblems, expectReadExactly } from "../../tests/support/reader-tests";
import { K6_CSV_HEADER, factsOfParsed, factsOfSamples, generateSamples, k6Csv, k6Json, parseByLines, usValue } from "../../tests/support/loadgen-fixtures";
import { k6Reader } from "./k6";

/** Request names, one with a comma and a query string (quoted in CSV). */
const labels = ["GET /", "POST /login", "GET /items?page=1,2"];
const samples = generateSamples({ seed: 5, seconds: 15, rate: 200, labels, medianMs: 3, sigma: 0.8, failureRate: 0.06, stalls: [{ at: 4, duration: 1 }] });
const us = (s: (typeof samples)[number]) => s.startUs;
const sec = (s: (typeof samples)[number]) => Math.floor(s.startUs / 1e6);

describe("k6 JSON lines", () => {
  it("reads http_req_duration points only, in µs, one series per name tag, expected_response=false as failures", () => {
    const p = parseByLines(k6Reader, "out.json", k6Json(samples));
    expect(p.problems).toEqual([]);
    expect(p.format).toBe("k6");
    const exp = factsOfSamples(samples, usValue, us, 1e6);
    expect(factsOfParsed(p, exp.minIndex)).toEqual(exp.facts);
    for (const s of p.series) expect(s.unit).toBe("us");
    // times are written at +02:00 with ns: the start is the first point's instant
    expect(p.series[0]!.startTime).toBeCloseTo(samples[0]!.startUs / 1e6 + exp.minIndex, 6);
  });

  it("without expected_response, a status outside 200–399 is a failure; without name, one series", () => {
    const lines = [
      { time: "2026-01-02T03:04:05.000000000Z", value: 10.5, tags: { status: "200" } },
      { time: "2026-01-02T03:04:05.500000000Z", value: 11, tags: { status: "404" } },
      { time: "2026-01-02T03:04:06.000000000Z", value: 12.25, tags: { status: "0" } },
      { time: "2026-01-02T03:04:06.100000000Z", value: 0.0015, tags: null },
    ].map((data) => JSON.stringify({ metric: "http_req_duration", type: "Point", data }));
    const p = parseByLines(k6Reader, "x.json", lines.join("\n"));
    expect(p.problems).toEqual([]);
    expect(p.series).toHaveLength(1);
    expect(p.series[0]!.tag).toBe("");
    expect(p.series[0]!.failures).toBe(2);
    expect(p.series[0]!.histogram.totalCount).toBe(2);
    expect(p.series[0]!.histogram.minNonZeroValue).toBe(2); // 0.0015 ms = 1.5 µs, rounded half up
  });

  itReadsTheSameInChunks(k6Reader, "out.json", k6Json(samples.slice(0, 300)), 700, 40);
});

describe("k6 CSV", () => {
  it("reads http_req_duration rows by header name; unix-second timestamps cut into intervals", () => {
    expectReadExactly(k6Reader, "out.csv", k6Csv(samples), samples, usValue, sec, 1);
  });

  it("reads the older header without expected_response (status decides) and other time formats", () => {
    const header = "metric_name,timestamp,metric_value,check,error,error_code,group,method,name,proto,scenario,status,subproto,tls_version,url,extra_tags";
    const rows = [
      "http_reqs,1595325560,1.000000,,,,,GET,http://test.k6.io,HTTP/1.1,default,200,,,http://test.k6.io,",
      "http_req_duration,1595325560,221.899000,,,,,GET,http://test.k6.io,HTTP/1.1,default,200,,,http://test.k6.io,",
      "http_req_duration,1595325561,100.000000,,,,,GET,http://test.k6.io,HTTP/1.1,default,503,,,http://test.k6.io,",
      "http_req_duration,1595325562,0.004000,,,,,GET,http://test.k6.io,HTTP/1.1,default,200,,,http://test.k6.io,",
    ];
    const p = parseByLines(k6Reader, "old.csv", [header, ...rows].join("\n"));
    expect(p.problems).toEqual([]);
    const s = p.series[0]!;
    expect(s.tag).toBe("http://test.k6.io");
    expect(s.histogram.totalCount).toBe(2);
    expect(s.failures).toBe(1);
    expect(s.startTime).toBe(1595325560);
    expect(s.intervals!.map((iv) => iv.start)).toEqual([0, 2]);
    // unix_milli and rfc3339 timestamps
    const milli = parseByLines(k6Reader, "m.csv", [header, rows[1]!.replace("1595325560", "1595325560250")].join("\n"));
    expect(milli.series[0]!.startTime).toBe(1595325560.25);
    const rfc = parseByLines(k6Reader, "r.csv", [header, rows[1]!.replace("1595325560", "2020-07-21T09:59:20+00:00")].join("\n"));
    expect(rfc.series[0]!.startTime).toBe(1595325560);
  });
});

describe("k6 bad input", () => {
  it("JSON: reports bad points with their numbers and keeps the good ones", () => {
    const good = (t: string, v: unknown) =>
      JSON.stringify({ metric: "http_req_duration", type: "Point", data: { time: t, value: v, tags: { name: "a", expected_response: "true" } } });
    const lines = [
      good("2026-01-02T03:04:05Z", 12.5),
      good("2026-01-02T03:04:05Z", 12.5).slice(0, 60), // truncated
      good("2026-01-02T03:04:05Z", "abc"),
      good("2026-01-02T03:04:05Z", -3),
      good("2026-01-02T03:04:05Z", 1e300),
      good("yesterday", 4),
      "not json at all",
      good("2026-01-02T03:04:06Z", 13),
    ];
    const p = parseByLines(k6Reader, "bad.json", lines.join("\n"));
    expectProblems(p, [
      [2, /not valid JSON/],
      [3, /not a number/],
      [4, /negative/],
      [5, /too large/],
      [6, /timestamp/],
      [7, null],
    ]);
    expect(p.series[0]!.histogram.totalCount).toBe(2);
  });

  it("CSV: wrong column count, non-numbers, NaN, negative", () => {
    const lines = [
      K6_CSV_HEADER,
      "http_req_duration,1767323045,12.000000,,,,true,,GET,a,HTTP/1.1,default,,200,,,u,,",
      "http_req_duration,1767323045,12.0", // truncated
      "http_req_duration,1767323045,abc,,,,true,,GET,a,HTTP/1.1,default,,200,,,u,,",
      "http_req_duration,1767323045,NaN,,,,true,,GET,a,HTTP/1.1,default,,200,,,u,,",
      "http_req_duration,1767323045,-1.5,,,,true,,GET,a,HTTP/1.1,default,,200,,,u,,",
      "http_req_duration,1767323046,13.000000,,,,true,,GET,a,HTTP/1.1,default,,200,,,u,,",
    ];
    const p = parseByLines(k6Reader, "bad.csv", lines.join("\n"));
    expectProblems(p, [
      [3, /expected at least 14 columns, found 3/],
      [4, null],
      [5, null],
      [6, null],
    ]);
    expect(p.series[0]!.histogram.totalCount).toBe(2);
  });

  itSurvivesGarbage(
    k6Reader,
    "x",
    fc
      .tuple(
        fc.constantFrom("{", K6_CSV_HEADER),
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 60 }),
            fc.json().map((j) => `{"metric":"http_req_duration","type":"Point","data":${j}}`),
          ),
          { maxLength: 30 },
        ),
      )
      .map(([first, lines]) => [first, ...lines]),
  );
});

describe("k6 detection", () => {
  it("by content", () => {
    expect(k6Reader.detect("out.json", k6Json(samples.slice(0, 2)))).toBe(true);
    expect(k6Reader.detect("out.csv", k6Csv(samples.slice(0, 2)))).toBe(true);
    expect(k6Reader.detect("out.json", '{"a":1}\n')).toBe(false);
  });
});
