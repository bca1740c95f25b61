// Builds the command line (src/cli/bin.ts and everything it imports from src/) into plain ES
// modules in dist-cli/: hdr-spectrum.mjs, the package's `bin`, and the chunks it loads, runnable
// by Node without tsx or TypeScript. Run by `npm run build:cli`, and by `prepare`, so `npm
// install`/`npm ci` in a clone and `npm pack` build it.
import { chmodSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { libraryEdits } from "./lib/library-edits.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

await build({
  root,
  configFile: false,
  logLevel: "warn",
  // hdr-histogram-js's log writer made its number formatter when loaded (see the edits).
  plugins: [libraryEdits({ browser: false })],
  mode: "production",
  define: {
    "process.env.NODE_ENV": JSON.stringify("production"),
    __HDR_SPECTRUM_VERSION__: JSON.stringify(pkg.version),
  },
  // The page's components are written for React's automatic JSX runtime.
  oxc: { jsx: { runtime: "automatic", development: false } },
  ssr: { target: "node", noExternal: true },
  build: {
    ssr: "src/cli/bin.ts",
    outDir: "dist-cli",
    emptyOutDir: true,
    target: "node20",
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    rollupOptions: {
      // hdr-histogram-js probes for zlib with eval("require('zlib')") (it falls back to pako):
      // known, harmless here.
      onwarn(w, warn) {
        if (w.code !== "EVAL") warn(w);
      },
      output: {
        format: "es",
        entryFileNames: "hdr-spectrum.mjs",
        // Chunks: a helper thread runs hdr-spectrum.mjs too, and then loads only the interval-log
        // reader's chunks, not the reports' and charts' (React's server renderer alone is ~0.5 MB
        // that every thread compiled); the main thread loads the charts only for --out.
        codeSplitting: true,
        chunkFileNames: "[name].mjs",
        banner: "#!/usr/bin/env node",
      },
    },
  },
});

// The package's `bin` runs as a program (`npx hdr-spectrum`, or the file itself from a checkout).
chmodSync(fileURLToPath(new URL("../dist-cli/hdr-spectrum.mjs", import.meta.url)), 0o755);
