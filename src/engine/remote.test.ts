import { describe, expect, it } from "vitest";
import { looksBinary, nameOfUrl, refuseUrl, srcUrls } from "./remote";

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
