// An interval log pushed as bytes (HlogIngest.pushBytes: the usual lines read from the bytes
// themselves, everything else decoded and read as text) reads exactly as its decoded text
// pushed as text does, however the bytes are cut into chunks; and the usual lines really are
// read from the bytes.
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { damaged as damagedBytes, readAsBytes, readAsText, readingOutcome, seededInts } from "../../tests/support/reading-outcome";
import type { SimInterval } from "../../tests/support/queue-sim";
import { HlogIngest } from "./hlog-ingest";
import { kernelStats } from "../wasm/kernel";

function intervals(n: number, digits: 2 | 3 = 3, from = 0, scale = 1): SimInterval[] {
  return Array.from({ length: n }, (_, i) => {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: digits });
    // Values grow every tenth line, so some lines reach above what earlier ones were checked
    // for (line()'s long path) and the others are read from the bytes.
    for (let k = 1; k <= 40; k++) h.recordValue(scale * (1000 * k + 37 * Math.floor((i + from) / 10)));
    return { start: i + from, length: 1, histogram: h };
  });
}

const utf8 = new TextEncoder();

const outcome = readingOutcome;

const asText = (text: string) => readAsText("bytes.hlog", text);
const asBytes = (text: string, size: number, bytes?: Uint8Array) => readAsBytes("bytes.hlog", text, size, bytes);

/** The same, read as a part (no payloads kept) and joined onto an empty reader with its bytes. */
function asPart(text: string, size: number) {
  const bytes = utf8.encode(text);
  const part = new HlogIngest("bytes.hlog", false);
  for (let at = 0; at < bytes.length; at += size) part.pushBytes(bytes.subarray(at, at + size));
  const joined = new HlogIngest("bytes.hlog");
  joined.absorb(part.toPart(bytes));
  return outcome(joined.finish());
}

/** The text read as a part and joined onto an empty reader. */
function textPart(text: string) {
  const part = new HlogIngest("bytes.hlog", false);
  part.push(text);
  const joined = new HlogIngest("bytes.hlog");
  joined.absorb(part.toPart(utf8.encode(text)));
  return outcome(joined.finish());
}

const SIZES = [1, 3, 64, 997, 1 << 20];

function expectSame(text: string) {
  const want = asText(text);
  expect(want.series.length).toBeGreaterThan(0);
  for (const size of SIZES) {
    expect(asBytes(text, size), `chunks of ${size}`).toEqual(want);
    expect(asPart(text, size), `a part in chunks of ${size}`).toEqual(want);
  }
}

describe("an interval log read from its bytes", () => {
  const plain = writeHlog(intervals(40));

  it("reads as its text does, in chunks of any size, as a whole reader or a part", () => {
    expectSame(plain);
  });

  it("reads its usual lines from the bytes: their payloads never go to the text way's base64 decoder", () => {
    const before = kernelStats.nativeBase64;
    const handled = kernelStats.handled;
    // Every line within the layout and the values the first one opened the series with.
    const steady = Array.from({ length: 40 }, (_, i) => ({ ...intervals(1)[0]!, start: i }));
    const r = asBytes(writeHlog(steady), 1 << 20);
    expect(r.series[0]!.counts).toHaveLength(40);
    // The first line opens the series (line()'s long path, as text); the other 39 come from the bytes.
    expect(kernelStats.handled - handled).toBe(40);
    expect(kernelStats.nativeBase64 - before).toBeLessThanOrEqual(1);
    // Lines ended by \r\n, as Java writes them on Windows, too.
    const crlf = writeHlog(steady).replace(/\n/g, "\r\n");
    const atCrlf = kernelStats.nativeBase64;
    const fromBytes = asBytes(crlf, 1 << 20);
    expect(kernelStats.nativeBase64 - atCrlf).toBeLessThanOrEqual(1);
    expect(fromBytes).toEqual(asText(crlf));
  });

  it("reads lines broken by \\r\\n or a lone \\r, and a byte-order mark, as its text does", () => {
    expectSame(plain.replace(/\n/g, "\r\n"));
    const lines = plain.split("\n");
    expectSame([...lines.slice(0, 20), ...lines.slice(20).map((l, i) => (i % 3 === 0 ? `${l}\r` : `${l}\n`))].join("\n"));
    expectSame(`\ufeff${plain}`);
  });

  it("reads a character beyond ASCII (a comment, a bad byte) and every line after it as its text does", () => {
    const lines = plain.split("\n");
    lines.splice(25, 0, "# latency in µs, measured ≥ 1 ms apart");
    expectSame(lines.join("\n"));
    // Bytes that are no UTF-8 (a Latin-1 "é") read as the decoder reads them: U+FFFD.
    const bytes = utf8.encode(plain);
    const at = utf8.encode(lines.slice(0, 25).join("\n")).length + 1;
    const bad = new Uint8Array(bytes.length + 3);
    bad.set(bytes.subarray(0, at));
    bad.set([0x23, 0xe9, 0x0a], at);
    bad.set(bytes.subarray(at), at + 3);
    const text = new TextDecoder("utf-8").decode(bad);
    expect(asBytes(text, 64, bad)).toEqual(asText(text));
  });

  it("reads tags, a layout change, higher values and refused lines as its text does, with the same line numbers", () => {
    const lines = plain.split("\n");
    const tagged = writeHlog(intervals(6, 3, 50), { tag: "db" })
      .split("\n")
      .filter((l) => l.startsWith("Tag="));
    const coarser = writeHlog(intervals(5, 2, 60))
      .split("\n")
      .filter((l) => /^\d/.test(l));
    const higher = writeHlog(intervals(5, 3, 70, 1000))
      .split("\n")
      .filter((l) => /^\d/.test(l));
    const data = lines.findIndex((l) => /^\d/.test(l));
    const payload = (l: string) => l.slice(l.lastIndexOf(",") + 1);
    const broken = [
      `${lines[data + 3]!.slice(0, -20)}`, // a payload cut short
      lines[data + 4]!.replace(/HIST/, "XIST"), // not a histogram
      lines[data + 5]!.replace(/^[\d.]+/, "1e3"), // not a plain decimal: the general way
      lines[data + 6]!.replace(/^[\d.]+/, "-5.000"), // a sign
      `${lines[data + 7]!} `, // white space at the end
      lines[data + 8]!.replace(",", " , "), // white space around a comma
      lines[data + 9]!.replace(/^[\d.]+/, "92233720368547758080"), // beyond 2^63 seconds
      `1.000,1.000,2.000,${payload(lines[data + 10]!).slice(0, 8)},${payload(lines[data + 10]!).slice(8)}`, // five fields
      "12345678901234567.5,1.000,1.000," + payload(lines[data + 11]!), // too many digits for a plain decimal
      "garbage",
      "",
    ];
    const text = [...lines.slice(0, data + 12), ...tagged, ...broken, ...coarser, ...lines.slice(data + 12), ...higher].join("\n");
    const want = asText(text);
    expect(want.series.map((s) => s.name)).toEqual(["bytes", "bytes [db]"]);
    expect(want.problems.length).toBeGreaterThanOrEqual(5);
    // (A part that changes a tag's layout gives the tag's histogram another max than reading
    // the log whole does, read as text or as bytes alike: the part is compared with the part.)
    const part = textPart(text);
    for (const size of SIZES) {
      expect(asBytes(text, size), `chunks of ${size}`).toEqual(want);
      expect(asPart(text, size), `a part in chunks of ${size}`).toEqual(part);
    }
  });

  it("reads a log without a final line feed, and one that ends inside a character, as its text does", () => {
    expectSame(plain.trimEnd());
    const bytes = utf8.encode(`${plain}# µ`);
    const cut = bytes.subarray(0, bytes.length - 1);
    const text = new TextDecoder("utf-8").decode(cut);
    for (const size of SIZES) expect(asBytes(text, size, cut), `chunks of ${size}`).toEqual(asText(text));
  });

  it("reads a damaged log as its text does: bytes changed, inserted or removed anywhere (seeded)", () => {
    const base = utf8.encode(writeHlog(intervals(30)));
    const rnd = seededInts(12345);
    // Bytes that matter to the two ways: line breaks, commas, points, digits, white space, a
    // byte beyond ASCII, base64 letters and padding.
    const pool = [10, 13, 44, 46, 48, 53, 57, 32, 9, 0xc2, 0xb5, 0xff, 72, 73, 83, 84, 61, 43, 47, 65];
    for (let round = 0; round < 150; round++) {
      const damaged = damagedBytes(base, rnd, pool, 4);
      const text = new TextDecoder("utf-8").decode(damaged);
      const size = [7, 64, 997, 1 << 20][rnd(4)]!;
      expect(asBytes(text, size, damaged), `round ${round}, chunks of ${size}`).toEqual(asText(text));
    }
  });
});
