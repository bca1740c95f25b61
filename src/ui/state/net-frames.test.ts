// The page's port for the engine's requests to other hosts: a host not agreed to is refused
// without a request made, and a saved answer is replayed whole through the engine's fetch.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { netFetch, netPort } from "./net-frames";
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
});
