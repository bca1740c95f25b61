// The page's way to other hosts. Its own policy admits its origin only (vite.config.ts); a host
// the user agreed to is asked from a hidden frame of this origin (public/net.html) whose policy
// admits that host and nothing else. The engine worker gets a port per load: each request on it
// names an address and a port to answer on, and is passed to the frame of that address's origin,
// or refused when the user did not agree to it. Agreement is memory only: a reload asks again.
import { portFetch, type NetAnswer, type NetAsk, type NetPull, type NetReady } from "../../engine/client";

/** Origins the user agreed to in this tab. */
const agreed = new Set<string>();
const frames = new Map<string, Promise<Window>>();

/** Records the user's yes for the origin of `address` (an http(s) URL). */
export function agreeTo(address: string): void {
  agreed.add(new URL(address).origin);
}

export function isAgreed(address: string): boolean {
  try {
    return agreed.has(new URL(address).origin);
  } catch {
    return false;
  }
}

function frameFor(origin: string): Promise<Window> {
  let f = frames.get(origin);
  if (!f) {
    f = new Promise<Window>((resolve, reject) => {
      const el = document.createElement("iframe");
      el.hidden = true;
      el.title = `requests to ${origin}`;
      el.src = new URL(`net.html#${encodeURIComponent(origin)}`, document.baseURI).href;
      const timer = setTimeout(() => reject(new Error("the page's request frame did not start")), 15_000);
      const onReady = (ev: MessageEvent<NetReady>) => {
        if (ev.source !== el.contentWindow || ev.origin !== location.origin) return;
        const m = ev.data;
        if (m?.type !== "net-ready") return;
        window.removeEventListener("message", onReady);
        clearTimeout(timer);
        if (m.origin === origin) resolve(el.contentWindow!);
        else reject(new Error(`the page's request frame did not take ${origin}`));
      };
      window.addEventListener("message", onReady);
      document.body.appendChild(el);
    });
    f.catch(() => frames.delete(origin));
    frames.set(origin, f);
  }
  return f;
}

/** The largest answer kept for the saved session (a larger one loads, but a reload asks again). */
export const MAX_KEPT_ANSWER = 128 * 1024 * 1024;

export interface NetOptions {
  /** Keep a copy of a whole answer of status 200 (see `done`). */
  record?: boolean;
  /** Answer every request with these bytes, asking no host (a saved answer on a reload). */
  replay?: Blob;
}

/** Bytes gathered before they go into a Blob of their own. */
const KEPT_PART = 4 * 1024 * 1024;

/**
 * A whole answer kept as it passes (up to `max` bytes, else nothing): its chunks are copied into
 * a buffer, and each full buffer into a Blob, whose bytes the browser keeps, not this page. A
 * Blob per chunk (a network chunk is a few kB) held the page's own memory on each Blob's
 * bookkeeping, tens of MB over a large answer.
 */
export class AnswerRecorder {
  private readonly parts: Blob[] = [];
  private buffer: Uint8Array<ArrayBuffer> | null = null;
  private fill = 0;
  private size = 0;
  private over = false;

  constructor(
    private readonly max: number,
    private readonly part = KEPT_PART,
  ) {}

  /** Copies `bytes` (before they are handed on). */
  chunk(bytes: ArrayBuffer): void {
    if (this.over) return;
    this.size += bytes.byteLength;
    if (this.size > this.max) return this.drop();
    const b = new Uint8Array(bytes);
    if (this.fill + b.length > this.part) this.flush();
    if (b.length >= this.part) {
      this.parts.push(new Blob([b]));
      return;
    }
    this.buffer ??= new Uint8Array(this.part);
    this.buffer.set(b, this.fill);
    this.fill += b.length;
  }

  /** The answer's bytes as one Blob, or null when they went past the cap. */
  end(type: string): Blob | null {
    if (this.over) return null;
    this.flush();
    this.buffer = null;
    return new Blob(this.parts, { type });
  }

  /** Nothing kept (past the cap, or not an answer worth keeping). */
  drop(): void {
    this.over = true;
    this.parts.length = 0;
    this.buffer = null;
  }

  private flush(): void {
    if (this.fill === 0 || this.buffer === null) return;
    // A Blob copies its bytes when made: the buffer is used again.
    this.parts.push(new Blob([this.buffer.subarray(0, this.fill)]));
    this.fill = 0;
  }
}

/** Answers `reply` with `blob` as a 200 JSON answer, chunk by chunk as pulled. */
function replayTo(reply: MessagePort, blob: Blob): void {
  const reader = blob.stream().getReader();
  reply.onmessage = (ev: MessageEvent<NetPull>) => {
    if (ev.data?.type === "cancel") {
      void reader.cancel();
      reply.close();
    } else if (ev.data?.type === "pull")
      reader.read().then(
        (r) => {
          if (r.done) return reply.postMessage({ type: "end" });
          const b = r.value.slice().buffer;
          reply.postMessage({ type: "chunk", bytes: b }, [b]);
        },
        (e: Error) => reply.postMessage({ type: "error", message: e.message }),
      );
  };
  reply.postMessage({ type: "head", status: 200, statusText: "OK", headers: [["content-type", "application/json"]], body: true });
}

/**
 * A port for one load in the engine worker (transfer it with the request): requests on it reach
 * agreed origins through their frames; any other is answered with an error and sent nowhere.
 * `done` closes it and gives the recorded answer (with `record`), if one came whole.
 */
export function netPort(opts: NetOptions = {}): { port: MessagePort; done: () => Blob | null } {
  const channel = new MessageChannel();
  let kept: Blob | null = null;
  channel.port1.onmessage = (ev: MessageEvent<NetAsk>) => {
    const m = ev.data;
    if (m?.type !== "fetch" || !m.reply) return;
    if (opts.replay) return replayTo(m.reply, opts.replay);
    let origin: string;
    try {
      origin = new URL(m.url).origin;
    } catch {
      m.reply.postMessage({ type: "error", message: "not an address" });
      return;
    }
    if (!agreed.has(origin) && origin !== location.origin) {
      m.reply.postMessage({ type: "error", message: `${new URL(m.url).host} was not agreed to` });
      return;
    }
    // Passed through here, not handed over, when the answer is to be kept: each chunk is copied
    // on its way (up to MAX_KEPT_ANSWER) toward Blobs, whose bytes the browser keeps, not this
    // page's memory while the answer is read (most answers that big go past it).
    let reply = m.reply;
    if (opts.record) {
      const relay = new MessageChannel();
      const toWorker = m.reply;
      const recorder = new AnswerRecorder(MAX_KEPT_ANSWER);
      let ok = false;
      toWorker.onmessage = (e: MessageEvent<NetPull>) => relay.port1.postMessage(e.data);
      relay.port1.onmessage = (e: MessageEvent<NetAnswer>) => {
        const a = e.data;
        if (a.type === "head") {
          ok = a.status === 200;
          if (!ok) recorder.drop();
        } else if (a.type === "chunk") recorder.chunk(a.bytes);
        else if (a.type === "end" && ok) kept = recorder.end("application/json");
        else recorder.drop();
        if (a.type === "chunk") toWorker.postMessage(a, [a.bytes]);
        else toWorker.postMessage(a);
      };
      reply = relay.port2;
    }
    frameFor(origin).then(
      (w) => w.postMessage({ type: "fetch", url: m.url, headers: m.headers, reply }, location.origin, [reply]),
      (e: Error) => reply.postMessage({ type: "error", message: e.message }),
    );
  };
  return {
    port: channel.port2,
    done: () => {
      channel.port1.close();
      return kept;
    },
  };
}

/**
 * A fetch from the page to another host, through that host's frame: for the page's own requests
 * (its policy admits its origin only). Refused, with nothing sent, unless the user agreed to the
 * host. GET only, as the engine's.
 */
export async function netFetch(url: string, init?: RequestInit): Promise<Response> {
  const net = netPort();
  try {
    // The body comes over a port of its own: this one may close once the head is in.
    return await portFetch(net.port)(url, init);
  } finally {
    net.done();
  }
}
