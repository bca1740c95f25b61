import { describe, expect, it } from "vitest";
import { Store } from "../../engine/store";
import { memberOf, removalOf, replayMerges, replayRemovals, type RemovedSeries, type SavedMerge } from "./merges";

/** A store with three one-series files of known values. */
async function loaded(): Promise<Store> {
  const store = new Store();
  await store.load("a.txt", ["1\n2\n3\n"]);
  await store.load("b.txt", ["10\n20\n"]);
  await store.load("c.txt", ["100\n"]);
  return store;
}

/** How a saved merge names a file's untagged series. */
const untagged = (source: string) => ({ source, tag: "" });

const ops = (s: Store) => ({ merge: async (ids: string[], name: string) => s.merge(ids, name), remove: async (id: string) => s.remove(id) });

describe("merges kept in the session", () => {
  it("a merge of a merge comes back with the same counts and names after a fresh load", async () => {
    const before = await loaded();
    const index = new Map<string, number>();
    const saved: SavedMerge[] = [];
    const record = (ids: string[], name: string) => {
      const views = before.views();
      saved.push({
        members: ids.map((id) =>
          memberOf(
            views.find((v) => v.id === id)!,
            index,
          )!,
        ),
        name,
      });
      index.set(before.merge(ids, name), saved.length - 1);
    };
    const [a, b, c] = before.views().map((v) => v.id);
    record([a!, b!], "ab");
    record([[...index.keys()][0]!, c!], "abc");
    const expected = before.views().map((v) => [v.name, v.spectrum.totalCount, v.spectrum.percentiles["100"]]);

    const after = await loaded();
    const restored = await replayMerges(saved, after.views(), ops(after));
    expect(after.views().map((v) => [v.name, v.spectrum.totalCount, v.spectrum.percentiles["100"]])).toEqual(expected);
    expect([...restored.values()].sort()).toEqual([0, 1]);
    expect(expected.at(-1)).toEqual(["abc", 6, expect.any(Number)]);
  });

  it("a merge removed after a later merge was made from it is made, used, then removed", async () => {
    const saved: SavedMerge[] = [
      {
        members: [untagged("a.txt"), untagged("b.txt")],
        name: "ab",
        removed: true,
      },
      { members: [{ merge: 0 }, untagged("c.txt")], name: "abc" },
    ];
    const s = await loaded();
    await replayMerges(saved, s.views(), ops(s));
    expect(s.views().map((v) => [v.name, v.spectrum.totalCount])).toEqual([
      ["a", 3],
      ["b", 2],
      ["c", 1],
      ["abc", 6],
    ]);
  });

  it("a merge whose member did not load is skipped, and so is every merge made from it", async () => {
    const saved: SavedMerge[] = [
      {
        members: [untagged("a.txt"), untagged("gone.txt")],
        name: "a-gone",
      },
      { members: [{ merge: 0 }, untagged("c.txt")], name: "later" },
      {
        members: [untagged("b.txt"), untagged("c.txt")],
        name: "bc",
      },
    ];
    const s = await loaded();
    const index = await replayMerges(saved, s.views(), ops(s));
    expect(s.views().map((v) => v.name)).toEqual(["a", "b", "c", "bc"]);
    expect([...index.values()]).toEqual([2]);
  });

  it("remembers series by file and tag, merges by their place, and a corrected copy by what it corrects", () => {
    const index = new Map([["m7", 3]]);
    expect(memberOf({ id: "s1", source: "x.hlog", tag: "A", correctedFrom: null, mergedFrom: [] }, index)).toEqual({ source: "x.hlog", tag: "A" });
    expect(memberOf({ id: "m7", source: "x, y", tag: "", correctedFrom: null, mergedFrom: ["a", "b"] }, index)).toEqual({ merge: 3 });
    expect(memberOf({ id: "m7#co", source: "x, y", tag: "", correctedFrom: "m7", mergedFrom: ["a", "b"] }, index)).toEqual({ merge: 3 });
    expect(memberOf({ id: "m9", source: "x, y", tag: "", correctedFrom: null, mergedFrom: ["a", "b"] }, index)).toBeNull();
  });
});

describe("removed series kept in the session", () => {
  it("the same series are removed again after a fresh load, the nth copy of a file loaded twice included", async () => {
    const load = async () => {
      const s = await loaded();
      await s.load("a.txt", ["7\n8\n"]); // a second a.txt: two series of the same file and tag
      return s;
    };
    const before = await load();
    const removed: RemovedSeries[] = [];
    const drop = (pick: (names: string[]) => number) => {
      const views = before.views();
      const v = views[pick(views.map((x) => x.name))]!;
      removed.push(removalOf(v, views)!);
      before.remove(v.id);
    };
    drop((names) => names.indexOf("a (2)")); // the second a.txt, named apart from the first
    drop((names) => names.indexOf("c"));
    const expected = before.views().map((v) => [v.name, v.spectrum.totalCount]);
    expect(expected).toEqual([
      ["a", 3],
      ["b", 2],
    ]);
    const after = await load();
    await replayRemovals(removed, after.views(), async (id) => after.remove(id));
    expect(after.views().map((v) => [v.name, v.spectrum.totalCount])).toEqual(expected);
  });

  it("merged and corrected series are not recorded as removals; unknown ones are passed over", async () => {
    const s = await loaded();
    const [a, b] = s.views().map((v) => v.id);
    s.merge([a!, b!], "ab");
    const m = s.views().find((v) => v.name === "ab")!;
    expect(removalOf(m, s.views())).toBeNull();
    await replayRemovals(
      [
        { source: "gone.txt", tag: "", nth: 0 },
        { source: "a.txt", tag: "", nth: 5 },
      ],
      s.views(),
      async (id) => s.remove(id),
    );
    expect(s.views().map((v) => v.name)).toEqual(["a", "b", "c", "ab"]);
  });
});
