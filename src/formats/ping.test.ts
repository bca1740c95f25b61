// ping's reply lines, written by iputils ping itself on loopback (with and without -D), compared
// with the rtt statistics ping printed at the end.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { factsOf, numberAfter, producerText, readProducer } from "../../tests/support/real-producers";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { pingReader } from "./ping";
import { linesOf, readLines } from "../../tests/support/loadgen-fixtures";

describe("ping", () => {
  it.each(["ping.txt", "ping-D.txt"])("%s: every reply in ns; count, min and max are ping's own", async (file) => {
    const text = producerText("ping", file);
    expect(pickFormat(file, text.slice(0, 4096))?.id).toBe("ping");
    const r = await readProducer("ping", file);
    expect(r.problems).toEqual([]);
    const f = factsOf(r);
    const [min, , max] = /rtt min\/avg\/max\/mdev = ([\d.]+)\/([\d.]+)\/([\d.]+)/
      .exec(text)!
      .slice(1)
      .map((x) => Math.round(Number(x) * 1e6));
    expect(f.unit).toBe("ns");
    expect(f.count).toBe(numberAfter(text, /transmitted, /));
    expect(f.min).toBe(min);
    expect(f.max).toBe(max);
    // -D stamps each reply: the run has a time axis
    expect(f.intervals > 0).toBe(file === "ping-D.txt");
  });

  it("reads the unit on each line and counts lost replies as failed", () => {
    const printed = linesOf`
      PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.
      64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.255 ms
      64 bytes from 10.0.0.1: icmp_seq=2 ttl=64 time=1034 ms
      no answer yet for icmp_seq=3
      From 10.0.0.2 icmp_seq=4 Destination Host Unreachable
      64 bytes from 10.0.0.1: icmp_seq=5 ttl=64 time=1.2 s
      64 bytes from 10.0.0.1: icmp_seq=6 ttl=64 time=abc ms
    `;
    const out = readLines(pingReader.create("p.txt"), printed);
    const h = out.series[0]!.histogram;
    expect([h.totalCount, h.minNonZeroValue, h.maxValue, out.series[0]!.failures]).toEqual([3, 255_000, 1.2e9, 2]);
    expect(out.problems.map((x) => x.line)).toEqual([7]);
  });

  const text = producerText("ping", "ping-D.txt");
  itReadsTheSameInChunks(pingReader, "p.txt", text, 200, 20);
  itSurvivesGarbage(pingReader, "p.txt", fc.array(fc.oneof(fc.string(), fc.constantFrom(...text.split("\n").slice(0, 4))), { maxLength: 8 }));
});
