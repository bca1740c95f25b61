import { defineConfig } from "@playwright/test";

// Debian's Chromium, never a downloaded browser (the machine reaches only package registries).
const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: "http://127.0.0.1:4173/",
    acceptDownloads: true,
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: {
    command: "npx vite preview --port 4173 --strictPort --host 127.0.0.1",
    url: "http://127.0.0.1:4173/",
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
