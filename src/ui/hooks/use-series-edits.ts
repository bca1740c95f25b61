// What the user did to loaded series, kept in the saved session and made again on reload: unit
// and identity edits (by file and tag), merges (see merges.ts) and removals, in order.
import { useCallback, useRef, useState } from "react";
import { UNITS, type Unit } from "../../core/types";
import type { EngineClient } from "../../engine/client";
import type { SeriesView } from "../../engine/store";
import { memberOf, removalOf, replayMerges, replayRemovals, type MergeMember, type RemovedSeries, type SavedMerge } from "../state/merges";
import type { SeriesEdit } from "../state/session";
import type { EngineState } from "./use-engine";
import type { SeriesLog } from "../state/view-state";

const editKey = (source: string, tag: string) => `${source}\u0000${tag}`;
/** Merged and corrected series are made in the page, not loaded: nothing to re-apply. */
const isLoaded = (v: SeriesView) => !v.correctedFrom && v.mergedFrom.length === 0;

export function useSeriesEdits(engine: EngineClient, eng: Pick<EngineState, "run" | "change" | "rangeRef">) {
  const edits = useRef(new Map<string, SeriesEdit>());
  /** Merges made in the page, in order, and which shown series each made. */
  const merges = useRef<SavedMerge[]>([]);
  const mergeIndex = useRef(new Map<string, number>());
  /** Loaded series the user removed, in order (their files stay in the session). */
  const removed = useRef<RemovedSeries[]>([]);
  /** Counts changes, for the session's save. */
  const [version, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((n) => n + 1), []);
  const { run, change, rangeRef } = eng;

  const noteEdit = (v: SeriesView | undefined, c: Pick<SeriesEdit, "unit" | "patch">) => {
    if (!v || !isLoaded(v)) return;
    const key = editKey(v.source, v.tag);
    const prev = edits.current.get(key) ?? { source: v.source, tag: v.tag };
    edits.current.set(key, { ...prev, ...(c.unit ? { unit: c.unit } : {}), ...(c.patch ? { patch: { ...prev.patch, ...c.patch } } : {}) });
    bump();
  };

  return {
    version,
    bump,
    log: (): SeriesLog => ({ edits: [...edits.current.values()], merges: merges.current, removed: removed.current }),
    setIdentity: (views: SeriesView[], id: string, patch: Parameters<EngineClient["setIdentity"]>[1]) => {
      noteEdit(
        views.find((v) => v.id === id),
        { patch },
      );
      change(() => engine.setIdentity(id, patch), { timeline: false });
    },
    setUnit: (views: SeriesView[], id: string, u: Unit) => {
      noteEdit(
        views.find((v) => v.id === id),
        { unit: u },
      );
      change(() => engine.setUnit(id, u));
    },
    remove: (views: SeriesView[], id: string) => {
      const v = views.find((x) => x.id === id);
      if (v && edits.current.delete(editKey(v.source, v.tag))) bump();
      const gone = v ? removalOf(v, views) : null;
      if (gone) {
        removed.current = [...removed.current, gone];
        bump();
      }
      const k = mergeIndex.current.get(id);
      if (k !== undefined) {
        // Kept, marked removed: a later merge may have been made from it.
        merges.current = merges.current.map((m, i) => (i === k ? { ...m, removed: true } : m));
        mergeIndex.current.delete(id);
        bump();
      }
      change(() => engine.remove(id));
    },
    merge: (chosen: SeriesView[]) => {
      const ids = chosen.map((v) => v.id);
      const members = chosen.map((v) => memberOf(v, mergeIndex.current));
      void run(async () => {
        const id = await engine.merge(ids);
        // Remembered for the saved session when every member can be named again.
        if (members.every((m) => m !== null)) {
          const name = (await engine.views(rangeRef.current)).find((v) => v.id === id)?.name ?? "merged";
          merges.current = [...merges.current, { members: members as MergeMember[], name }];
          mergeIndex.current.set(id, merges.current.length - 1);
          bump();
        }
        return null;
      });
    },
    clear: () => {
      edits.current.clear();
      merges.current = [];
      mergeIndex.current.clear();
      removed.current = [];
      bump();
    },
    /** Makes a saved log again on the loaded series: edits first, then merges, then removals. */
    replay: async (log: SeriesLog | undefined) => {
      if (log?.edits && log.edits.length > 0) {
        // Edits go back onto the series of the same file and tag, before names are matched
        // for hiding (an edit may have renamed a series).
        const loaded = await engine.views(rangeRef.current);
        for (const e of log.edits) {
          const target = loaded.find((x) => x.source === e.source && x.tag === e.tag && isLoaded(x));
          if (!target) continue;
          if (e.unit && (UNITS as readonly string[]).includes(e.unit)) await engine.setUnit(target.id, e.unit as Unit);
          if (e.patch) await engine.setIdentity(target.id, e.patch);
          edits.current.set(editKey(e.source, e.tag), e);
        }
      }
      if (log?.merges && log.merges.length > 0) {
        merges.current = log.merges;
        mergeIndex.current = await replayMerges(log.merges, await engine.views(rangeRef.current), {
          merge: (ids, name) => engine.merge(ids, name),
          remove: (id) => engine.remove(id),
        });
      }
      // After the merges: a merge may have been made from a series removed later.
      if (log?.removed && log.removed.length > 0) {
        removed.current = log.removed;
        await replayRemovals(log.removed, await engine.views(rangeRef.current), (id) => engine.remove(id));
      }
    },
  };
}
