// Streaming a File (or a slice of one) as text, with room for the event loop to see "cancel".

/**
 * Lets the worker's event loop run every ~50 ms of work, so that a "cancel" message is seen
 * (a File's stream can resolve its reads without ever returning to the event loop).
 */
export function yielder(): () => Promise<void> {
  // Date.now, not performance.now: in a Node worker thread the first use of `performance` loads
  // perf_hooks, a visible share of a command-line helper's start-up; a clock step only moves one
  // breath.
  let last = Date.now();
  return async () => {
    if (Date.now() - last < 50) return;
    await new Promise((r) => setTimeout(r, 0));
    last = Date.now();
  };
}

/** What decodes a file's bytes chunk by chunk: TextDecoder's streaming decode, or the same rules another way. */
export interface ChunkDecoder {
  decode(bytes?: Uint8Array, options?: { stream?: boolean }): string;
}

/** A file that brings its own decoder (the command line's files: Node's native one is faster). */
interface OwnDecoder {
  textDecoder?: () => ChunkDecoder;
}

/**
 * Reads a File as a stream of text chunks: a big log is never one string. With `keep` (as
 * long as the file), its bytes are also copied there as they come.
 */
export async function* fileChunks(file: Blob, onBytes: (n: number) => void, signal?: AbortSignal, keep?: Uint8Array): AsyncGenerator<string> {
  const decoder = (file as OwnDecoder).textDecoder?.() ?? new TextDecoder("utf-8");
  for await (const value of fileBytes(file, onBytes, signal, keep)) yield decoder.decode(value, { stream: true });
  const rest = decoder.decode();
  if (rest) yield rest;
}

/**
 * fileChunks' bytes, not decoded: for a reader that reads bytes itself (an interval log's
 * HlogIngest.pushBytes). With `keep`, they are also copied there as they come.
 */
export async function* fileBytes(file: Blob, onBytes: (n: number) => void, signal?: AbortSignal, keep?: Uint8Array): AsyncGenerator<Uint8Array> {
  const reader = file.stream().getReader();
  const breathe = yielder();
  let bytes = 0;
  for (;;) {
    await breathe();
    if (signal?.aborted) {
      await reader.cancel();
      throw new Error("cancelled: nothing of this file was loaded");
    }
    const { done, value } = await reader.read();
    if (done) break;
    if (keep) {
      if (bytes + value.byteLength > keep.length) throw new Error("the file grew while it was read");
      keep.set(value, bytes);
    }
    bytes += value.byteLength;
    onBytes(bytes);
    yield value;
  }
}
