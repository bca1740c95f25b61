// pgbench --log per-transaction logs, written by pgbench 15 itself against a local server, one
// file per thread, compared with what pgbench printed for the same run.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { factsOf, near, numberAfter, producerText, readProducer } from "../../tests/support/real-producers";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { pgbenchReader, pgbenchRunOf } from "./pgbench";
import { loadFiles } from "../engine/load-files";
import { Store } from "../engine/store";
import { readLines } from "../../tests/support/loadgen-fixtures";

const plain = ["pgbench_log-plain.4242", "pgbench_log-plain.4242.1"];
const rate = ["pgbench_log-rate.4242", "pgbench_log-rate.4242.1"];

describe("pgbench --log", () => {
  it("is taken by the pgbench reader by its lines, with or without the schedule-lag column", () => {
    for (const f of [...plain, ...rate]) expect(pickFormat(f, producerText("pgbench", f).slice(0, 4096))?.id).toBe("pgbench");
  });

  it("names each thread's file after its run: the threads of one run are told apart", async () => {
    expect(pgbenchRunOf("pgbench_log.4242")).toEqual({ run: "pgbench_log.4242", thread: 0 });
    expect(pgbenchRunOf("dir/pgbench_log.4242.3")).toEqual({ run: "pgbench_log.4242", thread: 3 });
    const names = await Promise.all(plain.map(async (f) => factsOf(await readProducer("pgbench", f)).name));
    expect(names).toEqual(["pgbench_log-plain.4242 [thread 0]", "pgbench_log-plain.4242 [thread 1]"]);
  });

  it("the run's files hold pgbench's transactions", async () => {
    const out = producerText("pgbench", "pgbench-stdout.txt");
    const facts = await Promise.all(plain.map(async (f) => factsOf(await readProducer("pgbench", f))));
    const count = facts.reduce((a, f) => a + f.count, 0);
    expect(count).toBe(numberAfter(out, /number of transactions actually processed: /));
    // Without --rate or --latency-limit pgbench's "latency average" is the run's duration × clients
    // / transactions, not a measured mean: not compared (the rate run below compares it).
    expect(facts.every((f) => f.unit === "us" && f.intervals > 0)).toBe(true);
  });

  it("with --rate and --latency-limit: skipped transactions are counted as failed and said, the others recorded", async () => {
    const out = producerText("pgbench", "pgbench-rate-stdout.txt");
    const results = await Promise.all(rate.map((f) => readProducer("pgbench", f)));
    const facts = results.map((r) => factsOf(r));
    expect(facts.reduce((a, f) => a + f.count, 0)).toBe(numberAfter(out, /number of transactions actually processed: /));
    expect(facts.reduce((a, f) => a + f.failures, 0)).toBe(numberAfter(out, /number of transactions skipped: /));
    // measured here (pgbench prints a stddev beside it): the mean of the recorded latencies, in ms with three decimals
    expect(out).toMatch(/latency stddev = /);
    const mean = facts.reduce((a, f) => a + f.mean * f.count, 0) / facts.reduce((a, f) => a + f.count, 0);
    expect(near(mean / 1000, numberAfter(out, /latency average = /), 0.01)).toBe(true);
    for (const r of results) expect(r.problems).toEqual([expect.objectContaining({ note: true, reason: expect.stringMatching(/transactions were skipped/) })]);
  });

  it("names a bad line and keeps the others", () => {
    const r = readLines(pgbenchReader.create("pgbench_log.1"), ["0 1 1871 0 1796516225 248928", "0 2 x 0 1796516225 249519", "0 3 failed 0 1796516225 250263"]);
    expect(r.series[0]!.histogram.totalCount).toBe(1);
    expect(r.series[0]!.failures).toBe(1);
    expect(r.problems.map((x) => x.line)).toEqual([2]);
  });

  const text = producerText("pgbench", rate[0]!);
  itReadsTheSameInChunks(pgbenchReader, rate[0]!, text, 200, 30);
  itSurvivesGarbage(pgbenchReader, "pgbench_log.1", fc.array(fc.oneof(fc.string(), fc.constantFrom(...text.split("\n").slice(0, 5))), { maxLength: 8 }));
});

describe("the thread files of one pgbench run, loaded together", () => {
  it("become one series, the run's: every transaction of both threads, failures added", async () => {
    const store = new Store();
    const files = [...rate, "pgbench-stdout.txt"].map((f) => new File([producerText("pgbench", f)], f));
    const out = await loadFiles(store, files, () => undefined, undefined, undefined, null);
    const stdout = producerText("pgbench", "pgbench-rate-stdout.txt");
    expect(out.map((o) => o.added.length)).toEqual([1, 0, 0]);
    const s = store.get(out[0]!.added[0]!);
    expect(s.name).toBe("pgbench_log-rate.4242 (2 threads)");
    expect(s.histogram.totalCount).toBe(numberAfter(stdout, /number of transactions actually processed: /));
    expect(s.failures).toBe(numberAfter(stdout, /number of transactions skipped: /));
    expect(s.mergedFrom).toEqual(["pgbench_log-rate.4242 [thread 0]", "pgbench_log-rate.4242 [thread 1]"]);
    expect(s.intervals!.n).toBeGreaterThan(0);
    // the stdout beside them is refused, not merged
    expect(out[2]!.problems[0]!.reason).toMatch(/^statistics, not samples: pgbench's output/);
  });

  it("one thread's file alone stays that thread's series", async () => {
    const store = new Store();
    const out = await loadFiles(store, [new File([producerText("pgbench", plain[1]!)], plain[1]!)], () => undefined, undefined, undefined, null);
    expect(store.get(out[0]!.added[0]!).name).toBe("pgbench_log-plain.4242 [thread 1]");
  });
});
