// The hdr-spectrum executable: the command line on the main thread, a part reader on a helper
// thread (the same bundled file, started with workerData naming its role). Each role imports
// only what it runs, so that a helper thread does not evaluate the command line's reports and
// charts before it can read.
import { availableParallelism } from "node:os";
import { isMainThread, Worker, workerData } from "node:worker_threads";
import { HELPER_ROLE } from "./helper-role";

/** Whether the arguments ask for one thread (`--workers 1`): no helper is started early then. */
function oneWorker(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === "--workers=1" || (a === "--workers" && argv[i + 1]?.trim() === "1"));
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === HELPER_ROLE) {
  const { serveParts } = await import("./node-pool");
  serveParts();
} else {
  const argv = process.argv.slice(2);
  const script = new URL(import.meta.url);
  // A helper thread takes a while to start: one starts now, while this thread loads the rest,
  // for the commands that read with helpers (main() takes it, or it is ended below).
  // Unreferenced, it never keeps the process alive by itself.
  const early =
    (argv[0] === "report" || argv[0] === "check") &&
    !argv.includes("--no-workers") &&
    !oneWorker(argv) &&
    !argv.includes("--help") &&
    !argv.includes("-h") &&
    availableParallelism() > 1
      ? new Worker(script, { workerData: { role: HELPER_ROLE } })
      : null;
  early?.unref();
  early?.on("error", () => undefined);
  const { main } = await import("./main");
  const code = await main(
    argv,
    {
      stdout: (t) => void process.stdout.write(t),
      stderr: (t) => void process.stderr.write(t),
      stderrIsTTY: process.stderr.isTTY === true,
    },
    { helperScript: script, started: early ? [early] : [] },
  );
  process.exitCode = code;
  void early?.terminate();
}
