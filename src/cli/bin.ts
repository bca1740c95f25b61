// The hdr-spectrum executable: the command line on the main thread, a part reader on a helper
// thread (the same bundled file, started with workerData naming its role).
import { isMainThread, workerData } from "node:worker_threads";
import { main } from "./main";
import { HELPER_ROLE, serveParts } from "./node-pool";

if (!isMainThread && (workerData as { role?: string } | null)?.role === HELPER_ROLE) {
  serveParts();
} else {
  const code = await main(
    process.argv.slice(2),
    {
      stdout: (t) => void process.stdout.write(t),
      stderr: (t) => void process.stderr.write(t),
      stderrIsTTY: process.stderr.isTTY === true,
    },
    { helperScript: new URL(import.meta.url) },
  );
  process.exitCode = code;
}
