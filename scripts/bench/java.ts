// The outside baseline: HdrHistogram Java 2.2.2's HistogramLogProcessor reading the same log in
// the same run (`java -cp HdrHistogram-2.2.2.jar org.HdrHistogram.HistogramLogProcessor -i
// FILE`), wall time and peak RSS of the whole process. Skipped, with the reason, where java or
// the jar is absent (`mvn -q dependency:get -Dartifact=org.hdrhistogram:HdrHistogram:2.2.2`
// puts the jar in ~/.m2).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

export const HLP_JAR = process.env.HDRHISTOGRAM_JAR ?? join(homedir(), ".m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar");
export const HLP_NAME = "HdrHistogram Java 2.2.2 HistogramLogProcessor";

/** Null when the baseline can run here, else why not. */
export function hlpMissing(): string | null {
  if (spawnSync("java", ["-version"]).status !== 0) return "no java on this machine: the HistogramLogProcessor baseline is skipped";
  if (!existsSync(HLP_JAR)) return `no ${HLP_JAR}: run \`mvn -q dependency:get -Dartifact=org.hdrhistogram:HdrHistogram:2.2.2\` (the HistogramLogProcessor baseline is skipped)`;
  return null;
}

export interface Timed {
  /** Wall seconds of the whole process, start-up included. */
  seconds: number;
  /** Peak resident memory (MB), from GNU time; null without it. */
  rssMB: number | null;
  /** User + system CPU seconds, all threads; null without GNU time. */
  cpu: number | null;
  status: number | null;
}

const haveTime = existsSync("/usr/bin/time");

/** Runs a command once as a user would: wall seconds, peak RSS and CPU (GNU time's %M %U %S). */
export function timeCommand(cmd: string, args: string[]): Timed {
  const t0 = performance.now();
  const r = haveTime
    ? spawnSync("/usr/bin/time", ["-f", "%M %U %S", cmd, ...args], { encoding: "utf8", maxBuffer: 1 << 28 })
    : spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  const seconds = (performance.now() - t0) / 1000;
  const m = haveTime ? /(\d+) ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr) : null;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.slice(0, 3).join(" ")} …: exit ${r.status}\n${r.stderr.slice(-2000)}`);
  return { seconds, rssMB: m ? Number(m[1]) / 1024 : null, cpu: m ? Number(m[2]) + Number(m[3]) : null, status: r.status };
}

/** One run of HistogramLogProcessor on `file` (its output, the percentile distribution, is discarded). */
export function hlpRun(file: string): Timed {
  return timeCommand("java", ["-cp", HLP_JAR, "org.HdrHistogram.HistogramLogProcessor", "-i", file]);
}

/**
 * One run with `-o OUT`, as its usage asks: it then also writes every interval's percentiles and
 * the running total's (the log over time, as the page's timeline shows it) to OUT, and the
 * distribution to OUT.hgrm. Without -o it writes the distribution alone. Both files are removed.
 */
export function hlpRunWithOutput(file: string): Timed {
  const dir = mkdtempSync(join(tmpdir(), "hlp-"));
  try {
    return timeCommand("java", ["-cp", HLP_JAR, "org.HdrHistogram.HistogramLogProcessor", "-i", file, "-o", join(dir, "out")]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
