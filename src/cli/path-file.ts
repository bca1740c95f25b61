// A file on disk as the engine's loader sees a dropped File: name, size, slice, stream. Node's
// own file-backed Blob (fs.openAsBlob) cannot be handed to a worker thread (the process aborts
// reading it there), so a part sent to a helper is sent as its path and byte range instead,
// and each side reads its bytes itself.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { isAscii } from "node:buffer";
import { basename } from "node:path";
import { StringDecoder } from "node:string_decoder";
import type { PayloadBytes } from "../core/series";
import type { ChunkDecoder } from "../engine/file-chunks";
import type { PayloadStore } from "../engine/load-files";

/**
 * TextDecoder("utf-8")'s streaming decode (a byte-order mark at the start dropped, malformed
 * bytes replaced) through Node's own UTF-8 decoder: several times faster in Node 20, where
 * TextDecoder was most of a 24-hour log's text decoding (tested equal on random bytes and cuts).
 * Chunks of ASCII alone (a log's, as a rule) are copied as Latin-1, which needs no decoding,
 * until the first that is not: from then on every chunk goes through the UTF-8 decoder, which
 * may hold the start of a character cut at a chunk's end.
 */
export function nodeUtf8Decoder(): ChunkDecoder {
  const sd = new StringDecoder("utf8");
  let first = true;
  let ascii = true;
  return {
    decode(bytes, options) {
      let s = "";
      if (bytes && ascii && isAscii(bytes)) s = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
      else if (bytes) {
        ascii = false;
        s = sd.write(bytes as Buffer);
      }
      if (!options?.stream) s += sd.end();
      if (first && s.length > 0) {
        first = false;
        if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      }
      return s;
    },
  };
}

const CHUNK_BYTES = 1 << 20;

/** Bytes read back at a time: a run of a log's lines, so neighbouring payloads come from one read. */
const READ_BACK_BYTES = 64 * 1024;
/** Reads kept (most recent first): one per series being walked at once is enough. */
const READ_BACK_KEPT = 4;
const readBack: { path: string; at: number; bytes: Uint8Array }[] = [];

/**
 * Bytes [start, end) of a file, read from the file when asked rather than held: what an
 * interval log read from disk cuts its payloads out of (a query decodes a few of them: the
 * edges of a time window, the comparison's last intervals of each part), so the command line
 * holds no log's text. The file must keep those bytes while the command runs (a log being
 * appended to does).
 */
export class FileBytes implements PayloadBytes {
  readonly length: number;
  constructor(
    readonly path: string,
    readonly start: number,
    readonly end: number,
  ) {
    this.length = end - start;
  }

  /** Uint8Array.subarray's range (negative offsets from the end), as a new array or a view of a recent read. */
  subarray(from: number, to: number = this.length): Uint8Array {
    const at = (x: number) => this.start + (x < 0 ? Math.max(0, this.length + x) : Math.min(x, this.length));
    const a = at(from);
    const b = at(to);
    if (b <= a) return new Uint8Array(0);
    for (let k = 0; k < readBack.length; k++) {
      const r = readBack[k]!;
      if (r.path === this.path && r.at <= a && b <= r.at + r.bytes.length) {
        if (k > 0) readBack.unshift(...readBack.splice(k, 1));
        return r.bytes.subarray(a - r.at, b - r.at);
      }
    }
    const bytes = new Uint8Array(Math.max(b - a, Math.min(READ_BACK_BYTES, this.end - a)));
    const fd = openSync(this.path, "r");
    try {
      let got = 0;
      while (got < bytes.length) {
        const n = readSync(fd, bytes, got, bytes.length - got, a + got);
        if (n <= 0) throw new Error(`${this.path}: the file became shorter while it was read`);
        got += n;
      }
    } finally {
      closeSync(fd);
    }
    readBack.unshift({ path: this.path, at: a, bytes });
    readBack.length = Math.min(readBack.length, READ_BACK_KEPT);
    return bytes.subarray(0, b - a);
  }
}

export class PathFile {
  readonly size: number;
  readonly type = "";
  constructor(
    readonly path: string,
    readonly name: string = basename(path),
    readonly start = 0,
    end?: number,
  ) {
    this.end = end ?? statSync(path).size;
    this.size = Math.max(0, this.end - this.start);
  }
  readonly end: number;

  /** Blob.slice: offsets relative to this part. */
  slice(from = 0, to = this.size): PathFile {
    const clamp = (x: number) => Math.max(0, Math.min(this.size, x < 0 ? this.size + x : x));
    const a = clamp(from);
    const b = Math.max(a, clamp(to));
    return new PathFile(this.path, this.name, this.start + a, this.start + b);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const out = new Uint8Array(this.size);
    const fd = openSync(this.path, "r");
    try {
      let at = 0;
      while (at < out.length) {
        const n = readSync(fd, out, at, out.length - at, this.start + at);
        if (n <= 0) break;
        at += n;
      }
    } finally {
      closeSync(fd);
    }
    return out.buffer;
  }

  /** The decoder fileChunks() uses for this file's bytes. */
  textDecoder(): ChunkDecoder {
    return nodeUtf8Decoder();
  }

  async text(): Promise<string> {
    return new TextDecoder("utf-8").decode(await this.arrayBuffer());
  }

  /** The bytes in chunks of 1 MiB, read as they are asked for. */
  stream(): ReadableStream<Uint8Array> {
    let fd: number | null = null;
    let at = this.start;
    const end = this.end;
    const path = this.path;
    const close = () => {
      if (fd !== null) closeSync(fd);
      fd = null;
    };
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= end) {
          close();
          controller.close();
          return;
        }
        if (fd === null) fd = openSync(path, "r");
        const buf = new Uint8Array(Math.min(CHUNK_BYTES, end - at));
        const n = readSync(fd, buf, 0, buf.length, at);
        if (n <= 0) {
          close();
          controller.error(new Error("the file shrank while it was read"));
          return;
        }
        at += n;
        controller.enqueue(n === buf.length ? buf : buf.subarray(0, n));
      },
      cancel() {
        close();
      },
    });
  }

  /** This file's bytes, read back when asked (see FileBytes). */
  bytesOnDemand(): FileBytes {
    return new FileBytes(this.path, this.start, this.end);
  }

  /** As the loader's type: it uses only what a File and this share. */
  asFile(): File {
    return this as unknown as File;
  }
}

/**
 * The loader's payload store for files on disk (PathFile): a log's payloads are read back from
 * the file when a query asks, so the command line holds no log's text.
 */
export const filePayloads: PayloadStore = {
  bytesOf(file, start, end) {
    if (!(file instanceof PathFile)) throw new Error("only files on disk have their payloads read back");
    return new FileBytes(file.path, file.start + start, file.start + end);
  },
};
