// A load that reads no log (a server's series) tells the helpers so (`release`): each stops its
// idle warm-up and lets go of the block chunks the warm-up wrote ahead for a log's read. Checked
// on what is held (the thread's chunk pool, the warm-up's reads), never on timings.
import { afterEach, describe, expect, it } from "vitest";
import { threadBlockWorkspace } from "../block-workspace";
import { EngineContext } from "../context";
import { READS_NO_LOGS, READY_BLOCK_CHUNKS, syntheticLog, WARM_UP_LINES } from "../warm-up";
import type { HelperReply, HelperRequest } from "./messages";
import { pageHelperSide } from "./page-side";
import { HelperPool, type HelperHost } from "./pool";
import { serveHelper } from "./serve";

const chunks = () => threadBlockWorkspace().chunks;
const warmState = () => (globalThis as unknown as { hdrWarmUp?: string }).hdrWarmUp;

afterEach(() => chunks().drop());

/** A helper of the page as its worker runs it, its warm-up started at once; `read` stands for the warm-up's reads (counted). */
function helper(read: Parameters<typeof pageHelperSide>[2]) {
  const replies: HelperReply[] = [];
  const { side, warming } = pageHelperSide(new EngineContext(), 0, read);
  const onRequest = serveHelper((r) => replies.push(r), side);
  return { replies, warming, send: (m: HelperRequest) => onRequest(m) };
}

describe("release: the helpers' warm-up ends when a load reads no log", () => {
  it("the loads that read no log are a server's series, and only those", () => {
    expect([...READS_NO_LOGS]).toEqual(["loadPrometheus"]);
    for (const kind of ["load", "loadUrls", "loadText", "append", "openShare"]) expect(READS_NO_LOGS.has(kind)).toBe(false);
  });

  it("untold, the warm-up reads its synthetic log in every round and writes its chunks ahead (what release stops)", async () => {
    let rounds = 0;
    const h = helper(async (_name, it) => {
      rounds++;
      for await (const _ of it);
    });
    await h.warming;
    expect(rounds).toBeGreaterThan(1);
    expect(chunks().ready).toBe(READY_BLOCK_CHUNKS);
    expect(h.replies).toEqual([]);
  });

  it("told while it reads, it stops within that read and writes no chunk", async () => {
    let rounds = 0;
    let slices = 0;
    let slicesAfter = 0;
    let told = false;
    const h = helper(async (_name, it) => {
      rounds++;
      for await (const _ of it) {
        // A millisecond a slice at least, as a real read takes: the warm-up looks every few ms.
        await new Promise((r) => setTimeout(r, 1));
        if (told) slicesAfter++;
        if (++slices === 3) {
          h.send({ type: "release", id: 1 });
          told = true;
        }
      }
    });
    await h.warming;
    expect(told).toBe(true);
    expect(rounds).toBe(1);
    // The slices until its next look at the event loop, of a round's hundreds.
    expect(slicesAfter).toBeLessThan(20);
    expect(slices).toBeLessThan(new TextEncoder().encode(syntheticLog(Math.ceil(WARM_UP_LINES / 3))).length / (16 * 1024) / 4);
    expect(chunks().ready).toBe(0);
    expect(warmState()).toBe("over");
    // Nothing answers a release.
    expect(h.replies).toEqual([]);
  });

  it("told after it wrote its chunks, it lets them go at once", async () => {
    const h = helper(async (_name, it) => {
      for await (const _ of it);
    });
    await h.warming;
    expect(chunks().ready).toBe(READY_BLOCK_CHUNKS);
    h.send({ type: "release", id: 1 });
    expect(chunks().ready).toBe(0);
  });

  it("told before it started, it never reads", async () => {
    let rounds = 0;
    const h = helper(async (_name, it) => {
      rounds++;
      for await (const _ of it);
    });
    h.send({ type: "release", id: 1 });
    await h.warming;
    expect(rounds).toBe(0);
    expect(chunks().ready).toBe(0);
  });

  it("the pool tells every helper it started, and starts none for it", () => {
    const posted: { helper: number; m: HelperRequest }[] = [];
    const started: number[] = [];
    const host: HelperHost = {
      noun: "worker",
      start(helper) {
        started.push(helper);
        return { post: (m) => void posted.push({ helper, m }) };
      },
      refs: (blob) => ({ piece: blob, before: null, blocks: true }),
    };
    const none = new HelperPool(2, host);
    none.release();
    expect(started).toEqual([]);
    expect(posted).toEqual([]);
    const pool = new HelperPool(3, host);
    pool.start();
    pool.release();
    expect(posted.map((p) => [p.helper, p.m.type])).toEqual([
      [0, "release"],
      [1, "release"],
      [2, "release"],
    ]);
    expect(started).toEqual([0, 1, 2]);
  });
});
