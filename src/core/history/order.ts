// The order of runs: by earliest StartTime, ties by name; runs that give no StartTime come
// after those that do, by name. Names compare as numbers where they hold digits ("run-9"
// before "run-10"), as people number their builds.

// Made at first use: a collator is slow to build, and every start of the command line loads this.
let collator: Intl.Collator | null = null;

export function compareRunNames(a: string, b: string): number {
  collator ??= new Intl.Collator("en", { numeric: true });
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

export function orderRuns<T extends { id: string; start: number | null }>(runs: readonly T[]): T[] {
  return [...runs].sort((a, b) => {
    if (a.start !== null && b.start !== null && a.start !== b.start) return a.start - b.start;
    if ((a.start === null) !== (b.start === null)) return a.start === null ? 1 : -1;
    return compareRunNames(a.id, b.id);
  });
}
