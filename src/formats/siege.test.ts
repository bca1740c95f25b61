import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectSamplesRead, itReadsTheSameInChunks, itSurvivesGarbage, expectReadExactly } from "../../tests/support/reader-tests";
import { byCompletion, generateSamples, parseByLines } from "../../tests/support/loadgen-fixtures";
import { siegeMs, siegeVerbose } from "../../tests/support/producer-fixtures";
import { ingest } from "../engine/ingest";
import { pickFormat, unreadableReason } from "./detect";
import { factsOf, numberAfter, producerText, readProducer } from "../../tests/support/real-producers";
import { siegeReader } from "./siege";

const samples = generateSamples({ seed: 47, seconds: 12, rate: 80, labels: ["index.html"], medianMs: 30, sigma: 0.7, failureRate: 0.02, stalls: [{ at: 5, duration: 0.6 }] });
const written = byCompletion(samples);
/** The completion second siege stamps (the fixtures' clock is UTC, read back as such). */
const doneSec = (s: (typeof samples)[number]) => Math.floor((s.startUs + s.latencyNs / 1000) / 1e6);

describe("siege verbose output", () => {
  it("strips the ANSI colour codes and reads each request's elapsed time (ms, as printed); 5xx counted, not recorded", () => {
    const text = siegeVerbose(written);
    expect(text).toContain("\u001b[0;34m");
    const p = parseByLines(siegeReader, "siege.out", text);
    expect(p.problems).toEqual([]);
    expect(p.format).toBe("siege");
    expect(p.series[0]!.unit).toBe("ms");
    expectSamplesRead(p, written, siegeMs, null, 1, 1, () => "");
  });

  it("with timestamps, cuts intervals by each request's completion second", () => {
    expectReadExactly(siegeReader, "siege.out", siegeVerbose(written, { timestamps: true }), written, siegeMs, doneSec, 1, 1, () => "");
  });

  it("was called a binary file; now it is picked by content and loads", async () => {
    const text = siegeVerbose(written);
    // colour codes alone no longer make text look binary
    expect(unreadableReason(text.slice(0, 4096))).toMatch(/^not a recognised format/);
    expect(pickFormat("siege.log.txt", text.slice(0, 4096))?.id).toBe("siege");
    expect(pickFormat("out.txt", siegeVerbose(written, { color: false }).split("\n").slice(3).join("\n"))?.id).toBe("siege");
    const r = await ingest("siege.txt", [text]);
    expect(r.problems).toEqual([]);
    expect(r.series.map((s) => s.histogram.totalCount)).toEqual([written.filter((s) => s.success).length]);
  });

  it("names a damaged line and reads the others; [error] lines are failed transactions", () => {
    const lines = siegeVerbose(written.slice(0, 40)).split("\n");
    lines[10] = "HTTP/1.1 200 soon secs: 12 bytes ==> GET /";
    lines.splice(20, 0, "[error] socket: read error Connection reset by peer sockerr.c:230: Connection reset by peer");
    const p = parseByLines(siegeReader, "s.txt", lines.join("\n"));
    expect(p.problems).toEqual([{ file: "s.txt", line: 11, reason: expect.stringMatching(/^not a siege request line/) }]);
    const ok = written.slice(0, 40).filter((s, i) => s.success && i !== 7).length;
    expect(p.series[0]!.histogram.totalCount).toBe(ok);
    expect(p.series[0]!.failures).toBe(written.slice(0, 40).filter((s) => !s.success).length + 1);
  });

  itReadsTheSameInChunks(siegeReader, "s.txt", siegeVerbose(written.slice(0, 300), { timestamps: true }), 300, 30);
  itSurvivesGarbage(
    siegeReader,
    "s.txt",
    fc.array(fc.oneof(fc.string(), fc.constantFrom("\u001b[0;34mHTTP/1.1 200     0.03 secs:     612 bytes ==> GET  /\u001b[0m", "** SIEGE 4.1.6", "[error] x")), { maxLength: 30 }),
  );
});

describe("siege -v captured on a terminal (fixtures/producers: siege 4.0.7 under `script`)", () => {
  it("reads its coloured request lines; the max is siege's longest transaction, the count its transactions", async () => {
    const text = producerText("siege", "siege-colour.txt");
    expect(text).toContain("\u001b[0;34m");
    const r = await readProducer("siege", "siege-colour.txt");
    // `script`'s own first and last lines are not requests, and not problems
    expect(r.problems).toEqual([]);
    const f = factsOf(r);
    expect(f.count + f.failures).toBe(numberAfter(text, /Transactions:\s+/));
    expect(f.max).toBe(Math.round(numberAfter(text, /Longest transaction:\s+/) * 1000));
  });

  it("text with colour codes that no reader takes is said to be unrecognised, not binary", () => {
    expect(unreadableReason("\u001b[0;31msomething else entirely\u001b[0m\n")).toMatch(/^not a recognised format/);
  });
});
