// Files that are parts of one run: pgbench writes one --log file per thread (pgbench_log.PID,
// pgbench_log.PID.1, …). Loaded together, they become one series, the run's, merged by the
// store's own merge (histograms added, intervals placed by their absolute times): the run's
// whole spectrum, not one per thread.
import type { FileOutcome } from "./protocol";
import type { Store } from "./store";

/** Series of one pgbench run's threads: "run [thread N]", tag "thread N", format "pgbench". */
const THREAD = /^(.*) \[thread \d+\]$/;

/** Merges the loaded thread series of each run into one series named after the run; the outcomes then name the merged series. */
export function joinThreadFiles(store: Store, outcomes: FileOutcome[]): void {
  const runs = new Map<string, string[]>();
  for (const o of outcomes) {
    for (const id of o.added) {
      const s = store.get(id);
      const m = s.format === "pgbench" && /^thread \d+$/.test(s.tag) ? THREAD.exec(s.givenName ?? s.name) : null;
      if (!m) continue;
      const key = `${m[1]}\u0000${s.recordedUnit}`;
      (runs.get(key) ?? runs.set(key, []).get(key)!).push(id);
    }
  }
  for (const [key, ids] of runs) {
    if (ids.length < 2) continue;
    const run = key.slice(0, key.indexOf("\u0000"));
    const merged = store.merge(ids, `${run} (${ids.length} threads)`);
    for (const id of ids) store.remove(id);
    for (const o of outcomes) {
      const had = o.added.some((id) => ids.includes(id));
      if (!had) continue;
      o.added = o.added.filter((id) => !ids.includes(id));
      if (!o.added.includes(merged) && !outcomes.some((x) => x.added.includes(merged))) o.added.push(merged);
    }
  }
}
