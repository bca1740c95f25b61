import { useCallback, useRef } from "react";

/**
 * Runs `task` so that at most one is in flight: a call while one runs only marks that it
 * must run once more when it ends (with the state current then). A fast wheel on the
 * timeline thus sends two engine queries, not one per notch. `hold(+1)` / `hold(-1)` bracket
 * the whole chain, so the app stays busy between its runs.
 */
export function useCoalesced(task: () => Promise<unknown>, hold: (delta: 1 | -1) => void): () => void {
  const st = useRef({ running: false, again: false });
  return useCallback(() => {
    const s = st.current;
    if (s.running) {
      s.again = true;
      return;
    }
    s.running = true;
    hold(1);
    void (async () => {
      try {
        do {
          s.again = false;
          await task();
        } while (s.again);
      } finally {
        s.running = false;
        hold(-1);
      }
    })();
  }, [task, hold]);
}
