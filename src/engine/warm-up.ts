// Warming a worker's load path while it waits for a file.
//
// A fresh worker runs the decoder in V8's interpreter and baseline tiers until enough calls
// have been made for the optimising compiler: measured on a 24-hour log, a cold worker read
// its half in ~2.1 s and a warm one in ~1.3 s. Reading a small synthetic log when the worker
// starts (tens of milliseconds, before anyone can have chosen a file) means the first real
// load runs optimised code. Nothing of it is kept. It goes in slices and stops as soon as
// real work arrives, so it never delays a request by more than a slice (a few ms): the demo,
// which the page asks for at once, is never kept waiting.
import { encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { newHistogram } from "../core/histogram";
import { ingestHlogPart } from "./hlog-ingest";

/** Lines in the synthetic log: enough calls for V8 to optimise the per-interval path. */
const LINES = 1500;

function syntheticLog(): string {
  const payloads: string[] = [];
  let seed = 1234567;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  // Two layouts (jHiccup's 2 digits, load generators' 3) and lognormal latencies in ns.
  for (const digits of [2, 3, 2, 3]) {
    const h = newHistogram(digits, 1, 2);
    for (let i = 0; i < 2000; i++) h.recordValue(Math.round(20_000 * Math.exp(1.2 * Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd()))));
    payloads.push(encodeIntoCompressedBase64(h));
  }
  let text = "#[StartTime: 1700000000.000 (seconds since epoch)]\n\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n";
  for (let i = 0; i < LINES; i++) {
    // Two tags so that each keeps one layout (blocks are built for both).
    const k = i % 4;
    text += `${k % 2 ? "Tag=b," : ""}${i}.000,1.000,1.000,${payloads[k]}\n`;
  }
  return text;
}

let warmed = false;

const SLICE_CHARS = 32 * 1024;

/**
 * Runs once per worker, in slices, until done or `stop()` says real work has come; never
 * throws. `read` consumes the synthetic log (by default as a helper reads a part; the engine
 * worker loads it into a throw-away Store and queries it, to warm the query path too).
 */
export async function warmUp(
  stop: () => boolean,
  read: (name: string, chunks: AsyncIterable<string>) => Promise<unknown> = ingestHlogPart,
): Promise<void> {
  if (warmed) return;
  warmed = true;
  const breathe = () => new Promise<void>((r) => setTimeout(r, 0));
  try {
    await breathe();
    if (stop()) return;
    const text = syntheticLog();
    async function* slices(): AsyncGenerator<string> {
      for (let i = 0; i < text.length; i += SLICE_CHARS) {
        await breathe();
        if (stop()) return;
        yield text.slice(i, i + SLICE_CHARS);
      }
    }
    await read("warm-up.hlog", slices());
  } catch {
    // Only a speed-up: a failure here changes nothing else.
  }
}
