// What the page says to people who did not make the measurement: a log axis where a linear one
// would flatten a curve to zero, max labels that keep the slowest one, a heatmap whose words
// match its colours, a deck that fits any screen and holds focus, a first view that says it is
// the demo, links that open where they are pasted and warn when they would open only here.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { simulateQueue } from "../tests/support/queue-sim";
import { writeHlog } from "../tests/support/hlog-fixture";
import { cell, idle, loadFiles, openEmpty, slideTo } from "./helpers";

const dir = mkdtempSync(join(tmpdir(), "answer-page-"));

/** A file of plain values, one per line (the samples reader). */
function values(name: string, xs: number[]): string {
  const p = join(dir, name);
  writeFileSync(p, xs.join("\n") + "\n");
  return p;
}

/** `n` logs of 30 s whose one stall grows with their index: series k's max is about (k + 1) × 15 ms. */
function stallingLogs(n: number): string[] {
  return Array.from({ length: n }, (_, k) => {
    const p = join(dir, `svc-${String(k + 1).padStart(2, "0")}.hlog`);
    writeFileSync(p, writeHlog(simulateQueue({ rate: 200, seconds: 30, medianServiceSec: 0.0005, sigma: 0.4, stalls: [{ at: 12, duration: 0.015 * (k + 1) }], seed: 40 + k })));
    return p;
  });
}

/** Every slide of the open deck, from the first: calls `each` on each, returns how many. */
async function eachSlide(page: Page, each: (slide: Locator, i: number) => Promise<void>): Promise<number> {
  const slide = page.getByTestId("slide");
  for (let i = 0; ; i++) {
    await expect(slide).toHaveAttribute("data-slide", String(i));
    await page.waitForTimeout(150);
    await idle(page);
    await each(slide, i);
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(50);
    if ((await slide.getAttribute("data-slide")) === String(i)) return i + 1;
  }
}

/** Nothing on the slide is cut off: the slide and each chart box hold what they contain. */
async function overflow(slide: Locator): Promise<string[]> {
  return slide.evaluate((s) => {
    const out: string[] = [];
    const boxes = [s, ...Array.from(s.querySelectorAll<HTMLElement>(".deck-fill"))];
    for (const b of boxes) {
      if (b.scrollWidth > b.clientWidth + 1) out.push(`${b.className}: ${b.scrollWidth} px wide in ${b.clientWidth}`);
      if (b.scrollHeight > b.clientHeight + 1) out.push(`${b.className}: ${b.scrollHeight} px high in ${b.clientHeight}`);
    }
    const deck = s.closest<HTMLElement>("[data-testid=presentation]")!;
    if (deck.scrollWidth > window.innerWidth || deck.scrollHeight > window.innerHeight)
      out.push(`deck ${deck.scrollWidth}×${deck.scrollHeight} on ${window.innerWidth}×${window.innerHeight}`);
    return out;
  });
}

test("log axis by default where the values span more than two decades, on the page and on the slides; unticked, linear", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  const plot = page.getByTestId("percentile-plot").first();
  // The demo: sysB's median (at or above its lowest value) against sysA's max is > 100×.
  const lowMedian = Number(await cell(page, "sysB_8k.response", "50").getAttribute("data-raw"));
  const topMax = Number(await cell(page, "sysA_8k.response", "100").getAttribute("data-raw"));
  expect(topMax / lowMedian).toBeGreaterThan(100);
  await expect(plot).toHaveAttribute("data-y-scale", "log");
  await expect(page.getByTestId("y-log")).toBeChecked();
  await expect(page.getByTestId("timeline-log")).toBeChecked();
  // The deck draws it the same way.
  await page.getByTestId("present").click();
  await slideTo(page, 1);
  await expect(page.getByTestId("slide").getByTestId("percentile-plot")).toHaveAttribute("data-y-scale", "log");
  await page.keyboard.press("Escape");

  await page.getByTestId("y-log").uncheck();
  await expect(plot).toHaveAttribute("data-y-scale", "linear");
});

test("the user's choice of axis is kept while the data changes, and comes back after a reload", async ({ page }) => {
  await openEmpty(page);
  await loadFiles(page, [values("wide.txt", [10, 15, 40, 1001])]);
  const plot = page.getByTestId("percentile-plot");
  await expect(plot).toHaveAttribute("data-y-scale", "log");
  await page.getByTestId("y-log").uncheck();
  await expect(plot).toHaveAttribute("data-y-scale", "linear");
  await loadFiles(page, [values("wider.txt", [1, 100_000])]);
  await expect(plot).toHaveAttribute("data-y-scale", "linear");
  await page.waitForTimeout(400); // the view is saved 200 ms after its last change
  await page.reload();
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(2);
  await expect(page.getByTestId("percentile-plot")).toHaveAttribute("data-y-scale", "linear");
  await expect(page.getByTestId("y-log")).not.toBeChecked();
});

test("values within two decades stay on a linear axis; past two decades they go log", async ({ page }) => {
  await openEmpty(page);
  // 10 … 900: less than two decades.
  await loadFiles(page, [values("narrow.txt", [10, 20, 50, 100, 300, 900])]);
  await expect(page.getByTestId("percentile-plot")).toHaveAttribute("data-y-scale", "linear");
  // 10 … 1001 beside it: more than two decades over the two.
  await loadFiles(page, [values("wide.txt", [10, 15, 40, 1001])]);
  await expect(page.getByTestId("percentile-plot")).toHaveAttribute("data-y-scale", "log");
});

test("max labels: the highest max keeps its label where labels collide; every label has its unit", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  const markers = await page
    .locator("[data-testid=percentile-plot] [data-testid=max-marker]")
    .evaluateAll((gs) =>
      gs.map((g) => ({ series: g.getAttribute("data-series")!, cy: Number(g.querySelector("circle")!.getAttribute("cy")), label: g.querySelector("text")?.textContent ?? null })),
    );
  expect(markers.length).toBe(6);
  const maxOf = async (s: string) => Number(await cell(page, s, "100").getAttribute("data-raw")) / 1e6; // ns → ms
  const withMax = await Promise.all(markers.map(async (m) => ({ ...m, max: await maxOf(m.series) })));
  const highest = withMax.reduce((a, b) => (b.max > a.max ? b : a));
  expect(highest.label).toBe(`max ${Number(highest.max.toPrecision(4))} ms`);
  // The demo's three sysA maxes lie within a few pixels: only one label among them.
  expect(withMax.filter((m) => m.series.startsWith("sysA") && m.label).length).toBe(1);
  for (const m of withMax) {
    if (m.label) expect(m.label).toMatch(/^max [\d.]+ ms$/);
    // A marker without a label sits by a labelled one with a max at least as high.
    else expect(withMax.some((o) => o.label && o.max >= m.max && Math.abs(o.cy - m.cy) < 13)).toBe(true);
  }
});

test("heatmap slide: its words say what its colours say; in the dark theme one value per cell stays visible", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  const swatches = async () =>
    page
      .getByTestId("presentation")
      .locator("[data-testid=heatmap-legend] rect")
      .evaluateAll((rs) => rs.map((r) => r.getAttribute("fill")!.match(/\d+/g)!.map(Number)));
  const lum = ([r, g, b]: number[]) => {
    const f = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
  };
  for (const theme of ["light", "dark"]) {
    if (theme === "dark") await page.getByTestId("theme").check();
    await page.getByTestId("present").click();
    await slideTo(page, "present-heatmap");
    const slide = page.getByTestId("present-heatmap");
    await expect(slide).toBeVisible();
    await expect(slide.locator(".deck-sub")).toContainText("towards yellow, is more");
    await expect(slide).not.toContainText("Darker");
    const sw = await swatches();
    // The legend's swatches run from few (first, bottom) to more (last, top): the top is yellow, and brighter.
    const top = sw[sw.length - 1]!;
    expect(top[0]! > 200 && top[1]! > 200 && top[2]! < 120).toBe(true);
    expect(lum(top)).toBeGreaterThan(lum(sw[0]!));
    if (theme === "dark") {
      const bg = await page
        .getByTestId("presentation")
        .evaluate((e) => getComputedStyle(e).backgroundColor.match(/\d+/g)!.map(Number))
        .then((c) => c.slice(0, 3));
      const one = sw[0]!;
      const [hi, lo] = [lum(one), lum(bg)].sort((a, b) => b - a);
      expect((hi! + 0.05) / (lo! + 0.05)).toBeGreaterThanOrEqual(3);
      await expect(page.getByTestId("presentation").getByTestId("heatmap")).not.toHaveAttribute("data-colour-floor", "0");
    }
    await page.keyboard.press("Escape");
  }
});

test("Present with many series asks which pair; lanes past a readable number show the worst and name the rest; every slide fits 1024×768 and 390×844", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await openEmpty(page);
  const files = stallingLogs(14);
  await loadFiles(page, files);
  await expect(page.getByTestId("series")).toHaveCount(14);
  await page.getByTestId("present").click();
  // No comparison is open and the names say no pair: the page asks.
  const ask = page.getByTestId("present-pair");
  await expect(ask).toBeVisible();
  await expect(page.getByTestId("presentation")).toHaveCount(0);
  mkdirSync("screens", { recursive: true });
  await page.screenshot({ path: "screens/answer-pair-picker.png" });
  await ask.getByTestId("present-pair-baseline").selectOption("svc-03");
  await ask.getByTestId("present-pair-candidate").selectOption("svc-07");
  await ask.getByTestId("present-pair-go").click();
  await idle(page);
  const slide = page.getByTestId("slide");
  await expect(slide.getByTestId("headline")).toHaveAttribute("data-baseline", /.+/);
  await expect(slide.getByTestId("headline")).toContainText("svc-07");
  await expect(slide.getByTestId("headline")).toContainText("svc-03");

  // The max over time: the worst lanes, the pair among them, "and K more" for the rest.
  await slideTo(page, 2);
  await idle(page);
  const lanes = slide.locator("[data-testid=timeline] .y-axis");
  const shown = await lanes.count();
  expect(shown).toBeGreaterThanOrEqual(4);
  expect(shown).toBeLessThan(14);
  const more = slide.getByTestId("deck-more");
  await expect(more).toHaveAttribute("data-more", String(14 - shown));
  await expect(more).toContainText(`and ${14 - shown} more`);
  await page.screenshot({ path: "screens/answer-many-lanes.png" });
  // Series k's stall is (k + 1) × 15 ms: the ones left out are the lowest, the pair excepted.
  const named = (await more.getAttribute("title"))!.split(", ");
  expect(named).not.toContain("svc-03");
  expect(named).not.toContain("svc-07");
  const others = files.map((_, k) => `svc-${String(k + 1).padStart(2, "0")}`).filter((n) => n !== "svc-03" && n !== "svc-07");
  expect(new Set(named)).toEqual(new Set(others.slice(0, named.length)));
  await page.keyboard.press("Escape");

  for (const size of [
    { width: 1024, height: 768 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    for (const theme of ["light", "dark"]) {
      await page.getByTestId("theme").setChecked(theme === "dark");
      await page.getByTestId("present").click(); // the comparison is open now: no question
      await expect(page.getByTestId("presentation")).toBeVisible();
      const n = await eachSlide(page, async (s, i) => {
        expect(await overflow(s), `slide ${i} at ${size.width}×${size.height}, ${theme}`).toEqual([]);
      });
      expect(n).toBeGreaterThanOrEqual(4);
      await page.keyboard.press("Escape");
    }
  }
});

test("the demo deck fits 1024×768 and 390×844 on every slide, light and dark", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("./");
  await idle(page);
  for (const size of [
    { width: 1024, height: 768 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    for (const theme of ["light", "dark"]) {
      await page.getByTestId("theme").setChecked(theme === "dark");
      await page.getByTestId("present").click();
      const n = await eachSlide(page, async (s, i) => {
        expect(await overflow(s), `slide ${i} at ${size.width}×${size.height}, ${theme}`).toEqual([]);
      });
      expect(n).toBe(6);
      await page.keyboard.press("Escape");
    }
  }
});

test("the deck is a dialog that holds focus: Tab never reaches the page behind; focus returns on leaving", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  const present = page.getByTestId("present");
  await present.focus();
  await page.keyboard.press("Enter");
  const deck = page.getByTestId("presentation");
  await expect(deck).toHaveAttribute("role", "dialog");
  await expect(deck).toHaveAttribute("aria-modal", "true");
  for (let k = 0; k < 20; k++) {
    await page.keyboard.press("Tab");
    const where = await page.evaluate(() => {
      const a = document.activeElement;
      return { inDeck: !!a?.closest("[data-testid=presentation]"), body: a === document.body || a === null, id: a?.getAttribute("data-testid") ?? a?.tagName ?? "" };
    });
    // Focus is in the deck, or (past its last control) on the browser's own UI: never on the page behind.
    expect(where.inDeck || where.body, `Tab ${k + 1} reached ${where.id}`).toBe(true);
    expect(where.id).not.toBe("clear");
  }
  await page.keyboard.press("Escape");
  await expect(deck).toHaveCount(0);
  await expect(present).toBeFocused();
});

test("first view: a banner says it is the demo and names every format read, gone once the user loads anything", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto("./");
  await idle(page);
  const banner = page.getByTestId("demo-banner");
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("Demo: System A vs System B — drop your own logs anywhere");
  for (const f of [".hlog", ".hgrm", "wrk2", "JMeter", "Gatling", "k6", "Vegeta", "ghz", "Fortio", "siege", "CSV/TSV", "plain values"]) await expect(banner).toContainText(f);
  // No table column is cut off at 1024 px: the table fits its box, Count included.
  const wrap = page.locator(".table-wrap");
  await wrap.scrollIntoViewIfNeeded();
  const fit = await wrap.evaluate((w) => ({ sw: w.scrollWidth, cw: w.clientWidth, right: w.querySelector("thead th:last-child")!.getBoundingClientRect().right }));
  expect(fit.sw).toBeLessThanOrEqual(fit.cw);
  expect(fit.right).toBeLessThanOrEqual(1024);
  await expect(page.locator("[data-testid=percentile-table] thead th").last()).toHaveText("Count");

  await loadFiles(page, [values("mine.txt", [1, 2, 3, 4, 5])]);
  await expect(banner).toHaveCount(0);
  // Clear all: the drop hint names the same formats.
  await page.getByTestId("clear").click();
  await idle(page);
  await expect(banner).toHaveCount(0);
  const hint = page.locator(".drop-hint");
  for (const f of [".hlog", ".hgrm", "wrk2", "JMeter", "Gatling", "k6", "Vegeta", "ghz", "Fortio", "siege"]) await expect(hint).toContainText(f);
});

test("a link pasted into a tab already showing the page opens it", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  await page.getByTestId("unit-select").selectOption("us");
  await page.locator("[data-testid=series][data-name='sysA_2k.response']").click();
  await idle(page);
  await page.getByTestId("share-link").click();
  const url = await page.getByTestId("share-url").inputValue();
  const fragment = url.slice(url.indexOf("#"));
  // Back to the plain page (another view), then the link is pasted: only the fragment changes.
  await page.getByTestId("unit-select").selectOption("ms");
  await page.locator("[data-testid=series][data-name='sysA_2k.response']").click();
  await idle(page);
  await expect(page.getByTestId("unit-select")).toHaveValue("ms");
  await page.evaluate((f) => {
    window.location.hash = f;
  }, fragment);
  await page.waitForLoadState("load");
  await idle(page);
  await expect(page.getByTestId("unit-select")).toHaveValue("us");
  await expect(page.locator("[data-testid=series][data-name='sysA_2k.response']")).toHaveAttribute("data-visible", "false");
  await expect(page.getByTestId("demo-banner")).toHaveCount(0);
});

test("a link made on this machine warns, and is made for the address typed, kept across reloads", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  await page.getByTestId("share-link").click();
  await expect(page.getByTestId("share-url")).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/#/);
  await expect(page.getByTestId("share-warning")).toBeVisible();
  await expect(page.getByTestId("share-warning")).toContainText("127.0.0.1");

  await page.getByTestId("link-base").fill("https://perf.example.org/hdr-spectrum/");
  await page.getByTestId("share-link").click();
  // The link is made asynchronously: wait for the new one.
  await expect(page.getByTestId("share-url")).toHaveValue(/^https:\/\/perf\.example\.org\/hdr-spectrum\/#./);
  const url = await page.getByTestId("share-url").inputValue();
  await expect(page.getByTestId("share-warning")).toHaveCount(0);
  // The Markdown carries the same link.
  await page.getByTestId("copy-markdown").click();
  expect(await page.getByTestId("markdown-output").inputValue()).toContain(url);

  await page.reload();
  await idle(page);
  await expect(page.getByTestId("link-base")).toHaveValue("https://perf.example.org/hdr-spectrum/");
  await page.getByTestId("link-base").fill("not an address");
  await page.getByTestId("share-link").click();
  await expect(page.locator(".share-error")).toContainText("not an address");
});

test("screenshots: the demo and every slide, light and dark, 1400×900 and 390×844", async ({ page }) => {
  test.setTimeout(120_000);
  mkdirSync("screens", { recursive: true });
  await page.goto("./");
  await idle(page);
  for (const size of [
    { width: 1400, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    for (const theme of ["light", "dark"]) {
      await page.getByTestId("theme").setChecked(theme === "dark");
      await idle(page);
      const tag = `${size.width}x${size.height}-${theme}`;
      await page.screenshot({ path: `screens/answer-demo-${tag}.png` });
      await page.getByTestId("present").click();
      await eachSlide(page, async (_s, i) => {
        await page.screenshot({ path: `screens/answer-slide-${i}-${tag}.png` });
      });
      await page.keyboard.press("Escape");
    }
  }
});
