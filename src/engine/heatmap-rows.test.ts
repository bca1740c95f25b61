// The heatmap's rows of a block or an interval (heatmap-query.ts toRows, each row's run of
// indices ended by rowEnds) equal adding each entry into the row its index is in, one by one:
// on random axes (rows that jump, rows no index is in, a first row above 0, a top row below the
// last) and random sparse counts (indices past the table, zero counts, repeated and unordered
// indices, which take the general way).
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../tests/support/queue-sim";
import { rowEnds, toRows } from "./heatmap-query";

/** Each entry into its row, in order (a row's counts added in the order they come). */
function reference(indices: Int32Array, counts: Float64Array, rowOf: Int16Array, rows: number) {
  const acc = new Map<number, number>();
  for (let k = 0; k < indices.length; k++) {
    const r = indices[k]! < rowOf.length ? rowOf[indices[k]!]! : rows - 1;
    acc.set(r, (acc.get(r) ?? 0) + counts[k]!);
  }
  return { rows: [...acc.keys()], counts: [...acc.values()] };
}

describe("heatmap rows of sparse counts", () => {
  it("equal each entry added into its index's row, on random axes and counts", () => {
    const rnd = mulberry32(21);
    for (let round = 0; round < 3000; round++) {
      const rows = 1 + Math.floor(rnd() * 120);
      const table = 1 + Math.floor(rnd() * 3000);
      // Rows never decrease with the index; they start anywhere and may stop below the last.
      const rowOf = new Int16Array(table);
      let r = rnd() < 0.2 ? Math.floor(rnd() * rows) : 0;
      const climb = rnd() * 0.2;
      for (let i = 0; i < table; i++) {
        if (rnd() < climb) r = Math.min(rows - 1, r + 1 + (rnd() < 0.1 ? Math.floor(rnd() * 5) : 0));
        rowOf[i] = r;
      }
      const n = Math.floor(rnd() * 400);
      const set = new Set<number>();
      for (let k = 0; k < n; k++) set.add(Math.floor(rnd() * table * (rnd() < 0.05 ? 2 : 1)));
      let idx = [...set].sort((a, b) => a - b);
      const kind = rnd();
      if (kind < 0.05) idx = idx.reverse();
      else if (kind < 0.1 && idx.length > 2)
        idx.splice(1, 0, idx[1]!); // a repeated index
      else if (kind < 0.15 && idx.length > 3) [idx[1], idx[2]] = [idx[2]!, idx[1]!];
      const indices = Int32Array.from(idx);
      const counts = Float64Array.from(idx, () => (rnd() < 0.05 ? 0 : rnd() < 0.5 ? 1 + Math.floor(rnd() * 100) : rnd() * 1e6));
      const got = toRows(indices, counts, { rows, rowOf, ends: rowEnds(rowOf, rows) });
      const want = reference(indices, counts, rowOf, rows);
      expect({ rows: Array.from(got.rows), counts: Array.from(got.counts) }, `round ${round}`).toEqual(want);
    }
  });
});
