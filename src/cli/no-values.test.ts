// A series without values (Gatling's `checkout / pay` in the fixture's run: every request KO)
// says so in words wherever its row of numbers would be printed, never zeros that read as 0 ms:
// the Markdown, `check`'s line, `report --json` and the deck. With no successful request it
// cannot hold a latency requirement: it fails it, and `check` exits 1. Gatling's own report
// (stats.js.txt) is the reference for how many requests failed.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gatlingCounts, gatlingReport, GATLING_FIXTURE } from "../../tests/support/gatling-report";
import { readPptx } from "../../tests/support/pptx-read";
import { main } from "./main";

const LOG = `${GATLING_FIXTURE}/simulation.log`;
const have = existsSync(LOG) && existsSync(`${GATLING_FIXTURE}/stats.js.txt`);
const PAY = "simulation [checkout / pay]";

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stderrIsTTY: false });
  return { code, stdout, stderr };
}

describe.skipIf(!have)("a series whose every request failed (Gatling KO)", () => {
  const counts = have ? gatlingCounts(gatlingReport().get("checkout / pay")!) : { total: 0, ok: 0, ko: 0 };
  const words = `no successful requests: ${counts.ko} failed`;

  it("Gatling's report has it all KO: the reference this test stands on", () => {
    expect(counts.ok).toBe(0);
    expect(counts.ko).toBeGreaterThan(0);
  });

  it("the Markdown row says it in words, with no number where a latency would be", async () => {
    const r = await run(["report", "--no-workers", "--require", "p99<=5s", LOG]);
    expect(r.code).toBe(0);
    const row = r.stdout.split("\n").find((l) => l.startsWith("| simulation \\[checkout / pay\\]"))!;
    expect(row).toBeDefined();
    const cells = row.split(" | ").slice(1, 7);
    expect(cells[0]).toBe(`*${words}*`);
    for (const c of cells) expect(c).not.toMatch(/^\**[\d.,]+\**$/);
    // The count is 0 (no value was recorded) and the requirement fails, in words.
    expect(row).toMatch(/\| 0 \| ❌ fails: no successful requests \|$/);
    // The other requests keep their numbers.
    expect(r.stdout).toMatch(/\| simulation \\\[home page\\\] \| \d+ \|/);
  });

  it("check fails it on its line and exits 1, the other requests judged on their values; report --json has null percentiles and the reason", async () => {
    const c = await run(["check", "--no-workers", "--require", "p99<=5s", LOG]);
    expect(c.stdout).toContain(`FAIL ${PAY}: ${words}, so it cannot hold p99 ≤ 5 s\n`);
    // Gatling's report: every other request succeeded, well under 5 s.
    for (const name of ["home page", "search_items", "checkout / cart"]) expect(c.stdout).toContain(`pass simulation [${name}]\n`);
    expect(c.stdout).toContain(`1 of 4 fails p99 ≤ 5 s: ${PAY}, ${words}.`);
    expect(c.code).toBe(1);
    // It is the only one failing, with no value where a latency would be (JSON has null for it).
    const ok = await run(["check", "--no-workers", "--require", "p99<=5s", "--json", LOG]);
    const judged = (JSON.parse(ok.stdout) as { series: { name: string; verdict: string | null; violations: { valueNs: number | null }[] }[] }).series;
    expect(judged.filter((s) => s.verdict === "fail").map((s) => s.name)).toEqual([PAY]);
    expect(judged.find((s) => s.name === PAY)!.violations).toEqual([{ percentile: 99, limitNs: 5e9, valueNs: null, ratio: null }]);
    const r = await run(["report", "--no-workers", "--json", LOG]);
    const j = JSON.parse(r.stdout) as { series: { name: string; count: number; failures: number; percentiles: Record<string, number | null>; noValues: string | null }[] };
    const pay = j.series.find((s) => s.name === PAY)!;
    expect(pay.count).toBe(0);
    expect(pay.failures).toBe(counts.ko);
    expect(Object.values(pay.percentiles).every((v) => v === null)).toBe(true);
    expect(pay.noValues).toBe(words);
    const home = j.series.find((s) => s.name === "simulation [home page]")!;
    expect(home.noValues).toBeNull();
    expect(home.percentiles["100"]).toBeGreaterThan(0);
  });

  it("the deck: slide 1 says it beside the others' verdicts, the spectra's legend says it where no line is drawn", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "hdr-novalues-"));
    const r = await run(["report", "--no-workers", "--require", "p99<=5s", "--out", out, LOG]);
    expect(r.code).toBe(0);
    const deck = await readPptx(readFileSync(path.join(out, "deck.pptx")));
    expect(deck.slides[0]!.text).toContain(`${PAY} misses it: ${words}`);
    const spectra = deck.chartXml[deck.slides[1]!.charts[0]!]!;
    expect(spectra).toContain(`<c:v>${PAY}: ${words}, nothing to draw</c:v>`);
  });
});
