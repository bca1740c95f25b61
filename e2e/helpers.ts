import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { expect, type Page } from "@playwright/test";

export const SAMPLES = resolve(import.meta.dirname, "../../shared/samples");
export const HDR = resolve(SAMPLES, "hdrhistogram");
export const HGRM = resolve(SAMPLES, "hgrm");
export const haveSamples = existsSync(HDR) && existsSync(HGRM);

/** Waits until every chart and table reflects the current state. */
export async function idle(page: Page): Promise<void> {
  await expect(page.getByTestId("app")).toHaveAttribute("data-busy", "false", { timeout: 30_000 });
}

/** Opens the app, waits for the demo, clears it. */
export async function openEmpty(page: Page): Promise<void> {
  await page.goto("./");
  await idle(page);
  await page.getByTestId("clear").click();
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(0);
}

export async function loadFiles(page: Page, paths: string[]): Promise<void> {
  await page.getByTestId("file-input").setInputFiles(paths);
  // data-busy turns true on the next render; give it the chance before waiting for false.
  await page.waitForTimeout(50);
  await idle(page);
}

/**
 * Steps the open deck to a slide: its index from 0, or the first slide holding the given test id.
 * Each key waits for its step to land, and one pressed before the deck listens (or before the
 * slide exists) is pressed again, so a fast test never runs past or falls short of the slide.
 */
export async function slideTo(page: Page, target: number | string): Promise<void> {
  const deck = page.getByTestId("presentation");
  await expect(deck).toHaveAttribute("data-slide", /^\d+$/);
  for (let tries = 0; tries < 40; tries++) {
    const at = Number(await deck.getAttribute("data-slide"));
    const there = typeof target === "number" ? at === target : await deck.getByTestId(target).isVisible();
    if (there) return;
    await page.keyboard.press(typeof target === "number" && at > target ? "ArrowLeft" : "ArrowRight");
    await expect
      .poll(() => deck.getAttribute("data-slide"), { timeout: 1000 })
      .not.toBe(String(at))
      .catch(() => undefined);
  }
  throw new Error(`the presentation never reached the slide ${typeof target === "number" ? target : `with ${target}`}`);
}

export function cell(page: Page, series: string, p: string) {
  return page.locator(`[data-testid=percentile-table] [data-series="${series}"][data-percentile="${p}"]`);
}

/** HdrHistogram Java's HistogramLogProcessor output (without its StartTime line), or null without java and the jar. */
export function javaProcessor(args: string[]): string | null {
  const jar = process.env.HDRHISTOGRAM_JAR ?? resolve(homedir(), ".m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar");
  if (!existsSync(jar)) return null;
  const r = spawnSync("java", ["-cp", jar, "org.HdrHistogram.HistogramLogProcessor", ...args], { encoding: "utf8" });
  if (r.status !== 0) return null;
  return r.stdout.replace(/^#\[StartTime:[^\n]*\n/, "");
}
