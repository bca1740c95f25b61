// Checks that two builds of the command line print the same thing: every command below on the
// given logs, run by each build, must give the same stdout, stderr and exit code, byte for byte.
// For changes meant to make the command line faster and change nothing else: build the old
// version into one directory and the new into another, then
//
//   npx tsx scripts/cli-same-output.ts --old /tmp/dist-cli-old --new dist-cli [LOG …]
//
// Without LOGs: the samples beside the project (../shared/samples) and the bench's cached
// 24-hour logs (.bench, npx tsx scripts/bench-cli.ts --only 1 makes them).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const arg = (name: string): string | null => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : null;
};
const oldDir = arg("--old");
const newDir = arg("--new") ?? path.join(root, "dist-cli");
if (!oldDir) throw new Error("usage: --old DIR [--new DIR] [LOG …]");
const given = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && !(i > 0 && all[i - 1]!.startsWith("--")));

function defaultLogs(): string[] {
  const out: string[] = [];
  const samples = path.join(root, "../shared/samples");
  if (existsSync(samples)) {
    for (const d of readdirSync(samples, { withFileTypes: true })) {
      if (d.isDirectory()) for (const f of readdirSync(path.join(samples, d.name)).sort()) out.push(path.join(samples, d.name, f));
    }
  }
  const bench = path.join(root, ".bench");
  if (existsSync(bench)) {
    // The 24-hour logs (read in parts) and the one-hour ones; not the 157 and 502 MB logs.
    for (const f of readdirSync(bench).sort()) if (/^day-v1-n(86400|3600)-.*\.hlog$/.test(f)) out.push(path.join(bench, f));
  }
  return out;
}

const logs = given.length > 0 ? given : defaultLogs();
const hlogs = logs.filter((f) => f.endsWith(".hlog"));
const big = hlogs.filter((f) => /n86400/.test(f));
const req = "p50<=1ms, p99<=10ms, p99.9<=50ms, max<=1s";

const commands: string[][] = [];
for (const f of logs) {
  commands.push(["report", "--json", f], ["report", f], ["check", "--require", req, f], ["check", "--require", req, "--json", f]);
}
for (const f of hlogs) commands.push(["report", "--json", "--start", "60", "--end", "1800", f], ["report", "--link-base", "https://example.org/", f], ["hgrm", f]);
// Every file at once (one that is no log makes it a problem), every log at once, and
// comparisons (a log against itself and the next).
commands.push(["report", "--json", ...logs], ["report", "--json", ...hlogs], ["report", ...hlogs]);
for (let i = 0; i + 1 < hlogs.length; i++) {
  const [a, b] = [hlogs[i]!, hlogs[i + 1]!];
  commands.push(["report", "--json", "--compare", a, a, b], ["report", "--compare", a, a, b], ["check", "--compare", a, a, b], ["check", "--compare", a, "--strict", a, b]);
}
for (const f of big) commands.push(["report", "--json", "--no-workers", f], ["check", "--require", req, "--compare", f, f, ...big.filter((x) => x !== f)]);

function run(dir: string, args: string[]) {
  const r = spawnSync(process.execPath, [path.join(dir, "hdr-spectrum.mjs"), ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let differ = 0;
for (const args of commands) {
  const a = run(oldDir, args);
  const b = run(newDir, args);
  const same = a.code === b.code && a.stdout === b.stdout && a.stderr === b.stderr;
  const shown = args.map((x) => (x.includes("/") ? path.basename(x) : x)).join(" ");
  if (!same) {
    differ++;
    console.log(`DIFFERENT: ${shown}`);
    if (a.code !== b.code) console.log(`  exit code ${a.code} → ${b.code}`);
    if (a.stdout !== b.stdout) console.log(`  stdout differs (${a.stdout.length} → ${b.stdout.length} characters)`);
    if (a.stderr !== b.stderr) console.log(`  stderr differs:\n${a.stderr}\n  →\n${b.stderr}`);
  } else console.log(`same (exit ${a.code}, ${a.stdout.length} characters): ${shown}`);
}
console.log(`${commands.length} commands, ${differ} different`);
process.exitCode = differ > 0 ? 1 : 0;
