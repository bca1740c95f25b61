// Keeps a derived value's previous object while it holds the same things, so memoised
// children and effects keyed on it do nothing. Hiding one series of fifty changes the rows
// every panel is given, but not, say, the heatmap's lane or a time summary that is empty.
import { useRef } from "react";

/** `next`, or the previous value when `same(previous, next)`. */
export function useSame<T>(next: T, same: (a: T, b: T) => boolean): T {
  const prev = useRef<{ v: T } | null>(null);
  if (prev.current && (prev.current.v === next || same(prev.current.v, next))) return prev.current.v;
  prev.current = { v: next };
  return next;
}

/** Two arrays of the same length whose items are pairwise `same` (by default, the same objects). */
export function sameItems<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean = Object.is): boolean {
  return a.length === b.length && a.every((x, i) => same(x, b[i]!));
}

/** Two objects whose own keys hold the same values (shallow). */
export function sameFields<T extends object>(a: T, b: T): boolean {
  const ka = Object.keys(a) as (keyof T)[];
  if (ka.length !== Object.keys(b).length) return false;
  // A loop, not a callback: a closure made per call loses its optimised code at every major collection.
  for (const k of ka) if (!Object.is(a[k], b[k])) return false;
  return true;
}
