// The page's side of a run followed live: when `serve` served the page (it marks the page's
// head), the page follows its event stream, gathers the complete lines that arrive and hands
// them to the engine a few times a second (the `append` request), then everything on screen is
// asked again as after a load. Paused, lines are kept and appended on resume. The browser's
// EventSource reconnects by itself naming the last event it had, so a restarted server
// carries on where this page stopped and no line comes twice.
import { useCallback, useEffect, useRef, useState } from "react";
import type { EngineClient } from "../../engine/client";
import type { LivePiece } from "../../engine/protocol";
import type { EngineState } from "./use-engine";
import { servedLive } from "../state/live-mode";
import { LocalFollow, type FileHandleLike } from "../state/local-follow";
import { nameOfUrl } from "../../engine/remote";
import { followable, onFollowAsked, RemoteFollow } from "../state/remote-follow";

/** Whether this browser can follow a file on this machine (the File System Access API: Chromium). */
function canPickFiles(): boolean {
  return typeof window !== "undefined" && typeof (window as unknown as { showOpenFilePicker?: unknown }).showOpenFilePicker === "function";
}

export interface LiveNote {
  /** Wall-clock ms. */
  at: number;
  text: string;
}

/** How the time axis follows the run: the whole run, or its last N minutes. */
export type LiveFollowEnd = "whole" | number;

/**
 * The least time between two redraws of appended lines: many writers each writing an interval
 * a second are drawn together, not once each (every redraw asks the engine again and draws the
 * spectra, the table and the timeline). Most of the page's CPU while it follows is paid per
 * redraw, not per line, so this is as long as the second an appended interval has to be on
 * screen allows: a line waits at most this long plus one redraw, and a slower machine's redraw
 * still fits in what is left. A line after a quiet spell is drawn at once. `serve` gathers lines
 * for a little longer than this before it sends them (serve.ts), so the page draws each send as
 * it arrives and wakes about once a redraw.
 */
const FLUSH_MS = 800;
const MAX_NOTES = 6;

// Module-level, not a closure made per redraw: such a closure loses its optimised code at every major collection.
const startsRun = (p: LivePiece) => p.start;

/** Pieces of one file and run that follow each other, joined (fewer reads for a burst). */
function joined(pieces: LivePiece[]): LivePiece[] {
  const out: LivePiece[] = [];
  for (const p of pieces) {
    const last = out.at(-1);
    if (last && last.file === p.file && last.run === p.run && !p.start) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

export function useLive(engine: EngineClient, eng: Pick<EngineState, "run">) {
  const [served] = useState(servedLive);
  /** Files followed in the page alone: on this machine (Follow a file…) or a link's (#src=). */
  const locals = useRef<(LocalFollow | RemoteFollow)[]>([]);
  const [following, setFollowing] = useState(0);
  const active = served || following > 0;
  const [paused, setPaused] = useState(false);
  const [connected, setConnected] = useState(false);
  /** Wall-clock ms when the latest appended lines were drawn (0: none yet). */
  const [updated, setUpdated] = useState(0);
  const [notes, setNotes] = useState<LiveNote[]>([]);
  /** Series made from followed files (their current and earlier runs). */
  const [ids, setIds] = useState<Set<string>>(new Set());
  const buffer = useRef<LivePiece[]>([]);
  const flushing = useRef(false);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const runRef = useRef(eng.run);
  runRef.current = eng.run;
  /**
   * What the live panel asks at each redraw (the run so far and its last window, given the
   * timeline's extent after the append): asked beside the spectra and the timeline, and drawn
   * with them in one render.
   */
  const lastWindow = useRef<((extent: [number, number]) => Promise<(() => void) | null>) | null>(null);

  const note = useCallback((text: string) => setNotes((n) => [...n.slice(-(MAX_NOTES - 1)), { at: Date.now(), text }]), []);

  /** Not before this (performance.now()): a redraw's cost spaces the next one out. */
  const nextAt = useRef(0);

  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const flushRef = useRef<() => Promise<void>>(async () => undefined);
  /**
   * A redraw at the earliest moment allowed, unless one is due or under way: lines wait for the
   * next redraw, never for a timer's next tick as well.
   */
  const schedule = useCallback(() => {
    if (timer.current !== null || flushing.current || pausedRef.current || buffer.current.length === 0) return;
    timer.current = setTimeout(
      () => {
        timer.current = null;
        void flushRef.current();
      },
      Math.max(0, nextAt.current - performance.now()),
    );
  }, []);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  /** Complete lines that arrived, drawn at the next redraw. */
  const take = useCallback(
    (p: LivePiece) => {
      buffer.current.push(p);
      schedule();
    },
    [schedule],
  );

  const flush = useCallback(async () => {
    if (flushing.current || pausedRef.current || buffer.current.length === 0) return;
    if (performance.now() < nextAt.current) {
      schedule();
      return;
    }
    flushing.current = true;
    const began = performance.now();
    const pieces = joined(buffer.current);
    buffer.current = [];
    try {
      let changed = false;
      let extent: [number, number] | null = null;
      // Without intervals in any series (samples without times) the timeline's extent is [0, 1], and so is this.
      const more = async () => (changed && lastWindow.current ? lastWindow.current(extent ?? [0, 1]) : null);
      await runRef.current(
        async () => {
          const a = await engine.append(pieces);
          changed = a.added.length > 0 || a.appended > 0 || a.removed.length > 0;
          extent = a.extent;
          if (a.added.length || a.removed.length)
            setIds((s) => {
              const n = new Set(s);
              for (const id of a.removed) n.delete(id);
              for (const id of a.added) n.add(id);
              return n;
            });
          return [{ file: "(live)", added: a.added, problems: a.problems }];
        },
        // A file's first lines (the page opening on a run, a new run) keep the page busy until drawn.
        { together: true, more, busy: pieces.some(startsRun) },
      );
      // Set at once, so that React renders it with the data (one render, not one more after
      // the next frame); the page is painted with both in the next frame.
      if (changed) setUpdated(Date.now());
      // The next round starts FLUSH_MS after this one began, or later when this one took more
      // than half of that, so many writers each writing a little keep the page busy a bounded
      // share of the time, however often they write; and never before the next frame.
      await new Promise<void>((res) => requestAnimationFrame(() => res()));
      nextAt.current = began + Math.max(FLUSH_MS, 2 * (performance.now() - began));
    } finally {
      flushing.current = false;
      schedule();
    }
  }, [engine, schedule]);
  flushRef.current = flush;

  useEffect(() => {
    if (!served) return;
    const es = new EventSource("live/events");
    const data = (ev: Event) => JSON.parse(String((ev as MessageEvent).data)) as Record<string, unknown>;
    es.addEventListener("lines", (ev) => {
      const d = data(ev) as unknown as LivePiece;
      take({ file: d.file, run: d.run, start: d.start, text: d.text });
    });
    es.addEventListener("run", (ev) => {
      const d = data(ev);
      note(`${String(d.file)} was ${String(d.reason)}: a new run starts, shown as a new series; the earlier run is kept apart, never mixed`);
    });
    es.addEventListener("gone", (ev) => note(`${String(data(ev).file)} was deleted; waiting for it to come back`));
    es.addEventListener("file", (ev) => note(`${String(data(ev).file)}: a new file in a followed folder, followed as a new series`));
    es.addEventListener("quiet", (ev) => {
      const d = data(ev);
      note(`${String(d.file)}: no new interval for ${Math.round(Number(d.seconds))} s`);
    });
    es.addEventListener("problem", (ev) => note(`the server could not read the files: ${String(data(ev).reason)}`));
    es.onopen = () => setConnected(true);
    es.onerror = () => setConnected(false);
    return () => es.close();
  }, [served, note, take]);

  // Local files and a link's are read again each second.
  useEffect(() => {
    if (following === 0) return;
    if (!served) setConnected(true);
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      void Promise.all(locals.current.map((l) => l.tick())).finally(() => (busy = false));
    }, 1000);
    return () => clearInterval(timer);
  }, [following, served]);

  /** Follow a file…: files chosen on this machine, followed as they grow (Chromium). */
  const followFiles = useCallback(async () => {
    const pick = (window as unknown as { showOpenFilePicker?: (o: { multiple: boolean }) => Promise<FileHandleLike[]> }).showOpenFilePicker;
    if (!pick) return;
    let handles: FileHandleLike[];
    try {
      handles = await pick({ multiple: true });
    } catch {
      return; // the person closed the picker
    }
    for (const h of handles) {
      const l = new LocalFollow(h, take, note);
      locals.current.push(l);
      await l.tick();
    }
    setFollowing(locals.current.length);
  }, [note, take]);

  /** A link's URLs followed (`#src=…&follow=1`, or the Follow control): each asked again every second. */
  const followUrls = useCallback(
    (urls: string[]) => {
      for (const u of urls) {
        if (locals.current.some((l) => l instanceof RemoteFollow && l.url === u)) continue;
        const r = new RemoteFollow(u, take, note);
        locals.current.push(r);
        void r.tick();
      }
      setFollowing(locals.current.length);
    },
    [note, take],
  );
  useEffect(() => onFollowAsked(followUrls), [followUrls]);

  /**
   * The Follow control of a page opened on a #src= link: the series loaded from the link are
   * read again from the start as runs followed live (a load read up to some byte no request
   * can name), and followed from there.
   */
  const followLink = useCallback(async () => {
    const urls = [...followable].filter((u) => !locals.current.some((l) => l instanceof RemoteFollow && l.url === u));
    if (urls.length === 0) return;
    const names = new Set(urls.map(nameOfUrl));
    await runRef.current(async () => {
      const views = await engine.views({ start: null, end: null });
      for (const v of views) if (names.has(v.source) && v.correctedFrom === null) await engine.remove(v.id);
      return null;
    });
    followUrls(urls);
  }, [engine, followUrls]);

  const resume = useCallback(() => {
    pausedRef.current = false;
    setPaused(false);
    void flush();
  }, [flush]);

  const canFollowLink = !served && followable.size > 0 && !locals.current.some((l) => l instanceof RemoteFollow);
  return {
    active,
    served,
    followFiles,
    canFollowFiles: canPickFiles(),
    followLink,
    canFollowLink,
    paused,
    pause: useCallback(() => setPaused(true), []),
    resume,
    connected,
    updated,
    notes,
    ids,
    lastWindow,
  };
}

export type LiveState = ReturnType<typeof useLive>;
