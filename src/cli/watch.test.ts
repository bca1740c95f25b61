// `watch` follows a log while it is written: the test writes the log in steps between the
// command's looks at it (its clock and sleep are the test's), so every step is seen exactly
// where it was written and nothing waits on real time. The reference for the verdict at the
// end is `check` on the same file.
import { appendFileSync, existsSync, mkdtempSync, readFileSync, renameSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { mulberry32 } from "../../tests/support/queue-sim";
import { main } from "./main";

/** A log of one-second intervals, values 100–900 µs, with one 50 ms value in each interval listed in `slow`. */
function log(seed: number, intervals: number, slow: number[] = []): string {
  const rnd = mulberry32(seed);
  const ivs = [];
  for (let i = 0; i < intervals; i++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (let k = 0; k < 200; k++) h.recordValue(Math.round((100 + rnd() * 800) * 1000));
    if (slow.includes(i)) h.recordValue(50_000_000);
    ivs.push({ start: i, length: 1, histogram: h });
  }
  return writeHlog(ivs);
}

/** The log's header (everything before its first interval line) and its interval lines, each with its newline. */
function split(text: string): { header: string; lines: string[] } {
  const all = text.split("\n").slice(0, -1);
  const first = all.findIndex((l) => /^[0-9]/.test(l));
  return { header: all.slice(0, first).join("\n") + "\n", lines: all.slice(first).map((l) => l + "\n") };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout as it was at each sleep, before that sleep's step ran. */
  seen: string[];
}

/**
 * Runs `args` with a clock that moves only when the command sleeps; sleep k runs steps[k]. The
 * quiet time is long, so that a file written just before is never taken for a finished one.
 */
async function run(args: string[], steps: (() => void)[] = [], quietMs = 60_000): Promise<Run> {
  let stdout = "";
  let stderr = "";
  let now = 0;
  const seen: string[] = [];
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      const k = seen.length;
      seen.push(stdout);
      steps[k]?.();
      now += ms;
    },
  };
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stderrIsTTY: false }, { helperScript: null, watch: { clock, pollMs: 100, quietMs } });
  return { code, stdout, stderr, seen };
}

const intervalLines = (out: string) => out.split("\n").filter((l) => /: interval \d+ ends/.test(l));

describe("watch", () => {
  it("prints a line per interval as it is written, waits for a partial line, and fails from the interval above the limit on", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-watch-"));
    const file = path.join(dir, "run.hlog");
    const { header, lines } = split(log(1, 8, [5]));
    writeFileSync(file, header + lines.slice(0, 3).join(""));
    const half = Math.floor(lines[4]!.length / 2);
    const r = await run(
      ["watch", "--require", "max<=10ms", "--until", "end", file],
      [
        () => appendFileSync(file, lines[3]!),
        () => appendFileSync(file, lines[4]!.slice(0, half)),
        () => undefined,
        () => appendFileSync(file, lines[4]!.slice(half)),
        () => appendFileSync(file, lines[5]!),
        () => appendFileSync(file, lines[6]! + lines[7]!),
      ],
    );
    // Before each step: what the looks so far printed.
    expect(r.seen.slice(0, 7).map((s) => intervalLines(s).length)).toEqual([3, 4, 4, 4, 5, 6, 8]);
    const ls = intervalLines(r.stdout);
    expect(ls).toHaveLength(8);
    ls.forEach((l, i) => expect(l).toContain(`interval ${i + 1} ends ${i + 1} s`));
    for (const l of ls.slice(0, 5)) expect(l).toMatch(/run so far pass; this interval pass$/);
    expect(ls[5]).toMatch(/run so far FAIL max 50(\.\d+)? ms > 10 ms; this interval FAIL max 50(\.\d+)? ms > 10 ms$/);
    expect(ls[6]).toMatch(/run so far FAIL max .*; this interval pass$/);
    expect(r.stdout).toMatch(/first failure: run, the run so far at 6 s /);
    expect(r.code).toBe(1);

    // At the end it says what check says of the same file.
    const c = await run(["check", "--require", "max<=10ms", file]);
    expect(c.code).toBe(1);
    expect(r.stdout).toContain(c.stdout);
  });

  it("on a finished file, reads it all, prints and exits with check's verdict", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-watch-"));
    const files = [path.join(dir, "fine.hlog"), path.join(dir, "paused.hlog")];
    writeFileSync(files[0]!, log(2, 30));
    writeFileSync(files[1]!, log(3, 30, [17, 18]));
    const sample = path.resolve(import.meta.dirname, "../../../shared/samples/hdrhistogram/jHiccup-2.0.7S.logV2.hlog");
    if (existsSync(sample)) files.push(sample);
    const old = new Date(Date.now() - 3_600_000);
    for (const f of files.slice(0, 2)) utimesSync(f, old, old);
    for (const require of ["max<=10ms", "max<=60ms", "p99<=2ms"]) {
      for (const f of files) {
        const w = await run(["watch", "--require", require, "--until", "end", f], [], f === sample ? 1000 : 1_800_000);
        const c = await run(["check", "--require", require, f]);
        // Written an hour before watch began: it exits after the first look.
        if (f !== sample) expect(w.seen.length).toBe(0);
        expect(w.code).toBe(c.code);
        expect(w.stdout).toContain(c.stdout);
      }
    }
  });

  it("places appended intervals as a load of the whole file does, with or without a StartTime line", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-watch-"));
    const texts: [string, string][] = [];
    // Fractional timestamps and no StartTime: the reader starts the log at its first interval.
    const drifting = log(9, 40, [25]).replace(/[0-9]+\.[0-9]+(?=,[0-9.]+,[0-9.]+,HIST)/g, (m) => (Number(m) * 1.003 + 0.127).toFixed(3));
    texts.push([
      "headerless.hlog",
      drifting
        .split("\n")
        .filter((l) => !l.startsWith("#"))
        .join("\n"),
    ]);
    texts.push(["started.hlog", drifting]);
    for (const name of ["jHiccup-no-header-2.0.7S.logV2.hlog", "jHiccup-with-basetime-2.0.7S.logV2.hlog", "tagged-Log.logV2.hlog"]) {
      const p = path.resolve(import.meta.dirname, "../../../shared/samples/hdrhistogram", name);
      if (existsSync(p)) texts.push([name, readFileSync(p, "utf8")]);
    }
    const strip = (out: string) =>
      out
        .split("\n")
        .filter((l) => l.startsWith("+"))
        .map((l) => l.replace(/^\+[0-9.]+ s {2}/, ""))
        .sort();
    for (const [name, text] of texts) {
      const file = path.join(dir, name);
      const all = text.split("\n").map((l, i, a) => (i < a.length - 1 ? l + "\n" : l));
      const at = [Math.floor(all.length / 3), Math.floor(all.length / 2), all.length - 3];
      writeFileSync(file, all.slice(0, at[0]).join(""));
      const grown = await run(
        ["watch", "--require", "p99<=20ms", "--until", "end", file],
        [
          () => appendFileSync(file, all.slice(at[0], at[1]).join("")),
          () => appendFileSync(file, all.slice(at[1], at[2]).join("")),
          () => appendFileSync(file, all.slice(at[2]).join("")),
        ],
      );
      const old = new Date(Date.now() - 3_600_000);
      utimesSync(file, old, old);
      const whole = await run(["watch", "--require", "p99<=20ms", "--until", "end", file], [], 1_800_000);
      expect(whole.seen.length).toBe(0);
      expect(strip(grown.stdout).length).toBeGreaterThan(30);
      expect(strip(grown.stdout)).toEqual(strip(whole.stdout));
      expect(grown.code).toBe(whole.code);
    }
  });

  it("says a truncated, deleted or replaced file and judges the new run apart from the old", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-watch-"));
    const file = path.join(dir, "run.hlog");
    writeFileSync(file, log(4, 5, [2]));
    const next = path.join(dir, "next.hlog");
    const r = await run(
      ["watch", "--require", "max<=10ms", "--until", "end", file],
      [
        () => writeFileSync(file, log(5, 2)),
        () => undefined,
        () => unlinkSync(file),
        () => {
          writeFileSync(next, log(6, 3));
          renameSync(next, file);
        },
        () => {
          // Moved over the file while it is still there: another inode, as a restarted writer's new log.
          writeFileSync(next, log(10, 4));
          renameSync(next, file);
        },
      ],
    );
    const said = r.stderr.split("\n").map((l) => l.replace(/^.*run\.hlog: /, ""));
    expect(said.slice(0, 4)).toEqual([
      "truncated; a new run starts (the earlier one is judged apart, never mixed)",
      "deleted or unreadable; waiting for it to come back",
      "replaced; a new run starts (the earlier one is judged apart, never mixed)",
      "replaced; a new run starts (the earlier one is judged apart, never mixed)",
    ]);
    // 5 intervals, 2 of the truncated run, 3 of the one after the deletion, 4 of the last; each run counts from 1.
    expect(intervalLines(r.stdout).map((l) => Number(/interval (\d+)/.exec(l)![1]))).toEqual([1, 2, 3, 4, 5, 1, 2, 1, 2, 3, 1, 2, 3, 4]);
    // The last run passes alone (never mixed with the 50 ms of the first), the first one failed.
    expect(r.stdout).toMatch(/^pass run$/m);
    expect(r.stdout).toMatch(/^an earlier run of run \(before the file was truncated or replaced\): FAIL$/m);
    expect(r.stdout).toMatch(/^an earlier run of run \(before the file was truncated or replaced\): pass$/m);
    expect(r.stdout).toMatch(/^first failure: run \(an earlier run, before the file was truncated or replaced\), the run so far at 3 s /m);
    expect(r.code).toBe(1);
  });

  it("stops at a damaged line, naming file, line and reason, with exit 2", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-watch-"));
    const file = path.join(dir, "run.hlog");
    const text = log(7, 3);
    writeFileSync(file, text);
    const headerLines = split(text).header.split("\n").length - 1;
    const r = await run(["watch", "--require", "max<=10ms", "--until", "end", file], [() => appendFileSync(file, "3.000,1.000,0.9,not base64!\n")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path.basename(file)}:${headerLines + 4}:`);
  });

  it("stops at an appended interval whose histogram cannot be read, naming its line and the reason a load gives", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-watch-"));
    const file = path.join(dir, "run.hlog");
    const text = log(7, 3);
    writeFileSync(file, text);
    const headerLines = split(text).header.split("\n").length - 1;
    const good = split(log(7, 4)).lines[3]!;
    const r = await run(["watch", "--require", "max<=10ms", "--until", "end", file], [() => appendFileSync(file, `${good}4.000,1.000,0.9,HISTFAAAAB!!\n`)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^hdr-spectrum: ${path.basename(file)}:${headerLines + 5}: histogram payload: `, "m"));
    // The good interval before it was not judged: the piece is refused whole.
    expect(intervalLines(r.stdout)).toHaveLength(3);
  });

  it("refuses a file that is not an interval log", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-watch-"));
    const file = path.join(dir, "samples.txt");
    writeFileSync(file, "1.5\n2.5\n3.5\n");
    const r = await run(["watch", "--require", "max<=10ms", "--until", "end", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/samples\.txt: read as .*; watch follows interval logs/);
  });

  it("with --every N, one line per N seconds covering the intervals since the line before", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-watch-"));
    const file = path.join(dir, "run.hlog");
    const { header, lines } = split(log(8, 6, [4]));
    writeFileSync(file, header + lines.slice(0, 2).join(""));
    const steps: (() => void)[] = [];
    steps[3] = () => appendFileSync(file, lines[2]! + lines[3]!);
    steps[12] = () => appendFileSync(file, lines[4]! + lines[5]!);
    const r = await run(["watch", "--require", "max<=10ms", "--every", "1", "--until", "3s", file], steps);
    const ls = r.stdout.split("\n").filter((l) => l.startsWith("+"));
    expect(ls).toHaveLength(3);
    expect(ls[0]).toMatch(/^\+1 s {2}run: intervals 1–4 end 4 s; run so far pass; these intervals pass$/);
    expect(ls[1]).toMatch(/^\+2 s {2}run: intervals 5–6 end 6 s; run so far FAIL .*; these intervals FAIL/);
    expect(ls[2]).toMatch(/^\+3 s {2}run: no new interval for 1\.7 s$/);
    expect(r.stdout).toMatch(/first failure: run, the run so far at 5 s /);
    expect(r.code).toBe(1);
  });
});
