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
  // The page and its workers (started from blob: addresses, so they keep this policy) reach this
  // origin only. A host the user agreed to (#src=, Prometheus) is asked from public/net.html, a
  // frame of this origin whose own policy admits that host alone.
  "connect-src 'self'",
  "frame-src 'self'",
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
