// Files of statistics are refused with what they are, on the line that tells it, whatever their
// name: never read as samples, never "not a recognised format".
import { describe, expect, it } from "vitest";
import { ingest } from "../engine/ingest";
import { generateSamples, locustStats } from "../../scripts/lib/loadgen-fixtures";
import { STATISTICS_FILES } from "../../scripts/lib/statistics-fixtures";
import { pickFormat } from "./detect";

const samples = generateSamples({ seed: 11, seconds: 20, rate: 40, labels: ["home", "search"], medianMs: 12, sigma: 0.8, failureRate: 0.02 });

describe("statistics, not samples", () => {
  it.each(STATISTICS_FILES)("$name: refused as statistics, naming what it is and its line", async ({ name, write, what, at }) => {
    const text = write(samples);
    const line = text.split("\n").findIndex((l) => at.test(l)) + 1;
    for (const file of [name, "results.txt"]) {
      const r = await ingest(file, [text]);
      expect(r.series).toEqual([]);
      expect(r.problems).toEqual([{ file, line, reason: expect.stringMatching(/^statistics, not samples: /) }]);
      expect(r.problems[0]!.reason).toMatch(what);
      expect(r.problems[0]!.reason).toMatch(/one line per request/);
    }
  });

  it("the summary tables samples.ts refuses say the same words (Locust *_stats.csv)", async () => {
    const r = await ingest("run_stats.csv", [locustStats(samples)]);
    expect(r.series).toEqual([]);
    expect(r.problems[0]!.reason).toMatch(/^statistics, not samples: a summary table/);
  });

  it("takes no file of samples: each generated load-generator format keeps its reader", () => {
    const heads = [
      "timeStamp,elapsed,label,responseCode\n1,2,a,200\n",
      '{"metric":"http_req_duration","type":"Point","data":{"time":"2026-01-02T03:04:05Z","value":1}}\n',
      "1.5\n2.5\n",
    ];
    for (const h of heads) expect(pickFormat("x.txt", h)?.id).not.toBe("statistics");
  });
});
