import { defineConfig, type Plugin } from "vitest/config";
import react from "@vitejs/plugin-react";
import { libraryEdits } from "./scripts/lib/library-edits.mjs";

/** The production page's Content-Security-Policy: no eval, no inline script. */
const CSP = [
  "default-src 'self'",
  // 'wasm-unsafe-eval' compiles the payload kernel (src/wasm) and nothing else: JavaScript eval stays refused.
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  // Remote logs (#src=https://…) are fetched by the app; nothing else leaves the page.
  "connect-src 'self' https: http:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

function csp(): Plugin {
  return {
    name: "csp-meta",
    apply: "build",
    transformIndexHtml(html) {
      return html.replace("<head>", `<head>\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`);
    },
  };
}

export default defineConfig({
  plugins: [libraryEdits({ browser: true }), react(), csp()],
  base: "./",
  worker: { format: "es", plugins: () => [libraryEdits({ browser: true })] },
  build: { target: "es2022", sourcemap: false },
  test: {
    include: ["src/**/*.test.ts", "tests/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    setupFiles: ["src/test-setup.ts"],
    testTimeout: 30000,
  },
});
