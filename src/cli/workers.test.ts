// How many threads read the logs is a speed setting, never part of an answer: the built command
// line's output (the JSON with a comparison, a time window and the link, and the charts --out
// writes, the max over time among them) is byte for byte the same for every --workers N, and
// the same as a read in one piece, on logs big enough to be cut into several pieces.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeDayLog } from "../../tests/support/day-log";
import { SPLIT_BYTES } from "../engine/load-files";

const root = path.resolve(__dirname, "../..");
const bin = path.join(root, "dist-cli/hdr-spectrum.mjs");
const dir = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-workers-"));

/** What a run printed and wrote: stdout, and every file of --out but the deck (a zip that dates its entries). */
function runWith(args: readonly string[], workers: string[]): { status: number | null; stdout: string; stderr: string; files: Record<string, string> } {
  const out = mkdtempSync(path.join(dir, "out-"));
  const r = spawnSync(process.execPath, [bin, ...args, "--out", out, ...workers], { encoding: "utf8" });
  const files: Record<string, string> = {};
  for (const f of readdirSync(out).sort()) if (f !== "deck.pptx") files[f] = readFileSync(path.join(out, f), "utf8");
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, files };
}

describe("--workers N", () => {
  let base = "";
  let cand = "";
  beforeAll(() => {
    const b = spawnSync(process.execPath, [path.join(root, "scripts/build-cli.mjs")], { cwd: root, encoding: "utf8" });
    if (b.status !== 0) throw new Error(b.stderr);
    // Two logs of 9,600 one-second intervals (the benchmark's generator), each over the size
    // the loader cuts: read in 1, 2, 3 or 5 pieces.
    base = writeDayLog(path.join(dir, "base.hlog"), { intervals: 9_600, seed: 3 }).path;
    cand = writeDayLog(path.join(dir, "cand.hlog"), { intervals: 9_600, seed: 4 }).path;
    expect(statSync(base).size).toBeGreaterThan(SPLIT_BYTES);
  }, 120_000);

  it("prints and writes the same bytes for N = 1, 2, 3 and 5, and for a read in one piece", () => {
    // A window whose edges fall inside 64-interval blocks, and a comparison of the two runs.
    const args = ["report", "--json", "--start", "1000.5", "--end", "9037", "--compare", base, base, cand, "--link-base", "https://example.org/hdr-spectrum/"];
    const one = runWith(args, ["--no-workers"]);
    expect(one.status, one.stderr).toBe(0);
    const json = JSON.parse(one.stdout) as { series: { count: number }[]; comparison: { pairs: unknown[] }; shareUrl: string | null };
    expect(json.series).toHaveLength(2);
    expect(json.comparison.pairs).toHaveLength(1);
    expect(json.shareUrl).toMatch(/^https:\/\/example\.org\/hdr-spectrum\/#/);
    expect(Object.keys(one.files)).toEqual(expect.arrayContaining(["report.json", "summary.md", "max-over-time.svg"]));
    for (const n of ["1", "2", "3", "5"]) {
      const r = runWith(args, ["--workers", n]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout, `--workers ${n}`).toBe(one.stdout);
      expect(r.files, `--workers ${n}`).toEqual(one.files);
    }
  }, 120_000);

  it("refuses a count that is not a whole number from 1", () => {
    for (const bad of ["0", "-1", "2.5", "many"]) {
      const r = spawnSync(process.execPath, [bin, "report", "--json", "--workers", bad, base], { encoding: "utf8" });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/--workers/);
    }
    const both = spawnSync(process.execPath, [bin, "report", "--json", "--workers", "2", "--no-workers", base], { encoding: "utf8" });
    expect(both.status).toBe(2);
  });
});
