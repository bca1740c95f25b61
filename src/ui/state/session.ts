// The session survives a reload: the files the user loaded (as blobs), the answers of the
// Prometheus queries (as received, with the request), and the view, kept in IndexedDB in this
// browser only. A failed load never touches it.
import type { RemovedSeries, SavedMerge } from "./merges";
import type { PrometheusRequest } from "../../engine/query-types";

export interface SessionView {
  unit: string;
  yLog: boolean;
  /** The axis follows the data (no choice made); absent in older sessions. */
  yAuto?: boolean;
  sideBySide: boolean;
  requirement: string | null;
  range: { start: number | null; end: number | null };
  hiddenNames: string[];
  timeline: { percentiles: number[]; perLane: boolean; wallClock: boolean; log: boolean; logAuto?: boolean };
  theme: "light" | "dark";
  /** The CO correction's expected interval as typed ("10ms", "100/s"); absent in older sessions. */
  coInterval?: string;
  /** Per-series edits (recorded unit, identity), by file and tag; absent in older sessions. */
  edits?: SeriesEdit[];
  /** Merges made in the page, in the order made (see merges.ts); absent in older sessions. */
  merges?: SavedMerge[];
  /** Loaded series removed, in the order removed (see merges.ts); absent in older sessions. */
  removed?: RemovedSeries[];
  /** The time panel's options as typed (window, wall clock, tail, heatmap series); absent in older sessions. */
  timeOptions?: { window: string; wallClock: boolean; tail: string; heatmap: string };
  /** The A vs B comparison on screen; absent when none (and in older sessions). */
  compare?: { baseline: string; candidate: string; margin: number; repeats: boolean };
}

export interface SeriesEdit {
  source: string;
  tag: string;
  unit?: string;
  patch?: { config?: string; throughput?: number | null; kind?: "response" | "service" | ""; name?: string };
}

/**
 * A query's series kept across a reload: the request (its address never holds credentials, the
 * form refuses them; no token is kept) and the server's answer as it came, read again on a reload
 * without asking the network.
 */
export interface SavedQuery {
  request: PrometheusRequest;
  answer: Blob;
}

export interface Session {
  /** True when the demo data is part of the session. */
  demo: boolean;
  files: { name: string; blob: Blob }[];
  /** Series from Prometheus queries, in the order loaded; absent in older sessions. */
  queries?: SavedQuery[];
  view: SessionView | null;
}

const DB = "hdr-spectrum";
const STORE = "session";
const KEY = "current";

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = indexedDB.open(DB, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error("IndexedDB unavailable"));
  });
}

async function tx<T>(mode: IDBTransactionMode, f: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const t = db.transaction(STORE, mode);
      const req = f(t.objectStore(STORE));
      t.oncomplete = () => resolve(req.result);
      t.onerror = () => reject(t.error ?? new Error("IndexedDB transaction failed"));
      t.onabort = () => reject(t.error ?? new Error("IndexedDB transaction aborted"));
    });
  } finally {
    db.close();
  }
}

export async function loadSession(): Promise<Session | null> {
  try {
    return ((await tx("readonly", (s) => s.get(KEY))) as Session | undefined) ?? null;
  } catch {
    return null; // private mode or storage disabled: start fresh, never fail the page
  }
}

/** Saves the session; a full disk or a blocked database only loses persistence, never data on screen. */
export async function saveSession(s: Session): Promise<boolean> {
  try {
    await tx("readwrite", (st) => st.put(s, KEY));
    return true;
  } catch {
    return false;
  }
}

export async function clearSession(): Promise<void> {
  try {
    await tx("readwrite", (st) => st.delete(KEY));
  } catch {
    // nothing stored, nothing to clear
  }
}

/** The session plus the files that loaded (at least one series): a bad file never enters it. */
export function withLoadedFiles(s: Session, outcomes: { file: string; added: string[] }[], blobs: { name: string; blob: Blob }[]): Session {
  const ok = new Set(outcomes.filter((o) => o.added.length > 0).map((o) => o.file));
  const add = blobs.filter((b) => ok.has(b.name));
  return add.length ? { ...s, files: [...s.files, ...add] } : s;
}
