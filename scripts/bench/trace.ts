// A Chromium trace of what happens while an action runs (the browser's whole trace, every
// process and thread), for the scripts that attribute time to threads and functions
// (scripts/trace-load.ts, scripts/trace-interact.ts).
import type { Browser, CDPSession } from "playwright-core";
import { withTimeout } from "./harness";

/** One event of Chromium's trace (the fields the scripts read). */
export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; data?: Record<string, unknown> };
}

/** The trace events of `categories` recorded while `action` runs. */
export async function traceWhile(b: Browser, categories: readonly string[], action: () => Promise<void>): Promise<TraceEvent[]> {
  const bs: CDPSession = await b.newBrowserCDPSession();
  const events: TraceEvent[] = [];
  bs.on("Tracing.dataCollected", (e) => {
    for (const x of e.value as unknown as TraceEvent[]) events.push(x);
  });
  const done = new Promise<void>((r) => bs.once("Tracing.tracingComplete", () => r()));
  await bs.send("Tracing.start", { transferMode: "ReportEvents", traceConfig: { includedCategories: [...categories], recordMode: "recordAsMuchAsPossible" } });
  try {
    await action();
  } finally {
    await bs.send("Tracing.end");
    await withTimeout("trace data", 60_000, () => done);
    await bs.detach().catch(() => undefined);
  }
  return events;
}
