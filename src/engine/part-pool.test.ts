// The engine's side of helpers the page started: requests go out through the given port,
// replies come back through it, and a helper reported dead fails what it was doing.
import { describe, expect, it } from "vitest";
import type { HlogPart } from "./ingest";
import { HelperPool, pageHost } from "./part-pool";
import type { HelperReply, HelperRequest } from "./helpers/messages";

/** A stand-in helper on the far end of a port: records requests, answers when told. */
function fakeHelper() {
  const channel = new MessageChannel();
  const requests: HelperRequest[] = [];
  channel.port1.onmessage = (ev: MessageEvent<HelperRequest>) => requests.push(ev.data);
  const reply = (r: HelperReply) => channel.port1.postMessage(r);
  return { port: channel.port2, requests, reply, close: () => channel.port1.close() };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

const part: HlogPart = {
  reader: { problems: [], skipped: 0, startTime: null, baseTime: null, headerSeen: false } as unknown as HlogPart["reader"],
  lines: 3,
  intervalCount: 2,
  tags: [],
  source: null,
  chars: 0,
};

/** A pool of one helper with one read sent to it (the helper has its request). */
async function oneRead(signal?: AbortSignal) {
  const a = fakeHelper();
  const pool = new HelperPool(1, pageHost([a.port]));
  const read = pool.read(0, new Blob(["x"]), "log.hlog", () => undefined, signal);
  await until(() => a.requests.length === 1);
  return { a, pool, read };
}

describe("HelperPool over ports from the page", () => {
  it("sends reads through the helper's port and resolves with the helper's part, passing progress on", async () => {
    const a = fakeHelper();
    const b = fakeHelper();
    const pool = new HelperPool(2, pageHost([a.port, b.port]));
    const progress: number[] = [];
    const read = pool.read(1, new Blob(["x"]), "log.hlog", (bytes) => progress.push(bytes));
    await until(() => b.requests.length === 1);
    expect(a.requests).toHaveLength(0);
    const req = b.requests[0]!;
    expect(req.type).toBe("read");
    if (req.type !== "read") return;
    expect(req.name).toBe("log.hlog");
    b.reply({ id: req.id, type: "progress", bytes: 123, intervals: 1 });
    b.reply({ id: req.id, type: "done", part });
    await expect(read).resolves.toMatchObject({ lines: 3, intervalCount: 2 });
    expect(progress).toEqual([123]);
    a.close();
    b.close();
  });

  it("a helper's error message fails the read with it", async () => {
    const { a, read } = await oneRead();
    a.reply({ id: a.requests[0]!.id, type: "error", message: "line 7: bad" });
    await expect(read).rejects.toThrow("line 7: bad");
    a.close();
  });

  it("a helper reported dead fails what it was doing; the next read on that slot needs a new worker", async () => {
    const { a, pool, read } = await oneRead();
    pool.failed(0, "out of memory");
    await expect(read).rejects.toThrow("helper worker failed: out of memory");
    // No Worker in this process: the pool cannot start a replacement, and says so (the caller then reads the file itself).
    await expect(pool.read(0, new Blob(["x"]), "log.hlog", () => undefined)).rejects.toThrow(/no helper worker/);
    a.close();
  });

  it("cancelling sends the helper a cancel for that read", async () => {
    const control = new AbortController();
    const { a, read } = await oneRead(control.signal);
    control.abort();
    await until(() => a.requests.length === 2);
    expect(a.requests[1]).toEqual({ type: "cancel", id: a.requests[0]!.id });
    a.reply({ id: a.requests[0]!.id, type: "error", message: "cancelled" });
    await expect(read).rejects.toThrow("cancelled");
    a.close();
  });
});
