// The page's side of the helper pool (helpers/pool.ts): the engine worker's helpers are workers
// the page started (reached through ports it sent, see part-worker.ts), or workers started here
// on first use (no port given, or a page-started helper that died).
import type { HelperReply } from "./helpers/messages";
import { HelperPool, type HelperHost, type HelperPort } from "./helpers/pool";

export { HelperPool };

/** Helpers over the page's ports (each used once), then over workers started here. */
export function pageHost(ports: readonly MessagePort[] = []): HelperHost {
  const given: (MessagePort | undefined)[] = [...ports];
  return {
    noun: "worker",
    start(helper, link): HelperPort {
      const port = given[helper];
      if (port) {
        given[helper] = undefined;
        port.onmessage = (ev: MessageEvent<HelperReply>) => link.reply(ev.data);
        return { post: (m) => port.postMessage(m) };
      }
      const w = new Worker(new URL("./part-worker.ts", import.meta.url), { type: "module", name: "helper" });
      w.onmessage = (ev: MessageEvent<HelperReply>) => link.reply(ev.data);
      w.onerror = (ev) => {
        ev.preventDefault();
        link.failed(ev.message);
      };
      return { post: (m) => w.postMessage(m) };
    },
    refs: (blob, before) => ({ piece: blob, before: before ?? null, blocks: true }),
  };
}

/**
 * How many helpers: one per core beyond the engine worker's own (none when the browser says
 * 1 core), at most 3; `override` (a number) sets the count instead. The page and the engine
 * both ask, so they agree.
 */
export function helperCount(override = Number.NaN): number {
  const cores = typeof navigator !== "undefined" && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  return Number.isInteger(override) ? Math.max(0, Math.min(3, override)) : Math.max(0, Math.min(3, cores - 1));
}

/** The pool of `count` helpers, over the page's ports when given; null without Worker or helpers. */
export function helperPoolOf(count: number, ports: readonly MessagePort[] = []): HelperPool | null {
  if (typeof Worker === "undefined" && ports.length === 0) return null;
  return count > 0 ? new HelperPool(count, pageHost(ports)) : null;
}
