// Series from a Prometheus-compatible HTTP API (Prometheus, Thanos, Mimir, VictoriaMetrics …):
// the engine's seam for series fed by a server rather than a file. It asks /api/v1/query_range
// (/api/v1/query for one instant) with the point at the range's start, so that (start, end]
// holds exactly what was observed in it, streams the answer through the saved-answer reader
// (formats/prometheus-api.ts, told that first point is a baseline) and the same sink a file's
// reader feeds (ingest.ts): what follows (Store.add, every query) is a file's path.
//
// Credentials (a bearer token, or basic auth from the address's user:password) go into the
// request's headers only: every message, name and link uses the address without them.
import { prometheusAnswerReader } from "../formats/prometheus-api";
import { defaultStep, publicAddress } from "../core/prometheus-args";
import { ingestWith, type IngestResult } from "./ingest";
import type { PrometheusAuth, PrometheusRequest } from "./query-types";

export type { PrometheusAuth, PrometheusRequest } from "./query-types";

export { defaultStep, parseStep, parseTime, publicAddress } from "../core/prometheus-args";

export interface PrometheusFetchOptions {
  /** The fetch to use (tests give a fake one). */
  fetch?: typeof fetch;
  auth?: PrometheusAuth;
  /** The whole request, answer included (default 60 s). */
  timeoutMs?: number;
  /** The largest answer read (bytes, default 1 GB): past it the read stops and nothing is loaded. */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Told as the answer is read (at most every PROGRESS_MS): its bytes so far, the whole answer's when the server said, and the results read. */
  onProgress?: (p: { bytes: number; totalBytes: number; series: number }) => void;
}

const PROGRESS_MS = 100;

export const DEFAULT_TIMEOUT_MS = 60_000;
// The answer is read as it arrives and never held whole, so this bounds the wait, not memory: a
// fleet's day at a one-minute step is about 0.7 GB.
export const MAX_ANSWER_BYTES = 1024 * 1024 * 1024;

/** The source series from a query carry (their `data-source` in the page). */
export const sourceOfQuery = (query: string): string => `prometheus:${query}`;

/** The API's address for a request (no credentials) and the basic auth its address carried. */
export function apiRequest(req: PrometheusRequest): { url: string; step: number; basic: { username: string; password: string } | null } {
  let u: URL;
  try {
    u = new URL(req.url);
  } catch {
    throw new Error(`${publicAddress(req.url)} is not an address (write it as http://host:9090)`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error(`${publicAddress(req.url)}: only http and https addresses are asked`);
  const basic = u.username || u.password ? { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : null;
  const base = publicAddress(req.url).replace(/\/api\/v1\/?.*$/, "");
  const step = req.step ?? defaultStep(req.start, req.end);
  const params = new URLSearchParams({ query: req.query });
  if (req.start === req.end) {
    params.set("time", String(req.end));
    return { url: `${base}/api/v1/query?${params}`, step, basic };
  }
  params.set("start", String(req.start));
  params.set("end", String(req.end));
  params.set("step", String(step));
  return { url: `${base}/api/v1/query_range?${params}`, step, basic };
}

/** What each point of a query's result holds: rate() and increase() give per-step values, anything else counters. */
export function perStepOf(query: string): "cumulative" | "increase" | "rate" {
  if (/\b(rate|irate)\s*\(/.test(query)) return "rate";
  if (/\bincrease\s*\(/.test(query)) return "increase";
  return "cumulative";
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function headersOf(auth: PrometheusAuth | undefined, basic: { username: string; password: string } | null): Record<string, string> {
  const h: Record<string, string> = { Accept: "application/json" };
  if (auth?.bearerToken) h.Authorization = `Bearer ${auth.bearerToken.trim()}`;
  else if (auth?.username || auth?.password) h.Authorization = `Basic ${base64(`${auth.username ?? ""}:${auth.password ?? ""}`)}`;
  else if (basic) h.Authorization = `Basic ${base64(`${basic.username}:${basic.password}`)}`;
  return h;
}

class AnswerTooBig extends Error {}

/** The body as text chunks, refused past `maxBytes`; `read` told the bytes so far after each. */
async function* bodyText(res: Response, maxBytes: number, read: (bytes: number) => void = () => undefined): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  if (!res.body) {
    const text = await res.text();
    if (text.length > maxBytes) throw new AnswerTooBig();
    yield text;
    return;
  }
  const reader = res.body.getReader();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) throw new AnswerTooBig();
      read(bytes);
      const text = decoder.decode(value, { stream: true });
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    // Past the cap (or on any failure) the rest is not downloaded.
    reader.cancel().catch(() => undefined);
  }
}

/** Prometheus' error JSON ({"status":"error","errorType":…,"error":…}) of a failed request, or its first words. */
async function errorText(res: Response): Promise<string> {
  let text: string;
  try {
    text = (await res.text()).slice(0, 4000);
  } catch {
    return "";
  }
  try {
    const j = JSON.parse(text) as { error?: unknown; errorType?: unknown };
    if (typeof j.error === "string") return `${typeof j.errorType === "string" ? `${j.errorType}: ` : ""}${j.error}`;
  } catch {
    // not JSON: a proxy's page
  }
  return text
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);
}

const mb = (n: number) => (n >= 1024 * 1024 * 1024 ? `${Number((n / (1024 * 1024 * 1024)).toPrecision(3))} GB` : `${Number((n / (1024 * 1024)).toPrecision(3))} MB`);

/**
 * The series of one query over a range, as an ingest's result: problems (each naming the query)
 * instead of series when the request fails; nothing is thrown but a cancel.
 */
export async function queryPrometheus(req: PrometheusRequest, opts: PrometheusFetchOptions = {}): Promise<IngestResult> {
  const source = sourceOfQuery(req.query);
  const where = publicAddress(req.url);
  const fail = (reason: string): IngestResult => ({ series: [], problems: [{ file: source, line: null, reason: `${where}: ${reason}` }], lines: 0 });
  if (!req.query.trim()) return fail("no query");
  if (!Number.isFinite(req.start) || !Number.isFinite(req.end) || req.end < req.start) return fail(`the range's end (${req.end}) is before its start (${req.start})`);
  if (req.step !== null && !(req.step > 0)) return fail(`the step ${req.step} is not above 0`);
  let api: ReturnType<typeof apiRequest>;
  try {
    api = apiRequest(req);
  } catch (e) {
    return fail((e as Error).message);
  }
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? MAX_ANSWER_BYTES;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener("abort", onAbort);
  const doFetch = opts.fetch ?? globalThis.fetch;
  try {
    let res: Response;
    try {
      res = await doFetch(api.url, { headers: headersOf(opts.auth, api.basic), signal: controller.signal });
    } catch (e) {
      if (timedOut) return fail(`no answer within ${timeoutMs / 1000} s`);
      if (opts.signal?.aborted) throw e;
      return fail(
        `could not be reached (${e instanceof Error ? e.message : String(e)}): is the address right, and does the server allow this page's origin (Prometheus' --web.cors.origin)?`,
      );
    }
    if (!res.ok) {
      const why = await errorText(res);
      const hint = res.status === 401 || res.status === 403 ? " (a token or a user:password is needed, or the one given is refused)" : "";
      return fail(`the server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${why ? `: ${why}` : ""}${hint}`);
    }
    const length = Number(res.headers.get("content-length"));
    if (Number.isFinite(length) && length > maxBytes) {
      res.body?.cancel().catch(() => undefined);
      return fail(tooBig(maxBytes));
    }
    const totalBytes = Number.isFinite(length) && length > 0 ? length : 0;
    let series = 0;
    let said = 0;
    const say = (bytes: number, now = false) => {
      const t = Date.now();
      if (!opts.onProgress || (!now && t - said < PROGRESS_MS)) return;
      said = t;
      opts.onProgress({ bytes, totalBytes, series });
    };
    let bytesRead = 0;
    const reader = prometheusAnswerReader({
      source,
      firstPoint: req.start === req.end ? "whole" : "baseline",
      baselineAt: req.start,
      step: api.step,
      perStep: perStepOf(req.query),
      query: req.query,
      name: (tag) => (tag === "" || tag === req.query ? tag || req.query : `${req.query} [${tag}]`),
      onResult: () => {
        series++;
        say(bytesRead);
      },
    });
    const result = await ingestWith(
      source,
      reader,
      bodyText(res, maxBytes, (b) => say((bytesRead = b))),
    );
    say(bytesRead, true);
    // The query names the series' configuration (not parsed from it as a file name would be).
    const origin = originOf(where, req, api.step);
    for (const s of result.series) {
      s.config = req.query;
      s.throughput = null;
      s.origin = origin;
    }
    // The reader's problems name the query; say where it was asked, once, in the first.
    return { ...result, problems: result.problems.map((p) => ({ ...p, reason: `${where}: ${p.reason}` })) };
  } catch (e) {
    if (e instanceof AnswerTooBig) return fail(tooBig(maxBytes));
    if (timedOut) return fail(`no complete answer within ${timeoutMs / 1000} s`);
    if (opts.signal?.aborted) throw e;
    return fail(`the answer could not be read: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
  }
}

const iso = (t: number) => new Date(t * 1000).toISOString().replace(".000Z", "Z");

/** Where a query's series came from, in words (what a link carries): never credentials. */
export function originOf(where: string, req: PrometheusRequest, step: number): string {
  return req.start === req.end ? `${where} at ${iso(req.end)}` : `${where}, ${iso(req.start)} to ${iso(req.end)}, step ${step} s`;
}

function tooBig(maxBytes: number): string {
  return `the answer is over ${mb(maxBytes)}, more than the app reads at once: ask for a shorter range, a longer step, or fewer series (sum by (…) of them)`;
}
