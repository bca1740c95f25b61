// Logs read from disk keep no payload text (engine/load-files.ts, a PayloadStore): what a query
// decodes (a time window's edges, the comparison's intervals after a part's last whole block)
// is read back from the file. Checked against the page's reading of the same text, which keeps
// its payloads: every payload, window and comparison the same, and the text not held.
import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { simulateQueue, type SimConfig } from "../../tests/support/queue-sim";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { bucketsOf } from "../core/histogram";
import { compareQuery } from "../engine/compare-query";
import { loadFiles, type HelperWorkers } from "../engine/load-files";
import { Store } from "../engine/store";
import { readPartHere } from "../../tests/support/part-here";
import { filePayloads, PathFile } from "./path-file";

const sim = (o: Partial<SimConfig>) =>
  writeHlog(simulateQueue({ rate: 300, seconds: 700, medianServiceSec: 0.0005, sigma: 0.5, stalls: [{ at: 400, duration: 0.4 }], seed: 1, ...o }));

/** Reads a part in this thread as the command line's helper thread does: without its bytes. */
const helpers: HelperWorkers = {
  count: 2,
  read: async (_h, blob, name, _progress, _signal, before) => ({ ...(await readPartHere(blob, name, () => undefined, undefined, before, false)), source: null }),
};

async function fromDisk(paths: string[], withHelpers: HelperWorkers | null): Promise<Store> {
  const store = new Store();
  // Cut into parts from 64 kB, so that these logs are read in three.
  const out = await loadFiles(
    store,
    paths.map((p) => new PathFile(p).asFile()),
    () => undefined,
    undefined,
    undefined,
    withHelpers,
    { splitBytes: 64 * 1024, payloads: filePayloads },
  );
  expect(out.flatMap((o) => o.problems)).toEqual([]);
  return store;
}

/** The page's helper: the part's bytes read, kept and sent with it. */
const pageHelpers: HelperWorkers = {
  count: 2,
  read: (_h, blob, name, _progress, _signal, before) => readPartHere(blob, name, () => undefined, undefined, before),
};

/** The page's reading of the same text, in the same parts (a comparison's sub-blocks are aligned to each part's start). */
async function inPage(logs: { name: string; text: string }[], withHelpers: boolean): Promise<Store> {
  const store = new Store();
  const files = logs.map((l) => new File([l.text], l.name));
  await loadFiles(store, files, () => undefined, undefined, undefined, withHelpers ? pageHelpers : null, { splitBytes: 64 * 1024 });
  return store;
}

describe("logs read from disk", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-ondisk-"));
  const logs = [
    { name: "sysA_300.hlog", text: sim({}) },
    { name: "sysB_300.hlog", text: sim({ seed: 2, medianServiceSec: 0.0006 }) },
  ];
  const write = () => logs.map((l) => (writeFileSync(path.join(dir, l.name), l.text), path.join(dir, l.name)));

  // Whoever reads them (helpers or this thread alone), the same parts: the comparison's
  // sub-blocks follow the parts, so its intervals may not depend on the machine.
  it.each([
    [true, true],
    [false, false],
    [true, false],
    [false, true],
  ])("give every payload, window and comparison the page's reading gives (helpers on disk: %s, in the page: %s)", async (diskHelpers, pageHelpers) => {
    const paths = write();
    expect(logs[0]!.text.length).toBeGreaterThan(3 * 64 * 1024);
    const disk = await fromDisk(paths, diskHelpers ? helpers : null);
    const page = await inPage(logs, pageHelpers);
    expect(disk.series.map((s) => s.name)).toEqual(page.series.map((s) => s.name));
    for (const [k, s] of disk.series.entries()) {
      const t = s.intervals!;
      expect(t.allPayloads()).toEqual(page.series[k]!.intervals!.allPayloads());
      for (const range of [
        { start: null, end: null },
        { start: 37.5, end: 501 },
        { start: 3, end: 5 },
      ]) {
        const a = disk.histogramFor(s.id, range);
        const b = page.histogramFor(page.series[k]!.id, range);
        expect(a.totalCount).toBe(b.totalCount);
        expect(bucketsOf(a)).toEqual(bucketsOf(b));
      }
    }
    for (const range of [
      { start: null, end: null },
      { start: 100, end: 650 },
    ]) {
      const ask = (s: Store) => compareQuery(s, { baseline: s.series[0]!.id, candidate: s.series[1]!.id, range });
      const [a, b] = [await ask(disk), await ask(page)];
      expect(a.points).toEqual(b.points);
      expect(a.sentence).toBe(b.sentence);
    }
  });

  it("a log whose piece a helper fails on is read again here, in one piece: the same answers", async () => {
    const paths = write();
    const failing: HelperWorkers = {
      count: 2,
      read: (h, blob, name) => (name.startsWith("sysA") ? Promise.reject(new Error("helper thread failed")) : helpers.read(h, blob, name, () => undefined)),
    };
    const store = await fromDisk(paths, failing);
    const page = await inPage(logs, false);
    // The log a helper failed on, read again here in one piece (a part after an empty one); the
    // other joined from its parts.
    const pieces = (s: Store["series"][number]) => new Set((s.blocks as unknown as { partStarts: number[] }).partStarts).size;
    expect(store.series.map(pieces)).toEqual([1, 3]);
    for (const [k, s] of store.series.entries()) {
      expect(s.intervals!.allPayloads()).toEqual(page.series[k]!.intervals!.allPayloads());
      expect(bucketsOf(s.histogram)).toEqual(bucketsOf(page.series[k]!.histogram));
    }
    // However each was read, the comparison is the page's.
    const ask = (s: Store) => compareQuery(s, { baseline: s.series[0]!.id, candidate: s.series[1]!.id, range: { start: 100, end: 650 } });
    expect((await ask(store)).points).toEqual((await ask(page)).points);
  });

  it("hold no payload text: they read it from the file when asked", async () => {
    const paths = write();
    const disk = await fromDisk(paths, helpers);
    truncateSync(paths[0]!, 0);
    expect(() => disk.series[0]!.intervals!.allPayloads()).toThrow(/became shorter/);
  });
});
