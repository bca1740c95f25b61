// Keeps docs/HOOKS.md true: every data-testid the app renders (src/**/*.ts(x), tests excluded)
// is listed in ../shared/CONTRACT.md or in docs/HOOKS.md, every hook docs/HOOKS.md lists is
// still rendered, and the data-* attributes on them are written down.
//
// The source is scanned as text (no compiler): `data-testid="x"`, `data-testid={"x"}`,
// `data-testid={`x`}`, `testId="x"`-style props, template literals (`timeline-p${p}` becomes
// the pattern `timeline-p*`, written `timeline-p{P}` in the doc), ternaries of literals, and an
// identifier that is a parameter of a local helper (`check("timeline-lanes", …)`) or a prop
// given a literal at a JSX call site. An id it cannot resolve fails the test: write it as a
// literal, or teach this scanner.
//
// docs/HOOKS.md's format: hooks are rows of Markdown tables whose first cell holds the id(s) in
// backticks; the section headed "## Attributes added to CONTRACT.md's hooks" lists CONTRACT's
// own hooks (first cell) with the data-* attributes the app added to them.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(import.meta.dirname, "..");
const CONTRACT_PATH = path.resolve(repoRoot, "../shared/CONTRACT.md");
const HOOKS_PATH = path.resolve(repoRoot, "docs/HOOKS.md");
const ADDITIONS_HEADING = /^## Attributes added to CONTRACT\.md's hooks/;
const ID_RE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\{[A-Za-z]+\}[a-z0-9-]*)?$/;

// ---------------------------------------------------------------- source scanning

interface Found {
  /** The id, or for a dynamic id its shape with `*` for each unknown part (`timeline-p*`). */
  shape: string;
  dynamic: boolean;
  file: string;
  line: number;
  /** data-* attributes (other than data-testid) on the same element. */
  attrs: string[];
}

interface Unresolved {
  expr: string;
  file: string;
  line: number;
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listSources(p));
    else if (/\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) && e.name !== "test-setup.ts") out.push(p);
  }
  return out.sort();
}

/** Comments blanked out (newlines kept, so positions keep their line numbers). */
function stripComments(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  return text.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/(^|\s)\/\/[^\n]*/g, (m, pre: string) => pre + blank(m.slice(pre.length)));
}

const lineAt = (text: string, pos: number) => text.slice(0, pos).split("\n").length;

/** Index just past the string or template literal that starts at `i`. */
function skipString(text: string, i: number): number {
  const q = text[i]!;
  let j = i + 1;
  while (j < text.length && text[j] !== q) {
    if (text[j] === "\\") j++;
    else if (q === "`" && text[j] === "$" && text[j + 1] === "{") j = skipBalanced(text, j + 1) - 1;
    j++;
  }
  return j + 1;
}

/** Index just past the bracket group that opens at `i` ( `{`, `(` or `[` ). */
function skipBalanced(text: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const c = text[j]!;
    if (c === '"' || c === "'" || c === "`") {
      j = skipString(text, j);
      continue;
    }
    if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return j;
}

/** The expression starting at `i`, up to a top-level `,`, `)`, `}` or `]`. */
function readExpression(text: string, i: number): string {
  let j = i;
  while (j < text.length) {
    const c = text[j]!;
    if (c === '"' || c === "'" || c === "`") j = skipString(text, j);
    else if (c === "{" || c === "(" || c === "[") j = skipBalanced(text, j);
    else if (c === "," || c === ")" || c === "}" || c === "]") break;
    else j++;
  }
  return text.slice(i, j).trim();
}

/** The arguments of the call whose `(` is at `i`. */
function readArguments(text: string, i: number): string[] {
  const args: string[] = [];
  let j = i + 1;
  while (j < text.length && text[j] !== ")") {
    const e = readExpression(text, j);
    args.push(e);
    j = text.indexOf(e, j) + e.length;
    while (j < text.length && /[\s,]/.test(text[j]!)) j++;
  }
  return args;
}

/** The JSX opening tag around `pos`: its name and its text. */
function openingTag(text: string, pos: number): { name: string; text: string } | null {
  const before = text.slice(0, pos);
  let start = -1;
  for (const m of before.matchAll(/<([A-Za-z][\w.]*)/g)) start = m.index;
  if (start < 0) return null;
  let j = start + 1;
  while (j < text.length && text[j] !== ">") {
    const c = text[j]!;
    if (c === '"' || c === "'" || c === "`") j = skipString(text, j);
    else if (c === "{") j = skipBalanced(text, j);
    else j++;
  }
  if (j < pos) return null;
  return { name: /^<([A-Za-z][\w.]*)/.exec(text.slice(start))![1]!, text: text.slice(start, j + 1) };
}

const dataAttrsOf = (tag: string) => [...new Set([...tag.matchAll(/\s(data-[a-z][a-z0-9-]*)\s*=/g)].map((m) => m[1]!))].filter((a) => a !== "data-testid").sort();

type Value = { kind: "static"; id: string } | { kind: "pattern"; shape: string } | { kind: "name"; name: string } | { kind: "unknown" };

/** What an expression gives as an id: literals, templates, ternaries of literals, `"a" + x`. */
function classify(expr: string): Value[] {
  const e = expr
    .trim()
    .replace(/^\{([\s\S]*)\}$/, "$1")
    .trim();
  let m = /^(["'])((?:(?!\1)[^\\])*)\1$/.exec(e);
  if (m) return [{ kind: "static", id: m[2]! }];
  m = /^`([^`]*)`$/.exec(e);
  if (m) return m[1]!.includes("${") ? [{ kind: "pattern", shape: m[1]!.replace(/\$\{[^}]*\}/g, "*") }] : [{ kind: "static", id: m[1]! }];
  if (/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*$/.test(e)) return [{ kind: "name", name: e.split(".").pop()!.replace("?", "") }];
  if (/^[^?]+\?[\s\S]+:[\s\S]+$/.test(e)) {
    const [, a, b] = /^[^?]+\?([\s\S]+?):([\s\S]+)$/.exec(e)!;
    return [...classify(a!), ...classify(b!)];
  }
  if (/\+/.test(e)) {
    const parts = e.split("+").map((p) => {
      const v = classify(p);
      return v.length === 1 && v[0]!.kind === "static" ? v[0]!.id : "*";
    });
    if (parts.some((p) => p !== "*")) return [{ kind: "pattern", shape: parts.join("").replace(/\*+/g, "*") }];
  }
  return [{ kind: "unknown" }];
}

interface Scan {
  found: Found[];
  unresolved: Unresolved[];
  /** Every data-* attribute name the app sets anywhere (JSX, object keys, dataset.x). */
  dataAttrs: Set<string>;
  /** Ids the app's own code looks up (`[data-testid=x]` selectors). */
  selectors: { id: string; file: string; line: number }[];
}

function scanSources(): Scan {
  const files = listSources(path.join(repoRoot, "src")).map((f) => ({ file: path.relative(repoRoot, f), text: stripComments(readFileSync(f, "utf8")) }));
  const found: Found[] = [];
  const unresolved: Unresolved[] = [];
  const dataAttrs = new Set<string>();
  const selectors: Scan["selectors"] = [];

  /** Literal values given to the prop `name` at JSX call sites (`<Foo name="x">`) in any file. */
  const propValues = (name: string): Value[] => {
    const out: Value[] = [];
    for (const { text } of files) {
      for (const m of text.matchAll(new RegExp(`\\s${name}\\s*=\\s*(?=["'{])`, "g"))) {
        const tag = openingTag(text, m.index);
        if (!tag || !/^[A-Z]/.test(tag.name)) continue;
        const at = m.index + m[0].length;
        const raw = text[at] === "{" ? text.slice(at, skipBalanced(text, at)) : text.slice(at, skipString(text, at));
        out.push(...classify(raw));
      }
    }
    return out;
  };

  /** Literal arguments given for parameter `name` of the nearest local helper declaring it. */
  const paramValues = (text: string, pos: number, name: string): Value[] | null => {
    const decl = /(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?\(([^()]*)\)\s*(?::[^=]*)?=>|function\s+([A-Za-z_$][\w$]*)\s*\(([^()]*)\)/g;
    let best: { fn: string; index: number; declEnd: number } | null = null;
    for (const m of text.slice(0, pos).matchAll(decl)) {
      const params = (m[2] ?? m[4]!).split(",").map((p) => p.split(/[:=?]/)[0]!.trim());
      const k = params.indexOf(name);
      if (k >= 0) best = { fn: m[1] ?? m[3]!, index: k, declEnd: m.index + m[0].length };
    }
    if (!best) return null;
    const out: Value[] = [];
    for (const c of text.matchAll(new RegExp(`(?<![\\w$.])${best.fn.replace("$", "\\$")}\\s*\\(`, "g"))) {
      if (/function\s+$/.test(text.slice(Math.max(0, c.index - 20), c.index))) continue; // the declaration itself
      const args = readArguments(text, c.index + c[0].length - 1);
      if (args[best.index] !== undefined) out.push(...classify(args[best.index]!));
    }
    return out;
  };

  for (const { file, text } of files) {
    for (const m of text.matchAll(/\s(data-[a-z][a-z0-9-]*)\s*=/g)) dataAttrs.add(m[1]!);
    for (const m of text.matchAll(/["'](data-[a-z][a-z0-9-]*)["']\s*:/g)) dataAttrs.add(m[1]!);
    for (const m of text.matchAll(/\.dataset\.([A-Za-z]+)\s*=/g)) dataAttrs.add(`data-${m[1]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    for (const m of text.matchAll(/\[data-testid=["']?([a-z0-9-]+)["']?\]/g)) selectors.push({ id: m[1]!, file, line: lineAt(text, m.index) });

    const sites = [
      ...[...text.matchAll(/(?<=\s)(?:data-testid|testId|testid|dataTestId)\s*=\s*(?=["'{])/g)].map((m) => ({ at: m.index, valueAt: m.index + m[0].length, jsx: true })),
      ...[...text.matchAll(/["']data-testid["']\s*:\s*/g)].map((m) => ({ at: m.index, valueAt: m.index + m[0].length, jsx: false })),
      ...[...text.matchAll(/setAttribute\(\s*["']data-testid["']\s*,\s*/g)].map((m) => ({ at: m.index, valueAt: m.index + m[0].length, jsx: false })),
    ];
    for (const s of sites) {
      const line = lineAt(text, s.at);
      const raw =
        text[s.valueAt] === "{"
          ? text.slice(s.valueAt, skipBalanced(text, s.valueAt))
          : s.jsx && /["']/.test(text[s.valueAt]!)
            ? text.slice(s.valueAt, skipString(text, s.valueAt))
            : readExpression(text, s.valueAt);
      const tag = s.jsx ? openingTag(text, s.at) : null;
      const attrs = tag ? dataAttrsOf(tag.text) : [];
      const values: Value[] = [];
      for (const v of classify(raw)) {
        if (v.kind !== "name") {
          values.push(v);
          continue;
        }
        const resolved = paramValues(text, s.at, v.name) ?? [];
        const viaProps = resolved.length ? [] : propValues(v.name);
        values.push(...(resolved.length || viaProps.length ? [...resolved, ...viaProps] : [{ kind: "unknown" as const }]));
      }
      for (const v of values) {
        if (v.kind === "static") found.push({ shape: v.id, dynamic: false, file, line, attrs });
        else if (v.kind === "pattern") found.push({ shape: v.shape, dynamic: true, file, line, attrs });
        else unresolved.push({ expr: raw, file, line });
      }
    }
  }
  return { found, unresolved, dataAttrs, selectors };
}

// ---------------------------------------------------------------- docs

interface DocRow {
  ids: string[];
  text: string;
  additions: boolean;
}

function parseHooksDoc(text: string): DocRow[] {
  const rows: DocRow[] = [];
  let additions = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("## ")) additions = ADDITIONS_HEADING.test(line);
    if (!line.startsWith("|") || /^\|[\s:|-]+\|?\s*$/.test(line)) continue;
    const cells = line.split("|").slice(1, -1);
    const ids = [...(cells[0] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/^\[data-testid=([^\]]+)\]$/, "$1")).filter((id) => ID_RE.test(id));
    if (ids.length) rows.push({ ids, text: line, additions });
  }
  return rows;
}

/** `timeline-p{P}` → `timeline-p*`; a plain id stays as it is. */
const shapeOf = (docId: string) => docId.replace(/\{[A-Za-z]+\}/g, "*");
const shapeMatches = (shape: string, id: string) =>
  new RegExp(
    `^${shape
      .split("*")
      .map((s) => s.replace(/[.+?^${}()|[\]\\-]/g, "\\$&"))
      .join("[a-z0-9.-]+")}$`,
  ).test(id);
/** Whether `text` names the attribute `a` (not merely a longer one that starts with it). */
const mentions = (text: string, a: string) => new RegExp(`(?<![a-z0-9-])${a}(?![a-z0-9-])`).test(text);
const where = (f: { file: string; line: number }) => `${f.file}:${f.line}`;

const scan = scanSources();
const hooksText = existsSync(HOOKS_PATH) ? readFileSync(HOOKS_PATH, "utf8") : "";
const docRows = parseHooksDoc(hooksText);
const haveContract = existsSync(CONTRACT_PATH);
const contractText = haveContract ? readFileSync(CONTRACT_PATH, "utf8") : "";
const contractIds = new Set([...contractText.matchAll(/data-testid=([a-z0-9-]+)/g)].map((m) => m[1]!));
if (!haveContract) {
  console.warn(`hooks.test.ts: ${CONTRACT_PATH} not found: skipping the checks against CONTRACT.md (CI has it at ../shared).`);
}

/** Shapes documented in HOOKS.md's hook sections (not the additions section). */
const docShapes = new Set(docRows.filter((r) => !r.additions).flatMap((r) => r.ids.map(shapeOf)));
const sourceShapes = new Set(scan.found.map((f) => f.shape));
const rowsFor = (shape: string, additions: boolean) => docRows.filter((r) => r.additions === additions && r.ids.some((id) => shapeOf(id) === shape));

describe("docs/HOOKS.md and the data-testid hooks in src/", () => {
  it("the scanner resolves every data-testid in src/", () => {
    expect(existsSync(HOOKS_PATH), "docs/HOOKS.md is missing").toBe(true);
    expect(scan.found.length).toBeGreaterThan(20); // the scanner itself still works
    expect(
      scan.unresolved.map((u) => `${where(u)}: data-testid=${u.expr}`),
      "data-testids whose value cannot be read statically: use a literal, or teach tests/hooks.test.ts the pattern",
    ).toEqual([]);
  });

  it.skipIf(!haveContract)(`every rendered data-testid is in CONTRACT.md or docs/HOOKS.md${haveContract ? "" : " (skipped: ../shared/CONTRACT.md not found)"}`, () => {
    const missing = scan.found
      .filter((f) => !contractIds.has(f.shape) && !docShapes.has(f.shape))
      .map((f) => `${f.dynamic ? `${f.shape} (dynamic: documented as ${f.shape.replace(/\*/g, "{X}")})` : f.shape} at ${where(f)}`);
    expect([...new Set(missing)], "data-testids rendered by src/ but listed neither in ../shared/CONTRACT.md nor in docs/HOOKS.md").toEqual([]);
  });

  it.skipIf(!haveContract)(`docs/HOOKS.md lists CONTRACT.md's hooks only in its additions section${haveContract ? "" : " (skipped: ../shared/CONTRACT.md not found)"}`, () => {
    expect(
      docRows
        .filter((r) => !r.additions)
        .flatMap((r) => r.ids)
        .filter((id) => contractIds.has(id)),
      "CONTRACT.md's hooks belong under \"## Attributes added to CONTRACT.md's hooks\"",
    ).toEqual([]);
    expect(
      docRows
        .filter((r) => r.additions)
        .flatMap((r) => r.ids)
        .filter((id) => !contractIds.has(id)),
      "the additions section lists hooks CONTRACT.md does not have",
    ).toEqual([]);
  });

  it("every hook docs/HOOKS.md lists is still rendered by src/", () => {
    const stale = docRows.flatMap((r) => r.ids).filter((id) => !sourceShapes.has(shapeOf(id)) && !scan.found.some((f) => f.dynamic && shapeMatches(f.shape, id)));
    expect([...new Set(stale)], "ids in docs/HOOKS.md that src/ no longer renders").toEqual([]);
  });

  it("every data-* attribute on a hook is documented with it", () => {
    const undocumented: string[] = [];
    for (const f of scan.found) {
      const own = rowsFor(f.shape, false);
      const added = rowsFor(f.shape, true);
      for (const a of f.attrs) {
        const inRow = (rows: DocRow[]) => rows.some((r) => mentions(r.text, a));
        if (contractIds.has(f.shape)) {
          if (!mentions(contractText, a) && !inRow(added)) undocumented.push(`${a} on ${f.shape} (${where(f)}): add it to the additions section`);
        } else if (!contractIds.has(f.shape) && own.length > 0 && !inRow(own)) {
          undocumented.push(`${a} on ${f.shape} (${where(f)})`);
        }
      }
    }
    expect([...new Set(undocumented)]).toEqual([]);
  });

  it("every data-* attribute the app sets is mentioned, and every one mentioned exists", () => {
    const mentioned = new Set([...hooksText.matchAll(/\bdata-[a-z][a-z0-9]*(?:-[a-z0-9]+)*/g)].map((m) => m[0]));
    if (haveContract) {
      const missing = [...scan.dataAttrs].filter((a) => a !== "data-testid" && !mentioned.has(a) && !mentions(contractText, a));
      expect(missing, "data-* attributes set in src/ that neither docs/HOOKS.md nor CONTRACT.md mentions").toEqual([]);
    } else {
      console.warn("hooks.test.ts: ../shared/CONTRACT.md not found: not checking that every data-* attribute is documented.");
    }
    const stale = [...mentioned].filter((a) => a !== "data-testid" && !scan.dataAttrs.has(a));
    expect(stale, "data-* attributes docs/HOOKS.md mentions that src/ no longer sets").toEqual([]);
  });

  it("ids the app's own code looks up are rendered", () => {
    expect(scan.selectors.filter((s) => !sourceShapes.has(s.id)).map((s) => `${s.id} at ${where(s)}`)).toEqual([]);
  });
});
