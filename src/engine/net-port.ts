// The engine's fetch to another host, through the page (ui/state/net-frames.ts): the worker's
// own policy admits the page's origin only, so a request elsewhere goes over a port the page gave
// with the load, to a frame whose policy admits the agreed host alone. The answer comes back as
// a Response whose body is pulled chunk by chunk (the bytes are transferred, not copied), so the
// readers and their size caps see it as they would a direct fetch.

interface Head {
  type: "head";
  status: number;
  statusText: string;
  headers: [string, string][];
  body: boolean;
}
type Answer = Head | { type: "chunk"; bytes: ArrayBuffer } | { type: "end" } | { type: "error"; message: string };

function headersOf(h: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(h ?? {}).forEach((v, k) => (out[k] = v));
  return out;
}

/** A fetch that asks through `net` (GET only: what the engine asks). */
export function portFetch(net: MessagePort): typeof fetch {
  return (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const signal = init?.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) return reject(new DOMException("aborted", "AbortError"));
      const channel = new MessageChannel();
      const port = channel.port1;
      let pending: { resolve: (a: Answer) => void } | null = null;
      let started = false;
      let aborted = false;
      const onAbort = () => {
        aborted = true;
        port.postMessage({ type: "cancel" });
        const e = new DOMException("aborted", "AbortError");
        if (!started) reject(e);
        else if (pending) pending.resolve({ type: "error", message: "aborted" });
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const finish = () => {
        signal?.removeEventListener("abort", onAbort);
        port.close();
      };
      port.onmessage = (ev: MessageEvent<Answer>) => {
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
          const body =
            a.body && !nullBody
              ? new ReadableStream<Uint8Array>({
                  pull: async (c) => {
                    if (aborted) {
                      finish();
                      return c.error(new DOMException("aborted", "AbortError"));
                    }
                    const next = await new Promise<Answer>((res) => {
                      pending = { resolve: res };
                      port.postMessage({ type: "pull" });
                    });
                    pending = null;
                    if (next.type === "chunk") c.enqueue(new Uint8Array(next.bytes));
                    else if (next.type === "end") {
                      finish();
                      c.close();
                    } else {
                      finish();
                      c.error(new TypeError(next.type === "error" ? next.message : "unexpected answer"));
                    }
                  },
                  cancel: () => {
                    port.postMessage({ type: "cancel" });
                    finish();
                  },
                })
              : null;
          if (!body) finish();
          resolve(new Response(body, { status: a.status, statusText: a.statusText, headers: a.headers }));
          return;
        }
        pending?.resolve(a);
      };
      net.postMessage({ type: "fetch", url, headers: headersOf(init?.headers), reply: channel.port2 }, [channel.port2]);
    });
  };
}
