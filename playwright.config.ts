import { defineConfig } from "@playwright/test";
import { findBrowser } from "./scripts/browser.mjs";

// CHROMIUM_PATH, else a browser Playwright installed, else the system's Chromium or Chrome
// (`npm run test:e2e` installs one first when there is none: scripts/browser.mjs).
const executablePath = findBrowser() ?? "/usr/bin/chromium";
// E2E_PORT lets two checkouts run their end-to-end tests at once without sharing a server.
const port = Number(process.env.E2E_PORT || 4173);

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    acceptDownloads: true,
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
