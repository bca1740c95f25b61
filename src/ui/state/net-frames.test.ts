// The page's port for the engine's requests to other hosts: a host not agreed to is refused
// without a request made, a saved answer is replayed whole through the engine's fetch, and an
// answer kept as it passes is kept byte for byte up to its cap.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnswerRecorder, netFetch, netPort } from "./net-frames";
import { portFetch } from "../../engine/net-port";

const g = globalThis as { location?: unknown };
const had = g.location;
beforeAll(() => {
  g.location = { origin: "http://page.test" };
});
afterAll(() => {
  g.location = had;
});

describe("netPort", () => {
  it("refuses a host the user did not agree to, asking nothing", async () => {
    const net = netPort();
    const f = portFetch(net.port);
    await expect(f("http://elsewhere.test:9090/api/v1/query_range?query=x")).rejects.toThrow("elsewhere.test:9090 was not agreed to");
    net.done();
    net.port.close();
  });

  it("the page's own fetch refuses a host not agreed to", async () => {
    await expect(netFetch("https://elsewhere.test/run.hlog", { headers: { Range: "bytes=10-" } })).rejects.toThrow("elsewhere.test was not agreed to");
  });

  it("replays a saved answer byte for byte, pulled in chunks, with no host asked", async () => {
    // Larger than one chunk of a Blob's stream, with multi-byte characters across chunk edges.
    const text = `{"status":"success","data":{"resultType":"matrix","result":[]},"pad":"${"é×".repeat(200_000)}"}`;
    const net = netPort({ replay: new Blob([text]) });
    const res = await portFetch(net.port)("http://elsewhere.test:9090/api/v1/query_range?query=x", { headers: { Authorization: "Bearer t" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(text);
    expect(net.done()).toBeNull();
    net.port.close();
  });

  it("a 304 comes back with no body, even when the frame's answer said it had one", async () => {
    // The frame's fetch gives a 304 a body stream; a Response refuses a body on a 304.
    const channel = new MessageChannel();
    let cancelled = false;
    channel.port1.onmessage = (ev: MessageEvent<{ reply: MessagePort }>) => {
      const reply = ev.data.reply;
      reply.onmessage = (e: MessageEvent<{ type: string }>) => void (cancelled ||= e.data.type === "cancel");
      reply.postMessage({ type: "head", status: 304, statusText: "Not Modified", headers: [["etag", '"v1"']], body: true });
    };
    const res = await portFetch(channel.port2)("http://elsewhere.test/run.hlog", { headers: { "If-None-Match": '"v1"' } });
    expect(res.status).toBe(304);
    expect(res.body).toBeNull();
    expect(res.headers.get("etag")).toBe('"v1"');
    await new Promise((r) => setTimeout(r, 20));
    expect(cancelled).toBe(true);
    channel.port1.close();
  });

  it("stops a replay when the reader aborts", async () => {
    const net = netPort({ replay: new Blob(["x".repeat(1 << 20)]) });
    const ctl = new AbortController();
    const res = await portFetch(net.port)("http://elsewhere.test/x", { signal: ctl.signal });
    const reader = res.body!.getReader();
    await reader.read();
    ctl.abort();
    await expect(reader.read()).rejects.toThrow();
    net.done();
    net.port.close();
  });

  it("asks for the next chunks while the reader works on one, and gives them in order, ended once", async () => {
    // A frame that answers each pull a little later, out of step with the asker.
    const channel = new MessageChannel();
    let pulls = 0;
    const chunks = Array.from({ length: 40 }, (_, i) => new TextEncoder().encode(`<${i}>`));
    channel.port1.onmessage = (ev: MessageEvent<{ reply: MessagePort }>) => {
      const reply = ev.data.reply;
      let next = 0;
      reply.onmessage = (e: MessageEvent<{ type: string }>) => {
        if (e.data.type !== "pull") return;
        pulls++;
        const i = next++;
        setTimeout(() => {
          if (i >= chunks.length) return reply.postMessage({ type: "end" });
          const b = chunks[i]!.slice().buffer;
          reply.postMessage({ type: "chunk", bytes: b }, [b]);
        }, 1);
      };
      reply.postMessage({ type: "head", status: 200, statusText: "OK", headers: [], body: true });
    };
    const res = await portFetch(channel.port2)("http://elsewhere.test/x");
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("<0>");
    // Before the reader asks again, the next chunks have been asked for.
    await new Promise((r) => setTimeout(r, 30));
    expect(pulls).toBeGreaterThan(2);
    let text = "<0>";
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      text += new TextDecoder().decode(r.value);
    }
    expect(text).toBe(chunks.map((c) => new TextDecoder().decode(c)).join(""));
    channel.port1.close();
  });
});

describe("AnswerRecorder", () => {
  const bytes = (n: number, from: number) => Uint8Array.from({ length: n }, (_, i) => (from + i) % 251).buffer;

  it("keeps an answer's chunks byte for byte in order, across its part size and past it", async () => {
    // Parts of 1,000 bytes: chunks that fill one exactly, cross its edge, and one larger than a part.
    const r = new AnswerRecorder(1 << 20, 1000);
    const sizes = [10, 990, 7, 1500, 3, 999, 1, 0, 2500, 40];
    let at = 0;
    for (const n of sizes) {
      r.chunk(bytes(n, at));
      at += n;
    }
    const blob = r.end("application/json")!;
    expect(blob.type).toBe("application/json");
    expect(blob.size).toBe(at);
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual(Array.from({ length: at }, (_, i) => i % 251));
  });

  it("keeps nothing past its cap, nor once dropped", () => {
    const r = new AnswerRecorder(100, 64);
    r.chunk(bytes(60, 0));
    r.chunk(bytes(41, 60));
    expect(r.end("application/json")).toBeNull();
    const d = new AnswerRecorder(100, 64);
    d.chunk(bytes(10, 0));
    d.drop();
    d.chunk(bytes(10, 10));
    expect(d.end("application/json")).toBeNull();
  });

  it("an answer of exactly its cap is kept", async () => {
    const r = new AnswerRecorder(100, 64);
    r.chunk(bytes(100, 0));
    expect((await r.end("text/plain")!.arrayBuffer()).byteLength).toBe(100);
  });
});
