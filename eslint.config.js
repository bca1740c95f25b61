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
);
