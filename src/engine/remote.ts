// Remote logs named in a link (`#src=https://…`): fetched by the app itself, over http(s)
// only, streamed with a size cap, and sniffed before they reach a parser.

/** Largest remote log we read (the same order as the biggest files people drop). */
export const MAX_REMOTE_BYTES = 512 * 1024 * 1024;

/** URLs named by `src=` parameters of a fragment (several allowed), in order. */
export function srcUrls(fragment: string): string[] {
  const f = fragment.replace(/^#/, "");
  const out: string[] = [];
  for (const part of f.split("&")) {
    if (!part.startsWith("src=")) continue;
    let u = part.slice(4);
    try {
      u = decodeURIComponent(u);
    } catch {
      // keep it as written: validation below says what is wrong
    }
    if (u) out.push(u);
  }
  return out;
}

/** Why a URL may not be fetched, or null when it may (http and https only). */
export function refuseUrl(u: string): string | null {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return "not a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `only http and https URLs are fetched (not ${url.protocol})`;
  return null;
}

/**
 * The hosts a link would make the page fetch from, other than the page's own origin, each once,
 * in order. Opening a link must not contact them before the user agrees: a fetch tells a host
 * who opened the link and when. URLs that refuseUrl refuses are never fetched and need no
 * question; nor do the page's own.
 */
export function foreignHosts(urls: readonly string[], pageOrigin: string): string[] {
  const out: string[] = [];
  for (const u of urls) {
    if (refuseUrl(u) !== null) continue;
    const url = new URL(u);
    if (url.origin === pageOrigin) continue;
    if (!out.includes(url.host)) out.push(url.host);
  }
  return out;
}

/** Whether fetching u needs the user's consent (a fetchable URL of another origin). */
export function needsConsent(u: string, pageOrigin: string): boolean {
  return refuseUrl(u) === null && new URL(u).origin !== pageOrigin;
}

/** A name for the series: the URL's last path segment. */
export function nameOfUrl(u: string): string {
  try {
    const p = new URL(u).pathname.split("/").filter(Boolean);
    return decodeURIComponent(p[p.length - 1] ?? new URL(u).hostname);
  } catch {
    return u.slice(0, 80);
  }
}

/** Text that does not look like text (NUL bytes, many control characters) is refused early. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 1024);
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) bad++;
  }
  return n > 0 && bad / n > 0.1;
}

export class RemoteError extends Error {}

/**
 * Streams a URL's body as text chunks, enforcing the cap and the sniff; errors say what happened.
 * `doFetch` asks another host through the page (net-port.ts).
 */
export async function* fetchChunks(u: string, onBytes: (n: number, total: number) => void, signal?: AbortSignal, doFetch: typeof fetch = fetch): AsyncGenerator<string> {
  let res: Response;
  try {
    res = await doFetch(u, { signal, credentials: "omit", redirect: "follow" });
  } catch (e) {
    if ((e as Error).name === "AbortError") throw new RemoteError("cancelled");
    // A network error and a CORS refusal look the same from here, by design of the web.
    throw new RemoteError("could not be fetched: the server is unreachable, or it refused to share the file with this page (CORS: it must send Access-Control-Allow-Origin)");
  }
  if (!res.ok) throw new RemoteError(`the server answered ${res.status} ${res.statusText}`.trim());
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > MAX_REMOTE_BYTES) throw new RemoteError(`is ${Math.round(declared / 1e6)} MB, more than the ${MAX_REMOTE_BYTES / 1024 / 1024} MB limit`);
  if (!res.body) throw new RemoteError("the response has no body");
  const reader = res.body.getReader();
  const decoder = new TextDecoder("utf-8");
  let bytes = 0;
  let first = true;
  for (;;) {
    if (signal?.aborted) {
      await reader.cancel();
      throw new RemoteError("cancelled");
    }
    const { done, value } = await reader.read();
    if (done) break;
    if (first && looksBinary(value)) {
      await reader.cancel();
      throw new RemoteError("is not text (a binary file?): expected a latency log");
    }
    first = false;
    bytes += value.byteLength;
    if (bytes > MAX_REMOTE_BYTES) {
      await reader.cancel();
      throw new RemoteError(`is larger than the ${MAX_REMOTE_BYTES / 1024 / 1024} MB limit`);
    }
    onBytes(bytes, declared);
    yield decoder.decode(value, { stream: true });
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}
