// A time window's counts kept dense, moved by the rows that enter and leave it. A run followed
// live asks every second for its last minute: that window is the one before it with the new
// interval added and the oldest taken away, two rows, where a sum of the whole window decodes
// its ragged ends (up to two blocks' worth of rows) every time.
import type { Sparse } from "../../core/blocks";

interface Slide {
  i0: number;
  i1: number;
  /** The series' layout the counts are in: another layout (a coarser one after an append) starts again. */
  digits: number;
  lowest: number;
  counts: Float64Array;
  total: number;
  /** Every index ever counted since the window was made lies in [lo, hi]: the rest of `counts` is 0, and not read. */
  lo: number;
  hi: number;
  used: number;
}

/** Windows kept per table: the page's own window and a live panel's last window move together. */
const SLIDES = 2;

/** The counts of a window of rows, dense (index → count) in the series' layout, and their sum. */
export interface WindowCounts {
  counts: Float64Array;
  total: number;
  /** Counts outside [lo, hi] are 0 (hi < lo: none counted). */
  lo: number;
  hi: number;
}

export class SlidingWindows {
  private readonly slides: Slide[] = [];
  private clock = 0;

  constructor(
    /** Rows [i0, i1] summed from scratch (blocks and ragged ends), transient. */
    private readonly sum: (i0: number, i1: number) => Sparse,
    /** Row i's counts in the series' layout (null: unreadable, left out of every sum alike), transient. */
    private readonly rowCounts: (i: number) => Sparse | null,
  ) {}

  /**
   * Rows [i0, i1] (0 <= i0 <= i1, rows that exist) in the layout `digits`/`lowest`: a kept
   * window that reaches them by a few rows entering and leaving is moved, else the sum is made
   * anew. Valid until the next call.
   */
  window(i0: number, i1: number, digits: number, lowest: number, length: number): WindowCounts {
    let best: Slide | null = null;
    let cost = Infinity;
    for (const s of this.slides) {
      if (s.digits !== digits || s.lowest !== lowest || i0 < s.i0 || i1 < s.i1 || i0 > s.i1 + 1) continue;
      const c = i0 - s.i0 + (i1 - s.i1);
      if (c < cost) {
        best = s;
        cost = c;
      }
    }
    // Moving costs a row's counts per row; a sum costs a few blocks and its ragged ends.
    if (best === null || cost > Math.max(8, (i1 - i0 + 1) / 4)) best = this.anew(i0, i1, digits, lowest, length);
    else {
      for (let i = best.i1 + 1; i <= i1; i++) this.add(best, this.rowCounts(i), 1);
      for (let i = best.i0; i < i0; i++) this.add(best, this.rowCounts(i), -1);
      best.i0 = i0;
      best.i1 = i1;
    }
    best.used = ++this.clock;
    return best;
  }

  /** Forgets every window (the rows they were made of changed). */
  clear(): void {
    this.slides.length = 0;
  }

  private anew(i0: number, i1: number, digits: number, lowest: number, length: number): Slide {
    let s: Slide;
    if (this.slides.length < SLIDES) {
      s = { i0, i1, digits, lowest, counts: new Float64Array(length), total: 0, lo: Infinity, hi: -1, used: 0 };
      this.slides.push(s);
    } else {
      s = this.slides[0]!;
      for (const x of this.slides) if (x.used < s.used) s = x;
      if (s.hi >= s.lo) s.counts.fill(0, s.lo, s.hi + 1);
      s.total = 0;
      s.lo = Infinity;
      s.hi = -1;
      s.i0 = i0;
      s.i1 = i1;
      s.digits = digits;
      s.lowest = lowest;
    }
    this.add(s, this.sum(i0, i1), 1);
    return s;
  }

  private add(s: Slide, c: Sparse | null, sign: number): void {
    if (c === null) return;
    const { indices, counts } = c;
    const n = Math.min(indices.length, counts.length);
    if (n > 0 && indices[n - 1]! >= s.counts.length) {
      const grown = new Float64Array(Math.max(indices[n - 1]! + 1, s.counts.length * 2));
      grown.set(s.counts);
      s.counts = grown;
    }
    const arr = s.counts;
    let t = 0;
    let lo = s.lo;
    let hi = s.hi;
    for (let k = 0; k < n; k++) {
      const i = indices[k]!;
      const v = sign * counts[k]!;
      arr[i]! += v;
      t += v;
      if (i < lo) lo = i;
      if (i > hi) hi = i;
    }
    s.total += t;
    s.lo = lo;
    s.hi = hi;
  }
}
