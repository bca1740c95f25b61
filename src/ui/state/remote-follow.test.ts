// A link's log followed with Range requests: each kind of answer a server gives (a range, the
// whole file when it ignores Range, nothing new, a shorter or another file) handled as the HTTP
// rules say, and the lines handed on equal to the file's, whole lines only, never twice.
import { describe, expect, it } from "vitest";
import type { LivePiece } from "../../engine/protocol";
import { askFrom, rangeStep, RemoteFollow, type Held, type RangeReply } from "./remote-follow";

const enc = (s: string) => new TextEncoder().encode(s);

/** A server holding `text`: with Range support (RFC 9110: 206, or 416 past the end), or ignoring it (200). */
function server(ranges: boolean) {
  const s = {
    text: "",
    etagOf: (t: string) => `"${t.length}-${t.charCodeAt(0) || 0}"`,
    asked: [] as { from: number; etag: string | null }[],
    async get(_url: string, from: number, etag: string | null): Promise<RangeReply> {
      s.asked.push({ from, etag });
      const body = enc(s.text);
      const tag = s.etagOf(s.text);
      if (etag === tag) return { status: 304, body: new Uint8Array(0), etag: tag };
      if (!ranges || from === 0) return { status: 200, body, etag: tag };
      if (from >= body.length) return { status: 416, body: new Uint8Array(0), etag: null };
      return { status: 206, body: body.subarray(from), etag: tag };
    },
  };
  return s;
}

function follower(s: ReturnType<typeof server>) {
  const pieces: LivePiece[] = [];
  const notes: string[] = [];
  const f = new RemoteFollow(
    "http://logs.example/a/run%201.hlog",
    (p) => pieces.push(p),
    (n) => notes.push(n),
    s.get,
  );
  return {
    f,
    pieces,
    notes,
    text: (run = 1) =>
      pieces
        .filter((p) => p.run === run)
        .map((p) => p.text)
        .join(""),
  };
}

describe("rangeStep", () => {
  const held: Held = { offset: 10, prefix: enc("#head\nab\nc"), tail: enc("ab\nc") };
  const from = askFrom(held);

  it("asks from a few bytes before the end read, and takes what follows them", () => {
    expect(from).toBe(6);
    expect(rangeStep(held, { status: 206, body: enc("ab\ncd\ne"), etag: null })).toEqual({ kind: "more", bytes: enc("d\ne") });
    expect(rangeStep(held, { status: 206, body: enc("ab\nc"), etag: null })).toEqual({ kind: "none" });
    expect(rangeStep(held, { status: 304, body: new Uint8Array(0), etag: null })).toEqual({ kind: "none" });
  });

  it("a server that ignores Range: the bytes past the end read, when the file starts the same", () => {
    expect(rangeStep(held, { status: 200, body: enc("#head\nab\ncd\n"), etag: null })).toEqual({ kind: "more", bytes: enc("d\n") });
    expect(rangeStep(held, { status: 200, body: enc("#head\nab\nc"), etag: null })).toEqual({ kind: "none" });
    const other = enc("#HEAD\nab\ncd\n");
    expect(rangeStep(held, { status: 200, body: other, etag: null })).toEqual({ kind: "restart", reason: "replaced", whole: other });
    const short = enc("#head\n");
    expect(rangeStep(held, { status: 200, body: short, etag: null })).toEqual({ kind: "restart", reason: "truncated", whole: short });
  });

  it("a shorter file (416, or fewer bytes than were asked again) or other bytes at the end read: a new run", () => {
    expect(rangeStep(held, { status: 416, body: new Uint8Array(0), etag: null }).kind).toBe("restart");
    expect(rangeStep(held, { status: 206, body: enc("ab"), etag: null })).toMatchObject({ kind: "restart", reason: "truncated" });
    expect(rangeStep(held, { status: 206, body: enc("xy\ncd\n"), etag: null })).toMatchObject({ kind: "restart", reason: "replaced" });
    expect(rangeStep(held, { status: 404, body: new Uint8Array(0), etag: null })).toEqual({ kind: "error", reason: "the server answered 404" });
  });
});

describe("RemoteFollow", () => {
  for (const ranges of [true, false]) {
    it(`hands on the file's complete lines once each, a partial line when it is complete (${ranges ? "206" : "200 whole"})`, async () => {
      const s = server(ranges);
      const { f, pieces, text } = follower(s);
      expect(f.name).toBe("run 1.hlog");
      const head = '#[StartTime: 1]\n#[BaseTime: 0.000 (seconds since epoch)]\n"StartTimestamp","Interval_Length"\n';
      s.text = `${head}1.0,1.0,2.0,`;
      await f.tick();
      expect(text()).toBe(head);
      expect(pieces[0]!.start).toBe(true);
      s.text += "AAA\n2.0,1.0,3.0,BB";
      await f.tick();
      expect(text()).toBe(`${head}1.0,1.0,2.0,AAA\n`);
      const before = pieces.length;
      await f.tick(); // unchanged: nothing handed on
      expect(pieces.length).toBe(before);
      s.text += "B\n";
      await f.tick();
      expect(text()).toBe(s.text);
      expect(pieces.slice(1).every((p) => !p.start && p.run === 1)).toBe(true);
      // Past its first bytes, the file is asked for from near the end read, not whole.
      if (ranges) expect(s.asked.at(-1)!.from).toBe(enc(s.text).length - 16 - 64);
      // The unchanged file was not sent again: its ETag was named.
      expect(s.asked.some((a) => a.etag !== null)).toBe(true);
    });
  }

  it("a truncated file starts a new run, said, never mixed with the old", async () => {
    const s = server(true);
    const { f, pieces, notes, text } = follower(s);
    s.text = "#[StartTime: 1]\n1.0,1.0,2.0,AAA\n2.0,1.0,3.0,BBB\n";
    await f.tick();
    s.text = "#[StartTime: 9]\n";
    await f.tick();
    expect(notes.at(-1)).toMatch(/run 1\.hlog was truncated: a new run starts/);
    expect(text(2)).toBe("#[StartTime: 9]\n");
    expect(pieces.find((p) => p.run === 2)!.start).toBe(true);
    expect(text(1)).toBe("#[StartTime: 1]\n1.0,1.0,2.0,AAA\n2.0,1.0,3.0,BBB\n");
  });

  it("a file replaced by a longer one starts a new run (the bytes asked again differ)", async () => {
    const s = server(true);
    const { f, notes, text } = follower(s);
    s.text = "#[StartTime: 1]\n1.0,1.0,2.0,AAA\n";
    await f.tick();
    s.text = "#[StartTime: 5]\n1.0,1.0,2.0,ZZZ\n2.0,1.0,3.0,YYY\n";
    await f.tick();
    expect(notes.at(-1)).toMatch(/was replaced: a new run starts/);
    expect(text(2)).toBe(s.text);
  });

  it("an unreachable server is said once; a quiet file is said after the quiet time", async () => {
    let fail = true;
    const s = server(true);
    const notes: string[] = [];
    const f = new RemoteFollow(
      "http://logs.example/q.hlog",
      () => undefined,
      (n) => notes.push(n),
      (u, from, etag) => (fail ? Promise.reject(new Error("down")) : s.get(u, from, etag)),
      0,
    );
    await f.tick();
    await f.tick();
    expect(notes.filter((n) => n.includes("could not be fetched"))).toHaveLength(1);
    fail = false;
    s.text = "#[StartTime: 1]\n";
    await f.tick();
    await f.tick();
    expect(notes.at(-1)).toMatch(/^q\.hlog: no new interval for \d+ s$/);
  });
});
