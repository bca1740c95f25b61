// What the page opens with: a share link's view, the logs a #src= link names, the session
// saved before a reload, or the demo (System A vs System B, with its requirement).
import type { EngineClient } from "../../engine/client";
import type { FileOutcome, Progress } from "../../engine/protocol";
import { foreignHosts, needsConsent, refuseUrl, srcUrls } from "../../engine/remote";
import { askFollow, followable, wantsFollow } from "./remote-follow";
import { loadSession, saveSession, type Session } from "./session";
import { servedLive } from "./live-mode";
import { agreeTo, netPort } from "./net-frames";
import { viewOfSession, viewOfShare, type RestoredView } from "./view-state";

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
      view: viewOfShare(v),
      hidden: (_n, i) => r.visible[i] === false,
      sharedTime: v.time ? { options: v.time, series: r.time } : undefined,
    });
    return null;
  }
  const urls = srcUrls(hash);
  if (urls.length > 0) {
    const hosts = foreignHosts(urls, window.location.origin);
    if (hosts.length === 0) return openLink(d, urls);
    d.askRemote(hosts, (load) => remoteAnswer(d, urls, load));
    return null;
  }
  // Served by `serve`: the followed files are the page's (use-live.ts), nothing else is opened.
  // Nor is the view saved: a served page never restores it, and every drawn append changes it.
  if (servedLive()) return null;
  const saved = await loadSession();
  if (saved && (saved.files.length > 0 || (saved.queries?.length ?? 0) > 0 || !saved.demo)) {
    // A reload: the saved files and view come back.
    d.session.current = saved;
    const out: FileOutcome[] = saved.demo ? await loadDemo(d) : [];
    out.push(
      ...(await d.engine.load(
        saved.files.map((f) => new File([f.blob], f.name)),
        d.setProgress,
      )),
    );
    // A query's series come back from its saved answer: no host is asked, no token needed.
    for (const q of saved.queries ?? []) {
      const net = netPort({ replay: q.answer });
      try {
        out.push(...(await d.engine.loadPrometheus(q.request, {}, d.setProgress, net.port)));
      } finally {
        net.done();
      }
    }
    if (saved.view) await d.applyView(viewOfSession(saved.view));
    d.onSessionReady();
    return out;
  }
  d.onSessionReady();
  if (new URLSearchParams(window.location.search).get("demo") === "0") return null;
  d.session.current = { demo: true, files: [], view: null };
  void saveSession(d.session.current);
  return loadDemo(d);
}

interface DemoFiles {
  files: File[];
  requirement?: string;
}

async function fetchDemo(): Promise<DemoFiles | null> {
  const res = await fetch("demo/manifest.json");
  if (!res.ok) return null;
  const manifest = (await res.json()) as { files: string[]; requirement?: string };
  const files = await Promise.all(manifest.files.map(async (f) => new File([await (await fetch(`demo/${f}`)).blob()], f)));
  return { files, requirement: manifest.requirement };
}

/**
 * The demo's files, asked for as this module loads when the page may open on the demo (no
 * link in the address, no ?demo=0): the requests overlap the page's own start (the first
 * render, the workers' start, the saved-session check) instead of following it. Used once;
 * unused when a saved session opens instead.
 */
let demoAhead: Promise<DemoFiles | null> | null = typeof window !== "undefined" && typeof fetch === "function" && mayOpenOnDemo() ? fetchDemo().catch(() => null) : null;

/** Whether the page may open on the demo: no link in its address, no ?demo=0, not served live. */
export function mayOpenOnDemo(): boolean {
  const hash = window.location.hash;
  return !servedLive() && !/(^#|&)s=/.test(hash) && srcUrls(hash).length === 0 && new URLSearchParams(window.location.search).get("demo") !== "0";
}

/** The demo's file names, once it is loaded: its series are the ones whose source is among them. */
export const demoSources = new Set<string>();

async function loadDemo(d: StartDeps): Promise<FileOutcome[]> {
  const ahead = demoAhead;
  demoAhead = null;
  const demo = (ahead ? await ahead : null) ?? (await fetchDemo());
  if (!demo) return [];
  for (const f of demo.files) demoSources.add(f.name);
  if (demo.requirement) d.onDemoRequirement(demo.requirement);
  return d.engine.loadDemo(demo.files);
}

/** Loads a link's URLs once the user answered: all of them, or (declined) only those that needed no consent. */
async function remoteAnswer(d: StartDeps, urls: string[], load: boolean): Promise<FileOutcome[]> {
  if (load) {
    // Agreed: the link's hosts are asked through frames that may reach them alone (net-frames.ts).
    for (const u of urls) if (needsConsent(u, window.location.origin)) agreeTo(u);
    return openLink(d, urls, true);
  }
  const own = urls.filter((u) => !needsConsent(u, window.location.origin));
  const declined: FileOutcome[] = urls
    .filter((u) => needsConsent(u, window.location.origin))
    .map((u) => ({ file: u, added: [], problems: [{ file: u, line: null, reason: `not fetched: loading from ${new URL(u).host} was declined` }] }));
  return [...(own.length > 0 ? await openLink(d, own) : []), ...declined];
}

/**
 * Loads the URLs the page may fetch (its own, or agreed to), or with `follow=1` follows them as
 * they grow (use-live.ts); either way they may be followed later (the Follow control).
 */
async function openLink(d: StartDeps, urls: string[], viaFrames = false): Promise<FileOutcome[]> {
  const load = async (list: string[]): Promise<FileOutcome[]> => {
    if (!viaFrames) return d.engine.loadUrls(list, d.setProgress);
    const net = netPort();
    try {
      return await d.engine.loadUrls(list, d.setProgress, net.port);
    } finally {
      net.done();
    }
  };
  const ok = urls.filter((u) => refuseUrl(u) === null);
  if (!wantsFollow(window.location.hash)) {
    for (const u of ok) followable.add(u);
    return load(urls);
  }
  askFollow(ok);
  const refused = urls.filter((u) => refuseUrl(u) !== null);
  return refused.length > 0 ? load(refused) : [];
}
