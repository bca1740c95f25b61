// Merges made in the page, and loaded series removed from it, kept in the saved session so
// that a reload brings the same series back.
// A merge is remembered by what it was made of: loaded series by file and tag (ids change from
// one load to the next), earlier merges by their place in the list. Replayed in order after
// the files are loaded and the per-series edits applied.

export type MergeMember = { source: string; tag: string } | { merge: number };

export interface SavedMerge {
  members: MergeMember[];
  /** The merged series' name when it was made (members may have been renamed since). */
  name: string;
  /** Removed after it was made (kept while a later merge was made from it). */
  removed?: boolean;
}

/** What a merge needs to know of a series on screen. */
export interface MergeableView {
  id: string;
  source: string;
  tag: string;
  correctedFrom: string | null;
  mergedFrom: string[];
}

/** How a series shown now is remembered as a member, or null when it cannot be (a corrected copy of a merge not on record). */
export function memberOf(v: MergeableView, mergeIndex: ReadonlyMap<string, number>): MergeMember | null {
  const id = v.correctedFrom ?? v.id;
  const k = mergeIndex.get(id);
  if (k !== undefined) return { merge: k };
  if (v.mergedFrom.length > 0) return null;
  return { source: v.source, tag: v.tag };
}

export interface MergeOps {
  merge(ids: string[], name: string): Promise<string>;
  remove(id: string): Promise<unknown>;
}

/**
 * Makes the saved merges again over the loaded series; returns the new id of each merge made
 * (by its index in `saved`). A merge whose members are not all there (a file that failed to
 * load, a member since removed) is skipped, and so is every merge made from it.
 */
export async function replayMerges(saved: readonly SavedMerge[], loaded: readonly MergeableView[], ops: MergeOps): Promise<Map<string, number>> {
  const made = new Map<number, string>();
  for (const [k, m] of saved.entries()) {
    const ids: string[] = [];
    for (const member of m.members) {
      const id =
        "merge" in member ? made.get(member.merge) : loaded.find((x) => x.source === member.source && x.tag === member.tag && !x.correctedFrom && x.mergedFrom.length === 0)?.id;
      if (id === undefined) break;
      ids.push(id);
    }
    if (ids.length !== m.members.length || ids.length < 2) continue;
    try {
      made.set(k, await ops.merge(ids, m.name));
    } catch {
      // Members whose units differ now (a unit edit was not kept): nothing to make.
    }
  }
  for (const [k, id] of made) if (saved[k]!.removed) await ops.remove(id);
  const index = new Map<string, number>();
  for (const [k, id] of made) if (!saved[k]!.removed) index.set(id, k);
  return index;
}

/**
 * A loaded series the user removed. The file stays in the session (other series of it may be
 * shown), so a reload loads the series again and this takes it away: by file and tag, and
 * `nth` among the series of that file and tag still shown when it was removed (the same file
 * can be loaded twice).
 */
export interface RemovedSeries {
  source: string;
  tag: string;
  nth: number;
}

const isLoaded = (v: MergeableView) => !v.correctedFrom && v.mergedFrom.length === 0;

/** How the removal of `v` (one of `shown`) is remembered, or null for a series made in the page (merges keep their own record). */
export function removalOf(v: MergeableView, shown: readonly MergeableView[]): RemovedSeries | null {
  if (!isLoaded(v)) return null;
  const same = shown.filter((x) => isLoaded(x) && x.source === v.source && x.tag === v.tag);
  return { source: v.source, tag: v.tag, nth: same.findIndex((x) => x.id === v.id) };
}

/** Removes again, in order, the loaded series the user had removed; those not found are passed over. */
export async function replayRemovals(removed: readonly RemovedSeries[], loaded: readonly MergeableView[], remove: (id: string) => Promise<unknown>): Promise<void> {
  let shown = [...loaded];
  for (const r of removed) {
    const same = shown.filter((x) => isLoaded(x) && x.source === r.source && x.tag === r.tag);
    const target = r.nth >= 0 ? same[r.nth] : undefined;
    if (!target) continue;
    await remove(target.id);
    shown = shown.filter((x) => x.id !== target.id);
  }
}
