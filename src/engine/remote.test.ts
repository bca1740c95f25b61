import { describe, expect, it } from "vitest";
import { foreignHosts, looksBinary, nameOfUrl, needsConsent, refuseUrl, srcUrls } from "./remote";

describe("remote logs", () => {
  it("reads several src= parameters from a fragment", () => {
    expect(srcUrls("#src=https://a.test/x.hlog&src=https%3A%2F%2Fb.test%2Fy%20z.hlog&s=2.abc")).toEqual(["https://a.test/x.hlog", "https://b.test/y z.hlog"]);
    expect(srcUrls("#s=2.abc")).toEqual([]);
  });
  it("fetches http(s) only", () => {
    expect(refuseUrl("https://a.test/x.hlog")).toBeNull();
    expect(refuseUrl("http://127.0.0.1:8080/x")).toBeNull();
    expect(refuseUrl("javascript:alert(1)")).toMatch(/only http and https/);
    expect(refuseUrl("file:///etc/passwd")).toMatch(/only http and https/);
    expect(refuseUrl("data:text/plain,1")).toMatch(/only http and https/);
    expect(refuseUrl("not a url")).toBe("not a valid URL");
  });
  it("names a series after the URL's file", () => {
    expect(nameOfUrl("https://a.test/runs/sysA_40k.hlog?x=1")).toBe("sysA_40k.hlog");
  });
  it("sniffs binary content", () => {
    expect(looksBinary(new TextEncoder().encode("#[StartTime: 1 (seconds since epoch)]\n0.1,1,1,HISTFA"))).toBe(false);
    expect(looksBinary(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBe(true);
  });
});

describe("asking before fetching from other hosts", () => {
  const page = "https://app.test";
  it("names each other host once, in order; the page's own origin and refused URLs need no question", () => {
    const urls = ["https://logs.a.test/x.hlog", "https://app.test/demo/y.hlog", "http://b.test:8080/z.hlog", "https://logs.a.test/w.hlog", "javascript:alert(1)", "not a url"];
    expect(foreignHosts(urls, page)).toEqual(["logs.a.test", "b.test:8080"]);
    expect(urls.map((u) => needsConsent(u, page))).toEqual([true, false, true, true, false, false]);
  });
  it("another scheme or port of the same host is another origin", () => {
    expect(foreignHosts(["http://app.test/x.hlog", "https://app.test:8443/x.hlog", "https://app.test:443/x.hlog"], page)).toEqual(["app.test", "app.test:8443"]);
  });
  it("nothing to ask for same-origin links", () => {
    expect(foreignHosts(["https://app.test/a.hlog", "/relative.hlog"], page)).toEqual([]);
  });
});
