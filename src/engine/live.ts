// Runs followed live (the page fed by `serve`): complete lines as they are written, file by file
// and run by run. As the command line's `watch` does, the first lines of an interval log are
// loaded as any log is and later lines are read by the same reader (the log's header and the new
// lines) and reach the series through Store.append, so every answer equals a load of what was
// written so far. A sample format (one line per request) bins its samples into intervals whose
// last one is still filling: its reader is kept between pieces (the header and columns read
// once), each piece's lines are read once, and its series are made again from what the reader
// holds and replace the earlier ones.
// A new run of a file (truncated or replaced) starts new series; the earlier run's are kept,
// renamed, never mixed with the new.
import type { LoadProblem } from "../core/types";
import type { SeriesModel } from "../core/series";
import { AppendedRowError, type AppendedRow } from "./intervals";
import { HlogReader, type HlogInterval } from "../formats/hlog";
import type { LiveAnswer, LivePiece } from "./protocol";
import { GrowingSamples } from "./growing-samples";
import { nameOfUrl } from "./remote";
import { Store } from "./store";
import { extentOf } from "./timeline-query";

interface Followed {
  run: number;
  name: string;
  /** Lines read, for the line numbers of problems in later lines. */
  lines: number;
  /** Text read before the series could be loaded (a header without intervals yet). */
  head: string;
  /** The log's leading header lines, given to the reader with every later piece. */
  header: string;
  /** A sample format read line by line: its reader, kept between pieces. */
  samples: GrowingSamples | null;
  /** Another format without intervals: its whole text so far, read again at every piece. */
  whole: string | null;
  ids: string[];
  /** What the series' reader made of them (name, unit…), in the order of `ids`: what the person changed since is told from it. */
  built: Identity[];
}

/** What a person can change of a series in the page (its name, configuration, throughput, kind, recorded unit). */
type Identity = Pick<SeriesModel, "name" | "config" | "throughput" | "kind" | "recordedUnit">;
const IDENTITY = ["name", "config", "throughput", "kind", "recordedUnit"] as const;

// Loops and module-level functions here, not closures made per piece: V8 drops the optimised code
// of short-lived closures at every major collection.
function hasSeries(series: readonly SeriesModel[], id: string): boolean {
  for (const s of series) if (s.id === id) return true;
  return false;
}

function identityOf(s: SeriesModel): Identity {
  return { name: s.name, config: s.config, throughput: s.throughput, kind: s.kind, recordedUnit: s.recordedUnit };
}

/**
 * A piece's problems (its notes left out) put in the answer, their lines counted from the file's
 * start (`base` lines before the piece): whether there were any. Module-level functions and loops
 * here, not closures made per piece: those lose their optimised code at every major collection.
 */
function badLines(r: { problems: LoadProblem[] }, base: number, out: LiveAnswer): boolean {
  let found = false;
  for (const x of r.problems) {
    if (x.note) continue;
    out.problems.push({ ...x, line: x.line === null ? null : x.line + base });
    found = true;
  }
  return found;
}

/** The first of `ids`' series with this tag. */
function withTag(store: Store, ids: readonly string[], tag: string): SeriesModel | undefined {
  for (const id of ids) {
    const m = store.get(id);
    if (m.tag === tag) return m;
  }
  return undefined;
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** The leading lines a reader needs to place later lines: comments (StartTime, BaseTime) and the legend. */
export function headerOf(text: string): string {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("#") && !line.startsWith('"')) break;
    out.push(line);
  }
  return out.length ? `${out.join("\n")}\n` : "";
}

/** A followed log's later lines, as its reader reads them (see readLaterLines). */
export interface LaterLines {
  /** Each tag's intervals: their rows (seconds since the piece's StartTime) and their lines in the piece. */
  tags: Map<string, { rows: AppendedRow[]; lines: number[] }>;
  /** The piece's StartTime (seconds since epoch), what its rows are placed from. */
  start: number;
  /** The lines that could not be read, counted in the piece (its header not counted). */
  problems: LoadProblem[];
}

/**
 * Later lines of an interval log, read by the log's own reader given the log's header first, as a
 * load of header and lines would read them. Each interval's payload is left to Store.append,
 * which decodes it once: nothing of the piece is made into a series.
 */
export function readLaterLines(name: string, header: string, text: string): LaterLines {
  const reader = new HlogReader(name);
  const headerLines = header.split("\n");
  let lineNo = 0;
  for (let k = 0; k < headerLines.length - 1; k++) reader.readLine(headerLines[k]!, ++lineNo);
  const skip = lineNo;
  const read: HlogInterval[] = [];
  const lines = text.split("\n");
  for (let k = 0; k < lines.length; k++) {
    const iv = reader.readLine(lines[k]!, ++lineNo);
    if (iv) read.push(iv);
  }
  const tags = new Map<string, { rows: AppendedRow[]; lines: number[] }>();
  for (const iv of read) {
    let t = tags.get(iv.tag);
    if (!t) tags.set(iv.tag, (t = { rows: [], lines: [] }));
    t.rows.push({ offset: reader.offsetOf(iv.rawStart), length: iv.length, maxColumn: iv.maxColumn, payload: iv.payload });
    t.lines.push(iv.line - skip);
  }
  // The header's own problems were said when the log was loaded.
  const problems: LoadProblem[] = [];
  for (const x of reader.problems) if (x.line !== null && x.line > skip) problems.push({ ...x, line: x.line - skip });
  return { tags, start: reader.startTime() ?? 0, problems };
}

/** The file's name as its series' source: the last part of the served id (a URL's named as its load names it). */
export function nameOfLive(file: string): string {
  return /^https?:\/\//.test(file) ? nameOfUrl(file) : file.slice(file.lastIndexOf("/") + 1);
}

const runs = new WeakMap<Store, LiveRuns>();

/** The live runs fed into a store (the worker's one store has one). */
export function liveRunsOf(store: Store): LiveRuns {
  let r = runs.get(store);
  if (!r) {
    r = new LiveRuns(store);
    runs.set(store, r);
  }
  return r;
}

export class LiveRuns {
  private readonly files = new Map<string, Followed>();

  constructor(private readonly store: Store) {}

  /** The series of a followed file's current run. */
  idsOf(file: string): string[] {
    return this.files.get(file)?.ids ?? [];
  }

  async feed(pieces: readonly LivePiece[]): Promise<LiveAnswer> {
    const out: LiveAnswer = { added: [], removed: [], appended: 0, ended: [], problems: [], extent: null };
    for (const p of pieces) await this.one(p, out);
    out.extent = extentOf(this.store.series);
    return out;
  }

  private async one(p: LivePiece, out: LiveAnswer): Promise<void> {
    const store = this.store;
    let f = this.files.get(p.file);
    if (f && f.run !== p.run) {
      // A new run: the earlier one's series stay, renamed, and the new run's are new series.
      for (const id of f.ids) {
        if (!store.series.some((s) => s.id === id)) continue;
        store.setIdentity(id, { name: `${store.get(id).name} (run ${f.run}, ended)` });
        out.ended.push(id);
      }
      f = undefined;
    }
    if (!f) {
      f = { run: p.run, name: nameOfLive(p.file), lines: 0, head: "", header: "", samples: null, whole: null, ids: [], built: [] };
      this.files.set(p.file, f);
      // Lines of a run whose start this page never saw (it came in later) cannot be placed.
      if (!p.start) {
        out.problems.push({ file: f.name, line: null, reason: "joined a run after its start: its lines are not shown (reload the page to read the file from its start)" });
        f.ids = [];
        f.lines = -1;
        return;
      }
    }
    if (f.lines < 0) return;
    // Series the person removed (or cleared) are not brought back by later lines.
    const kept: string[] = [];
    for (const id of f.ids) if (hasSeries(store.series, id)) kept.push(id);
    if (kept.length < f.ids.length) {
      f.ids = kept;
      if (kept.length === 0) {
        f.lines = -1;
        return;
      }
    }
    const lineBase = f.lines;
    f.lines += lineCount(p.text);

    if (f.samples) {
      f.samples.push(p.text);
      const r = f.samples.snapshot();
      out.problems.push(...r.problems.filter((x) => !x.note));
      this.rebuild(f, r.series, out);
      return;
    }

    if (f.whole !== null) {
      // Read again whole, rows replaced.
      f.whole += p.text;
      // Read apart first: a bad line leaves the rows shown as they were.
      const again = new Store();
      const r = await again.load(f.name, [f.whole]);
      if (badLines(r, 0, out)) {
        again.clear();
        return;
      }
      this.rebuild(f, again.series, out);
      return;
    }

    if (f.ids.length === 0) {
      f.head += p.text;
      const r = await store.load(f.name, [f.head]);
      if (r.problems.some((x) => !x.note)) {
        for (const id of r.added) store.remove(id);
        // A header alone is not a log yet: wait for its first interval.
        if (r.added.length === 0 && !/^[0-9T]/m.test(f.head)) return;
        badLines(r, 0, out);
        f.head = "";
        return;
      }
      if (r.added.length === 0) return;
      f.ids = r.added;
      out.added.push(...r.added);
      const series = r.added.map((id) => store.get(id));
      f.built = series.map(identityOf);
      if (series.some((s) => s.format !== "hlog" || !s.intervals)) {
        f.samples = GrowingSamples.open(f.name, f.head);
        f.samples?.keepIds(series);
        if (f.samples) {
          f.samples.push(f.head);
          f.samples.snapshot(); // what it says about these lines was said by the load above
        } else f.whole = f.head;
      } else {
        f.header = headerOf(f.head);
        // Without a StartTime line the reader starts the log at its first interval: the later
        // pieces are given that start, so that their rows are placed exactly as a whole load places them.
        const start = series[0]!.startTime;
        if (start !== null && !/^#\[StartTime:/m.test(f.header)) f.header += `#[StartTime: ${start}]\n`;
      }
      f.head = "";
      return;
    }

    const later = readLaterLines(f.name, f.header, p.text);
    if (badLines(later, lineBase, out)) return;
    for (const [tag, { rows, lines }] of later.tags) {
      const main = withTag(store, f.ids, tag);
      if (!main) {
        // Intervals of a tag first written now: a series of their own from here on.
        const made = await store.load(f.name, [
          f.header +
            p.text
              .split("\n")
              .filter((l) => l.startsWith(`Tag=${tag},`))
              .join("\n") +
            "\n",
        ]);
        const id = made.added.find((x) => store.get(x).tag === tag);
        for (const x of made.added) if (x !== id) store.remove(x);
        if (id) {
          f.ids.push(id);
          out.added.push(id);
        }
        continue;
      }
      // From the piece's StartTime to the series' (the same, but for a log without one).
      const shift = later.start - (main.startTime ?? 0);
      for (const r of rows) r.offset += shift;
      try {
        store.append(main.id, rows);
        out.appended += rows.length;
      } catch (e) {
        if (e instanceof AppendedRowError) out.problems.push({ file: f.name, line: lines[e.row]! + lineBase, reason: e.reason });
        else out.problems.push({ file: f.name, line: null, reason: `lines ${lineBase + 1}–${f.lines}: ${(e as Error).message}` });
      }
    }
  }

  /**
   * A file's series made again from what its reader holds: they replace the earlier ones, and
   * what the person changed of those (a new name, a recorded unit) carries over, instead of the
   * reader's defaults coming back with every new line.
   */
  private rebuild(f: Followed, series: SeriesModel[], out: LiveAnswer): void {
    const store = this.store;
    const before = f.ids.map((id) => store.get(id));
    for (const id of f.ids) store.remove(id);
    out.removed.push(...f.ids);
    f.ids = store.add({ series, problems: [], lines: 0 }).added;
    out.added.push(...f.ids);
    const built = f.ids.map((id) => identityOf(store.get(id)));
    // Told apart by the name their reader gives them (a label's series keeps it as labels come and go).
    const earlier = new Map(f.built.map((made, k) => [made.name, { made, was: before[k] }]));
    f.ids.forEach((id, k) => {
      const { made, was } = earlier.get(built[k]!.name) ?? {};
      if (!was || !made) return;
      const patch: Partial<Pick<SeriesModel, "config" | "throughput" | "kind" | "name">> = {};
      for (const key of IDENTITY) {
        if (key === "recordedUnit" || sameValue(was[key], made[key])) continue;
        Object.assign(patch, { [key]: was[key] });
      }
      if (Object.keys(patch).length > 0) store.setIdentity(id, patch);
      if (was.recordedUnit !== made.recordedUnit) store.setRecordedUnit(id, was.recordedUnit);
    });
    f.built = built;
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
