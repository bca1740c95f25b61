import { defineConfig, type Plugin } from "vitest/config";
import react from "@vitejs/plugin-react";

/**
 * Two build-time edits of hdr-histogram-js, the library's code being otherwise untouched:
 *
 * - It probes for Node's zlib with `eval('require("zlib")…')` when its module loads, in the
 *   browser too (the eval throws, and it falls back to pako). Under our Content-Security-Policy
 *   without 'unsafe-eval' that probe would be a blocked eval: it is replaced with what it
 *   evaluates to in a browser, a throw, so no eval is ever reached.
 * - Its browser build embeds its own WebAssembly histograms as a 39 KB base64 string
 *   (`const BINARY="eNrs…"`), used only by its initWebAssembly(Sync), which this app never calls:
 *   its histograms are the JavaScript ones, with float64 counters (src/core/histogram.ts). A
 *   string the bundler cannot drop, of compressed data gzip cannot shrink, it was ~29 kB of each
 *   worker's gzipped bundle: it is replaced with an empty string. initWebAssembly would then
 *   fail; a unit test (src/core/no-library-wasm.test.ts) keeps the app from calling it.
 */
function trimLibrary(): Plugin {
  return {
    name: "hdr-histogram-trim",
    enforce: "pre",
    transform(code, id) {
      if (!id.includes("hdr-histogram-js")) return null;
      const out = code
        .replace(/eval\((['"])require\(\\?"zlib\\?"\)\.(?:de|in)flateSync\1\)/g, '(function(){throw new Error("no zlib in the browser")})()')
        .replace(/(\bBINARY\s*=\s*)"[A-Za-z0-9+/=]{1000,}"/, '$1""');
      return out === code ? null : { code: out, map: null };
    },
  };
}

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
  plugins: [trimLibrary(), react(), csp()],
  base: "./",
  worker: { format: "es", plugins: () => [trimLibrary()] },
  build: { target: "es2022", sourcemap: false },
  test: {
    include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    setupFiles: ["src/test-setup.ts"],
    testTimeout: 30000,
  },
});
