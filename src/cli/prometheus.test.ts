// report/check --prometheus against a fake server: the flags, the request they make, what is
// printed, where credentials go (nowhere but the request), the link and the errors.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { decodeShare } from "../share";
import { main } from "./main";

const S = 1_767_225_600; // 2026-01-01T00:00:00Z
// 1 ms wide buckets; cumulative counts per point (at S, S+10, S+20, S+30).
const CUMULATIVE = [
  [50, 0, 0, 0],
  [60, 20, 0, 0],
  [90, 30, 5, 0],
  [100, 40, 10, 1],
];
const answer = {
  status: "success",
  data: {
    resultType: "matrix",
    result: [
      {
        metric: { __name__: "api_duration_seconds", job: "api" },
        histograms: CUMULATIVE.map((c, i) => [
          S + 10 * i,
          { count: String(c.reduce((a, b) => a + b, 0)), sum: "1", buckets: c.map((n, k) => [0, String(k * 0.001), String((k + 1) * 0.001), String(n)]) },
        ]),
      },
    ],
  },
};

interface Seen {
  url: string;
  auth: string | undefined;
}

function server(respond: (url: URL) => Response = () => new Response(JSON.stringify(answer))): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const f = (async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push({ url: String(input), auth: (init?.headers as Record<string, string> | undefined)?.Authorization });
    return respond(new URL(String(input)));
  }) as typeof fetch;
  return { fetch: f, seen };
}

async function run(args: string[], fetchImpl: typeof fetch): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stderrIsTTY: false }, { helperScript: null, fetch: fetchImpl });
  return { code, stdout, stderr };
}

const dir = mkdtempSync(path.join(tmpdir(), "hdr-prom-"));
const tokenFile = path.join(dir, "token");
writeFileSync(tokenFile, "sekrit-token\n");
const base = ["--prometheus", "http://ann:pa55word@prom.test:9090", "--query", "api_duration_seconds", "--start", "2026-01-01T00:00:00Z", "--end", String(S + 30)];

describe("report/check --prometheus", () => {
  it("asks the range from its start with the given step and reports what was observed in (S, E] at bucket bounds", async () => {
    const { fetch, seen } = server();
    const r = await run(["report", "--json", ...base, "--step", "10s", "--link-base", "https://example.org/app/"], fetch);
    // a note, not a problem: said, and the report made
    expect(r.stderr).toMatch(/a native histogram: each value is shown at its bucket's upper bound, never below what was observed/);
    expect(r.code).toBe(0);
    const u = new URL(seen[0]!.url);
    expect(`${u.origin}${u.pathname}`).toBe("http://prom.test:9090/api/v1/query_range");
    expect(u.searchParams.get("start")).toBe(String(S));
    expect(u.searchParams.get("end")).toBe(String(S + 30));
    expect(u.searchParams.get("step")).toBe("10");
    const j = JSON.parse(r.stdout) as {
      series: { name: string; source: string; count: number; intervals: number; percentiles: Record<string, number>; origin: string }[];
      shareUrl: string;
    };
    const s = j.series[0]!;
    expect(s.source).toBe("prometheus:api_duration_seconds");
    expect(s.name).toBe("api_duration_seconds");
    // (S, S+30]: the last point less the first: 50 in (0, 1 ms], 40 in (1, 2], 10 in (2, 3], 1 in (3, 4]
    expect(s.count).toBe(101);
    expect(s.intervals).toBe(3);
    const near = (v: number, bound: number) => expect(Math.abs(v - bound) / bound).toBeLessThan(1e-3);
    // ranks 51 (p50) in (1, 2]; 91 (p90) and 100 (p99) in (2, 3]; the top in (3, 4]
    near(s.percentiles["50"]!, 2e6);
    near(s.percentiles["90"]!, 3e6);
    near(s.percentiles["99"]!, 3e6);
    near(s.percentiles["100"]!, 4e6);
    expect(s.origin).toBe("http://prom.test:9090, 2026-01-01T00:00:00Z to 2026-01-01T00:00:30Z, step 10 s");
    // the link carries the numbers, the query and where and when it was asked, not the password
    expect(r.stdout).not.toMatch(/pa55word|ann/);
    const shared = decodeShare(j.shareUrl.split("#")[1]!);
    expect(shared.ok).toBe(true);
    if (shared.ok) {
      expect(shared.state.series[0]!.source).toBe("prometheus:api_duration_seconds");
      expect(shared.state.series[0]!.origin).toBe(s.origin);
      expect(shared.state.series[0]!.histogram.totalCount).toBe(101);
    }
    expect(seen[0]!.auth).toBe(`Basic ${btoa("ann:pa55word")}`);
  });

  it("judges the query's series beside files, with the token from a file, printing neither credential", async () => {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (let k = 0; k < 100; k++) h.recordValue(500_000 + k);
    const file = path.join(dir, "load-test.hlog");
    writeFileSync(file, writeHlog([{ start: 0, length: 1, histogram: h }]));
    const { fetch, seen } = server();
    const r = await run(["check", "--require", "p99<=2.5ms", ...base, "--bearer-token-file", tokenFile, file], fetch);
    expect(seen[0]!.auth).toBe("Bearer sekrit-token");
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^pass load-test/m);
    expect(r.stdout).toMatch(/^FAIL api_duration_seconds: p99 3 ms > 2\.5 ms/m);
    expect(r.stdout + r.stderr).not.toMatch(/sekrit|pa55word/);
  });

  it("exits 2 naming the query when the server refuses it, and reads nothing of it", async () => {
    const { fetch } = server(
      () =>
        new Response(
          JSON.stringify({
            status: "error",
            errorType: "bad_data",
            error: "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)",
          }),
          {
            status: 400,
          },
        ),
    );
    const r = await run(["report", ...base, "--step", "0.001"], fetch);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^prometheus:api_duration_seconds: http:\/\/prom\.test:9090: the server answered 400: bad_data: exceeded maximum resolution/m);
    expect(r.stderr).not.toMatch(/pa55word/);
  });

  it("refuses flags that do not make a request", async () => {
    const { fetch, seen } = server();
    expect((await run(["report", "--query", "x"], fetch)).stderr).toMatch(/--query needs --prometheus URL/);
    expect((await run(["report", "--prometheus", "http://h:9090", "--query", "x", "--start", "yesterday", "--end", "1"], fetch)).stderr).toMatch(
      /--start yesterday: not an RFC 3339 time/,
    );
    expect((await run(["report", "--prometheus", "http://h:9090", "--query", "x", "--start", "10", "--end", "1"], fetch)).stderr).toMatch(/--end 1 is before --start 10/);
    expect((await run(["report", "--prometheus", "http://h:9090", "--query", "x", "--start", "1", "--end", "10", "--step", "5 min"], fetch)).stderr).toMatch(
      /--step 5 min: a duration/,
    );
    expect((await run(["report", "--prometheus", "ftp://h", "--query", "x", "--start", "1", "--end", "10"], fetch)).stderr).toMatch(/not an http\(s\) address/);
    expect(seen).toEqual([]);
  });
});
