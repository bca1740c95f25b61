// A log named by a #src= link followed as it grows: asked for again each second from the end
// already read, with an HTTP Range request that starts a few bytes before that end, so that the
// answer says whether the file still is the one read (the bytes it repeats must be the ones
// held). Only complete lines are handed on, as `serve` and Follow a file… do; a file that
// became shorter or another file starts a new run, which the page keeps apart from the old one.
import type { LivePiece } from "../../engine/protocol";
import { nameOfUrl } from "../../engine/remote";
import { netFetch } from "./net-frames";

/** The bytes asked for again before the end already read: they must come back unchanged. */
export const OVERLAP = 64;
/** The file's first bytes kept, to tell a server that sends the whole file whether it is the same one. */
const PREFIX = 256;

/** What one request answered, whatever the transport. */
export interface RangeReply {
  status: number;
  body: Uint8Array;
  etag: string | null;
}

/**
 * The one network request of following a link: the bytes of `url` from `from` on (the whole
 * file from 0), not asked again when the server says the `etag` is unchanged. Credentials
 * never travel; caches are bypassed (a cached copy would hide the growth).
 */
export async function fetchRange(url: string, from: number, etag: string | null): Promise<RangeReply> {
  const headers: Record<string, string> = {};
  if (from > 0) headers.Range = `bytes=${from}-`;
  if (etag) headers["If-None-Match"] = etag;
  // Another host is asked through its frame, the only context whose policy admits it (net-frames.ts).
  const res =
    new URL(url, location.href).origin === location.origin
      ? await fetch(url, { headers, credentials: "omit", cache: "no-store", redirect: "follow" })
      : await netFetch(url, { headers });
  const body = res.status === 200 || res.status === 206 ? new Uint8Array(await res.arrayBuffer()) : new Uint8Array(0);
  return { status: res.status, body, etag: res.headers.get("etag") };
}

/** What is held of the file: the end of its last complete line read, its first and last bytes. */
export interface Held {
  offset: number;
  prefix: Uint8Array;
  tail: Uint8Array;
}

export type RangeStep =
  /** Nothing new (304, or nothing past the end read). */
  | { kind: "none" }
  /** Bytes that follow the end already read (a partial last line among them). */
  | { kind: "more"; bytes: Uint8Array }
  /** The file is not the one read any more: a new run; `whole` is its text when the answer held it. */
  | { kind: "restart"; reason: "truncated" | "replaced"; whole: Uint8Array | null }
  | { kind: "error"; reason: string };

function startsWith(bytes: Uint8Array, at: number, part: Uint8Array): boolean {
  if (bytes.length < at + part.length) return false;
  for (let i = 0; i < part.length; i++) if (bytes[at + i] !== part[i]) return false;
  return true;
}

/** Where the next request starts: a few bytes before the end read. */
export function askFrom(h: Held): number {
  return h.offset - h.tail.length;
}

/** What an answer to a request from askFrom(h) means for the file held. */
export function rangeStep(h: Held, r: RangeReply): RangeStep {
  if (r.status === 304) return { kind: "none" };
  // Nothing from where the request started: the file is shorter than what was read of it.
  if (r.status === 416) return { kind: "restart", reason: "truncated", whole: null };
  if (r.status === 206) {
    const lead = h.tail;
    if (r.body.length < lead.length) return { kind: "restart", reason: "truncated", whole: null };
    if (!startsWith(r.body, 0, lead)) return { kind: "restart", reason: "replaced", whole: null };
    return r.body.length > lead.length ? { kind: "more", bytes: r.body.subarray(lead.length) } : { kind: "none" };
  }
  if (r.status === 200) {
    // A server that ignores Range sends the whole file: the part past the end read is new,
    // if the file still starts, and still reads at that end, as the one read.
    const b = r.body;
    if (b.length < h.offset) return { kind: "restart", reason: "truncated", whole: b };
    if (!startsWith(b, 0, h.prefix) || !startsWith(b, h.offset - h.tail.length, h.tail)) return { kind: "restart", reason: "replaced", whole: b };
    return b.length > h.offset ? { kind: "more", bytes: b.subarray(h.offset) } : { kind: "none" };
  }
  return { kind: "error", reason: `the server answered ${r.status}` };
}

export class RemoteFollow {
  private run = 1;
  private held: Held = { offset: 0, prefix: new Uint8Array(0), tail: new Uint8Array(0) };
  private etag: string | null = null;
  private grewAt = Date.now();
  private quietSaid = false;
  private failSaid = false;
  readonly name: string;

  constructor(
    readonly url: string,
    private readonly push: (p: LivePiece) => void,
    private readonly note: (text: string) => void,
    private readonly get: (url: string, from: number, etag: string | null) => Promise<RangeReply> = fetchRange,
    private readonly quietMs = 30_000,
  ) {
    this.name = nameOfUrl(url);
  }

  /** One request. */
  async tick(): Promise<void> {
    let step: RangeStep;
    try {
      const from = askFrom(this.held);
      const r = await this.get(this.url, from, this.etag);
      step = from === 0 && r.status === 200 && this.held.offset === 0 ? { kind: "more", bytes: r.body } : rangeStep(this.held, r);
      if (step.kind !== "error") this.etag = r.etag;
    } catch {
      step = { kind: "error", reason: "could not be fetched (the server is unreachable, or it refused to share the file with this page)" };
    }
    if (step.kind === "error") {
      if (!this.failSaid) this.note(`${this.name}: ${step.reason}; asking again each second`);
      this.failSaid = true;
      return;
    }
    this.failSaid = false;
    if (step.kind === "restart") {
      this.run++;
      this.held = { offset: 0, prefix: new Uint8Array(0), tail: new Uint8Array(0) };
      this.etag = null;
      this.note(`${this.name} was ${step.reason}: a new run starts, shown as a new series; the earlier run is kept apart, never mixed`);
      if (step.whole) this.take(step.whole);
      else await this.tick();
      return;
    }
    if (step.kind === "more" && this.take(step.bytes)) return;
    if (!this.quietSaid && Date.now() - this.grewAt >= this.quietMs) {
      this.quietSaid = true;
      this.note(`${this.name}: no new interval for ${Math.round((Date.now() - this.grewAt) / 1000)} s`);
    }
  }

  /** Hands on the complete lines of bytes that follow the end read; false when there was none. */
  private take(bytes: Uint8Array): boolean {
    const end = bytes.lastIndexOf(10) + 1;
    // A partial last line waits for the rest.
    if (end === 0) return false;
    const lines = bytes.subarray(0, end);
    const h = this.held;
    this.push({ file: this.url, run: this.run, start: h.offset === 0, text: new TextDecoder().decode(lines) });
    const prefix = h.prefix.length < PREFIX ? joinBytes(h.prefix, lines.subarray(0, PREFIX - h.prefix.length)) : h.prefix;
    const tail = joinBytes(h.tail, lines).slice(-OVERLAP);
    this.held = { offset: h.offset + end, prefix, tail };
    this.grewAt = Date.now();
    this.quietSaid = false;
    return true;
  }
}

function joinBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Whether a link asks to be followed (`#src=…&follow=1`). */
export function wantsFollow(hash: string): boolean {
  return /(^#|&)follow=1(&|$)/.test(hash);
}

/** The link's URLs the page was allowed to fetch (the page's own, or those the person agreed to). */
export const followable = new Set<string>();

let handler: ((urls: string[]) => void) | null = null;
let asked: string[] = [];

/** Follows URLs as soon as the live view is there (the page's start runs before it). */
export function askFollow(urls: string[]): void {
  for (const u of urls) followable.add(u);
  if (handler) handler(urls);
  else asked.push(...urls);
}

/** The live view takes the URLs asked for; returns the function that lets go. */
export function onFollowAsked(h: (urls: string[]) => void): () => void {
  handler = h;
  if (asked.length) {
    const a = asked;
    asked = [];
    h(a);
  }
  return () => {
    if (handler === h) handler = null;
  };
}
