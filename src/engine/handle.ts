// Answers one request against a Store. Shared by the worker and by tests.
import type { FileOutcome, Progress, Request, ResultOf } from "./protocol";
import type { Store } from "./store";
import { fetchChunks, nameOfUrl, refuseUrl, RemoteError } from "./remote";

/**
 * Lets the worker's event loop run every ~50 ms of work, so that a "cancel" message is seen
 * (a File's stream can resolve its reads without ever returning to the event loop).
 */
export function yielder(): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < 50) return;
    await new Promise((r) => setTimeout(r, 0));
    last = performance.now();
  };
}

/** Reads a File as a stream of text chunks: a big log is never one string. */
async function* fileChunks(file: File, onBytes: (n: number) => void, signal?: AbortSignal): AsyncGenerator<string> {
  const reader = file.stream().getReader();
  const decoder = new TextDecoder("utf-8");
  const breathe = yielder();
  let bytes = 0;
  for (;;) {
    await breathe();
    if (signal?.aborted) {
      await reader.cancel();
      throw new Error("cancelled: nothing of this file was loaded");
    }
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    onBytes(bytes);
    yield decoder.decode(value, { stream: true });
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

export async function handle(store: Store, req: Request, progress: (p: Progress) => void, signal?: AbortSignal): Promise<ResultOf[Request["kind"]]> {
  switch (req.kind) {
    case "load": {
      const out: FileOutcome[] = [];
      for (const file of req.files) {
        let bytes = 0;
        let intervals = 0;
        const r = await store.load(
          file.name,
          fileChunks(
            file,
            (b) => {
              bytes = b;
            },
            signal,
          ),
          (p) => {
            intervals = p.intervals;
            progress({ file: file.name, bytes, totalBytes: file.size, intervals });
          },
          req.options,
        );
        out.push({ file: file.name, ...r });
      }
      return out;
    }
    case "loadUrls": {
      const out: FileOutcome[] = [];
      for (const u of req.urls) {
        const name = nameOfUrl(u);
        const refused = refuseUrl(u);
        if (refused) {
          out.push({ file: u, added: [], problems: [{ file: u, line: null, reason: refused }] });
          continue;
        }
        let bytes = 0;
        let total = 0;
        try {
          const r = await store.loadOrThrow(name, fetchChunks(u, (b, t) => { bytes = b; total = t; }, signal), (p) => progress({ file: name, bytes, totalBytes: total, intervals: p.intervals }));
          out.push({ file: u, ...r });
        } catch (e) {
          out.push({ file: u, added: [], problems: [{ file: u, line: null, reason: e instanceof RemoteError ? e.message : `could not be read: ${(e as Error).message}` }] });
        }
      }
      return out;
    }
    case "loadText": {
      const r = await store.load(req.name, [req.text], undefined, req.options);
      return [{ file: req.name, ...r }];
    }
    case "views":
      return store.views(req.range);
    case "timeline":
      return store.timeline(req.query);
    case "export":
      return store.exportHgrm(req.id, req.range, req.unit);
    case "remove":
      store.remove(req.id);
      return null;
    case "clear":
      store.clear();
      return null;
    case "setUnit":
      store.setRecordedUnit(req.id, req.unit);
      return null;
    case "setIdentity":
      store.setIdentity(req.id, req.patch);
      return null;
    case "merge":
      return store.merge(req.ids, req.name);
    case "share":
      return store.share(req.view, req.looks, req.range, req.fullPrecision);
    case "openShare":
      return store.openShare(req.fragment);
    case "setCoInterval":
      store.setCoInterval(req.ns);
      return null;
  }
}
