// Keeps docs/ARCHITECTURE.md's lists true: the messages posted between threads and the kinds of
// request the page can send the engine, checked against the code both ways.
//
// The code side, read as text (no compiler):
// - messages: every type a thread receives, from `MessageEvent<…>` and Node's
//   `.on("message", (m: T) …)` in src/**/*.ts(x) (tests excluded), split at top-level `|`; an
//   inline object type (`{ cancel: true }`) is a message of its own, written as it is. Each named
//   type is found where the receiving file imports it from (or in that file), following
//   re-exports. Its variants are the string values of `type` or `kind` in each member of its union.
//   A message handler whose message type cannot be read this way fails the test: type its event.
// - request kinds: the `kind`s of the `Request` union in src/engine/protocol.ts, and each one's
//   answer type from `ResultOf`.
//
// The doc side: under "## Messages", every Markdown table whose header starts `| message |` (first
// cell: the message in backticks; second: its variants in backticks) and the one whose header
// starts `| kind |` (first cell: the kind; second: the answer type). The heading above each
// message table must name the file that defines each of its messages.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(import.meta.dirname, "..");
const SRC = path.join(repoRoot, "src");
const DOC_PATH = path.join(repoRoot, "docs/ARCHITECTURE.md");
const PROTOCOL = path.join(SRC, "engine/protocol.ts");

// ---------------------------------------------------------------- source side

export interface CodeMessage {
  name: string;
  /** Repository-relative path of the file that defines it (for an inline type: the receiving file). */
  file: string;
  variants: string[];
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listSources(p));
    else if (/\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts") && e.name !== "test-setup.ts") out.push(p);
  }
  return out.sort();
}

/** Comments blanked out (newlines kept, so positions keep their line numbers). */
export function stripComments(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  return text.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/(^|[^:"'`\\])\/\/[^\n]*/g, (m, pre: string) => pre + blank(m.slice(pre.length)));
}

const OPEN: Record<string, string> = { "(": ")", "[": "]", "{": "}", "<": ">" };

/** Index just past the bracket group that opens at `i`; strings are skipped. */
function skipGroup(text: string, i: number): number {
  const stack: string[] = [];
  let j = i;
  while (j < text.length) {
    const c = text[j]!;
    if (c === '"' || c === "'" || c === "`") {
      j++;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
    } else if (c in OPEN) stack.push(OPEN[c]!);
    else if (c === stack[stack.length - 1] && !(c === ">" && text[j - 1] === "=")) {
      stack.pop();
      if (stack.length === 0) return j + 1;
    }
    j++;
  }
  throw new Error(`unbalanced brackets from offset ${i}`);
}

/** `text` split at `sep` where no bracket is open. */
function splitTop(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let j = 0; j < text.length; j++) {
    const c = text[j]!;
    if (c === '"' || c === "'" || c === "`") {
      j++;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
    } else if (c === "(" || c === "[" || c === "{" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === "}" || (c === ">" && text[j - 1] !== "=")) depth--;
    else if (depth === 0 && c === sep) {
      out.push(text.slice(from, j));
      from = j + 1;
    }
  }
  out.push(text.slice(from));
  return out.map((s) => s.trim()).filter((s) => s !== "");
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** Where `name` comes from in `file`: the module it is imported from, or the file itself. */
function importSource(file: string, text: string, name: string): string {
  for (const m of text.matchAll(/\b(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    for (const spec of m[1]!.split(",")) {
      const parts = spec
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/);
      const local = (parts[1] ?? parts[0])!.trim();
      if (local === name && m[2]!.startsWith(".")) return resolveModule(file, m[2]!);
    }
  }
  return file;
}

function resolveModule(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  for (const cand of [base + ".ts", base + ".tsx", path.join(base, "index.ts")]) {
    try {
      readFileSync(cand);
      return cand;
    } catch {
      // not this one
    }
  }
  throw new Error(`cannot resolve ${spec} from ${path.relative(repoRoot, from)}`);
}

/** The text of `type name = …;` or `interface name {…}` in `file`, following re-exports; with the defining file. */
export function findDefinition(file: string, name: string, seen = new Set<string>()): { file: string; kind: "type" | "interface"; body: string } {
  if (seen.has(file)) throw new Error(`re-export cycle looking for ${name}`);
  seen.add(file);
  const text = stripComments(readFileSync(file, "utf8"));
  const alias = new RegExp(`(?:^|\\n)\\s*(?:export\\s+)?type\\s+${name}\\s*=`).exec(text);
  if (alias) {
    let j = alias.index + alias[0].length;
    const start = j;
    // The alias ends at the first `;` outside brackets.
    while (j < text.length && text[j] !== ";") {
      const c = text[j]!;
      if (c in OPEN) j = skipGroup(text, j);
      else if (c === '"' || c === "'") {
        j++;
        while (text[j] !== c) j++;
        j++;
      } else j++;
    }
    return { file, kind: "type", body: text.slice(start, j) };
  }
  const iface = new RegExp(`(?:^|\\n)\\s*(?:export\\s+)?interface\\s+${name}\\b[^{]*`).exec(text);
  if (iface) {
    const open = iface.index + iface[0].length;
    return { file, kind: "interface", body: text.slice(open, skipGroup(text, open)) };
  }
  const from = importSource(file, text, name);
  if (from !== file) return findDefinition(from, name, seen);
  throw new Error(`no definition of ${name} in ${path.relative(repoRoot, file)}`);
}

/** The values of `type` or `kind` in each member of a union of object types (nested objects ignored). */
export function variantsOf(body: string): string[] {
  const out: string[] = [];
  for (const member of splitTop(body, "|")) {
    if (!member.startsWith("{")) continue;
    const inner = member.slice(1, skipGroup(member, 0) - 1);
    for (const field of splitTop(inner.replace(/,/g, ";"), ";")) {
      const m = /^(type|kind)\s*:\s*"([^"]+)"$/.exec(field.trim());
      if (m) out.push(m[2]!);
    }
  }
  return out;
}

interface Received {
  /** A type name or an inline object type. */
  expr: string;
  file: string;
  line: number;
}

interface Untyped {
  file: string;
  line: number;
  what: string;
}

const lineAt = (text: string, pos: number) => text.slice(0, pos).split("\n").length;

/** Every type a thread receives a message as, and every handler whose type cannot be read. */
export function receivedTypes(files: readonly string[]): { received: Received[]; untyped: Untyped[] } {
  const received: Received[] = [];
  const untyped: Untyped[] = [];
  for (const file of files) {
    const text = stripComments(readFileSync(file, "utf8"));
    const add = (typeText: string, pos: number) => {
      for (const expr of splitTop(typeText, "|")) received.push({ expr: squash(expr), file, line: lineAt(text, pos) });
    };
    for (const m of text.matchAll(/\bMessageEvent\s*</g)) {
      const open = m.index + m[0].length - 1;
      add(text.slice(open + 1, skipGroup(text, open) - 1), m.index);
    }
    // Node: port.on("message", (m: T) => …)
    for (const m of text.matchAll(/\.on\(\s*"message"\s*,\s*(async\s*)?\(([^)]*)\)/g)) {
      const typed = /^\s*\w+\s*:\s*([\s\S]+)$/.exec(m[2]!);
      if (typed) add(typed[1]!, m.index);
      else untyped.push({ file, line: lineAt(text, m.index), what: m[0] });
    }
    // Handlers with a parameter must type their event (MessageEvent<T>, found above).
    for (const m of text.matchAll(/\bonmessage\s*=\s*(async\s*)?\(([^)]*)\)/g)) {
      if (m[2]!.trim() !== "" && !/MessageEvent\s*</.test(m[2]!)) untyped.push({ file, line: lineAt(text, m.index), what: m[0] });
    }
    for (const m of text.matchAll(/addEventListener\(\s*"message"\s*,\s*(\w+)/g)) {
      const decl = new RegExp(`\\b${m[1]}\\s*=\\s*(?:async\\s*)?\\(\\s*\\w+\\s*:\\s*MessageEvent\\s*<`).test(text);
      if (!decl) untyped.push({ file, line: lineAt(text, m.index), what: m[0] });
    }
  }
  return { received, untyped };
}

/** The messages of the code: each received type, where it is defined, and its variants. */
export function codeMessages(files: readonly string[] = listSources(SRC)): { messages: Map<string, CodeMessage>; untyped: Untyped[] } {
  const { received, untyped } = receivedTypes(files);
  const messages = new Map<string, CodeMessage>();
  for (const r of received) {
    if (messages.has(r.expr)) continue;
    if (r.expr.startsWith("{")) {
      messages.set(r.expr, { name: r.expr, file: path.relative(repoRoot, r.file), variants: variantsOf(r.expr) });
      continue;
    }
    if (!/^[A-Za-z_]\w*$/.test(r.expr)) {
      untyped.push({ file: r.file, line: r.line, what: `message type ${r.expr}` });
      continue;
    }
    const def = findDefinition(r.file, r.expr);
    messages.set(r.expr, { name: r.expr, file: path.relative(repoRoot, def.file), variants: def.kind === "type" ? variantsOf(def.body) : [] });
  }
  return { messages, untyped };
}

/** The `Request` union's kinds, each with its `ResultOf` answer type. */
export function codeRequestKinds(): Map<string, string> {
  const req = findDefinition(PROTOCOL, "Request");
  const result = findDefinition(PROTOCOL, "ResultOf");
  const answers = new Map<string, string>();
  for (const field of splitTop(result.body.slice(1, -1), ";")) {
    const m = /^(\w+)\s*:\s*([\s\S]+)$/.exec(field);
    if (m) answers.set(m[1]!, squash(m[2]!));
  }
  return new Map(variantsOf(req.body).map((k) => [k, answers.get(k) ?? "(missing from ResultOf)"]));
}

// ---------------------------------------------------------------- doc side

export interface DocTable {
  heading: string;
  header: string;
  rows: { cells: string[]; line: number }[];
}

/** Backticked spans of a cell. */
const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The Markdown tables of a section (`## title` up to the next `## `), each with the heading above it. */
export function docTables(doc: string, section: string): DocTable[] {
  const lines = doc.split("\n");
  const start = lines.findIndex((l) => l.trim() === `## ${section}`);
  if (start < 0) throw new Error(`no "## ${section}" section in docs/ARCHITECTURE.md`);
  const tables: DocTable[] = [];
  let heading = "";
  let current: DocTable | null = null;
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^## /.test(l)) break;
    if (/^#{3,} /.test(l)) heading = l;
    if (!l.startsWith("|")) {
      current = null;
      continue;
    }
    const cells = l
      .slice(1, l.trimEnd().endsWith("|") ? l.trimEnd().length - 1 : undefined)
      .split("|")
      .map((c) => c.trim());
    if (!current) {
      current = { heading, header: cells[0]!, rows: [] };
      tables.push(current);
    } else if (!cells.every((c) => /^:?-+:?$/.test(c))) current.rows.push({ cells, line: i + 1 });
  }
  return tables;
}

export interface DocLists {
  messages: Map<string, { variants: string[]; heading: string; line: number }>;
  kinds: Map<string, { answer: string; line: number }>;
  problems: string[];
}

export function docLists(doc: string): DocLists {
  const messages: DocLists["messages"] = new Map();
  const kinds: DocLists["kinds"] = new Map();
  const problems: string[] = [];
  const tables = docTables(doc, "Messages");
  for (const t of tables) {
    for (const r of t.rows) {
      const name = ticks(r.cells[0] ?? "")[0];
      if (!name) {
        problems.push(`line ${r.line}: the first cell names nothing in backticks`);
        continue;
      }
      if (t.header === "message") {
        if (messages.has(squash(name))) problems.push(`line ${r.line}: ${name} is listed twice`);
        messages.set(squash(name), { variants: ticks(r.cells[1] ?? ""), heading: t.heading, line: r.line });
      } else if (t.header === "kind") {
        if (kinds.has(name)) problems.push(`line ${r.line}: kind ${name} is listed twice`);
        kinds.set(name, { answer: squash(ticks(r.cells[1] ?? "")[0] ?? ""), line: r.line });
      }
    }
  }
  if (!tables.some((t) => t.header === "message")) problems.push('no table headed "| message |" under "## Messages"');
  if (!tables.some((t) => t.header === "kind")) problems.push('no table headed "| kind |" under "## Messages"');
  return { messages, kinds, problems };
}

/** Every disagreement between the doc's lists and the code, in words; empty when they agree. */
export function disagreements(doc: string, code: { messages: Map<string, CodeMessage>; kinds: Map<string, string> }): string[] {
  const d = docLists(doc);
  const out = [...d.problems];
  for (const [name, m] of code.messages) {
    const listed = d.messages.get(name);
    if (!listed) {
      out.push(`message ${name} (${m.file}) is posted between threads but not listed in docs/ARCHITECTURE.md`);
      continue;
    }
    const want = [...m.variants].sort();
    const have = [...listed.variants].sort();
    for (const v of want) if (!have.includes(v)) out.push(`message ${name}: variant ${v} is in ${m.file} but not in the doc (line ${listed.line})`);
    for (const v of have) if (!want.includes(v)) out.push(`message ${name}: variant ${v} is in the doc (line ${listed.line}) but not in ${m.file}`);
    const short = m.file.replace(/^src\//, "");
    if (!listed.heading.includes(short)) out.push(`message ${name}: the heading above its table ("${listed.heading}") does not name ${short}, where it is defined`);
  }
  for (const [name, listed] of d.messages) {
    if (!code.messages.has(name)) out.push(`message ${name} is listed in docs/ARCHITECTURE.md (line ${listed.line}) but no thread receives it`);
  }
  for (const [kind, answer] of code.kinds) {
    const listed = d.kinds.get(kind);
    if (!listed) out.push(`request kind ${kind} is in the Request union (src/engine/protocol.ts) but not listed in docs/ARCHITECTURE.md`);
    else if (listed.answer !== answer) out.push(`request kind ${kind}: the doc says it answers with ${listed.answer || "nothing"} (line ${listed.line}), ResultOf says ${answer}`);
  }
  for (const [kind, listed] of d.kinds) {
    if (!code.kinds.has(kind)) out.push(`request kind ${kind} is listed in docs/ARCHITECTURE.md (line ${listed.line}) but is not in the Request union`);
  }
  return out;
}

// ---------------------------------------------------------------- tests

describe("docs/ARCHITECTURE.md's messages and request kinds", () => {
  const doc = readFileSync(DOC_PATH, "utf8");
  const { messages, untyped } = codeMessages();
  const kinds = codeRequestKinds();

  it("reads the code: every message handler's type is readable, and the known messages are found", () => {
    expect(untyped.map((u) => `${path.relative(repoRoot, u.file)}:${u.line}: ${u.what}`)).toEqual([]);
    // Independent of the doc: messages that exist today and the parser must see, with their variants.
    expect(messages.get("Reply")?.variants.sort()).toEqual(["done", "error", "progress"]);
    expect(messages.get("HelperRequest")).toEqual({ name: "HelperRequest", file: "src/engine/helpers/messages.ts", variants: ["read", "merge", "cancel", "release"] });
    expect(messages.get("Envelope")?.variants).toEqual([]);
    expect(messages.get("{ cancel: true }")?.file).toBe("src/engine/worker.ts");
    expect(kinds.get("load")).toBe("FileOutcome[]");
    expect(kinds.get("setUnit")).toBe("null");
    expect(kinds.size).toBeGreaterThanOrEqual(18);
  });

  it("lists every message and request kind the code has, and none it lacks", () => {
    expect(disagreements(doc, { messages, kinds })).toEqual([]);
  });

  it("fails a doc that is wrong either way", () => {
    const code = { messages, kinds };
    // A request kind dropped from the doc, and one the code does not have.
    const noMerge = doc.replace(/^\| `merge` \|.*\n/m, "");
    expect(noMerge).not.toBe(doc);
    expect(disagreements(noMerge, code)).toEqual([expect.stringMatching(/^request kind merge is in the Request union/)]);
    const extraKind = doc.replace(/^(\| `clear` \|.*\n)/m, "$1| `reload` | `null` | made up |\n");
    expect(disagreements(extraKind, code)).toEqual([expect.stringMatching(/^request kind reload is listed/)]);
    // A message dropped, a variant made up, a message the code does not have, a wrong answer type.
    const noHistory = doc.replace(/^\| `HistoryReply` \|.*\n/m, "");
    expect(disagreements(noHistory, code)).toEqual([expect.stringMatching(/^message HistoryReply .* not listed/)]);
    const extraVariant = doc.replace("| `HelperRequest` | `read`, `merge`, `cancel`, `release` |", "| `HelperRequest` | `read`, `merge`, `cancel`, `release`, `stop` |");
    expect(disagreements(extraVariant, code)).toEqual([expect.stringMatching(/^message HelperRequest: variant stop is in the doc/)]);
    const extraMessage = doc.replace(/^(\| `HelperFailed` \|.*\n)/m, "$1| `HelperReady` | | helper → page | made up |\n");
    expect(disagreements(extraMessage, code)).toEqual([expect.stringMatching(/^message HelperReady is listed/)]);
    const wrongAnswer = doc.replace("| `merge` | `string` |", "| `merge` | `null` |");
    expect(disagreements(wrongAnswer, code)).toEqual([expect.stringMatching(/^request kind merge: the doc says it answers with null/)]);
  });

  it("fails code that gains a message or a variant the doc does not list", () => {
    const more = new Map(messages);
    more.set("HelperRequest", { ...messages.get("HelperRequest")!, variants: [...messages.get("HelperRequest")!.variants, "pause"] });
    more.set("HelperReady", { name: "HelperReady", file: "src/engine/helpers/messages.ts", variants: [] });
    const moreKinds = new Map(kinds).set("reload", "null");
    const found = disagreements(doc, { messages: more, kinds: moreKinds });
    expect(found).toHaveLength(3);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^message HelperReady .* not listed/),
        expect.stringMatching(/^message HelperRequest: variant pause is in src\/engine\/helpers\/messages.ts but not in the doc/),
        expect.stringMatching(/^request kind reload is in the Request union/),
      ]),
    );
  });

  it("reads variants and definitions as TypeScript writes them", () => {
    expect(variantsOf(`{ id: number; type: "a"; part: { type: "nested" } } | { id: number; type: "b" }`)).toEqual(["a", "b"]);
    expect(variantsOf(`{ reqId: number; request: Request }`)).toEqual([]);
    expect(findDefinition(path.join(SRC, "engine/worker.ts"), "Envelope").file).toBe(PROTOCOL);
  });
});
