import { describe, expect, it } from "vitest";
import { linkAddress, pointsAtThisMachine } from "./link-base";

const page = (href: string) => {
  const u = new URL(href);
  return { origin: u.origin, pathname: u.pathname, protocol: u.protocol, href: u.href };
};

describe("the address links are made for", () => {
  it("is the page's own without a base, the base's (without query or fragment) with one", () => {
    expect(linkAddress("", page("http://127.0.0.1:4173/app/?x=1#s=abc"))).toEqual({ address: "http://127.0.0.1:4173/app/" });
    expect(linkAddress(" https://perf.example.org/hdr/?q#old ", page("http://127.0.0.1:4173/"))).toEqual({ address: "https://perf.example.org/hdr/" });
    expect(linkAddress("", page("file:///home/me/dist/index.html#s=1"))).toEqual({ address: "file:///home/me/dist/index.html" });
  });
  it("refuses what is not an http(s) address, saying so", () => {
    expect(linkAddress("perf.example.org", page("http://localhost/"))).toEqual({ error: expect.stringMatching(/not an address/) });
    expect(linkAddress("ftp://perf.example.org/", page("http://localhost/"))).toEqual({ error: expect.stringMatching(/http or https/) });
  });
  it("tells links that open only on this machine", () => {
    for (const a of ["http://localhost:5173/", "http://127.0.0.1:4173/", "http://127.0.1.1/", "http://[::1]:8080/", "file:///tmp/index.html", "http://app.localhost/"])
      expect(pointsAtThisMachine(a), a).toBe(true);
    for (const a of ["https://perf.example.org/hdr/", "http://10.0.0.5:4173/", "https://localhost.example.com/"]) expect(pointsAtThisMachine(a), a).toBe(false);
  });
});
