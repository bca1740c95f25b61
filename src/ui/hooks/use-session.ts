// The saved session in the page (see session.ts): files are added as they load, the view is
// saved a moment after it changes, and only once the session was restored (so a restore is
// not undone by the view it starts from). Loading files and pasted text goes through here.
import { useCallback, useEffect, useRef, type DependencyList } from "react";
import type { EngineClient } from "../../engine/client";
import type { FileOutcome } from "../../engine/protocol";
import type { SampleOptions } from "../../formats/source";
import { clearSession, saveSession, withLoadedFiles, type Session, type SessionView } from "../state/session";
import type { EngineState } from "./use-engine";
import type { PrometheusAuth, PrometheusRequest } from "../../engine/query-types";
import { publicAddress } from "../../core/prometheus-args";
import { netPort } from "../state/net-frames";

export function useSession(engine: EngineClient, { run, setProgress }: Pick<EngineState, "run" | "setProgress">, sampleOpts: SampleOptions) {
  const session = useRef<Session>({ demo: false, files: [], view: null });
  const ready = useRef(false);
  const sampleOptions = useRef(sampleOpts);
  sampleOptions.current = sampleOpts;
  const pasteCount = useRef(0);

  const load = useCallback(
    (read: () => Promise<FileOutcome[]>, blobs: { name: string; blob: Blob }[]) =>
      void run(async () => {
        const out = await read();
        session.current = withLoadedFiles(session.current, out, blobs);
        void saveSession(session.current);
        return out;
      }),
    [run],
  );
  const loadFiles = useCallback(
    (files: File[]) => {
      if (files.length === 0) return;
      load(
        () => engine.load(files, setProgress, sampleOptions.current),
        files.map((f) => ({ name: f.name, blob: f })),
      );
    },
    [engine, load, setProgress],
  );
  const loadText = useCallback(
    (text: string, name?: string) => {
      if (!text.trim()) return;
      pasteCount.current += 1;
      const n = name ?? `pasted-${pasteCount.current}.txt`;
      load(() => engine.loadText(n, text, sampleOptions.current), [{ name: n, blob: new Blob([text], { type: "text/plain" }) }]);
    },
    [engine, load],
  );

  /** Series from a query: the answer is kept with the request when it loaded a series (see net-frames.ts). */
  const loadQuery = useCallback(
    (request: PrometheusRequest, auth: PrometheusAuth) =>
      void run(async () => {
        const net = netPort({ record: true });
        let out: FileOutcome[];
        let answer: Blob | null;
        try {
          out = await engine.loadPrometheus(request, auth, setProgress, net.port);
        } finally {
          answer = net.done();
        }
        if (answer && out.some((o) => o.added.length > 0)) {
          const kept: PrometheusRequest = { ...request, url: publicAddress(request.url) };
          session.current = { ...session.current, queries: [...(session.current.queries ?? []), { request: kept, answer }] };
          void saveSession(session.current);
        }
        return out;
      }),
    [engine, run, setProgress],
  );

  return {
    session,
    ready,
    loadFiles,
    loadText,
    loadQuery,
    /** Clear all: the files go, the view stays. */
    dropFiles: () => {
      session.current = { demo: false, files: [], queries: [], view: session.current.view };
      void saveSession(session.current);
    },
    startOver: async () => {
      // No view save may land after the clear (a save due 200 ms after the last change
      // brought the session back after the reload, now and then).
      ready.current = false;
      await clearSession();
      window.location.hash = "";
      window.location.reload();
    },
  };
}

/** Saves the view `make` builds, 200 ms after the last change of `deps`. */
export function useSaveView(s: ReturnType<typeof useSession>, make: () => SessionView, deps: DependencyList) {
  useEffect(() => {
    if (!s.ready.current) return;
    const t = setTimeout(() => {
      if (!s.ready.current) return; // Start over was pressed meanwhile
      s.session.current = { ...s.session.current, view: make() };
      void saveSession(s.session.current);
    }, 200);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}
