// One page's following of the served files: what each has been sent (its run and the byte
// offset of the last complete line sent), read again at every look. Only complete lines leave:
// a partial last line waits for its newline. A file that shrinks, changes inode, or comes back
// after it was deleted starts a new run, which the page keeps apart from the old one. The
// position of every file travels in each event's id, so a page that reconnects (after a network
// blip or a restart of the server) names where it stopped and no line is sent twice.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { ServedFile } from "./serve-paths";

export interface Position {
  ino: number;
  run: number;
  /** Bytes sent, always up to the end of a complete line. */
  offset: number;
}

export type LiveEvent = LiveEventBody & {
  /** Every file's position once this event is taken (the SSE event id). */
  id: string;
};

export type LiveEventBody =
  | { type: "file"; file: string }
  | { type: "run"; file: string; run: number; reason: "truncated" | "replaced" }
  | { type: "lines"; file: string; run: number; start: boolean; text: string; end: number }
  | { type: "gone"; file: string }
  | { type: "quiet"; file: string; seconds: number };

/** At most this many bytes in one event: a long log already written is sent in several. */
export const MAX_EVENT_BYTES = 4 << 20;

/** The positions as an event id (one line of text, as SSE wants). */
export function cursorText(positions: ReadonlyMap<string, Position>): string {
  return encodeURIComponent(JSON.stringify([...positions].map(([id, p]) => [id, p.ino, p.run, p.offset])));
}

/** The positions a Last-Event-ID names; empty when it is not one of ours. */
export function parseCursor(text: string | undefined): Map<string, Position> {
  const out = new Map<string, Position>();
  if (!text) return out;
  try {
    const rows = JSON.parse(decodeURIComponent(text)) as unknown;
    if (!Array.isArray(rows)) return out;
    for (const r of rows) {
      if (!Array.isArray(r) || r.length !== 4 || typeof r[0] !== "string") continue;
      const [id, ino, run, offset] = r as [string, number, number, number];
      if ([ino, run, offset].every((x) => Number.isSafeInteger(x) && x >= 0)) out.set(id, { ino, run, offset });
    }
  } catch {
    return new Map();
  }
  return out;
}

interface Sink {
  push(e: LiveEventBody): void;
}

interface State extends Position {
  gone: boolean;
  /** When it last grew (ms), for "no new interval for 30 s". */
  grewAt: number;
  quietSaid: boolean;
}

export class LiveFollow {
  private readonly state = new Map<string, State>();
  private first = true;

  /** `resume`: where the page stopped (its Last-Event-ID), or empty for a page starting afresh. */
  constructor(
    private readonly files: () => ServedFile[],
    resume: ReadonlyMap<string, Position>,
    private readonly quietMs: number,
    private readonly now: () => number = Date.now,
  ) {
    for (const [id, p] of resume) this.state.set(id, { ...p, gone: false, grewAt: now(), quietSaid: false });
  }

  /** Where each file stands, as the next event id. */
  cursor(): string {
    return cursorText(this.state);
  }

  /** One look at every file: the events it gives, in order. */
  poll(): LiveEvent[] {
    const events: LiveEvent[] = [];
    const out = { push: (e: LiveEventBody) => events.push({ ...e, id: this.cursor() }) };
    const now = this.now();
    const files = this.files();
    for (const f of files) {
      let s = this.state.get(f.id);
      if (!s) {
        if (!this.first) out.push({ type: "file", file: f.id });
        s = { ino: -1, run: 0, offset: 0, gone: false, grewAt: now, quietSaid: false };
        this.state.set(f.id, s);
      }
      this.look(f, s, now, out);
    }
    // A file no longer listed (deleted from a folder) is said gone once.
    const listed = new Set(files.map((f) => f.id));
    for (const [id, s] of this.state) {
      if (!listed.has(id) && !s.gone) {
        s.gone = true;
        out.push({ type: "gone", file: id });
      }
    }
    this.first = false;
    return events;
  }

  private look(f: ServedFile, s: State, now: number, out: Sink): void {
    let fd: number;
    try {
      fd = openSync(f.path, "r");
    } catch {
      if (!s.gone) out.push({ type: "gone", file: f.id });
      s.gone = true;
      return;
    }
    try {
      const st = fstatSync(fd);
      if (s.run === 0) {
        Object.assign(s, { ino: st.ino, run: 1, offset: 0 });
      } else if (s.gone || st.ino !== s.ino || st.size < s.offset) {
        // A file back after it was gone is another run, even when it got the old inode number.
        const reason = s.gone || st.ino !== s.ino ? "replaced" : "truncated";
        Object.assign(s, { ino: st.ino, run: s.run + 1, offset: 0, grewAt: now, quietSaid: false });
        out.push({ type: "run", file: f.id, run: s.run, reason });
      }
      s.gone = false;
      let grew = false;
      while (st.size > s.offset) {
        const want = Math.min(st.size - s.offset, MAX_EVENT_BYTES);
        const buf = Buffer.alloc(want);
        const got = readSync(fd, buf, 0, want, s.offset);
        const end = buf.subarray(0, got).lastIndexOf(10) + 1;
        // A partial last line waits for the rest (a line longer than one event is sent whole).
        if (end === 0) {
          if (want < MAX_EVENT_BYTES) break;
          const all = Buffer.alloc(st.size - s.offset);
          const n = readSync(fd, all, 0, all.length, s.offset);
          const e = all.subarray(0, n).lastIndexOf(10) + 1;
          if (e === 0) break;
          this.emit(f, s, all.subarray(0, e), out);
          grew = true;
          continue;
        }
        this.emit(f, s, buf.subarray(0, end), out);
        grew = true;
      }
      if (grew) {
        s.grewAt = now;
        s.quietSaid = false;
      } else if (!s.quietSaid && now - s.grewAt >= this.quietMs) {
        s.quietSaid = true;
        out.push({ type: "quiet", file: f.id, seconds: Math.floor((now - s.grewAt) / 1000) });
      }
    } finally {
      closeSync(fd);
    }
  }

  private emit(f: ServedFile, s: State, bytes: Buffer, out: Sink): void {
    const start = s.offset === 0;
    s.offset += bytes.length;
    out.push({ type: "lines", file: f.id, run: s.run, start, text: bytes.toString("utf8"), end: s.offset });
  }
}
