// The command line's everyday edges: the baseline file given only with --compare, a log whose
// last line is still being written, a command that does not exist, and a top sentence that says
// pass or fail in the terminal without pointing at the page's controls.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../tests/support/queue-sim";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { decodeShare } from "../share";
import { cutLastLine } from "./partial";
import { main } from "./main";

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stderrIsTTY: false });
  return { code, stdout, stderr };
}

/** A log of `intervals` one-second intervals, values uniform in [lowUs, lowUs + spanUs) µs (recorded in ns). */
function log(seed: number, lowUs: number, spanUs: number, intervals = 40, perInterval = 300): string {
  const rnd = mulberry32(seed);
  const ivs = [];
  for (let i = 0; i < intervals; i++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (let k = 0; k < perInterval; k++) h.recordValue(Math.round((lowUs + rnd() * spanUs) * 1000));
    ivs.push({ start: i, length: 1, histogram: h });
  }
  return writeHlog(ivs);
}

const dir = mkdtempSync(path.join(tmpdir(), "hdr-cli-"));
const fast = path.join(dir, "fast.hlog");
const slow = path.join(dir, "slow.hlog");
writeFileSync(fast, log(1, 100, 400));
writeFileSync(slow, log(2, 2000, 8000));

describe("--compare FILE", () => {
  it("reads the baseline file when it is not among FILES, and compares the others with it", async () => {
    const r = await run(["report", "--json", "--compare", slow, fast]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { series: { name: string }[]; comparison: { baseline: string; pairs: { candidate: string; headline: { verdict: string } }[] } };
    expect(j.series.map((s) => s.name).sort()).toEqual(["fast", "slow"]);
    expect(j.comparison.baseline).toBe("slow");
    expect(j.comparison.pairs.map((p) => p.candidate)).toEqual(["fast"]);
    // Values 2–10 ms against 0.1–0.5 ms: the candidate is faster.
    expect(j.comparison.pairs[0]!.headline.verdict).toBe("better");
  });
  it("reads it once when it is among FILES too", async () => {
    const r = await run(["report", "--json", "--compare", slow, slow, fast]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { series: unknown[] }).series).toHaveLength(2);
  });
});

describe("report --link-base with --compare", () => {
  it("the link carries the computed comparison: the pair, and every point as the JSON gives it", async () => {
    const r = await run(["report", "--json", "--link-base", "https://example.org/hdr/", "--compare", slow, fast]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { shareUrl: string; comparison: { pairs: { sentence: string; points: { percentile: number; ratio: number; verdict: string }[] }[] } };
    expect(j.shareUrl.startsWith("https://example.org/hdr/#")).toBe(true);
    const d = decodeShare(j.shareUrl.slice(j.shareUrl.indexOf("#") + 1));
    if (!d.ok) throw new Error(d.reason);
    expect(d.state.view.compare).toMatchObject({ baseline: "slow", candidate: "fast" });
    const carried = d.state.results?.compare;
    expect(carried?.sentence).toBe(j.comparison.pairs[0]!.sentence);
    for (const p of j.comparison.pairs[0]!.points) {
      const c = carried!.points.find((x) => x.percentile === p.percentile)!;
      expect(c.ratio).toBe(p.ratio);
    }
  });
});

describe("check --allow-partial", () => {
  const whole = log(3, 100, 400, 30);
  const cut = path.join(dir, "growing.hlog");
  // Cut inside the last interval's payload, as a reader meets a log still being written.
  writeFileSync(cut, whole.slice(0, whole.length - 30));
  const damaged = path.join(dir, "damaged.hlog");
  const lines = whole.split("\n");
  // A damaged line in the middle is not a line still being written.
  lines[lines.length - 10] = lines[lines.length - 10]!.slice(0, 40);
  writeFileSync(damaged, lines.join("\n"));

  it("finds the cut line: the file's last line, with no line break after it", () => {
    expect(cutLastLine(cut)).toBe(whole.slice(0, whole.length - 30).split("\n").length);
    expect(cutLastLine(fast)).toBeNull();
  });
  it("without it, judges nothing (exit 2)", async () => {
    const r = await run(["check", "--require", "p99<=1s", cut]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nothing was judged/);
  });
  it("with it, notes the cut line and judges the rest", async () => {
    const r = await run(["check", "--allow-partial", "--require", "p99<=1s", cut]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pass growing/);
    expect(r.stderr).toMatch(/growing\.hlog:\d+: .*cut mid-write/);
    const json = await run(["report", "--json", "--allow-partial", cut]);
    // 29 whole intervals of 300 values.
    expect((JSON.parse(json.stdout) as { series: { count: number }[] }).series[0]!.count).toBe(29 * 300);
  });
  it("a damaged line elsewhere still stops the judgment", async () => {
    const r = await run(["check", "--allow-partial", "--require", "p99<=1s", damaged]);
    expect(r.code).toBe(2);
  });
});

describe("commands", () => {
  it("an unknown command is named as one, whatever options follow", async () => {
    const r = await run(["publish", "--help"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^hdr-spectrum: unknown command "publish"/);
    expect(r.stderr).not.toMatch(/unknown option/);
  });
  it("the top sentence without throughputs says who fails and by how much, with nothing about the page", async () => {
    const r = await run(["check", "--require", "p99<=5ms", fast, slow]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^1 of 2 fails p99 ≤ 5 ms: slow, \d+(\.\d+)? ms, \d(\.\d)?× the limit\.$/m);
    expect(r.stdout).not.toMatch(/series list|click|set (one|them)/i);
  });
});
