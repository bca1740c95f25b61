// In the browser, payloads are base64-decoded by the browser's own decoder
// (Uint8Array.prototype.setFromBase64); in Node 20, which the unit tests run on, by the
// reader's JavaScript loop. This reads one log of awkward payloads both ways, the app in
// Chromium and the same ingest in this (Node) process, and asks for the same verdict on every
// line: what is accepted, what is refused and why, and the counts.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { build, encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { ingest } from "../src/engine/ingest";
import { usesNativeBase64 } from "../src/formats/hlog-encoding-base64";
import { idle, loadFiles, openEmpty } from "./helpers";

function payload(values: number[]): string {
  const h = build({ numberOfSignificantValueDigits: 3, lowestDiscernibleValue: 1, highestTrackableValue: 2, autoResize: true });
  for (const v of values) h.recordValue(v);
  return encodeIntoCompressedBase64(h);
}

test("the browser's base64 decoder and the JavaScript one agree on every awkward payload", async ({ page }) => {
  expect(usesNativeBase64, "this process must use the JavaScript loop, or nothing is compared").toBe(false);
  const all = Array.from({ length: 30 }, (_, k) => payload(Array.from({ length: 20 * (k + 1) }, (_, i) => 1000 + i * (k + 1) * 37)));
  // One payload of each padding kind: "x=", "x==" and none.
  const p = all.find((s) => /[^=]=$/.test(s))!;
  const p2 = all.find((s) => s.endsWith("=="))!;
  const q = all.find((s) => !s.endsWith("="))!;
  expect([p, p2, q].every(Boolean)).toBe(true);
  const mid = p.length >> 1;
  const variants: string[] = [
    p, // valid, padded
    p.replace(/=+$/, ""), // padding left off
    p + "=", // one "=" too many: read as "x=" here (the native decoder alone refuses it)
    p2 + "=", // three
    p2.replace(/=+$/, ""),
    p2.replace(/=+$/, "="),
    q + "=",
    q + "==",
    p.slice(0, mid) + " " + p.slice(mid), // a space inside
    p.slice(0, mid) + "\t" + p.slice(mid), // a tab inside
    p.slice(0, mid) + "-" + p.slice(mid + 1), // base64url character
    p.slice(0, mid) + "_" + p.slice(mid + 1),
    p.slice(0, mid) + "é" + p.slice(mid + 1), // below 256 but not base64
    p.slice(0, mid) + "€" + p.slice(mid + 1), // above 255
    p.slice(0, mid) + "=" + p.slice(mid + 1), // "=" inside
    q + "A", // one lone last character
    q.slice(0, -1), // loses its last character: bits left over
    q.slice(0, -2),
    p.slice(0, mid) + p[mid + 1] + p[mid] + p.slice(mid + 2), // valid base64, corrupt data
    q, // valid, unpadded by nature
    "HISTFAAAA", // too short
    "",
  ];
  const lines = ["#[StartTime: 1700000000.000 (seconds since epoch)]", '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"'];
  variants.forEach((v, i) => lines.push(`${i}.000,1.000,1.000,${v}`));
  const text = lines.join("\n") + "\n";

  const node = await ingest("awkward.hlog", [text]);
  const nodeProblems = node.problems.map((x) => ({ line: x.line === null ? "" : String(x.line), reason: x.reason }));
  // Several kinds of refusal must be among them, or the comparison shows little.
  expect(nodeProblems.filter((x) => /base64/.test(x.reason)).length).toBeGreaterThanOrEqual(6);
  expect(node.series.length).toBe(1);

  const dir = mkdtempSync(join(tmpdir(), "hdr-e2e-"));
  const file = join(dir, "awkward.hlog");
  writeFileSync(file, text);
  await openEmpty(page);
  await loadFiles(page, [file]);
  await idle(page);
  const shown = await page.getByTestId("load-error").evaluateAll((els) => els.map((e) => ({ line: e.getAttribute("data-line") ?? "", text: e.textContent ?? "" })));
  expect(shown.length).toBe(nodeProblems.length);
  for (const want of nodeProblems) {
    expect(
      shown.some((s) => s.line === want.line && s.text.includes(want.reason)),
      `line ${want.line}: ${want.reason}`,
    ).toBe(true);
  }
  await expect(page.getByTestId("series")).toHaveAttribute("data-count", String(node.series[0]!.histogram.totalCount));
});
