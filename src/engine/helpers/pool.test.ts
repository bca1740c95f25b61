// The one helper pool over a host of the test's own: what a host decides (how a piece is named,
// what is done with a part) and what the pool does for every host (merge requests, a host that
// refuses a piece, a helper that cannot be started, closing).
import { describe, expect, it } from "vitest";
import type { HlogPart } from "../hlog-ingest";
import type { MergedShare } from "../merge";
import type { HelperReply, HelperRequest } from "./messages";
import { HelperPool, type HelperHost, type HelperLink } from "./pool";

const part = { lines: 3, intervalCount: 2, tags: [], source: null, chars: 0 } as unknown as HlogPart;
const share: MergedShare = { groups: [], problems: [{ file: "a.hlog", line: 2, reason: "bad" }], sequential: false };

/** A host whose helpers answer at once: a read with `part`, a merge with `share`. */
function host(log: HelperRequest[], ended: number[], startable = true): HelperHost {
  return {
    noun: "thread",
    start(helper: number, link: HelperLink) {
      if (!startable) throw new Error("cannot start");
      return {
        post(m) {
          log.push(m);
          const answer: HelperReply | null = m.type === "read" ? { id: m.id, type: "done", part } : m.type === "merge" ? { id: m.id, type: "merged", share } : null;
          if (answer) queueMicrotask(() => link.reply(answer));
        },
        end: async () => void ended.push(helper),
      };
    },
    refs(blob) {
      if (blob.size === 0) throw new Error("only files on disk are read on helper threads");
      return { piece: { path: "/x.hlog", start: 10, end: 10 + blob.size }, before: null, blocks: false };
    },
    received: (p) => ({ ...p, chars: 99 }),
  };
}

describe("HelperPool over any host", () => {
  it("sends what the host names a piece as, and hands back the part as the host finishes it", async () => {
    const log: HelperRequest[] = [];
    const pool = new HelperPool(2, host(log, []));
    const got = await pool.read(1, new Blob(["abc"]), "x.hlog");
    expect(got.chars).toBe(99);
    expect(log).toEqual([{ type: "read", id: 1, name: "x.hlog", piece: { path: "/x.hlog", start: 10, end: 13 }, before: null, blocks: false }]);
  });

  it("asks for a merge of a share and resolves with the helper's share", async () => {
    const log: HelperRequest[] = [];
    const pool = new HelperPool(1, host(log, []));
    await expect(pool.merge(0, ["a.hlog", "b.hlog"], { start: 5, end: null })).resolves.toEqual(share);
    expect(log[0]).toMatchObject({ type: "merge", paths: ["a.hlog", "b.hlog"], range: { start: 5, end: null } });
  });

  it("fails a read the host refuses, and one on a helper that cannot be started, in words", async () => {
    const pool = new HelperPool(1, host([], []));
    await expect(pool.read(0, new Blob([]), "x.hlog")).rejects.toThrow("only files on disk are read on helper threads");
    const none = new HelperPool(1, host([], [], false));
    none.start();
    await expect(none.read(0, new Blob(["abc"]), "x.hlog")).rejects.toThrow("no helper thread: cannot start");
  });

  it("closing ends every started helper, once", async () => {
    const ended: number[] = [];
    const pool = new HelperPool(3, host([], ended));
    await pool.read(2, new Blob(["abc"]), "x.hlog");
    await pool.read(0, new Blob(["abc"]), "x.hlog");
    await pool.close();
    await pool.close();
    expect(ended.sort()).toEqual([0, 2]);
  });
});
