// Long fuzz runs of the properties in tests/fuzz/properties.ts.
//
//   npm run fuzz -- --count 20000 [--seed N] [--only name[,name]] [--jobs N] [--budget ms] [--hang s] [--strict] [--list]
//
// Each property runs in a child process of its own (fresh heap; a case that hangs is killed and
// reported with its input). Per property: cases run, failures, time, known-bug cases tolerated,
// and for each failure its seed, counterexample and error. After a failure the property goes on
// with the next seed until --count cases ran (at most --max-failures failures are collected).
// Exits 1 when anything failed. --strict: known (reported, unfixed) bugs count as failures.
// Reproduce a failure: npm run fuzz -- --only NAME --seed SEED --count N (it shrinks the first one).
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { KNOWN_BUGS, knownHits, preview, setCaseBudget, setStrict } from "./harness";
import { PROPERTIES, setCaseHook, setLongMode } from "./properties";

interface Options {
  count: number;
  seed: number;
  only: string[];
  budget: number;
  hangSec: number;
  strict: boolean;
  maxFailures: number;
  jobs: number;
  list: boolean;
  child: string | null;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { count: 1000, seed: Date.now() % 2 ** 31, only: [], budget: 2000, hangSec: 60, strict: false, maxFailures: 3, jobs: 1, list: false, child: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const num = (): number => {
      const v = Number(next());
      if (!Number.isFinite(v)) throw new Error(`${a} needs a number`);
      return v;
    };
    if (a === "--count") o.count = Math.max(1, Math.floor(num()));
    else if (a === "--seed") o.seed = Math.floor(num());
    else if (a === "--only")
      o.only.push(
        ...next()
          .split(",")
          .filter((s) => s !== ""),
      );
    else if (a === "--budget") o.budget = num();
    else if (a === "--hang") o.hangSec = num();
    else if (a === "--max-failures") o.maxFailures = Math.max(1, Math.floor(num()));
    else if (a === "--jobs") o.jobs = Math.max(1, Math.floor(num()));
    else if (a === "--strict") o.strict = true;
    else if (a === "--list") o.list = true;
    else if (a === "--child") o.child = next();
    else throw new Error(`unknown argument ${a} (see the top of tests/fuzz/run.ts)`);
  }
  return o;
}

interface Failure {
  seed: number;
  counterexample: string;
  error: string;
  /** fast-check's path, for replaying the shrunk case. */
  path: string | null;
}

interface PropertyReport {
  name: string;
  cases: number;
  failures: Failure[];
  ms: number;
  known: Record<string, number>;
  hang?: { lastInput: string; caseIndex: number; seconds: number };
  crash?: string;
}

type ChildMessage = { t: "case"; i: number; input: string } | { t: "done"; report: PropertyReport };

// ---------------------------------------------------------------------------------------------
// Child: runs one property.

async function runChild(o: Options): Promise<void> {
  const p = PROPERTIES.find((x) => x.name === o.child);
  if (!p) throw new Error(`no property ${o.child}`);
  setCaseBudget(o.budget);
  setStrict(o.strict);
  setLongMode(true);
  const count = Math.min(o.count, p.maxRuns ?? Infinity);
  let caseIndex = 0;
  setCaseHook((input) => {
    caseIndex++;
    process.send?.({ t: "case", i: caseIndex, input: preview(input, 1500) } satisfies ChildMessage);
  });
  const t0 = performance.now();
  const failures: Failure[] = [];
  let cases = 0;
  let seed = o.seed;
  while (cases < count && failures.length < o.maxFailures) {
    const details = await fc.check(p.build(), { numRuns: count - cases, seed, endOnFailure: failures.length > 0 });
    cases += details.numRuns;
    if (details.failed) {
      const err = details.errorInstance;
      failures.push({
        seed,
        counterexample: preview(details.counterexample, 2000),
        error: err instanceof Error ? err.message : String(err),
        path: details.counterexamplePath,
      });
      if (details.numRuns === 0) cases++;
    } else if (details.interrupted || details.numRuns === 0) break;
    seed++;
  }
  const report: PropertyReport = { name: p.name, cases, failures, ms: performance.now() - t0, known: { ...knownHits } };
  process.send?.({ t: "done", report } satisfies ChildMessage);
}

// ---------------------------------------------------------------------------------------------
// Parent: one child per property, with a watchdog.

function runProperty(name: string, o: Options): Promise<PropertyReport> {
  const script = fileURLToPath(import.meta.url);
  const args = ["--child", name, "--count", String(o.count), "--seed", String(o.seed), "--budget", String(o.budget), "--max-failures", String(o.maxFailures)];
  if (o.strict) args.push("--strict");
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = fork(script, args, { execArgv: process.execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let last = { i: 0, input: "(no case started)" };
    let lastAt = performance.now();
    let settled = false;
    const finish = (r: PropertyReport) => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      resolve(r);
    };
    const watch = setInterval(() => {
      const idle = (performance.now() - lastAt) / 1000;
      if (idle > o.hangSec) {
        child.kill("SIGKILL");
        finish({ name, cases: last.i, failures: [], ms: performance.now() - t0, known: {}, hang: { lastInput: last.input, caseIndex: last.i, seconds: idle } });
      }
    }, 1000);
    child.on("message", (m: ChildMessage) => {
      lastAt = performance.now();
      if (m.t === "case") last = { i: m.i, input: m.input };
      else finish(m.report);
    });
    child.on("exit", (code, signal) => {
      finish({
        name,
        cases: last.i,
        failures: [],
        ms: performance.now() - t0,
        known: {},
        crash: `child exited (code ${code}, signal ${signal}) during case ${last.i}: ${last.input}`,
      });
    });
  });
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (o.child) return runChild(o);
  const selected = PROPERTIES.filter((p) => o.only.length === 0 || o.only.some((s) => p.name.includes(s)));
  if (o.list || selected.length === 0) {
    for (const p of PROPERTIES) console.log(`${pad(p.name, 28)} ${p.description}`);
    if (!o.list) {
      console.error(`no property matches ${o.only.join(", ")}`);
      process.exitCode = 2;
    }
    return;
  }
  console.log(`fuzz: ${selected.length} properties, ${o.count} cases each, seed ${o.seed}, budget ${o.budget} ms per case${o.strict ? ", strict" : ""}\n`);
  const reports: PropertyReport[] = [];
  const t0 = performance.now();
  // --jobs N: N properties at a time (each in its own process); reports print in order.
  const pending = selected.map((p) => ({ p, result: null as Promise<PropertyReport> | null }));
  let started = 0;
  const startNext = () => {
    if (started < pending.length) {
      const slot = pending[started++]!;
      slot.result = runProperty(slot.p.name, o).then((r) => {
        startNext();
        return r;
      });
    }
  };
  for (let k = 0; k < o.jobs; k++) startNext();
  for (const slot of pending) {
    while (!slot.result) await new Promise((res) => setTimeout(res, 50));
    const p = slot.p;
    const r = await slot.result;
    reports.push(r);
    const failed = r.failures.length + (r.hang ? 1 : 0) + (r.crash ? 1 : 0);
    const known = Object.entries(r.known)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k}×${n}`)
      .join(", ");
    console.log(
      `${pad(r.name, 28)} cases ${pad(String(r.cases), 7)} failures ${pad(String(failed), 3)} time ${pad((r.ms / 1000).toFixed(1) + " s", 9)}${known ? ` known-bug cases: ${known}` : ""}`,
    );
    for (const f of r.failures) {
      console.log(`    FAIL seed ${f.seed}${f.path ? ` path ${f.path}` : ""}`);
      console.log(`      error: ${f.error.split("\n")[0]}`);
      console.log(`      counterexample: ${f.counterexample}`);
      console.log(`      reproduce: npm run fuzz -- --only ${r.name} --seed ${f.seed} --count ${o.count}`);
    }
    if (r.hang) console.log(`    HANG: no progress for ${r.hang.seconds.toFixed(0)} s in case ${r.hang.caseIndex} (killed); input: ${r.hang.lastInput}`);
    if (r.crash) console.log(`    CRASH: ${r.crash}`);
    if (p.maxRuns !== undefined && p.maxRuns < o.count) console.log(`    (capped at ${p.maxRuns} cases: few distinct or costly inputs)`);
  }
  const totalCases = reports.reduce((a, r) => a + r.cases, 0);
  const bad = reports.filter((r) => r.failures.length > 0 || r.hang || r.crash);
  console.log(
    `\n${totalCases} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${bad.length === 0 ? "no failures" : `${bad.length} properties failed: ${bad.map((r) => r.name).join(", ")}`}`,
  );
  const knownTotal: Record<string, number> = {};
  for (const r of reports) for (const [k, n] of Object.entries(r.known)) knownTotal[k] = (knownTotal[k] ?? 0) + n;
  const knownSeen = Object.entries(knownTotal).filter(([, n]) => n > 0);
  if (knownSeen.length > 0) {
    console.log("known bugs tolerated (not failures; --strict makes them failures):");
    for (const [k, n] of knownSeen) console.log(`  ${k} (${n} cases): ${KNOWN_BUGS[k as keyof typeof KNOWN_BUGS]}`);
  }
  if (bad.length > 0) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exitCode = 2;
});
