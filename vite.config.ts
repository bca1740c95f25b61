import { defineConfig, type Plugin } from "vitest/config";
import react from "@vitejs/plugin-react";
import { dirname, resolve } from "node:path";
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

const WORKER_URL = "\0worker-url:";

/** A worker's module, emitted as an entry chunk of the page's build; its address when loaded. */
const WORKER_START = /new Worker\(new URL\((["'])(\.{1,2}\/[^"']+\.ts)\1, import\.meta\.url\)/g;

/**
 * The workers as entries of the page's own build (`?worker&url` and `new Worker(new URL(…))` in
 * the production build), not bundles of their own: what the page, the engine worker and its
 * helpers share (the interval-log reader, the histograms, the kernel) then lives in chunks
 * common to them, fetched once.
 */
function sharedWorkerChunks(workerChunks: Set<string>): Plugin {
  const workers = new Set<string>();
  const emit = (ctx: { emitFile(f: { type: "chunk"; id: string; name: string }): string }, file: string) => {
    workers.add(file);
    return ctx.emitFile({ type: "chunk", id: file, name: file.replace(/^.*\//, "").replace(/\.ts$/, "") });
  };
  return {
    name: "shared-worker-chunks",
    apply: "build",
    enforce: "pre",
    resolveId(id, importer) {
      const m = /^(\.{1,2}\/[^?]+\.ts)\?worker&url$/.exec(id);
      return m && importer ? WORKER_URL + resolve(dirname(importer), m[1]!) : null;
    },
    load(id) {
      if (!id.startsWith(WORKER_URL)) return null;
      const file = id.slice(WORKER_URL.length);
      return `export default import.meta.ROLLUP_FILE_URL_${emit(this, file)};`;
    },
    transform(code, id) {
      // The helper that wraps dynamic imports tells the page's window when one fails; a worker
      // has none, and its own error is what goes on.
      if (id === "\0vite/preload-helper.js") return code.replace("window.dispatchEvent(e);", 'if (typeof window !== "undefined") window.dispatchEvent(e);');
      if (!id.includes("/src/") || !code.includes("new Worker(new URL(")) return null;
      const out = code.replace(WORKER_START, (_, _q, rel: string) => {
        const file = resolve(dirname(id), rel);
        return `new Worker(import.meta.ROLLUP_FILE_URL_${emit(this, file)}`;
      });
      return out === code ? null : { code: out, map: null };
    },
    generateBundle(_, bundle) {
      // The chunks a worker loads: their dynamic imports must not preload through the document.
      workerChunks.clear();
      const below = (name: string, seen: Set<string>) => {
        const c = bundle[name];
        if (seen.has(name) || c?.type !== "chunk") return seen;
        seen.add(name);
        for (const i of c.imports) below(i, seen);
        return seen;
      };
      for (const c of Object.values(bundle)) {
        if (c.type !== "chunk" || !c.isEntry || !c.facadeModuleId || !workers.has(c.facadeModuleId)) continue;
        const all = below(c.fileName, new Set());
        all.forEach((n) => workerChunks.add(n));
        // Every chunk it needs named in the worker's own: fetched at once, not a level of imports
        // at a time (as the page's modulepreload links do). Added after its imports, so the
        // modules still run in the same order.
        const more = [...all].filter((n) => n !== c.fileName && !c.imports.includes(n));
        c.code += more.map((n) => `\nimport "./${n.replace(/^.*\//, "")}";`).join("");
      }
    },
  };
}

/** The chunks the workers load (filled when the bundle is written, before the preloads are). */
const workerChunks = new Set<string>();

export default defineConfig({
  plugins: [libraryEdits({ browser: true }), sharedWorkerChunks(workerChunks), react(), csp()],
  base: "./",
  worker: { format: "es", plugins: () => [libraryEdits({ browser: true })] },
  build: {
    target: "es2022",
    sourcemap: false,
    // A worker has no document to add <link rel=modulepreload> to: its chunks' dynamic imports
    // fetch their dependencies as they are imported.
    modulePreload: { resolveDependencies: (_file, deps, { hostId }) => (workerChunks.has(hostId) ? [] : deps) },
  },
  test: {
    include: ["src/**/*.test.ts", "tests/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    setupFiles: ["src/test-setup.ts"],
    testTimeout: 30000,
  },
});
