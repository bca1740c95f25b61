// What the page opens with: a share link's view, the logs a #src= link names, the session
// saved before a reload, or the demo (System A vs System B, with its requirement).
import type { SharedCompare } from "../share/schema";
import type { EngineClient } from "../engine/client";
import type { FileOutcome, Progress } from "../engine/protocol";
import type { SeriesEdit } from "./session";
import type { RemovedSeries, SavedMerge } from "./merges";
import { foreignHosts, needsConsent, srcUrls } from "../engine/remote";
import type { TimeRange } from "../engine/store";
import { UNITS, type Unit } from "../core/types";
import { loadSession, saveSession, type Session } from "./session";
import { timeOptionsOfShare, type SharedTimeInfo, type TimeOptions } from "./time-state";

export interface RestoredView {
  unit: Unit;
  yLog: boolean;
  sideBySide: boolean;
  requirement: string | null;
  range: TimeRange;
  timeline: { percentiles: number[]; perLane: boolean; wallClock: boolean; log: boolean };
  theme?: "light" | "dark";
  /** The CO correction's expected interval as typed (saved sessions only). */
  coInterval?: string;
  /** Per-series edits to apply again (saved sessions only). */
  edits?: SeriesEdit[];
  /** Merges to make again, after the edits (saved sessions only). */
  merges?: SavedMerge[];
  /** Loaded series to remove again, after the merges (saved sessions only). */
  removed?: RemovedSeries[];
  /** The time panel's options (window, wall clock, tail, heatmap series). */
  timeOptions?: TimeOptions;
  /** What a share link's page found in its intervals (window verdicts, tail summaries). */
  sharedTime?: SharedTimeInfo;
  /** The A vs B comparison to show (share links). */
  compare?: SharedCompare;
  /** Whether series `name`, the i-th loaded, starts hidden. */
  hidden: (name: string, i: number) => boolean;
}

export interface StartDeps {
  engine: EngineClient;
  setProgress: (p: Progress | null) => void;
  applyView: (v: RestoredView) => Promise<void>;
  session: { current: Session };
  onSessionReady: () => void;
  onDemoRequirement: (text: string) => void;
  /**
   * A #src= link names other hosts: show the question (naming them) and, on the user's answer,
   * run `answer(load)` as a load. Nothing is fetched from them until then.
   */
  askRemote: (hosts: string[], answer: (load: boolean) => Promise<FileOutcome[]>) => void;
}

export async function startApp(d: StartDeps): Promise<FileOutcome[] | null> {
  const hash = window.location.hash;
  if (/(^#|&)s=/.test(hash)) {
    const r = await d.engine.openShare(hash);
    if (!r.ok) return [{ file: "share link", added: [], problems: [{ file: "share link", line: null, reason: r.reason }] }];
    const v = r.view;
    await d.applyView({
      ...v,
      unit: v.displayUnit,
      hidden: (_n, i) => r.visible[i] === false,
      timeOptions: timeOptionsOfShare(v.time),
      sharedTime: v.time ? { options: v.time, series: r.time } : undefined,
    });
    return null;
  }
  const urls = srcUrls(hash);
  if (urls.length > 0) {
    const hosts = foreignHosts(urls, window.location.origin);
    if (hosts.length === 0) return d.engine.loadUrls(urls, d.setProgress);
    d.askRemote(hosts, (load) => remoteAnswer(d, urls, load));
    return null;
  }
  const saved = await loadSession();
  if (saved && (saved.files.length > 0 || !saved.demo)) {
    // A reload: the saved files and view come back.
    d.session.current = saved;
    const out: FileOutcome[] = saved.demo ? await loadDemo(d) : [];
    out.push(
      ...(await d.engine.load(
        saved.files.map((f) => new File([f.blob], f.name)),
        d.setProgress,
      )),
    );
    const v = saved.view;
    if (v) {
      const unit = (UNITS as readonly string[]).includes(v.unit) ? (v.unit as Unit) : "ms";
      await d.applyView({ ...v, unit, hidden: (name) => v.hiddenNames.includes(name) });
    }
    d.onSessionReady();
    return out;
  }
  d.onSessionReady();
  if (new URLSearchParams(window.location.search).get("demo") === "0") return null;
  d.session.current = { demo: true, files: [], view: null };
  void saveSession(d.session.current);
  return loadDemo(d);
}

async function loadDemo(d: StartDeps): Promise<FileOutcome[]> {
  const res = await fetch("demo/manifest.json");
  if (!res.ok) return [];
  const manifest = (await res.json()) as { files: string[]; requirement?: string };
  if (manifest.requirement) d.onDemoRequirement(manifest.requirement);
  const files = await Promise.all(manifest.files.map(async (f) => new File([await (await fetch(`demo/${f}`)).blob()], f)));
  return d.engine.load(files);
}

/** Loads a link's URLs once the user answered: all of them, or (declined) only those that needed no consent. */
async function remoteAnswer(d: StartDeps, urls: string[], load: boolean): Promise<FileOutcome[]> {
  if (load) return d.engine.loadUrls(urls, d.setProgress);
  const own = urls.filter((u) => !needsConsent(u, window.location.origin));
  const declined: FileOutcome[] = urls
    .filter((u) => needsConsent(u, window.location.origin))
    .map((u) => ({ file: u, added: [], problems: [{ file: u, line: null, reason: `not fetched: loading from ${new URL(u).host} was declined` }] }));
  return [...(own.length > 0 ? await d.engine.loadUrls(own, d.setProgress) : []), ...declined];
}
