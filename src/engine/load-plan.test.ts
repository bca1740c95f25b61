// The load plan: which file is read how, in how many pieces, decided from the files alone
// (their heads and sizes) and what the loader has to read with.
import { describe, expect, it } from "vitest";
import { generatedFixture, hlogFixture } from "../../tests/fuzz/generators";
import { planLoad, type LoadCapabilities } from "./load-plan";

const SPLIT = 64 * 1024;

function files(): File[] {
  return [
    new File([hlogFixture(22).text], "small-a.hlog"),
    new File([generatedFixture("jmeter-csv", 5).text], "results.jtl"),
    new File([hlogFixture(21, { tags: ["", "x"], seconds: 400, rate: 30 }).text], "big.hlog"),
    new File([hlogFixture(23, { tags: ["p", "q"] }).text], "small-b.hlog"),
    new File([generatedFixture("hgrm", 6).text], "dist.hgrm"),
    new File([hlogFixture(24).text], "small-c.hlog"),
  ];
}

const caps = (o: Partial<LoadCapabilities>): LoadCapabilities => ({ helpers: 0, payloadsOnDemand: false, splitBytes: SPLIT, ...o });

describe("planLoad", () => {
  it("reads everything here in one piece without helpers: how a log is cut is a speed setting, never part of an answer", async () => {
    const fs = files();
    expect(fs[2]!.size).toBeGreaterThan(2 * SPLIT);
    expect(fs.filter((_, i) => i !== 2).every((f) => f.size < SPLIT)).toBe(true);
    const plan = await planLoad(fs, caps({}));
    expect(plan.logs).toEqual([true, false, true, true, false, true]);
    expect(plan.steps.map((s) => s.read)).toEqual(["here", "here", "here", "here", "here", "here"]);
  });

  it("cuts a big log for the workers there are, just after line ends", async () => {
    const bytes = new Uint8Array(await files()[2]!.arrayBuffer());
    const piecesWith = async (helpers: number) => (await planLoad(files(), caps({ helpers }))).steps.flatMap((s) => (s.read === "pieces" ? [s] : []));
    const cutsWith = async (helpers: number) => (await piecesWith(helpers)).map((s) => s.cuts);
    for (const n of [1, 2, 4]) {
      const [cuts] = await cutsWith(n);
      expect(cuts!.length).toBeGreaterThan(n - 1);
      for (const c of cuts!) expect(bytes[c - 1]).toBe(10);
      expect(cuts).toEqual([...cuts!].sort((a, b) => a - b));
    }
    // Two workers: this one's stretch, then the helper's in two pieces (load-pieces.ts).
    const [two] = await piecesWith(1);
    expect(two!.cuts).toHaveLength(2);
    expect(two!.owners).toEqual([0, 1, 1]);
  });

  it("with helpers, shares runs of small files (logs to whoever is free, other formats here) around a big log", async () => {
    const plan = await planLoad(files(), caps({ helpers: 2 }));
    expect(plan.steps.map((s) => (s.read === "pieces" ? { read: s.read, file: s.file } : s))).toEqual([
      { read: "shared", here: [1], logs: [0] },
      { read: "pieces", file: 2 },
      { read: "shared", here: [4], logs: [3, 5] },
    ]);
  });

  it("refuses an interval log above the cap first, and reads the rest", async () => {
    const fs = files();
    const plan = await planLoad(fs, caps({ helpers: 1, maxLogBytes: fs[2]!.size - 1 }));
    expect(plan.steps[0]).toEqual({ read: "refused", file: 2, size: fs[2]!.size, cap: fs[2]!.size - 1 });
    expect(plan.steps.slice(1)).toEqual([
      { read: "shared", here: [1], logs: [0] },
      { read: "shared", here: [4], logs: [3, 5] },
    ]);
  });

  it("reads logs whose payloads come back from a store as parts: runs of them in one queue with helpers, one equal piece each; one by one without", async () => {
    const fs = files();
    const withHelpers = await planLoad(fs, caps({ helpers: 3, payloadsOnDemand: true }));
    const big = withHelpers.steps.flatMap((s) => (s.read === "on-demand" ? s.logs.filter((l) => l.file === 2) : []))[0]!;
    // Four threads, four pieces of about a quarter each.
    expect(big.cuts).toHaveLength(3);
    const size = fs[2]!.size;
    big.cuts.forEach((c, k) => expect(Math.abs(c - ((k + 1) * size) / 4)).toBeLessThan(size / 20));
    expect(withHelpers.steps).toEqual([
      { read: "on-demand", logs: [{ file: 0, cuts: [] }] },
      { read: "shared", here: [1], logs: [] },
      {
        read: "on-demand",
        logs: [
          { file: 2, cuts: big.cuts },
          { file: 3, cuts: [] },
        ],
      },
      { read: "shared", here: [4], logs: [] },
      { read: "on-demand", logs: [{ file: 5, cuts: [] }] },
    ]);
    const alone = await planLoad(fs, caps({ payloadsOnDemand: true }));
    expect(alone.steps).toEqual([
      { read: "on-demand", logs: [{ file: 0, cuts: [] }] },
      { read: "here", file: 1 },
      { read: "on-demand", logs: [{ file: 2, cuts: [] }] },
      { read: "on-demand", logs: [{ file: 3, cuts: [] }] },
      { read: "here", file: 4 },
      { read: "on-demand", logs: [{ file: 5, cuts: [] }] },
    ]);
  });
});
