// A file on disk as the engine's loader sees a dropped File: name, size, slice, stream. Node's
// own file-backed Blob (fs.openAsBlob) cannot be handed to a worker thread (the process aborts
// reading it there), so a part sent to a helper is sent as its path and byte range instead,
// and each side reads its bytes itself.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { basename } from "node:path";
import { StringDecoder } from "node:string_decoder";
import type { ChunkDecoder } from "../engine/file-chunks";

/**
 * TextDecoder("utf-8")'s streaming decode (a byte-order mark at the start dropped, malformed
 * bytes replaced) through Node's own UTF-8 decoder: several times faster in Node 20, where
 * TextDecoder was most of a 24-hour log's text decoding (tested equal on random bytes and cuts).
 */
export function nodeUtf8Decoder(): ChunkDecoder {
  const sd = new StringDecoder("utf8");
  let first = true;
  return {
    decode(bytes, options) {
      let s = bytes ? sd.write(bytes as Buffer) : "";
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

  /** As the loader's type: it uses only what a File and this share. */
  asFile(): File {
    return this as unknown as File;
  }
}
