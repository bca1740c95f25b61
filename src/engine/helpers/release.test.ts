// A load that reads no log (a server's series) tells the helpers so (`release`): each stops its
// idle warm-up, lets go of the block chunks the warm-up wrote ahead for a log's read, and ends;
// the pool starts helpers anew for the next log. Checked on what is held and asked (the thread's
// chunk pool, the warm-up's reads, the helpers started), never on timings.
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
function helper(read: Parameters<typeof pageHelperSide>[3]) {
  const replies: HelperReply[] = [];
  const ended = { count: 0 };
  const { side, warming } = pageHelperSide(new EngineContext(), () => ended.count++, 0, read);
  const onRequest = serveHelper((r) => replies.push(r), side);
  return { replies, warming, ended, send: (m: HelperRequest) => onRequest(m) };
}

const settled = () => new Promise((r) => setTimeout(r, 0));

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
    await settled();
    expect(h.ended.count).toBe(0);
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
    // Nothing answers a release; the helper ends.
    expect(h.replies).toEqual([]);
    await settled();
    expect(h.ended.count).toBe(1);
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

  it("a helper told while it reads a part ends once the part is answered", async () => {
    const events: string[] = [];
    const { side } = pageHelperSide(
      new EngineContext(),
      () => events.push("end"),
      0,
      async () => undefined,
    );
    const onRequest = serveHelper((r) => events.push(`${r.type} ${r.id}`), side);
    onRequest({ type: "read", id: 7, piece: new Blob([syntheticLog(50)]), name: "x.hlog", before: null, blocks: true });
    onRequest({ type: "release", id: 8 });
    for (let k = 0; k < 200 && !events.includes("end"); k++) await new Promise((r) => setTimeout(r, 10));
    expect(events.filter((e) => !e.startsWith("progress"))).toEqual(["done 7", "end"]);
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
    expect(pool.release()).toBe(true);
    expect(posted.map((p) => [p.helper, p.m.type])).toEqual([
      [0, "release"],
      [1, "release"],
      [2, "release"],
    ]);
    expect(started).toEqual([0, 1, 2]);
    // Ended: the next log's read starts its helper anew, and a second release tells no one.
    posted.length = 0;
    void pool.read(1, new Blob(["x"]), "x.hlog");
    expect(started).toEqual([0, 1, 2, 1]);
    expect(posted.map((p) => [p.helper, p.m.type])).toEqual([[1, "read"]]);
  });

  it("the pool ends no helper while a request is pending (a log's parts still being read)", () => {
    const posted: HelperRequest[] = [];
    const host: HelperHost = {
      noun: "worker",
      start: () => ({ post: (m) => void posted.push(m) }),
      refs: (blob) => ({ piece: blob, before: null, blocks: true }),
    };
    const pool = new HelperPool(1, host);
    void pool.read(0, new Blob(["x"]), "x.hlog");
    expect(pool.release()).toBe(false);
    expect(posted.map((m) => m.type)).toEqual(["read"]);
  });
});
