// Reading a history's runs on helper threads must give, run by run and in order, what reading
// them one at a time on this thread gives (summaries, problems, caches), whatever the runs hold.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedFixture } from "../../tests/fuzz/generators";
import { writeDayLog } from "../../tests/support/day-log";
import { historyLogs } from "../../tests/support/history-sim";
import { fileChunks } from "../engine/file-chunks";
import { ingestHlogPart, type HlogPart } from "../engine/ingest";
import type { HelperWorkers } from "../engine/load-files";
import { readRuns } from "./history-read";
import { CACHE_FILE, runDirsOf } from "./history-runs";

/** Helpers run in this thread; what they return crosses a structuredClone as it would postMessage. */
class InThreadHelpers implements HelperWorkers {
  readonly calls: { helper: number; name: string; bytes: number }[] = [];
  constructor(
    readonly count: number,
    private readonly failOn: string | null = null,
  ) {}
  async read(helper: number, blob: Blob, name: string): Promise<HlogPart> {
    this.calls.push({ helper, name, bytes: blob.size });
    await new Promise((r) => setTimeout(r, 1));
    if (name === this.failOn) throw new Error("helper crashed");
    const source = new Uint8Array(blob.size);
    return structuredClone(
      await ingestHlogPart(
        name,
        fileChunks(blob, () => undefined, undefined, source),
        undefined,
        source,
      ),
    );
  }
}

function writeRuns(root: string): void {
  const logs = historyLogs({ seed: 9, runs: 7, seconds: 30 });
  logs.forEach((r, i) => {
    const dir = path.join(root, r.id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "svc.hlog"), r.text);
    // A run of two series (two logs), a run with a file that is not an interval log, a run with a broken log.
    if (i === 2) writeFileSync(path.join(dir, "db.hlog"), logs[6]!.text);
    if (i === 4) writeFileSync(path.join(dir, "dist.hgrm"), generatedFixture("hgrm", 6).text);
    if (i === 5) writeFileSync(path.join(dir, "svc.hlog"), `${r.text}1.0,1.0,1.0,HISTfAAAA!!\n`);
  });
}

function clearCaches(root: string): void {
  for (const r of runDirsOf([root])) rmSync(path.join(r.dir, CACHE_FILE), { force: true });
}

describe("a history's runs read on helper threads", () => {
  it("gives every run's summary and problems as reading them one at a time here, and writes the same caches", { timeout: 120_000 }, async () => {
    const root = mkdtempSync(path.join(tmpdir(), "hdr-history-read-"));
    writeRuns(root);
    const runs = runDirsOf([root]);
    const alone = await readRuns(runs, null, false);
    expect(alone.every((r) => !r.cached)).toBe(true);
    expect(alone[5]!.problems.length).toBeGreaterThan(0);
    expect(alone[2]!.summary.series.map((s) => s.name).sort()).toEqual(["db", "svc"]);
    for (const count of [1, 2]) {
      clearCaches(root);
      const helpers = new InThreadHelpers(count);
      const spread = await readRuns(runs, helpers, false);
      expect(spread).toEqual(alone);
      // The helpers read runs (not the run with an .hgrm file, which is read here).
      expect(new Set(helpers.calls.map((c) => c.helper)).size).toBe(count);
      expect(helpers.calls.some((c) => c.name === "dist.hgrm")).toBe(false);
      // Every cache written: read again, every run but the broken one comes from its cache.
      const again = await readRuns(runs, helpers, false);
      expect(again.map((r) => r.cached)).toEqual(alone.map((_, k) => k !== 5));
      expect(again.map((r) => r.summary)).toEqual(alone.map((r) => r.summary));
    }
  });

  it("a run's log big enough to be cut is read in one piece on a helper: the same summaries as here", { timeout: 120_000 }, async () => {
    const root = mkdtempSync(path.join(tmpdir(), "hdr-history-read-big-"));
    for (const [k, seed] of [3, 4].entries()) {
      const dir = path.join(root, `run-${k}`);
      mkdirSync(dir, { recursive: true });
      // ~5.3 MB: above the 4 MB at which a log is cut into pieces.
      writeDayLog(path.join(dir, "svc.hlog"), { intervals: 12_000, seed, startMs: Date.UTC(2026, 10, 1 + k) });
      rmSync(path.join(dir, "svc.hlog.json"));
    }
    const runs = runDirsOf([root]);
    const alone = await readRuns(runs, null, false);
    clearCaches(root);
    const helpers = new InThreadHelpers(1);
    expect(await readRuns(runs, helpers, false)).toEqual(alone);
    // The helper read a run's log whole (its blocks lie on the log's grid whoever reads it).
    const read = helpers.calls.filter((c) => c.name === "svc.hlog");
    expect(read.length).toBeGreaterThan(0);
    for (const c of read) expect(c.bytes).toBeGreaterThan(5_000_000);
  });

  it("reads a run here when its helper fails", { timeout: 120_000 }, async () => {
    const root = mkdtempSync(path.join(tmpdir(), "hdr-history-read-"));
    writeRuns(root);
    const runs = runDirsOf([root]);
    const alone = await readRuns(runs, null, false);
    clearCaches(root);
    expect(await readRuns(runs, new InThreadHelpers(1, "db.hlog"), false)).toEqual(alone);
  });
});
