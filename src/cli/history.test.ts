// `history` and `check --history` as a CI job uses them: the JSON's shape and order, the
// change found where the generated history has it, exit codes, and the cache beside each run
// (used while the run's files are unchanged, never once they changed).
import { mkdirSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { historyLogs } from "../../tests/support/history-sim";
import { CACHE_FILE } from "./history-runs";
import { main } from "./main";

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stderrIsTTY: false });
  return { code, stdout, stderr };
}

interface HistoryJson {
  version: number;
  runs: { id: string; start: number | null; series: { name: string; count: number; percentiles: Record<string, number> }[] }[];
  changes: { series: string; run: string; index: number; percentile: number; before: number; after: number; ratio: number; low: number; high: number; direction: string }[];
}

/**
 * A history of `runs` runs whose service times are ×1.3 from run `at` on. Directory names run
 * against time order (the latest run has the first name), so the order must come from StartTime.
 */
function writeHistory(root: string, runs: number, seed: number, at?: number, scale = 1.3): string[] {
  const logs = historyLogs({ seed, runs: runs + 1, changeAt: at, scale });
  const ids: string[] = [];
  logs.slice(0, runs).forEach((r, i) => {
    const id = `build-${String.fromCharCode(122 - i)}`;
    ids.push(id);
    mkdirSync(path.join(root, id), { recursive: true });
    writeFileSync(path.join(root, id, "svc.hlog"), r.text);
  });
  // One more run of the same process, not in the history, named as its runs' files are: the gate's new run.
  mkdirSync(`${root}-next`, { recursive: true });
  writeFileSync(path.join(`${root}-next`, "svc.hlog"), logs[runs]!.text);
  return ids;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "hdr-history-"));
});

describe("history", () => {
  it("orders runs by StartTime and finds the ×1.3 step at the run where it starts, in the contract's JSON", { timeout: 120_000 }, async () => {
    const root = path.join(dir, "step");
    const ids = writeHistory(root, 16, 5, 8);
    const r = await run(["history", "--json", root]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as HistoryJson;
    expect(j.version).toBe(1);
    expect(j.runs.map((x) => x.id)).toEqual(ids);
    expect(j.runs[0]!.start).toBe(Date.UTC(2026, 10, 1) / 1000);
    expect(j.runs[0]!.series[0]).toMatchObject({ name: "svc", count: 12000 });
    expect(Object.keys(j.runs[0]!.series[0]!.percentiles).sort()).toEqual(["100", "50", "90", "99", "99.9", "99.99", "99.999"]);
    const p50 = j.changes.filter((c) => c.percentile === 50);
    expect(p50).toHaveLength(1);
    const c = p50[0]!;
    expect(c).toMatchObject({ series: "svc", index: 8, run: ids[8], direction: "worse" });
    expect(Object.keys(c).sort()).toEqual(["after", "before", "direction", "high", "index", "low", "percentile", "ratio", "run", "series"]);
    // Before and after are typical of the runs either side (within their scatter), in the recorded unit (ns).
    const p50s = j.runs.map((x) => x.series[0]!.percentiles["50"]!);
    const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    expect(c.before / mid(p50s.slice(0, 8))).toBeCloseTo(1, 1);
    expect(c.after / mid(p50s.slice(8))).toBeCloseTo(1, 1);
    expect(c.low).toBeLessThan(c.ratio);
    expect(c.high).toBeGreaterThan(c.ratio);
    expect(c.low).toBeGreaterThan(1.05);
    const text = await run(["history", root]);
    expect(text.stdout).toMatch(/svc: p50 rose \d+ % \(\d+–\d+ %\) at build-r/);
    // --out: the Markdown with the chart beside it, and a link holding the runs.
    const out = path.join(dir, "step-out");
    expect((await run(["history", "--out", out, "--link-base", "https://example.org/hdr/", root])).code).toBe(0);
    const md = readFileSync(path.join(out, "history.md"), "utf8");
    expect(md).toContain(`| p50 | ${ids[8]} |`);
    expect(md).toContain("![svc across runs](history-svc.svg)");
    expect(md).toMatch(/\(https:\/\/example\.org\/hdr\/#history=1\.[A-Za-z0-9_-]+\)/);
    const svg = readFileSync(path.join(out, "history-svc.svg"), "utf8");
    expect(svg).toMatch(/^<\?xml/);
    expect(svg.match(/class="history-marker worse"/g)?.length).toBe(j.changes.length);
  });

  it("prints no change for a steady history", { timeout: 120_000 }, async () => {
    const root = path.join(dir, "steady");
    writeHistory(root, 12, 6);
    const j = JSON.parse((await run(["history", "--json", root])).stdout) as HistoryJson;
    expect(j.runs).toHaveLength(12);
    expect(j.changes).toEqual([]);
    // --require judges each run at the percentiles a summary keeps (values in ns here).
    const judged = JSON.parse((await run(["history", "--json", "--require", "p50<=1ms", root])).stdout) as {
      runs: { series: { percentiles: Record<string, number>; verdict: string }[] }[];
    };
    for (const r of judged.runs) expect(r.series[0]!.verdict).toBe(r.series[0]!.percentiles["50"]! <= 1e6 ? "pass" : "fail");
    const odd = await run(["history", "--require", "p99.5<=1ms", root]);
    expect(odd.code).toBe(2);
    expect(odd.stderr).toMatch(/p99\.5 cannot be judged/);
  });

  it("uses a run's cache while its files are unchanged, and never a stale one", { timeout: 120_000 }, async () => {
    const root = path.join(dir, "cache");
    const ids = writeHistory(root, 6, 7);
    await run(["history", "--json", root]);
    const cache = path.join(root, ids[0]!, CACHE_FILE);
    const doc = JSON.parse(readFileSync(cache, "utf8")) as { series: { percentiles: Record<string, number> }[] };
    // A marker only the cache holds: if it is printed, the cache was used.
    doc.series[0]!.percentiles["50"] = 42;
    writeFileSync(cache, JSON.stringify(doc));
    const used = JSON.parse((await run(["history", "--json", root])).stdout) as HistoryJson;
    expect(used.runs[0]!.series[0]!.percentiles["50"]).toBe(42);
    // The run's file replaced by another run's, its modification time put back: the size and
    // the first kilobyte differ, so the cache is stale and the file is read again.
    const file = path.join(root, ids[0]!, "svc.hlog");
    const { atime, mtime } = statSync(file);
    writeFileSync(file, readFileSync(path.join(root, ids[1]!, "svc.hlog")));
    utimesSync(file, atime, mtime);
    const fresh = JSON.parse((await run(["history", "--json", root])).stdout) as HistoryJson;
    expect(fresh.runs.find((x) => x.id === ids[0])!.series[0]!.percentiles["50"]).not.toBe(42);
    expect(fresh.runs.find((x) => x.id === ids[0])!.series[0]!.percentiles["50"]).toBe(fresh.runs.find((x) => x.id === ids[1])!.series[0]!.percentiles["50"]);
    // A file added to the run also makes its cache stale.
    writeFileSync(path.join(root, ids[2]!, "notes.txt"), "not a latency file\n");
    const bad = await run(["history", "--json", root]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("notes.txt");
  });

  it("exits 2 with a reason for what is not a history", async () => {
    const r = await run(["history", path.join(dir, "missing")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing: not a directory/);
    expect((await run(["history"])).code).toBe(2);
  });
});

describe("check --history", () => {
  it("passes a new run like the others (0), fails one 30 % slower (1), and exits 2 on unreadable input", { timeout: 180_000 }, async () => {
    const root = path.join(dir, "gate");
    writeHistory(root, 10, 8);
    const same = path.join(`${root}-next`, "svc.hlog");
    const ok = await run(["check", "--history", root, same]);
    expect(ok.stderr).toBe("");
    expect(ok.stdout).toMatch(/^not worse svc against 10 runs/);
    expect(ok.code).toBe(0);
    const slowerRoot = path.join(dir, "gate-slower");
    mkdirSync(slowerRoot, { recursive: true });
    const slower = historyLogs({ seed: 8, runs: 11, changeAt: 10, scale: 1.3 })[10]!.text;
    writeFileSync(path.join(slowerRoot, "svc.hlog"), slower);
    const worse = await run(["check", "--history", root, path.join(slowerRoot, "svc.hlog")]);
    expect(worse.stdout).toMatch(/^WORSE svc at p50/);
    expect(worse.code).toBe(1);
    // An empty history (the first run in CI): nothing to compare with, not a failure.
    mkdirSync(path.join(dir, "empty"), { recursive: true });
    const first = await run(["check", "--history", path.join(dir, "empty"), same]);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/holds no runs yet/);
    const garbage = path.join(dir, "garbage.hlog");
    writeFileSync(garbage, "#[StartTime: 1.0]\nnot,a,histogram\n");
    const unreadable = await run(["check", "--history", root, garbage]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain("garbage.hlog");
  });
});
