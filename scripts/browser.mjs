// Which Chromium the end-to-end tests and the benchmark drive, and how to get one on a machine
// that has none. `findBrowser()` only looks; `node scripts/browser.mjs --ensure` (run by
// `npm run test:e2e` before Playwright) installs one when nothing is found:
//   1. CHROMIUM_PATH, when set (it must exist: a wrong path is an error, not a fallback);
//   2. a browser Playwright itself installed (~/.cache/ms-playwright, PLAYWRIGHT_BROWSERS_PATH);
//   3. a system Chromium or Chrome;
//   4. else: as root on Debian or Ubuntu, apt-get's `chromium`; elsewhere Playwright's installer;
//      and when that cannot be done, one line saying what to run. Never skipped silently.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir, platform } from "node:os";
import { join } from "node:path";

const SYSTEM = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

/** Chromium builds Playwright's own installer left, newest first. */
function playwrightBrowsers() {
  const roots = [process.env.PLAYWRIGHT_BROWSERS_PATH, join(homedir(), ".cache/ms-playwright"), join(homedir(), "Library/Caches/ms-playwright")].filter(Boolean);
  const found = [];
  for (const root of roots) {
    if (!existsSync(root)) continue;
    const dirs = readdirSync(root)
      .filter((d) => /^chromium-\d+$/.test(d))
      .sort((a, b) => Number(b.split("-")[1]) - Number(a.split("-")[1]));
    for (const d of dirs) {
      for (const rel of ["chrome-linux/chrome", "chrome-linux64/chrome", "chrome-mac/Chromium.app/Contents/MacOS/Chromium", "chrome-win/chrome.exe"]) {
        const p = join(root, d, rel);
        if (existsSync(p)) found.push(p);
      }
    }
  }
  return found;
}

/** The browser to drive, or null when this machine has none. */
export function findBrowser() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return [...playwrightBrowsers(), ...SYSTEM].find((p) => existsSync(p)) ?? null;
}

function isDebianLike() {
  return existsSync("/etc/debian_version") && spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
}

function run(cmd, args) {
  console.error(`$ ${cmd} ${args.join(" ")}`);
  return spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status === 0;
}

/** Finds a browser or installs one; exits non-zero with one line of advice when it cannot. */
export function ensureBrowser() {
  if (process.env.CHROMIUM_PATH && !existsSync(process.env.CHROMIUM_PATH)) {
    console.error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist: point it at a Chromium or Chrome binary, or unset it.`);
    process.exit(1);
  }
  let found = findBrowser();
  if (found) return found;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (platform() === "linux" && isDebianLike()) {
    if (root) {
      console.error("No Chromium on this machine: installing Debian's package for the end-to-end tests.");
      if (run("apt-get", ["update", "-qq"]) && run("apt-get", ["install", "-y", "-qq", "chromium"])) found = findBrowser();
    }
    if (!found) {
      console.error("No browser for the end-to-end tests: run `sudo apt-get install -y chromium` (or set CHROMIUM_PATH to a Chromium or Chrome), then `npm test` again.");
      process.exit(1);
    }
    return found;
  }
  console.error("No Chromium on this machine: installing Playwright's own for the end-to-end tests.");
  if (run("npx", ["playwright", "install", "chromium"])) found = findBrowser();
  if (!found) {
    console.error("No browser for the end-to-end tests: run `npx playwright install chromium` (or set CHROMIUM_PATH to a Chromium or Chrome), then `npm test` again.");
    process.exit(1);
  }
  return found;
}

if (process.argv.includes("--ensure")) {
  console.error(`End-to-end tests use ${ensureBrowser()}`);
}
