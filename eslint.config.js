// ESLint (flat config): typescript-eslint's recommended rules without type information, and the
// React hooks rules.
//
// typescript-eslint parses through TypeScript's JavaScript API, which TypeScript 7 (the native
// compiler this project type-checks with) no longer ships; its own tsgo backend wants 7.1 or later.
// So the parser alone gets TypeScript 6 under the alias `typescript-6` (package.json), and the
// overrides entry there lets npm accept typescript-eslint's peer range beside TypeScript 7. The
// lines below send typescript-eslint's `require("typescript")` to that alias; `tsc` stays 7.
// Once typescript-eslint reads TypeScript 7, drop the alias, the override and these lines.
import Module, { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const typescript6 = require.resolve("typescript-6");
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, request === "typescript" ? typescript6 : request, ...rest);
};

const { default: js } = await import("@eslint/js");
const { default: tseslint } = await import("typescript-eslint");
const { default: reactHooks } = await import("eslint-plugin-react-hooks");
const { default: globals } = await import("globals");

// Each src/ folder's README says what it may import; these rules hold it. Types may cross where
// the README allows types (allowTypeImports); tests may reach further to build their inputs.
const TESTS = ["**/*.test.ts", "**/*.test.tsx"];
const up = "^(\\./|(\\.\\./)+)";
const room = (names) => `${up}(${names.join("|")})(/|$)`;
const boundary = (files, patterns) => ({
  files,
  ignores: TESTS,
  rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns }] },
});
const ENGINE = [
  { regex: room(["ui", "charts", "cli"]), message: "The engine never imports the page or the command line." },
  { regex: "^react", message: "The engine has no React." },
];
const KERNEL_USERS = ["src/engine/intervals/decode.ts"];
const KERNEL = {
  regex: `${up}wasm/kernel$`,
  allowTypeImports: true,
  message: "The kernel is imported by engine/intervals/decode.ts alone (the thread's PayloadDecoder); the engine context hands it to the reader. Its types may be imported.",
};
const BOUNDARIES = [
  boundary(
    ["src/core/**"],
    [
      { regex: room(["engine", "formats", "ui", "charts", "share", "cli", "wasm"]), message: "core/ is pure: it imports nothing else of the app." },
      { regex: "^react", message: "core/ is pure: no React." },
    ],
  ),
  boundary(["src/formats/**"], [{ regex: room(["engine", "ui", "charts", "share", "cli", "wasm"]), message: "formats/ may import core/ only." }]),
  boundary(
    ["src/share/**"],
    [
      { regex: room(["engine", "ui", "charts", "cli", "wasm"]), message: "share/ may import core/ only, and the app's one inflater." },
      { regex: `${up}formats/(?!inflate$)`, message: "share/ may import core/ only, and the app's one inflater (formats/inflate.ts)." },
    ],
  ),
  boundary(["src/wasm/**"], [{ regex: room(["engine", "ui", "charts", "share", "cli", "core"]), message: "wasm/ may import formats/ types only." }]),
  boundary(["src/engine/**"], ENGINE),
  // The kernel module is imported by the interval source's decoder only; the reader gets it from the context.
  { ...boundary(["src/engine/**"], [...ENGINE, KERNEL]), ignores: [...TESTS, ...KERNEL_USERS] },
  boundary(
    ["src/charts/**"],
    [
      { regex: room(["engine", "ui"]), allowTypeImports: true, message: "charts/ take the engine's and the time panel's types only." },
      { regex: room(["formats", "share", "cli", "wasm"]), message: "charts/ draw what they are given." },
    ],
  ),
  boundary(
    ["src/ui/**"],
    [
      { regex: `${up}engine/(?!(client|protocol|remote)$)`, allowTypeImports: true, message: "The page reaches the engine through client.ts and protocol.ts (types of the rest)." },
      {
        regex: `${up}(formats/(?!readable$)|(wasm|cli)(/|$))`,
        allowTypeImports: true,
        message: "The page never runs a reader: data lives in the engine worker (formats/readable.ts, the list in words, excepted).",
      },
      { regex: `${up}share/(?!history-)`, allowTypeImports: true, message: "The page makes links through the engine; only the history's own link helpers are imported." },
    ],
  ),
  boundary(
    ["src/pptx/**"],
    [
      { regex: room(["engine"]), allowTypeImports: true, message: "The deck takes the engine's results as types; page and command line hand them over." },
      { regex: room(["ui", "formats", "share", "cli", "wasm"]), message: "The deck builder imports core/ and chart layouts only." },
    ],
  ),
  boundary(["src/cli/**"], [{ regex: room(["ui"]), message: "The command line shares the engine and core/, never the page's components." }, KERNEL]),
];

export default tseslint.config(
  { ignores: ["dist/", "dist-cli/", "public/", "test-results/", "playwright-report/", ".bench/", ".scratch/", "src/wasm/kernel-wasm.ts", "src/wasm/assembly/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.worker, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // tsc's noUnusedLocals/noUnusedParameters already report these, with the same exceptions.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  ...BOUNDARIES,
);
