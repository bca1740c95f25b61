// A piece of an interval log read as a part in the test's own thread, as a helper worker reads
// it (helpers/serve.ts): the intervals before it counted so that its blocks lie on the log's grid.
import { fileChunks } from "../../src/engine/file-chunks";
import { ingestHlogPart, type HlogPart } from "../../src/engine/ingest";
import { intervalsBefore } from "../../src/engine/piece-origins";

/**
 * Reads `blob` (a piece starting at a line break) as a part. `keepBytes`: its bytes go with it,
 * as the page's helpers send them (the command line's keep none and read payloads back).
 */
export async function readPartHere(
  blob: Blob,
  name: string,
  onProgress: (bytes: number, intervals: number) => void,
  signal?: AbortSignal,
  before?: Blob,
  keepBytes = true,
): Promise<HlogPart> {
  let bytes = 0;
  const source = keepBytes ? new Uint8Array(blob.size) : null;
  return ingestHlogPart(
    name,
    fileChunks(blob, (b) => (bytes = b), signal, source ?? undefined),
    (p) => onProgress(bytes, p.intervals),
    source,
    { origins: before ? await intervalsBefore(before) : undefined },
  );
}
