// Answers one request against a Store. Shared by the worker and by tests.
import type { FileOutcome, Progress, Request, ResultOf } from "./protocol";
import type { Store } from "./store";
import { fetchChunks, nameOfUrl, refuseUrl, RemoteError } from "./remote";
import { loadFiles, type HelperWorkers } from "./load-files";
import { portFetch } from "./net-port";
import { heatmapQuery, tailQuery, windowQuery } from "./time-queries";

/** The fetch for an address: the page's own origin directly, any other through the page's port (when given). */
function fetchOf(u: string, net: MessagePort | undefined): typeof fetch {
  let foreign = false;
  try {
    foreign = typeof location !== "undefined" && new URL(u).origin !== location.origin;
  } catch {
    // not an address: the reader says so
  }
  return foreign && net ? portFetch(net) : (...a: Parameters<typeof fetch>) => fetch(...a);
}

/** `helpers` read interval logs on other cores (the worker passes its pool; tests read in one thread). */
export async function handle(
  store: Store,
  req: Request,
  progress: (p: Progress) => void,
  signal?: AbortSignal,
  helpers: HelperWorkers | null = null,
): Promise<ResultOf[Request["kind"]]> {
  switch (req.kind) {
    case "load":
      // The demo is read here alone: a helper that read a part ends its warm-up (part-worker.ts).
      return loadFiles(store, req.files, progress, signal, req.options, req.demo ? null : helpers);
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
          const r = await store.loadOrThrow(
            name,
            fetchChunks(
              u,
              (b, t) => {
                bytes = b;
                total = t;
              },
              signal,
              fetchOf(u, req.net),
            ),
            (p) => progress({ file: name, bytes, totalBytes: total, intervals: p.intervals }),
          );
          out.push({ file: u, ...r });
        } catch (e) {
          out.push({ file: u, added: [], problems: [{ file: u, line: null, reason: e instanceof RemoteError ? e.message : `could not be read: ${(e as Error).message}` }] });
        }
      }
      return out;
    }
    case "loadPrometheus": {
      // The query and its reader are a chunk of their own, fetched when first asked.
      const { queryPrometheus, sourceOfQuery } = await import("./prometheus-query");
      // Through the page's port whenever it gives one: it may answer from a saved copy.
      const file = sourceOfQuery(req.request.query);
      const r = await queryPrometheus(req.request, {
        auth: req.auth,
        signal,
        fetch: req.net ? portFetch(req.net) : fetchOf(req.request.url, undefined),
        onProgress: (p) => progress({ file, bytes: p.bytes, totalBytes: p.totalBytes, intervals: 0, series: p.series }),
      });
      return [{ file: sourceOfQuery(req.request.query), ...store.add(r) }];
    }
    case "loadText": {
      const r = await store.load(req.name, [req.text], undefined, req.options);
      return [{ file: req.name, ...r }];
    }
    case "views":
      return store.views(req.range);
    case "timeline":
      return store.timeline(req.query);
    case "heatmap":
      return heatmapQuery(store.series, req.query);
    case "windows":
      return windowQuery(store.series, req.query);
    case "tail":
      return tailQuery(store.series, req.query);
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
    // The link's codec is a chunk of its own too, fetched on the first link made or opened.
    case "share":
      return (await import("./share-query")).shareOf(store, req.view, req.looks, req.range, req.fullPrecision, req.compare ?? null);
    case "openShare":
      return (await import("./share-query")).openShareIn(store, req.fragment);
    case "setCoInterval":
      store.setCoInterval(req.ns);
      return null;
    case "append":
      return (await import("./live")).liveRunsOf(store).feed(req.pieces);
    case "compare": {
      // The comparison's code is a chunk of its own in the page's worker, fetched when first
      // asked (most loads never compare), so the worker starts with less to load.
      const { compareQuery } = await import("./compare-query");
      // Progress as resamples done of all (in the fields a load's progress uses).
      return compareQuery(store, req.request, (p) => progress({ file: "(comparison)", bytes: p.done, totalBytes: p.total, intervals: 0 }), signal);
    }
  }
}
