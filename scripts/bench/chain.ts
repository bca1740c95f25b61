// `npm run bench`: every benchmark script in turn, each given the same --runs (and the browser
// bench its other arguments). With --only (rows of the browser bench), only that bench runs.
//
//   npm run bench -- [--runs N] [--only 1,5] [--port P] [--profile]
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");
const argv = process.argv.slice(2);
const at = argv.findIndex((a) => a === "--runs" || a.startsWith("--runs="));
const runs = at < 0 ? [] : argv[at]!.includes("=") ? ["--runs", argv[at]!.slice(7)] : ["--runs", argv[at + 1] ?? ""];
const portAt = argv.indexOf("--port");
const port = portAt < 0 ? [] : ["--port", argv[portAt + 1] ?? ""];
const only = argv.some((a) => a.startsWith("--only"));

const chain: [string, string[]][] = [["scripts/bench.ts", argv]];
if (!only) {
  chain.push(["scripts/bench-compare.ts", runs]);
  chain.push(["scripts/bench-time.ts", [...runs, ...port]]);
  chain.push(["scripts/bench-cli.ts", runs]);
  chain.push(["scripts/bench-live.ts", runs]);
  chain.push(["scripts/bench-prometheus.ts", runs]);
}
let failed = 0;
for (const [script, args] of chain) {
  process.stderr.write(`[bench] ${script} ${args.join(" ")}\n`);
  const r = spawnSync("npx", ["tsx", resolve(ROOT, script), ...args], { stdio: "inherit", cwd: ROOT });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
