// Series identity from file names and tags: which configuration a run belongs to, at what
// throughput (ops/s) it ran, and whether it measured response time or service time.
//
// The rules, in order (identityFromName):
//
// 1. The directory part is dropped and known extensions are stripped, repeatedly
//    (".hlog", ".hgrm", ".txt", ".log", ".logV2", ".gz", …): "a/b/sysA_40k.response.hlog.gz"
//    has the base name "sysA_40k.response".
// 2. The base name is cut into tokens at separators (_ - . space , ; : + = @ # ~ brackets
//    quotes). A dot between two digits does not separate, so "12.5k", "v1.2", "2.0.7S",
//    "10.0.0.1" and jHiccup's "200722.1427.14022" (its %date.%pid) stay single tokens.
//    Dates (2026-11-01, 2026_11_01, 20261101, optionally followed by a time such as
//    T12-30-00 or _1430) and dotted or dashed IPv4 addresses (10.0.0.1, ip-172-31-5-200)
//    are single tokens too. Such tokens are never a throughput.
// 3. Throughput candidates, most explicit first:
//      a. a rate word: a unit attached or in the next token ("10000rps", "12Krps", "40kqps",
//         "2k-ops", "10000_rps", "40 kops", "800/s", "40k/s") or a rate keyword attached or
//         in the token before ("rate1000", "_rate_1000", "throttle40k", "target-40000",
//         wrk2's "-R" flag as "R40000" / "R40k");
//      b. a k/K or M multiplier ("40k", "12.5k", "1.2M"). A lowercase "m" counts only with a
//         rate unit ("1.2mops"): alone it is minutes or milli ("5m");
//      c. a bare integer that looks like a chosen load: 100 ≤ n < 1e9, no leading zero, at
//         most 3 significant digits ("40000", "2500", "800" — not pids, ports such as 9042,
//         build numbers such as 14022, or epoch seconds), not after ":" (a port);
//      d. last resort: such a bare integer that looks like a year (1900..2099, e.g. "2000").
//    Of the most explicit class present, the first occurrence wins. Tokens that only look
//    numeric ("c100", "t4", "d60s", "5ms", "64kb", "v2", "p99") are never candidates.
//    A number of class b, c or d right after a word that names a machine, a process or a count
//    of clients ("host-100", "node_200", "pod-300", "threads-400", "users-10k") numbers that
//    thing: it is not a throughput.
//    The throughput is taken from the base name, else from the tag. A tag that is a request
//    label or a metric's labels (tagIsLabel) gives a throughput of class a only: its numbers
//    are names ("GET /page 200", instance="host-100"), a rate only where a rate word says so.
// 4. Kind words are whole tokens only: response, resp, rt, latency, responsetime → response;
//    service, svc, st, servicetime → service ("time"/"times" right after one belongs to it:
//    "response_time"). The tag's kind wins over the file name's (cassandra-stress logs one
//    file with "WRITE-rt" and "WRITE-st" tags).
// 5. The configuration is what remains of the base name once the throughput and kind tokens
//    are removed, and with them dates and run numbers ("run2", "rep_3", "trial1"), which tell
//    runs apart rather than configurations; the kept tokens are rejoined with the separator
//    that stood before each ("sysA_40k.response" → "sysA", "12Krps_CO" → "CO",
//    "wrk2-latency-output" → "wrk2-output", "sysA_40k_2026-11-01_run2" → "sysA").
//    When nothing remains:
//      - and a throughput was found ("12Krps.hgrm", "40k.response.hlog"): the parent
//        directory's name cleaned the same way when the path has one (one folder per system,
//        one file per rate is a common layout), else "run" (DEFAULT_CONFIG). A fixed default
//        means the runs of one unnamed configuration at several throughputs ("12Krps",
//        "16Krps") group together, which is what the configuration is for; the base name
//        would put every rate in a configuration of its own.
//      - and no throughput was found ("latency.hlog", "rt.hlog"): the whole base name.
//    The tag's remainder (cassandra-stress's op name "WRITE", or a tag "A") is appended as
//    "<config>/<tag rest>", so different systems running the same operation stay apart; if the
//    file gave nothing but a throughput, the tag's remainder alone is the configuration
//    ("40k.hlog" tagged "WRITE-rt" → "WRITE"). A load generator's request label (Gatling's
//    "Get document", a JMeter sampler) is not appended: the requests of one simulation are one
//    configuration with several labels.
// Everything found is a guess the user can edit in the series list.
import { plainNumber } from "./format";

export type SeriesKind = "response" | "service" | "";

export interface SeriesIdentity {
  config: string;
  throughput: number | null;
  kind: SeriesKind;
}

/** The configuration of throughput runs whose name says nothing else. */
export const DEFAULT_CONFIG = "run";

const EXTENSION = /\.(?:hlog|hgrm|hdr|histogram|hist|log(?:v\d+)?|txt|out|dat|csv|tsv|jtl|json|jsonl|ndjson|gz|gzip|zip|bz2|xz|zst)$/i;

/** Separators between tokens. "." is one too, except between two digits. */
const SEPARATOR = /[\s_\-.,;:+=@#~()[\]{}'"!&|<>*?\\/]/;

const DATE = /(?:19|20)\d\d([-_.]?)(?:0[1-9]|1[0-2])\1(?:0[1-9]|[12]\d|3[01])(?:[T_\- ]?(?:[01]\d|2[0-3])([-:.h]?)[0-5]\d(?:\2[0-5]\d)?Z?)?(?=$|[^0-9A-Za-z])/y;
const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`${OCTET}([.\\-_])${OCTET}\\1${OCTET}\\1${OCTET}(?=$|[^0-9A-Za-z])`, "y");

const RATE_UNIT = "(?:ops/s|op/s|reqs/s|req/s|/sec|/s|ops|op|rps|qps|tps|iops|requests|reqs|req|msgs|msg|mps|persec|ps)";
/** A whole token that is (or carries) a number: [prefix]NUMBER[multiplier][unit]. */
const NUMBER_TOKEN = new RegExp(`^(rate|throttle|fixed|tput|throughput|target|r)?(\\d+(?:\\.\\d+)?)([km]??)(${RATE_UNIT})?$`, "i");
const RATE_KEYWORD = /^(?:rate|throttle|fixed|tput|throughput|target)$/i;
/** Words whose number names a machine, a process or counts clients ("host-100", "threads-400"), never a rate. */
const NAMES_A_THING =
  /^(?:host|hostname|node|server|srv|instance|inst|pod|container|replica|shard|partition|worker|vm|machine|box|broker|rack|zone|region|dc|core|cpu|id|pid|port|proc|process|threads?|conns?|connections?|clients?|users?|vus?|sessions?)$/i;
const UNIT_TOKEN = new RegExp(`^([kKmM]??)(${RATE_UNIT})$`, "i");

/** "run2", "rep3", "trial1", "iter4", "attempt2", "try1"; with a separator: "run_2". */
const RUN_MARK = /^(?:run|rep|trial|iter|iteration|attempt|try)\d{1,3}$/i;
const RUN_WORD = /^(?:run|rep|trial|iter|iteration|attempt|try)$/i;

const RESPONSE_WORDS = new Set(["response", "resp", "rt", "latency", "responsetime", "responsetimes"]);
const SERVICE_WORDS = new Set(["service", "svc", "st", "servicetime", "servicetimes"]);

interface Token {
  text: string;
  start: number;
  end: number;
  /** A date or an address: never a throughput. */
  protectedToken: boolean;
  date: boolean;
}

function isSeparatorAt(s: string, i: number): boolean {
  const c = s[i]!;
  if (c === ".") return !(i > 0 && i + 1 < s.length && /\d/.test(s[i - 1]!) && /\d/.test(s[i + 1]!));
  if (c === "/") return !/^\/(?:s|sec)(?![A-Za-z0-9])/i.test(s.slice(i)) || i === 0 || isSeparatorAt(s, i - 1);
  return SEPARATOR.test(c);
}

function tokenize(s: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < s.length) {
    if (isSeparatorAt(s, i)) {
      i++;
      continue;
    }
    let matched = false;
    for (const re of [DATE, IPV4]) {
      re.lastIndex = i;
      const m = re.exec(s);
      if (m) {
        out.push({ text: m[0], start: i, end: i + m[0].length, protectedToken: true, date: re === DATE });
        i += m[0].length;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    const start = i;
    while (i < s.length && !isSeparatorAt(s, i)) i++;
    out.push({ text: s.slice(start, i), start, end: i, protectedToken: false, date: false });
  }
  return out;
}

const MULTIPLIER: Record<string, number> = { "": 1, k: 1e3, K: 1e3, m: 1e6, M: 1e6 };

function clean(v: number): number {
  return Number(v.toPrecision(12));
}

/** At most 3 significant digits, like a load someone chose (40000, 2500, 800). */
function looksChosen(digits: string): boolean {
  return /^[1-9]\d{0,2}0*$/.test(digits);
}

interface Candidate {
  value: number;
  rank: number;
  /** Token indexes that make up the throughput (removed from the configuration). */
  tokens: number[];
}

/** `explicitOnly`: only numbers a rate word or keyword marks (class a) are candidates. */
function candidates(s: string, tokens: Token[], explicitOnly: boolean): Candidate[] {
  const out: Candidate[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.protectedToken) continue;
    const m = NUMBER_TOKEN.exec(t.text);
    if (!m) continue;
    const [, prefix = "", digits = "", mult = "", attachedUnit = ""] = m;
    let unit = attachedUnit;
    let multiplier = MULTIPLIER[mult]!;
    const used = [i];
    // A rate word in the next token: "10000_rps", "2k-ops", "40 kops".
    const next = tokens[i + 1];
    if (!unit && next && !next.protectedToken) {
      const u = UNIT_TOKEN.exec(next.text);
      if (u && !(u[1] && mult) && (u[2]!.toLowerCase() !== "ps" || u[1] || mult)) {
        unit = u[2]!;
        if (u[1]) multiplier = u[1].toLowerCase() === "k" ? 1e3 : 1e6;
        used.push(i + 1);
      }
    }
    let keyword = false;
    if (prefix === "r" || prefix === "R") {
      // wrk2's -R as "R40000" / "R40k"; lowercase "r2" is a run or a replica: only "r40k", "r500rps".
      if (prefix === "r" && !mult && !unit) continue;
      if (!mult && !unit && Number(digits) < 100) continue;
      keyword = true;
    } else if (prefix) {
      keyword = true; // "rate1000", "throttle40k"
    } else {
      // A rate keyword in the token before: "rate_1000", "target-40k".
      const prev = tokens[i - 1];
      if (prev && !prev.protectedToken && RATE_KEYWORD.test(prev.text)) {
        keyword = true;
        used.unshift(i - 1);
      }
    }
    if (mult === "m" && !unit) continue; // "5m": minutes or milli, not millions
    if (unit.toLowerCase() === "ps" && !mult) continue; // "100ps": picoseconds
    const value = clean(Number(digits) * multiplier);
    if (!(value > 0) || !Number.isFinite(value)) continue;
    let rank: number;
    if (unit || keyword) rank = 4;
    else if (explicitOnly) continue;
    else if (mult) rank = 3;
    else {
      if (digits.includes(".")) continue;
      if (!looksChosen(digits) || value < 100 || value >= 1e9) continue;
      if (t.start > 0 && s[t.start - 1] === ":") continue; // host:8080
      rank = value >= 1900 && value <= 2099 ? 1 : 2;
    }
    if (rank < 4) {
      const prev = tokens[i - 1];
      if (prev && !prev.protectedToken && NAMES_A_THING.test(prev.text)) continue; // "host-100" is a host
    }
    out.push({ value, rank, tokens: used });
  }
  return out;
}

function best(cs: Candidate[]): Candidate | null {
  let b: Candidate | null = null;
  for (const c of cs) if (!b || c.rank > b.rank) b = c;
  return b;
}

function kindOf(tokens: Token[], removed: Set<number>): SeriesKind {
  let kind: SeriesKind = "";
  for (let i = 0; i < tokens.length; i++) {
    if (removed.has(i)) continue;
    const w = tokens[i]!.text.toLowerCase();
    const k: SeriesKind = RESPONSE_WORDS.has(w) ? "response" : SERVICE_WORDS.has(w) ? "service" : "";
    if (!k) continue;
    if (!kind) kind = k;
    removed.add(i);
    const n = tokens[i + 1]?.text.toLowerCase();
    if ((n === "time" || n === "times") && !/time/.test(w)) removed.add(i + 1);
  }
  return kind;
}

/** Dates and run numbers tell runs apart, not configurations: "sysA_40k_2026-11-01_run2" is "sysA". */
function removeRunMarks(tokens: Token[], removed: Set<number>): void {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.date) removed.add(i);
    else if (RUN_MARK.test(t.text)) removed.add(i);
    else if (RUN_WORD.test(t.text) && /^\d{1,3}$/.test(tokens[i + 1]?.text ?? "") && !removed.has(i + 1)) {
      removed.add(i);
      removed.add(i + 1);
    }
  }
}

/** The text with the removed tokens taken out; each kept token keeps the separator before it. */
function remainder(s: string, tokens: Token[], removed: Set<number>): string {
  let out = "";
  let prevEnd = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!removed.has(i)) {
      if (out) out += s.slice(prevEnd, t.start);
      out += t.text;
    }
    prevEnd = t.end;
  }
  return out.trim();
}

interface Parsed {
  throughput: number | null;
  kind: SeriesKind;
  rest: string;
}

/** `takeThroughput`: "any" of classes a–d, "explicit" of class a only, "none". */
function parsePart(s: string, takeThroughput: "any" | "explicit" | "none"): Parsed {
  const tokens = tokenize(s);
  const removed = new Set<number>();
  let throughput: number | null = null;
  if (takeThroughput !== "none") {
    const c = best(candidates(s, tokens, takeThroughput === "explicit"));
    if (c) {
      throughput = c.value;
      for (const i of c.tokens) removed.add(i);
    }
  }
  const kind = kindOf(tokens, removed);
  removeRunMarks(tokens, removed);
  return { throughput, kind, rest: remainder(s, tokens, removed) };
}

function stripExtensions(name: string): string {
  let base = name;
  for (;;) {
    const next = base.replace(EXTENSION, "");
    if (next === base || next === "") return base;
    base = next;
  }
}

/**
 * A file's name without folders and its last extension (a trailing .gz first): what a series
 * read from it is called ("logs/run.v2.hlog" → "run.v2", "out.jtl.gz" → "out"). The identity
 * rules above strip every known extension instead; this keeps what the person named.
 */
export function fileBaseName(file: string): string {
  let base = file.replace(/^.*[\\/]/, "").replace(/\.gz$/i, "");
  const cut = base.lastIndexOf(".");
  if (cut > 0) base = base.slice(0, cut);
  return base || file;
}

// Module-level, not a closure made per call: a followed run names its pieces a few times a second.
const nonEmpty = (p: string) => p !== "";

/**
 * fileName is the file's name (may include a path and extension); tag is the log's Tag= value
 * or a label ("" if none). `tagIsLabel`: the tag is a load generator's request label (JMeter,
 * Gatling, k6 …): the requests of one run are one configuration with several labels, so the
 * label gives a throughput or kind at most, never a configuration of its own.
 */
export function identityFromName(fileName: string, tag: string, tagIsLabel = false): SeriesIdentity {
  const parts = fileName.split(/[/\\]/).filter(nonEmpty);
  const base = stripExtensions(parts[parts.length - 1] ?? "");
  const dir = parts.length > 1 ? parts[parts.length - 2]! : "";

  const file = parsePart(base, "any");
  const tagged = parsePart(tag.trim(), file.throughput !== null ? "none" : tagIsLabel ? "explicit" : "any");
  const throughput = file.throughput ?? tagged.throughput;
  const kind = tagged.kind || file.kind;

  let fileRest = file.rest;
  if (!fileRest) {
    if (throughput !== null) fileRest = dir ? parsePart(dir, "any").rest : "";
    else fileRest = base;
  }
  // No array and closure made per name: V8 drops the optimised code of short-lived closures at every major collection.
  const rest = tagIsLabel ? "" : tagged.rest;
  const config = (fileRest !== "" && rest !== "" ? `${fileRest}/${rest}` : fileRest || rest) || DEFAULT_CONFIG;
  return { config, throughput, kind };
}

const SCALES: [number, string][] = [
  [1e9, "G"],
  [1e6, "M"],
  [1e3, "k"],
  [1, ""],
];

/** "40k/s", "12.5k/s", "1.2M/s", "800/s": up to 4 significant digits, no trailing zeros. */
export function formatThroughput(opsPerSec: number): string {
  if (!Number.isFinite(opsPerSec)) return `${opsPerSec}/s`;
  if (opsPerSec === 0) return "0/s";
  const a = Math.abs(opsPerSec);
  let i = SCALES.findIndex(([f]) => a >= f);
  if (i < 0) i = SCALES.length - 1;
  let n = Number((opsPerSec / SCALES[i]![0]).toPrecision(4));
  // 999_999 rounds to 1000k: say 1M instead.
  if (Math.abs(n) >= 1000 && i > 0) {
    i--;
    n = Number((opsPerSec / SCALES[i]![0]).toPrecision(4));
  }
  return `${plainNumber(n)}${SCALES[i]![1]}/s`;
}

const TYPED = new RegExp(`^(\\d{1,3}(?:,\\d{3})+|\\d+(?:_\\d+)*(?:\\.\\d*)?|\\.\\d+)\\s*([kmg]??)\\s*(${RATE_UNIT}|per\\s*s(?:ec(?:ond)?)?)?$`, "i");

/** Parses what a user types in the series list: "40k", "40000", "12.5k", "1.2M", "40k/s", "40 kops" → ops/s, or null. */
export function parseThroughput(text: string): number | null {
  const m = TYPED.exec(text.trim());
  if (!m) return null;
  const digits = m[1]!.replace(/[,_]/g, "");
  const mult = m[2]!.toLowerCase();
  if ((m[3] ?? "").toLowerCase() === "ps" && !mult) return null;
  // Typed in a throughput field, a lowercase "m" can only mean million.
  const f = mult === "k" ? 1e3 : mult === "m" ? 1e6 : mult === "g" ? 1e9 : 1;
  const v = clean(Number(digits) * f);
  return Number.isFinite(v) && v > 0 ? v : null;
}

/** What series are ordered by. */
export interface SeriesOrderKey {
  config: string;
  throughput: number | null;
  name: string;
}

/**
 * Text compared with its runs of digits as numbers ("sys2" before "sys10"), then case-blind,
 * then by code point: the same order in every browser and in Node (no locale involved).
 */
export function naturalCompare(a: string, b: string): number {
  const chunk = /(\d+)|(\D+)/g;
  const xs = a.match(chunk) ?? [];
  const ys = b.match(chunk) ?? [];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      // Compare digit runs as numbers without Number's precision limit: strip leading zeros, then length, then text.
      const sx = x.replace(/^0+(?=\d)/, "");
      const sy = y.replace(/^0+(?=\d)/, "");
      if (sx.length !== sy.length) return sx.length - sy.length;
      if (sx !== sy) return sx < sy ? -1 : 1;
      continue;
    }
    if (dx !== dy) return dx ? -1 : 1;
    const lx = x.toLowerCase();
    const ly = y.toLowerCase();
    if (lx !== ly) return lx < ly ? -1 : 1;
  }
  if (xs.length !== ys.length) return xs.length - ys.length;
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * The order series are listed in everywhere (series list, verdict lines, table, Markdown): by
 * configuration, then throughput as a number (unknown last), then name. A sweep reads 2k, 10k,
 * 20k, 40k, not in the string order its file names come in.
 */
export function compareSeries(a: SeriesOrderKey, b: SeriesOrderKey): number {
  const c = naturalCompare(a.config, b.config);
  if (c !== 0) return c;
  const ta = a.throughput !== null && Number.isFinite(a.throughput) ? a.throughput : null;
  const tb = b.throughput !== null && Number.isFinite(b.throughput) ? b.throughput : null;
  if (ta !== tb) {
    if (ta === null) return 1;
    if (tb === null) return -1;
    return ta - tb;
  }
  return naturalCompare(a.name, b.name);
}

/**
 * A series name no loaded series has yet: two files with the same stem (run1/latency.hlog,
 * run2/latency.hlog) must not read the same in every list and legend. The new one is told
 * apart by its parent folder when the source has one that differs ("latency (run2)"), else by
 * a number ("latency (2)"); a label's bracket stays last ("out (2) [Home]").
 */
export function uniqueName(name: string, source: string, tag: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const suffix = tag && name.endsWith(` [${tag}]`) ? ` [${tag}]` : "";
  const stem = name.slice(0, name.length - suffix.length);
  const parts = source.split(/[/\\]/).filter(nonEmpty);
  const dir = parts.length > 1 ? parts[parts.length - 2]! : "";
  if (dir) {
    const byDir = `${stem} (${dir})${suffix}`;
    if (!taken.has(byDir)) return byDir;
  }
  for (let k = 2; ; k++) {
    const n = `${stem} (${k})${suffix}`;
    if (!taken.has(n)) return n;
  }
}
