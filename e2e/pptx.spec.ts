// "PowerPoint" from the toolbar and from the deck: a real download of a .pptx whose first slide
// holds the headline as text (the same line the Markdown leads with), followed by the charts.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { readPptx } from "../tests/support/pptx-read";
import { idle } from "./helpers";

async function openCompare(page: Page) {
  await page.goto("./");
  await idle(page);
  await page.getByTestId("compare-open").click();
  await page.waitForTimeout(50);
  await idle(page);
  await expect(page.getByTestId("compare").getByTestId("headline")).toBeVisible();
}

/** The Markdown's first line, unescaped: the headline as plain text. */
async function markdownHeadline(page: Page): Promise<string> {
  await page.getByTestId("copy-markdown").click();
  const md = await page.getByTestId("markdown-output").inputValue();
  const first = md.split("\n")[0]!;
  expect(first).toMatch(/^\*\*.+\*\*$/);
  return first.slice(2, -2).replace(/\\(.)/g, "$1");
}

async function download(page: Page, button: ReturnType<Page["getByTestId"]>): Promise<{ name: string; bytes: Buffer }> {
  const dl = page.waitForEvent("download");
  await button.click();
  const d = await dl;
  const path = await d.path();
  return { name: d.suggestedFilename(), bytes: readFileSync(path) };
}

test("Download PowerPoint from the toolbar: a .pptx whose slide 1 is the headline, then the charts", async ({ page }) => {
  await openCompare(page);
  const headline = await markdownHeadline(page);
  const attr = await page.getByTestId("compare").getByTestId("headline").getAttribute("data-text");
  if (attr) expect(attr).toBe(headline);

  const { name, bytes } = await download(page, page.locator("header [data-testid=download-pptx]"));
  expect(name).toBe("sysB_8k.response-vs-sysA_8k.response.pptx");
  // A zip (PK), read back part by part.
  expect(bytes.subarray(0, 2).toString()).toBe("PK");
  const deck = await readPptx(bytes);
  expect(deck.slides[0]!.text.startsWith(headline)).toBe(true);
  expect(deck.slides[0]!.text).toMatch(/Against the requirement/);
  expect(deck.slides[0]!.notes).toMatch(/bootstrap resamples/);
  expect(deck.slides.slice(1).map((s) => s.text)).toEqual([
    expect.stringMatching(/^Latency at every percentile/),
    expect.stringMatching(/^The slowest request over time/),
    ...deck.slides.slice(3).map(() => expect.any(String)),
  ]);
  expect(deck.slides[1]!.charts).toHaveLength(1);
  // Kept beside the test's results, to open in PowerPoint or LibreOffice and look at.
  writeFileSync(test.info().outputPath("deck.pptx"), bytes);

  // One builder: the command line's deck for the same pair and requirement has the same first slide.
  const root = resolve(import.meta.dirname, "..");
  const build = spawnSync(process.execPath, [join(root, "scripts/build-cli.mjs")], { cwd: root, encoding: "utf8" });
  expect(build.status, build.stderr).toBe(0);
  const out = mkdtempSync(join(tmpdir(), "hdr-deck-e2e-"));
  const requirement = await page.getByTestId("requirement-input").inputValue();
  const demo = join(root, "public/demo");
  const r = spawnSync(
    process.execPath,
    [
      join(root, "dist-cli/hdr-spectrum.mjs"),
      "report",
      "--require",
      requirement,
      "--compare",
      join(demo, "sysA_8k.response.hlog"),
      join(demo, "sysB_8k.response.hlog"),
      "--out",
      out,
    ],
    { encoding: "utf8" },
  );
  expect(r.status, r.stderr).toBe(0);
  const cliDeck = await readPptx(readFileSync(join(out, "deck.pptx")));
  expect(cliDeck.slides[0]!.text).toBe(deck.slides[0]!.text);
});

test("Download PowerPoint from presentation mode gives the same first slide", async ({ page }) => {
  await openCompare(page);
  const headline = await markdownHeadline(page);
  await page.getByTestId("present").click();
  await page.waitForTimeout(50);
  await idle(page);
  const { bytes } = await download(page, page.getByTestId("presentation").getByTestId("download-pptx"));
  const deck = await readPptx(bytes);
  expect(deck.slides[0]!.text.startsWith(headline)).toBe(true);
});
