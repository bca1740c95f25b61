// `npm start`: builds the app if the build is missing or older than the sources, then serves it
// on localhost and opens it (the demo data loads on its own).
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const built = existsSync("dist/index.html") ? statSync("dist/index.html").mtimeMs : 0;
const sources = Math.max(newest("src"), newest("public"), statSync("index.html").mtimeMs);
if (built < sources) {
  const r = spawnSync("npm", ["run", "build"], { stdio: "inherit", shell: process.platform === "win32" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const args = ["vite", "preview", "--port", process.env.PORT || "4173", "--host", "127.0.0.1"];
if (!process.env.CI) args.push("--open");
const child = spawn("npx", args, { stdio: "inherit", shell: process.platform === "win32" });
child.on("exit", (code) => process.exit(code ?? 0));
