// The engine's fetch to another host, through the page (ui/state/net-frames.ts): the worker's
// own policy admits the page's origin only, so a request elsewhere goes over a port the page gave
// with the load, to a frame whose policy admits the agreed host alone. The answer comes back as
// a Response whose body is pulled chunk by chunk, a few chunks ahead of its reader (the bytes are
// transferred, not copied), so the readers and their size caps see it as they would a direct fetch.

/** From the engine to the page (and on to the agreed host's frame): one request, answered on `reply`. */
export type NetAsk = { type: "fetch"; url: string; headers: Record<string, string>; reply: MessagePort };

/** On a request's `reply` port: its head, then its body a chunk per pull (in order; several pulls may be waiting), or why not. */
export type NetAnswer =
  | { type: "head"; status: number; statusText: string; headers: [string, string][]; body: boolean }
  | { type: "chunk"; bytes: ArrayBuffer }
  | { type: "end" }
  | { type: "error"; message: string };

/** From the asker on a request's `reply` port: the next chunk, or stop. */
export type NetPull = { type: "pull" } | { type: "cancel" };

/** From an agreed host's frame (public/net.js) to the page: its policy is in place for `origin`. */
export type NetReady = { type: "net-ready"; origin: string | null };

function headersOf(h: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(h ?? {}).forEach((v, k) => (out[k] = v));
  return out;
}

/**
 * Chunks asked for ahead of the reader: the next ones cross the threads (the page, the frame)
 * while the reader works on the last, rather than one round trip per chunk with the reader idle.
 */
const AHEAD = 4;

/** A fetch that asks through `net` (GET only: what the engine asks). */
export function portFetch(net: MessagePort): typeof fetch {
  return (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const signal = init?.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) return reject(new DOMException("aborted", "AbortError"));
      const channel = new MessageChannel();
      const port = channel.port1;
      let started = false;
      let aborted = false;
      /** The body's stream, its pulls sent and not yet answered, whether it ended, the pulls waiting for a chunk. */
      let body: ReadableStreamDefaultController<Uint8Array> | null = null;
      let asked = 0;
      let over = false;
      const waiting: (() => void)[] = [];
      const wake = () => {
        for (const w of waiting.splice(0)) w();
      };
      const finish = () => {
        signal?.removeEventListener("abort", onAbort);
        port.close();
      };
      const stop = (e: Error) => {
        if (over) return;
        over = true;
        finish();
        body?.error(e);
        wake();
      };
      const onAbort = () => {
        aborted = true;
        port.postMessage({ type: "cancel" });
        const e = new DOMException("aborted", "AbortError");
        if (!started) reject(e);
        else stop(e);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      port.onmessage = (ev: MessageEvent<NetAnswer>) => {
        const a = ev.data;
        if (!started) {
          started = true;
          if (a.type === "error") {
            finish();
            return reject(new TypeError(a.message));
          }
          if (a.type !== "head") return;
          // A 304 (or 204, 205) has no body by definition, though the frame's stream may say one.
          const nullBody = a.status === 204 || a.status === 205 || a.status === 304;
          if (nullBody && a.body) port.postMessage({ type: "cancel" });
          const stream =
            a.body && !nullBody
              ? new ReadableStream<Uint8Array>({
                  start: (c) => {
                    body = c;
                  },
                  pull: () => {
                    if (aborted) return stop(new DOMException("aborted", "AbortError"));
                    if (over) return;
                    for (; asked < AHEAD; asked++) port.postMessage({ type: "pull" });
                    // Called again once a chunk has come (the stream asks while its queue is short).
                    return new Promise<void>((res) => waiting.push(res));
                  },
                  cancel: () => {
                    over = true;
                    port.postMessage({ type: "cancel" });
                    finish();
                    wake();
                  },
                })
              : null;
          if (!stream) finish();
          resolve(new Response(stream, { status: a.status, statusText: a.statusText, headers: a.headers }));
          return;
        }
        if (over || !body) return;
        asked--;
        if (a.type === "chunk") body.enqueue(new Uint8Array(a.bytes));
        else if (a.type === "end") {
          over = true;
          finish();
          body.close();
        } else return stop(new TypeError(a.type === "error" ? a.message : "unexpected answer"));
        wake();
      };
      net.postMessage({ type: "fetch", url, headers: headersOf(init?.headers), reply: channel.port2 }, [channel.port2]);
    });
  };
}
