// Build-time edits of hdr-histogram-js, the library's code being otherwise untouched. Used by
// vite.config.ts (the page and its workers: every edit) and scripts/build-cli.mjs (the command
// line, in Node: the formatter's only).
//
// - Its log writer makes a number formatter (Intl.NumberFormat) when its module loads, whether
//   or not anything writes a log: the first Intl object a thread makes loads the locale data,
//   a visible share of each thread's start-up (profiled in Node: every thread that imports the
//   library, the command line's helper included, paid it before it read a byte). The formatter
//   is made when first used instead.
// - It probes for Node's zlib with `eval('require("zlib")…')` when its module loads, in the
//   browser too (the eval throws, and it falls back to pako). Under our Content-Security-Policy
//   without 'unsafe-eval' that probe would be a blocked eval: it is replaced with what it
//   evaluates to in a browser, a throw, so no eval is ever reached.
// - Its browser build embeds its own WebAssembly histograms as a 39 KB base64 string
//   (`const BINARY="eNrs…"`), used only by its initWebAssembly(Sync), which this app never calls:
//   its histograms are the JavaScript ones, with float64 counters (src/core/histogram.ts). A
//   string the bundler cannot drop, of compressed data gzip cannot shrink, it was ~29 kB of each
//   worker's gzipped bundle: it is replaced with an empty string. initWebAssembly would then
//   fail; a unit test (src/core/no-library-wasm.test.ts) keeps the app from calling it.

/** The log writer's formatter, made at its first use (the CommonJS and the UMD builds' spellings). */
const EAGER_FORMATTER = /(\btimeFormatter\s*=\s*)(\(0,\s*formatters_1\.floatFormatter\)|floatFormatter)\(5,\s*3\)/;

/** The edited source, or null when nothing was edited. `browser`: all three edits, else the formatter's only. */
export function editLibrary(code, browser) {
  let out = code.replace(EAGER_FORMATTER, "$1((made) => (value) => (made ??= $2(5, 3))(value))()");
  if (browser) {
    out = out
      .replace(/eval\((['"])require\(\\?"zlib\\?"\)\.(?:de|in)flateSync\1\)/g, '(function(){throw new Error("no zlib in the browser")})()')
      .replace(/(\bBINARY\s*=\s*)"[A-Za-z0-9+/=]{1000,}"/, '$1""');
  }
  return out === code ? null : out;
}

/** The edits as a Vite/Rolldown plugin. */
export function libraryEdits({ browser }) {
  return {
    name: "hdr-histogram-edits",
    enforce: "pre",
    transform(code, id) {
      if (!id.includes("hdr-histogram-js")) return null;
      const out = editLibrary(code, browser);
      return out === null ? null : { code: out, map: null };
    },
  };
}
