// `serve` against a real server on a free loopback port: what it hands out (the page and the
// named files only), and the Server-Sent Events a page follows, through the faults a live run
// meets. Every line the writer completed must arrive exactly once, in order, and nothing of a
// partial line or of an earlier run may be mixed into a later one.
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startServer, type Serving } from "./serve";
import { main } from "./main";

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(url: string, pathname: string, headers: Record<string, string> = {}): Promise<Got> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: pathname, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

interface Sse {
  type: string;
  id: string | null;
  data: Record<string, unknown>;
}

/** An event stream read as a page reads it; `until` says when enough arrived. */
function events(url: string, until: (got: Sse[]) => boolean, lastId?: string, ms = 8000): Promise<Sse[]> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const got: Sse[] = [];
    let buf = "";
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`timed out; got ${JSON.stringify(got.map((e) => e.type))}`));
    }, ms);
    const req = request({ host: u.hostname, port: u.port, path: "/live/events", headers: lastId ? { "last-event-id": lastId } : {} }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        buf += d;
        let k;
        while ((k = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, k);
          buf = buf.slice(k + 2);
          let type = "message";
          let id: string | null = null;
          let data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event: ")) type = line.slice(7);
            else if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("data: ")) data += line.slice(6);
          }
          if (!data) continue;
          got.push({ type, id, data: JSON.parse(data) as Record<string, unknown> });
          if (until(got)) {
            clearTimeout(timer);
            req.destroy();
            resolve(got);
            return;
          }
        }
      });
    });
    req.on("error", (e) => {
      if (!req.destroyed) reject(e);
    });
    req.end();
  });
}

const text = (got: Sse[], file?: string) =>
  got
    .filter((e) => e.type === "lines" && (file === undefined || e.data.file === file))
    .map((e) => e.data.text)
    .join("");
const linesOf = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `${(from + i) * 0.001}\n`).join("");

let servers: Serving[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
});

function setup(): { dir: string; page: string; logs: string; outside: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "serve-"));
  const page = path.join(dir, "page");
  const logs = path.join(dir, "logs");
  mkdirSync(page);
  mkdirSync(path.join(page, "assets"));
  mkdirSync(logs);
  writeFileSync(path.join(page, "index.html"), "<!doctype html><html><head><title>page</title></head></html>");
  writeFileSync(path.join(page, "assets", "a.js"), "export {};");
  const outside = path.join(dir, "secret.txt");
  writeFileSync(outside, "not to be served\n");
  return { dir, page, logs, outside };
}

async function start(paths: string[], page: string, extra: { host?: string; port?: number; quietMs?: number; gatherMs?: number; pollMs?: number } = {}): Promise<Serving> {
  const s = await startServer({
    paths,
    host: extra.host ?? "127.0.0.1",
    port: extra.port ?? 0,
    pageDir: page,
    pollMs: extra.pollMs ?? 30,
    quietMs: extra.quietMs ?? 60_000,
    ...(extra.gatherMs !== undefined ? { gatherMs: extra.gatherMs } : {}),
  });
  servers.push(s);
  return s;
}

describe("serve: what it hands out", () => {
  it("prints serving http://127.0.0.1:PORT/ first, serves the page and the named files, no CORS header", async () => {
    const { page, logs, dir } = setup();
    writeFileSync(path.join(logs, "a.txt"), "1\n2\n");
    writeFileSync(path.join(dir, "one.txt"), "3\n");
    const s = await start([logs, path.join(dir, "one.txt")], page);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(s.exposed).toBe(false);
    const index = await get(s.url, "/");
    expect(index.status).toBe(200);
    expect(index.body).toContain("<title>page</title>");
    // Marked as served live: the page follows the files and opens no demo.
    expect(index.body).toContain('<head><meta name="hdr-spectrum-live" content="1">');
    expect((await get(s.url, "/assets/a.js")).status).toBe(200);
    const files = await get(s.url, "/live/files");
    expect(JSON.parse(files.body)).toEqual({
      files: [
        { id: "logs/a.txt", size: 4 },
        { id: "one.txt", size: 2 },
      ],
      quietSeconds: 60,
    });
    expect((await get(s.url, "/files/logs%2Fa.txt")).body).toBe("1\n2\n");
    for (const r of [index, files]) expect(Object.keys(r.headers).filter((h) => h.startsWith("access-control"))).toEqual([]);
  });

  it("refuses .., encoded %2e%2e, symlinks out of a named folder, other Host names", async () => {
    const { page, logs, outside } = setup();
    writeFileSync(path.join(logs, "a.txt"), "1\n");
    symlinkSync(outside, path.join(logs, "link.txt"));
    symlinkSync(outside, path.join(page, "assets", "link.js"));
    const s = await start([logs], page);
    for (const p of ["/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt", "/assets/%2E%2E/%2e%2e/secret.txt", "/assets%2f..%2f..%2fsecret.txt"]) {
      const r = await get(s.url, p);
      expect([403, 404], p).toContain(r.status);
      expect(r.body).not.toContain("not to be served");
    }
    for (const p of ["/files/logs%2Flink.txt", "/files/logs%2F..%2Fsecret.txt", "/files/..%2Fsecret.txt", "/assets/link.js"]) {
      const r = await get(s.url, p);
      expect(r.status, p).toBe(404);
      expect(r.body).not.toContain("not to be served");
    }
    expect(JSON.parse((await get(s.url, "/live/files")).body).files).toEqual([{ id: "logs/a.txt", size: 2 }]);
    expect((await get(s.url, "/", { host: "attacker.example:80" })).status).toBe(403);
  });

  it("says on stdout when --host is not loopback", async () => {
    const { page, logs } = setup();
    writeFileSync(path.join(logs, "a.txt"), "1\n");
    const s = await start([logs], page, { host: "0.0.0.0" });
    expect(s.exposed).toBe(true);
    // The command's own words, through main.
    let out = "";
    let stop = () => undefined as void;
    const stopped = new Promise<void>((r) => (stop = r));
    const run = main(
      ["serve", "--host", "0.0.0.0", "--port", "0", logs],
      { stdout: (t) => (out += t), stderr: () => undefined, stderrIsTTY: false },
      { helperScript: null, serve: { pageDir: page, stop: stopped } },
    );
    await new Promise((r) => setTimeout(r, 300));
    stop();
    expect(await run).toBe(0);
    expect(out.split("\n")[0]).toMatch(/^serving http:\/\/0\.0\.0\.0:\d+\/$/);
    expect(out).toMatch(/exposed: 0\.0\.0\.0 is not a loopback address/);
  });

  it("serve --help says what it serves and how safe it is", async () => {
    let out = "";
    const code = await main(["serve", "--help"], { stdout: (t) => (out += t), stderr: () => undefined, stderrIsTTY: false }, { helperScript: null });
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: hdr-spectrum serve \[--port P\] \[--host H\] FILES… DIRS…/);
    expect(out).toContain("default 127.0.0.1");
  });

  it("a path that does not exist is an error naming it (exit 2)", async () => {
    let err = "";
    const code = await main(["serve", "/no/such/dir"], { stdout: () => undefined, stderr: (t) => (err += t), stderrIsTTY: false }, { helperScript: null });
    expect(code).toBe(2);
    expect(err).toContain("/no/such/dir: no such file or folder");
  });
});

/** The stream's pieces as they arrive (ms since the request), until `n` lines events came. */
function pieces(url: string, n: number, ms = 8000): Promise<{ at: number; lines: number }[]> {
  const u = new URL(url);
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const got: { at: number; lines: number }[] = [];
    let seen = 0;
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`timed out; got ${JSON.stringify(got)}`));
    }, ms);
    const req = request({ host: u.hostname, port: u.port, path: "/live/events" }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        const lines = d.split("event: lines\n").length - 1;
        if (lines === 0) return;
        got.push({ at: Date.now() - t0, lines });
        if ((seen += lines) >= n) {
          clearTimeout(timer);
          req.destroy();
          resolve(got);
        }
      });
    });
    req.on("error", (e) => {
      if (!req.destroyed) reject(e);
    });
    req.end();
  });
}

describe("serve: following", () => {
  it("lines found soon after a send wait and go together, in one piece; a line after a quiet spell goes at once", async () => {
    const { page, logs } = setup();
    writeFileSync(path.join(logs, "a.txt"), "");
    writeFileSync(path.join(logs, "b.txt"), "");
    const s = await start([logs], page, { gatherMs: 1000 });
    const got = pieces(s.url, 3);
    await new Promise((r) => setTimeout(r, 200));
    appendFileSync(path.join(logs, "a.txt"), "1\n");
    // Two more lines, in two files, written while the first has just been sent.
    await new Promise((r) => setTimeout(r, 250));
    appendFileSync(path.join(logs, "b.txt"), "2\n");
    await new Promise((r) => setTimeout(r, 150));
    appendFileSync(path.join(logs, "a.txt"), "3\n");
    const p = await got;
    expect(p.map((x) => x.lines)).toEqual([1, 2]);
    // The first at once (a poll after it was written), the others together a second after it.
    expect(p[0]!.at).toBeLessThan(200 + 400);
    // Measured where they arrive: the first piece's own way there can take a few ms of the second.
    expect(p[1]!.at - p[0]!.at).toBeGreaterThanOrEqual(1000 - 20);
    expect(p[1]!.at - p[0]!.at).toBeLessThan(1000 + 500);
  });

  it("sends held lines when their gathering ends, not at the first look after it", async () => {
    const { page, logs } = setup();
    writeFileSync(path.join(logs, "a.txt"), "");
    // Looks 400 ms apart: a send at the first look after the gathering would come 1,200 ms after the first.
    const s = await start([logs], page, { gatherMs: 1000, pollMs: 400 });
    const got = pieces(s.url, 2);
    await new Promise((r) => setTimeout(r, 100));
    appendFileSync(path.join(logs, "a.txt"), "1\n");
    await new Promise((r) => setTimeout(r, 800));
    appendFileSync(path.join(logs, "a.txt"), "2\n");
    const p = await got;
    expect(p.map((x) => x.lines)).toEqual([1, 1]);
    // Measured where they arrive: the first piece's own way there can take a few ms of the second.
    expect(p[1]!.at - p[0]!.at).toBeGreaterThanOrEqual(1000 - 20);
    expect(p[1]!.at - p[0]!.at).toBeLessThan(1000 + 150);
  });

  it("sends complete lines only, each once, with the byte offset they end at", async () => {
    const { page, logs } = setup();
    const f = path.join(logs, "a.txt");
    writeFileSync(f, "1\n2\n3");
    const s = await start([logs], page);
    const first = await events(s.url, (g) => text(g) === "1\n2\n");
    expect(first.find((e) => e.type === "lines")!.data).toMatchObject({ file: "logs/a.txt", run: 1, start: true, end: 4 });
    // The partial "3" waits for its newline; then it arrives whole.
    const p = events(s.url, (g) => text(g).endsWith("34\n5\n"));
    setTimeout(() => appendFileSync(f, "4\n5\n"), 100);
    const all = await p;
    expect(text(all)).toBe("1\n2\n34\n5\n");
  });

  it("resumes from Last-Event-ID with no line twice, also after the server restarted", async () => {
    const { page, logs } = setup();
    const f = path.join(logs, "a.txt");
    writeFileSync(f, linesOf(10));
    const s1 = await start([logs], page);
    const a = await events(s1.url, (g) => text(g) === linesOf(10));
    const last = a.filter((e) => e.id).at(-1)!.id!;
    await s1.close();
    appendFileSync(f, linesOf(5, 10));
    const s2 = await start([logs], page);
    const b = await events(s2.url, (g) => text(g).length > 0, last);
    expect(text(a) + text(b)).toBe(linesOf(15));
    expect(b.find((e) => e.type === "lines")!.data).toMatchObject({ run: 1, start: false });
  });

  it("a burst of 10,000 lines at once arrives whole and in order", async () => {
    const { page, logs } = setup();
    const f = path.join(logs, "a.txt");
    writeFileSync(f, "");
    const s = await start([logs], page);
    const want = linesOf(10_000);
    const p = events(s.url, (g) => text(g).length >= want.length);
    setTimeout(() => appendFileSync(f, want), 100);
    expect(text(await p)).toBe(want);
  });

  it("a truncated file starts a new run, said, never mixed with the old", async () => {
    const { page, logs } = setup();
    const f = path.join(logs, "a.txt");
    writeFileSync(f, linesOf(20));
    const s = await start([logs], page);
    const p = events(s.url, (g) => text(g.filter((e) => e.data.run === 2)) === "7\n");
    setTimeout(() => {
      truncateSync(f, 0);
      appendFileSync(f, "7\n");
    }, 200);
    const got = await p;
    expect(got.find((e) => e.type === "run")!.data).toEqual({ file: "logs/a.txt", run: 2, reason: "truncated" });
    expect(text(got.filter((e) => e.data.run === 1))).toBe(linesOf(20));
    expect(got.find((e) => e.type === "lines" && e.data.run === 2)!.data).toMatchObject({ start: true, end: 2 });
  });

  it("a replaced file (a new inode) starts a new run", async () => {
    const { page, logs, dir } = setup();
    const f = path.join(logs, "a.txt");
    writeFileSync(f, linesOf(3));
    const s = await start([logs], page);
    const p = events(s.url, (g) => text(g.filter((e) => e.data.run === 2)) === linesOf(50));
    setTimeout(() => {
      writeFileSync(path.join(dir, "new.txt"), linesOf(50));
      renameSync(path.join(dir, "new.txt"), f);
    }, 200);
    const got = await p;
    expect(got.find((e) => e.type === "run")!.data).toMatchObject({ run: 2, reason: "replaced" });
  });

  it("the writer killed mid-line, then the file truncated (a failed write): the partial line is never sent", async () => {
    const { page, logs } = setup();
    const f = path.join(logs, "a.txt");
    writeFileSync(f, "1\n2\n");
    const s = await start([logs], page);
    const p = events(s.url, (g) => g.some((e) => e.data.run === 2 && e.type === "lines"));
    setTimeout(() => appendFileSync(f, "3.14159"), 100);
    setTimeout(() => {
      truncateSync(f, 0);
      appendFileSync(f, "9\n");
    }, 400);
    const got = await p;
    expect(text(got)).toBe("1\n2\n9\n");
    expect(text(got)).not.toContain("3.14");
  });

  it("a deleted file is said gone; a new file in a followed folder becomes a series; a still file is said quiet", async () => {
    const { page, logs } = setup();
    const a = path.join(logs, "a.txt");
    writeFileSync(a, "1\n");
    const s = await start([logs], page, { quietMs: 300 });
    const p = events(s.url, (g) => g.some((e) => e.type === "gone") && text(g, "logs/b.txt") === "2\n" && g.some((e) => e.type === "quiet"));
    setTimeout(() => writeFileSync(path.join(logs, "b.txt"), "2\n"), 100);
    setTimeout(() => unlinkSync(a), 200);
    const got = await p;
    expect(got.find((e) => e.type === "file")!.data).toEqual({ file: "logs/b.txt" });
    expect(got.find((e) => e.type === "gone")!.data).toEqual({ file: "logs/a.txt" });
    expect(got.find((e) => e.type === "quiet")!.data).toMatchObject({ seconds: 0 });
  });
});
