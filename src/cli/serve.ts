// `serve`: the built page and the named files over HTTP, the files followed as they grow. The
// page asks `/live/files` what is followed and `/live/events` (Server-Sent Events) for the
// complete lines as they are written (live-follow.ts); it loads and appends them in its engine
// as `watch` does. Safe by default: loopback only unless --host says otherwise (and then it is
// said), only the page and the named files, no CORS header, files opened read-only.
import { createReadStream, existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CliError } from "./errors";
import { LiveFollow, parseCursor, type LiveEvent } from "./live-follow";
import { inside, pagePath, ServedPaths } from "./serve-paths";

export interface ServeOptions {
  paths: readonly string[];
  host: string;
  port: number;
  /** The built page (dist/); by default found beside the command line. */
  pageDir?: string;
  /** How often the files are looked at (ms). */
  pollMs?: number;
  /** How long a file must stay unchanged to be said quiet (ms). */
  quietMs?: number;
  /** The least time between two sends of lines to a page (ms); see `events`. */
  gatherMs?: number;
  /** Stops the command (tests); otherwise Ctrl-C or SIGTERM does. */
  stop?: Promise<void>;
}

export interface Serving {
  url: string;
  exposed: boolean;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
  ".lua": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The page's folder: dist/ beside the bundled command line (dist-cli/) or the source tree. */
export function defaultPageDir(): string {
  for (const rel of ["../dist/", "../../dist/"]) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  throw new CliError(2, "serve: the page is not built (run npm run build)");
}

function refuse(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" });
  res.end(`${text}\n`);
}

export async function startServer(o: ServeOptions): Promise<Serving> {
  const served = new ServedPaths(o.paths);
  const pageDir = realpathSync(o.pageDir ?? defaultPageDir());
  const indexPath = join(pageDir, "index.html");
  // A look at ten files is a few stat calls: looking often keeps a line's wait to be found
  // short, so that lines can be gathered for longer and the page redraw less often.
  const pollMs = o.pollMs ?? 50;
  const quietMs = o.quietMs ?? 30_000;
  // Every redraw of the page costs about the same, however many lines it draws: lines found
  // within this of a send wait here and go together when it ends, so that many writers wake the
  // page once a redraw, not once a line. A line waits at most this long plus a look, and is drawn
  // within a second at p95. A line after a quiet spell goes at once; notes (a new run, a deleted
  // file) too. More than the page's least time between redraws (use-live.ts), so that the page
  // draws each send as it arrives.
  const gatherMs = o.gatherMs ?? 900;
  const loopback = isLoopback(o.host);
  const streams = new Set<ServerResponse>();

  const sendFile = (req: IncomingMessage, res: ServerResponse, path: string, type: string, cache: string) => {
    const size = statSync(path).size;
    res.writeHead(200, { "content-type": type, "content-length": size, "cache-control": cache, "x-content-type-options": "nosniff" });
    if (req.method === "HEAD") return void res.end();
    createReadStream(path, { flags: "r" })
      .on("error", () => res.destroy())
      .pipe(res);
  };

  const events = (req: IncomingMessage, res: ServerResponse) => {
    const last = req.headers["last-event-id"];
    const follow = new LiveFollow(() => served.list(), parseCursor(typeof last === "string" ? last : undefined), quietMs);
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" });
    // A page whose connection drops tries again after a second, naming where it stopped.
    res.write("retry: 1000\n\n");
    streams.add(res);
    let idle = 0;
    /** Events found and not yet sent, in order, and when lines were last sent. */
    let held = "";
    let holdsNote = false;
    let sentAt = -Infinity;
    const text = (e: LiveEvent) => {
      const { id, type, ...body } = e;
      return `event: ${type}\nid: ${id}\ndata: ${JSON.stringify(body)}\n\n`;
    };
    const tick = () => {
      if (res.destroyed) return;
      let list: LiveEvent[];
      try {
        list = follow.poll();
      } catch (err) {
        held += `event: problem\ndata: ${JSON.stringify({ reason: (err as Error).message })}\n\n`;
        holdsNote = true;
        list = [];
      }
      for (const e of list) {
        held += text(e);
        if (e.type !== "lines") holdsNote = true;
      }
      const now = Date.now();
      // One write: the page's EventSource reads it as one piece and takes its events together.
      if (held && (holdsNote || now - sentAt >= gatherMs)) {
        res.write(held);
        held = "";
        holdsNote = false;
        sentAt = now;
      }
      // A comment now and then keeps proxies from closing a quiet stream.
      if (list.length === 0 && (idle += pollMs) >= 15_000) {
        idle = 0;
        res.write(": still following\n\n");
      } else if (list.length) idle = 0;
      // Lines held go when their gathering ends, not at the first look after it.
      timer = setTimeout(tick, held && !holdsNote ? Math.max(0, Math.min(pollMs, sentAt + gatherMs - Date.now())) : pollMs);
    };
    let timer = setTimeout(tick, 0);
    res.on("close", () => {
      clearTimeout(timer);
      streams.delete(res);
    });
  };

  const server: Server = createServer((req, res) => {
    try {
      if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, 405, "only GET and HEAD");
      // On loopback, a page from another site reaching this port through a name it controls
      // (DNS rebinding) is refused: the Host must be a loopback name.
      if (loopback && !isLoopback((req.headers.host ?? "").replace(/:\d+$/, ""))) return refuse(res, 403, "this server answers loopback names only");
      const raw = req.url ?? "/";
      const q = raw.indexOf("?");
      const path = q >= 0 ? raw.slice(0, q) : raw;
      if (path === "/live/files") {
        const files = served.list().map((f) => {
          let size: number | null;
          try {
            size = statSync(f.path).size;
          } catch {
            size = null;
          }
          return { id: f.id, size };
        });
        const body = JSON.stringify({ files, quietSeconds: quietMs / 1000 });
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff" });
        return void res.end(body);
      }
      if (path === "/live/events") return events(req, res);
      if (path.startsWith("/files/")) {
        let id: string;
        try {
          id = decodeURIComponent(path.slice("/files/".length));
        } catch {
          return refuse(res, 400, "bad address");
        }
        const f = served.find(id);
        if (!f) return refuse(res, 404, "not a followed file");
        return sendFile(req, res, f.path, "text/plain; charset=utf-8", "no-store");
      }
      const p = pagePath(pageDir, path === "/" ? "/index.html" : path);
      if (p === null) return refuse(res, 403, "refused");
      let real: string;
      try {
        real = realpathSync(p);
      } catch {
        return refuse(res, 404, "not found");
      }
      if (!inside(pageDir, real) || !statSync(real).isFile()) return refuse(res, 404, "not found");
      if (real === indexPath) {
        // The page is marked as served live, so that it follows the files (and opens no demo).
        const html = readFileSync(real, "utf8").replace(/<head>/i, '<head><meta name="hdr-spectrum-live" content="1">');
        res.writeHead(200, { "content-type": TYPES[".html"]!, "cache-control": "no-store", "x-content-type-options": "nosniff" });
        return void res.end(req.method === "HEAD" ? undefined : html);
      }
      return sendFile(req, res, real, TYPES[extname(real).toLowerCase()] ?? "application/octet-stream", "max-age=3600");
    } catch (err) {
      if (!res.headersSent) refuse(res, 500, (err as Error).message);
      else res.destroy();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => reject(new CliError(2, `serve: cannot listen on ${o.host}:${o.port}: ${e.code ?? e.message}`)));
    server.listen(o.port, o.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shown = o.host.includes(":") ? `[${o.host}]` : o.host;
  return {
    url: `http://${shown}:${port}/`,
    exposed: !loopback,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of streams) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The command: serves until stopped (Ctrl-C). */
export async function serve(o: ServeOptions, io: { stdout(t: string): void }): Promise<number> {
  const s = await startServer(o);
  io.stdout(`serving ${s.url}\n`);
  if (s.exposed) io.stdout(`exposed: ${o.host} is not a loopback address, so other machines that reach it can open the page and read every followed file\n`);
  for (const f of new ServedPaths(o.paths).list()) io.stdout(`following ${f.id}\n`);
  await (o.stop ??
    new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    }));
  await s.close();
  return 0;
}
