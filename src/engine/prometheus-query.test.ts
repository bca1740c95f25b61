import { describe, expect, it } from "vitest";
import { mergeAll, newHistogram, valueAtPercentile } from "../core/histogram";
import { apiRequest, defaultStep, parseStep, parseTime, publicAddress, queryPrometheus, type PrometheusRequest } from "./prometheus-query";
import { warningText } from "../core/warnings";
import { compareQuery } from "./compare-query";
import { makeSeries } from "./series-make";
import { Store } from "./store";

// Native histogram points as the API writes them: each bucket's own count, 1 ms wide buckets.
const point = (t: number, counts: number[]) => [
  t,
  { count: String(counts.reduce((a, b) => a + b, 0)), sum: "1", buckets: counts.map((c, i) => [0, String(i * 0.001), String((i + 1) * 0.001), String(c)]) },
];
const matrix = (result: unknown[]) => JSON.stringify({ status: "success", data: { resultType: "matrix", result } });
const REQ: PrometheusRequest = { url: "http://127.0.0.1:9090", query: "x_seconds", start: 1000, end: 1040, step: 10 };

interface Call {
  url: string;
  headers: Record<string, string>;
}

/** A fetch answering every request with `body` (status 200 unless given), recording the calls. */
function fakeFetch(answer: (url: string) => Response | Promise<Response>): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const f = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, headers: (init?.headers ?? {}) as Record<string, string> });
    return answer(url);
  }) as typeof fetch;
  return { fetch: f, calls };
}
const json = (body: string, status = 200) => new Response(body, { status, headers: { "content-type": "application/json" } });

function reasons(r: { problems: { reason: string; note?: boolean; file: string }[] }, notes = false): string[] {
  return r.problems.filter((p) => notes || !p.note).map((p) => `${p.file}: ${p.reason}`);
}

describe("series from a Prometheus-compatible API", () => {
  it("asks query_range from the range's start, takes that point as the baseline and the increases after it, through a counter reset", async () => {
    const { fetch, calls } = fakeFetch(() =>
      json(
        matrix([
          { metric: { __name__: "x_seconds", job: "api" }, histograms: [point(1000, [7, 7]), point(1010, [9, 8]), point(1020, [12, 8]), point(1030, [1, 2]), point(1040, [2, 4])] },
        ]),
      ),
    );
    const r = await queryPrometheus(REQ, { fetch });
    expect(calls).toHaveLength(1);
    const u = new URL(calls[0]!.url);
    expect(u.pathname).toBe("/api/v1/query_range");
    expect(Object.fromEntries(u.searchParams)).toEqual({ query: "x_seconds", start: "1000", end: "1040", step: "10" });
    expect(reasons(r)).toEqual([]);
    const s = r.series[0]!;
    // (1000, 1010]: 3; (1010, 1020]: 3; a reset: the point at 1030 in full (3); then 3 more
    expect(s.intervals!.n).toBe(4);
    expect(s.histogram.totalCount).toBe(12);
    expect(s.startTime).toBe(1000);
    expect(s.source).toBe("prometheus:x_seconds");
    expect(s.name).toBe("x_seconds");
    expect(reasons(r, true).join("\n")).toMatch(/1 counter resets/);
    // The same path as a file's series from here: the Store takes it and answers views.
    const store = new Store();
    const out = store.add(r);
    expect(out.added).toHaveLength(1);
    const v = store.views({ start: 1010 - 1000, end: null })[0]!;
    expect(v.spectrum.totalCount).toBe(9);
    // no max is kept: the spectrum ends in the top bucket that holds a value, (1, 2] ms
    const w = v.warnings.find((x) => x.kind === "bucketed")!;
    expect(warningText(w)).toBe(
      "x_seconds is a native histogram of schema 0 (each bucket 100 % wide): it keeps no max, so its spectrum ends in max within [1 ms, 2 ms], the top bucket holding a value; every value is shown at its bucket's upper bound, never below what was observed.",
    );
  });

  it("compared with a log, says that the histogram of buckets is only as fine as its buckets", async () => {
    const { fetch } = fakeFetch(() => json(matrix([{ metric: { __name__: "x_seconds" }, histograms: [point(1000, [0, 0]), point(1010, [40, 60]), point(1020, [90, 110])] }])));
    const store = new Store();
    const [prom] = store.add(await queryPrometheus({ ...REQ, end: 1020 }, { fetch })).added;
    const h = newHistogram();
    for (let k = 0; k < 200; k++) h.recordValue(900_000 + k * 5000);
    const log = makeSeries({
      name: "load-test",
      source: "load-test.hgrm",
      tag: "",
      recordedUnit: "ns",
      unitSource: "format",
      histogram: h,
      intervals: null,
      startTime: null,
      format: "hgrm",
    });
    store.add({ series: [log], problems: [], lines: 0 });
    const answer = await compareQuery(store, { baseline: log.id, candidate: prom!, range: { start: null, end: null }, resamples: 50 });
    expect(answer.warnings.find((x) => x.kind === "precision")?.message).toMatch(
      /^x_seconds is a native histogram of schema 0 \(each bucket 100 % wide\): its values sit at their buckets' upper bounds/,
    );
  });

  it("counts in full the first point of a series that appeared within the range", async () => {
    const { fetch } = fakeFetch(() => json(matrix([{ metric: { __name__: "x_seconds" }, histograms: [point(1020, [2, 1]), point(1030, [3, 1])] }])));
    const r = await queryPrometheus(REQ, { fetch });
    expect(r.series[0]!.histogram.totalCount).toBe(4);
    expect(reasons(r, true).join("\n")).not.toMatch(/counter reset/);
  });

  it("reads a sum over instances as one series, equal to the instances' series merged", async () => {
    const a = [point(1000, [1, 0]), point(1010, [4, 2]), point(1020, [9, 3])];
    const b = [point(1000, [0, 5]), point(1010, [2, 9]), point(1020, [2, 20])];
    const sum = a.map((p, i) =>
      point(
        p[0] as number,
        [0, 1].map((k) => Number((a[i]![1] as { buckets: string[][] }).buckets[k]![3]) + Number((b[i]![1] as { buckets: string[][] }).buckets[k]![3])),
      ),
    );
    const { fetch } = fakeFetch((url) =>
      json(
        new URL(url).searchParams.get("query")!.startsWith("sum")
          ? matrix([{ metric: {}, histograms: sum }])
          : matrix([
              { metric: { __name__: "x_seconds", instance: "a:1" }, histograms: a },
              { metric: { __name__: "x_seconds", instance: "b:1" }, histograms: b },
            ]),
      ),
    );
    const req = { ...REQ, end: 1020 };
    const each = await queryPrometheus(req, { fetch });
    const summed = await queryPrometheus({ ...req, query: "sum(x_seconds)" }, { fetch });
    expect(each.series.map((s) => s.tag)).toEqual(['x_seconds{instance="a:1"}', 'x_seconds{instance="b:1"}']);
    expect(summed.series).toHaveLength(1);
    expect(summed.series[0]!.name).toBe("sum(x_seconds)");
    const total = each.series.reduce((n, s) => n + s.histogram.totalCount, 0);
    expect(summed.series[0]!.histogram.totalCount).toBe(total);
    const h = mergeAll(each.series.map((s) => s.histogram));
    for (const p of [50, 90, 99, 100]) {
      expect(valueAtPercentile(summed.series[0]!.histogram, p)).toBe(valueAtPercentile(h, p));
    }
  });

  it("says the server's own message for a range past its limit, naming the query", async () => {
    const { fetch } = fakeFetch(() =>
      json(
        JSON.stringify({
          status: "error",
          errorType: "bad_data",
          error: "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)",
        }),
        400,
      ),
    );
    const r = await queryPrometheus({ ...REQ, end: 1000 + 20000, step: 1 }, { fetch });
    expect(r.series).toEqual([]);
    expect(reasons(r)).toEqual([
      "prometheus:x_seconds: http://127.0.0.1:9090: the server answered 400: bad_data: exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)",
    ]);
  });

  it("says a 5xx and a 401 with what the server said", async () => {
    const down = await queryPrometheus(REQ, { fetch: fakeFetch(() => new Response("<html><body>Bad gateway</body></html>", { status: 502, statusText: "Bad Gateway" })).fetch });
    expect(reasons(down)).toEqual(["prometheus:x_seconds: http://127.0.0.1:9090: the server answered 502 Bad Gateway: Bad gateway"]);
    const denied = await queryPrometheus(REQ, { fetch: fakeFetch(() => new Response("Unauthorized", { status: 401 })).fetch });
    expect(reasons(denied)[0]).toMatch(/^prometheus:x_seconds: .*answered 401: Unauthorized \(a token or a user:password is needed/);
  });

  it("gives up after the timeout, naming the query", async () => {
    const never = ((_: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))))) as typeof fetch;
    const r = await queryPrometheus(REQ, { fetch: never, timeoutMs: 50 });
    expect(reasons(r)).toEqual(["prometheus:x_seconds: http://127.0.0.1:9090: no answer within 0.05 s"]);
  });

  it("says an unreachable host and what the server must allow", async () => {
    const r = await queryPrometheus(REQ, {
      fetch: (() => Promise.reject(new TypeError("fetch failed"))) as typeof fetch,
    });
    expect(reasons(r)[0]).toMatch(/^prometheus:x_seconds: http:\/\/127\.0\.0\.1:9090: could not be reached \(fetch failed\).*--web\.cors\.origin/);
  });

  it("refuses floats (a histogram_quantile) as not histograms", async () => {
    const { fetch } = fakeFetch(() =>
      json(
        matrix([
          {
            metric: {},
            values: [
              [1000, "0.012"],
              [1010, "0.013"],
            ],
          },
        ]),
      ),
    );
    const r = await queryPrometheus({ ...REQ, query: "histogram_quantile(0.99, x_seconds)" }, { fetch });
    expect(r.series).toEqual([]);
    expect(reasons(r)[0]).toMatch(/^prometheus:histogram_quantile\(0\.99, x_seconds\): .*1 series of plain numbers, not histograms/);
  });

  it("stops reading an answer past the cap and loads nothing", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        if (pulled === 1) c.enqueue(new TextEncoder().encode(`{"status":"success","data":{"resultType":"matrix","result":[`));
        else c.enqueue(new TextEncoder().encode(`${JSON.stringify({ metric: { __name__: `x_seconds`, i: String(pulled) }, histograms: [point(1000, [1]), point(1010, [2])] })},`));
      },
    });
    const r = await queryPrometheus(REQ, { fetch: fakeFetch(() => new Response(body)).fetch, maxBytes: 10_000 });
    expect(r.series).toEqual([]);
    expect(reasons(r)[0]).toMatch(/^prometheus:x_seconds: .*the answer is over 0\.00954 MB/);
    // the stream was cancelled soon after the cap, not read to its end (it has none)
    expect(pulled).toBeLessThan(200);
    // a stated length past the cap is refused before reading
    const stated = await queryPrometheus(REQ, { fetch: fakeFetch(() => new Response("{}", { headers: { "content-length": "20000" } })).fetch, maxBytes: 10_000 });
    expect(reasons(stated)[0]).toMatch(/the answer is over/);
  });

  it("says how far it has read as the answer arrives: its bytes, of the length the server said, and the series read", async () => {
    const results = Array.from({ length: 5 }, (_, i) => JSON.stringify({ metric: { __name__: "x_seconds", i: String(i) }, histograms: [point(1000, [1]), point(1010, [2 + i])] }));
    const chunks = [`{"status":"success","data":{"resultType":"matrix","result":[`, ...results.map((r, i) => (i > 0 ? "," : "") + r), "]}}"].map((t) =>
      new TextEncoder().encode(t),
    );
    const length = chunks.reduce((a, c) => a + c.byteLength, 0);
    let pulled = 0;
    const body = () =>
      new ReadableStream<Uint8Array>({
        // A chunk at a time, each arriving later than the last (past the interval between reports).
        async pull(c) {
          if (pulled > 0) await new Promise((r) => setTimeout(r, 120));
          if (pulled < chunks.length) c.enqueue(chunks[pulled++]!);
          else c.close();
        },
      });
    const seen: { bytes: number; totalBytes: number; series: number }[] = [];
    const r = await queryPrometheus(REQ, {
      fetch: fakeFetch(() => new Response(body(), { headers: { "content-length": String(length) } })).fetch,
      onProgress: (p) => seen.push(p),
    });
    expect(r.series).toHaveLength(5);
    expect(seen.length).toBeGreaterThanOrEqual(4);
    // Never back, and at the end the whole answer and every series.
    for (let k = 1; k < seen.length; k++) {
      expect(seen[k]!.bytes).toBeGreaterThanOrEqual(seen[k - 1]!.bytes);
      expect(seen[k]!.series).toBeGreaterThanOrEqual(seen[k - 1]!.series);
    }
    expect(seen.at(-1)).toEqual({ bytes: length, totalBytes: length, series: 5 });
    expect(seen.some((p) => p.series > 0 && p.series < 5)).toBe(true);
  });

  it("sends credentials in the headers only: never in the address asked, a message or a series", async () => {
    const { fetch, calls } = fakeFetch(() => new Response("no", { status: 500 }));
    const r = await queryPrometheus({ ...REQ, url: "https://ann:s3cret@prom.example:9090/" }, { fetch });
    expect(calls[0]!.url.startsWith("https://prom.example:9090/api/v1/query_range?")).toBe(true);
    expect(calls[0]!.headers.Authorization).toBe(`Basic ${btoa("ann:s3cret")}`);
    expect(JSON.stringify(r)).not.toMatch(/s3cret|ann/);
    await queryPrometheus(REQ, { fetch, auth: { bearerToken: "tok-123\n" } });
    expect(calls[1]!.headers.Authorization).toBe("Bearer tok-123");
    expect(publicAddress("http://u:p@h:1/prom/?x=1#y")).toBe("http://h:1/prom");
  });

  it("asks /api/v1/query for one instant, counting its point in full", async () => {
    const { fetch, calls } = fakeFetch(() =>
      json(JSON.stringify({ status: "success", data: { resultType: "vector", result: [{ metric: { __name__: "x_seconds" }, histogram: point(1000, [3, 4]) }] } })),
    );
    const r = await queryPrometheus({ ...REQ, start: 1000, end: 1000 }, { fetch });
    expect(new URL(calls[0]!.url).pathname).toBe("/api/v1/query");
    expect(new URL(calls[0]!.url).searchParams.get("time")).toBe("1000");
    expect(r.series[0]!.histogram.totalCount).toBe(7);
  });

  it("takes increase() per step as given, and rate() times the step", async () => {
    const pts = [point(1010, [3, 1]), point(1020, [2, 0])];
    const inc = await queryPrometheus(
      { ...REQ, query: "sum(increase(x_seconds[10s]))", end: 1020 },
      { fetch: fakeFetch(() => json(matrix([{ metric: {}, histograms: pts }]))).fetch },
    );
    expect(inc.series[0]!.histogram.totalCount).toBe(6);
    const ratePts = [point(1010, [0.3, 0.1]), point(1020, [0.2, 0])];
    const rate = await queryPrometheus(
      { ...REQ, query: "sum(rate(x_seconds[10s]))", end: 1020 },
      { fetch: fakeFetch(() => json(matrix([{ metric: {}, histograms: ratePts }]))).fetch },
    );
    expect(reasons(rate)).toEqual([]);
    expect(rate.series[0]!.histogram.totalCount).toBe(6);
  });

  it("reads times, steps and the default step as the command line and the form write them", () => {
    expect(parseTime("1700000000")).toBe(1700000000);
    expect(parseTime("2023-11-14T22:13:20Z")).toBe(1700000000);
    expect(parseTime("2023-11-14T23:13:20.5+01:00")).toBe(1700000000.5);
    expect(parseTime("yesterday")).toBeNull();
    expect(parseStep("15s")).toBe(15);
    expect(parseStep("1m30s")).toBe(90);
    expect(parseStep("2.5")).toBe(2.5);
    expect(parseStep("0")).toBeNull();
    expect(parseStep("5 minutes")).toBeNull();
    expect(defaultStep(0, 86400)).toBe(173);
    expect(defaultStep(0, 100)).toBe(1);
    expect(apiRequest({ ...REQ, url: "http://h:9090/api/v1/", step: null }).url).toBe("http://h:9090/api/v1/query_range?query=x_seconds&start=1000&end=1040&step=1");
  });
});
