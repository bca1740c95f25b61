// A share link reopens exactly what its author's page showed: every hook's attributes and text
// are read on the author's page, the link is opened in a new browser context (the data comes
// from the fragment alone), they are read again, and no difference is allowed. The hooks are a
// list of selectors, so a hook added later (the comparison's headline) is covered as soon as
// it exists on the page.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { simulateQueue } from "../tests/support/queue-sim";
import { writeHlog } from "../tests/support/hlog-fixture";
import { idle, loadFiles, openEmpty } from "./helpers";

/**
 * Every hook whose numbers or words a reader of the link relies on (../shared/CONTRACT.md).
 * A series row's own text is left out (it says how many intervals the log held, which a link
 * does not carry); its verdict's text is in.
 */
const HOOKS: { sel: string; text: boolean }[] = [
  { sel: "[data-testid=series]", text: false },
  { sel: "[data-testid=series-verdict]", text: true },
  { sel: "[data-testid=percentile-table] td[data-series]", text: true },
  { sel: "[data-testid=verdict-sentence]", text: true },
  { sel: "[data-testid=sustainable]", text: true },
  { sel: "[data-testid=warning]", text: true },
  { sel: "[data-testid=headline]", text: true },
  { sel: "[data-testid=ratio-point]", text: true },
  { sel: "[data-testid=ratio-max]", text: true },
  { sel: "[data-testid=compare-sentence]", text: true },
  { sel: "[data-testid=compare-warning]", text: true },
  { sel: "[data-testid=window-verdict]", text: true },
  { sel: "[data-testid=tail-summary]", text: true },
  { sel: "[data-testid=compare-baseline]", text: false },
  { sel: "[data-testid=compare-candidate]", text: false },
  { sel: "[data-testid=compare-margin]", text: false },
  { sel: "[data-testid=compare-repeats]", text: false },
  { sel: "[data-testid=requirement-input]", text: false },
  { sel: "[data-testid=unit-select]", text: false },
];
/** Attributes that name things inside one page (engine ids), not what it shows. */
const PAGE_LOCAL = new Set(["data-busy", "data-id"]);

type Snapshot = Record<string, string[]>;

/** Each hook's elements: their data-* attributes, value (fields), checked state and text. */
async function snapshot(page: Page): Promise<Snapshot> {
  return page.evaluate(
    ({ hooks, local }) => {
      const out: Record<string, string[]> = {};
      for (const { sel, text } of hooks) {
        out[sel] = [...document.querySelectorAll(sel)].map((el) => {
          const attrs = [...el.attributes]
            .filter((a) => a.name.startsWith("data-") && !local.includes(a.name))
            .map((a) => `${a.name}=${JSON.stringify(a.value)}`)
            .sort();
          const field = el instanceof HTMLInputElement || el instanceof HTMLSelectElement ? [`value=${JSON.stringify(el.value)}`] : [];
          const checked = el instanceof HTMLInputElement && el.type === "checkbox" ? [`checked=${el.checked}`] : [];
          const words = text ? [`text=${JSON.stringify((el.textContent ?? "").replace(/\s+/g, " ").trim())}`] : [];
          return [...attrs, ...field, ...checked, ...words].join(" ");
        });
      }
      return out;
    },
    { hooks: HOOKS, local: [...PAGE_LOCAL] },
  );
}

/** Every difference between two snapshots, one line each (empty: the same page). */
function differences(a: Snapshot, b: Snapshot): string[] {
  const out: string[] = [];
  for (const { sel } of HOOKS) {
    const x = a[sel] ?? [];
    const y = b[sel] ?? [];
    if (x.length !== y.length) out.push(`${sel}: ${x.length} on the author's page, ${y.length} from the link`);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) out.push(`${sel} #${i}:\n  author: ${x[i]}\n  link:   ${y[i]}`);
  }
  return out;
}

/** The Markdown summary without its link line (the opened page has made no link). */
async function markdown(page: Page): Promise<string> {
  await page.getByTestId("copy-markdown").click();
  const md = await page.getByTestId("markdown-output").inputValue();
  return md
    .split("\n")
    .filter((l) => !l.includes("#s="))
    .join("\n");
}

async function openLink(browser: Browser, url: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(url.replace(/^https?:\/\/[^/]+\//, `http://127.0.0.1:${process.env.E2E_PORT || 4173}/`));
  await idle(page);
  await expect(page.getByTestId("compare-sentence")).toBeVisible();
  await idle(page);
  return { page, close: () => ctx.close() };
}

async function makeLink(page: Page): Promise<string> {
  await page.getByTestId("share-link").click();
  const url = await page.getByTestId("share-url").inputValue();
  expect(url).toContain("#s=5.");
  return url;
}

async function apply(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).fill(text);
  await page.getByTestId(testId).press("Enter");
  await page.waitForTimeout(50);
  await idle(page);
}

async function roundTrip(page: Page, browser: Browser, name: string, mustHave: string[]): Promise<void> {
  const before = await snapshot(page);
  for (const sel of mustHave) expect(before[sel]!.length, `${sel} on the author's page`).toBeGreaterThan(0);
  const mdBefore = await markdown(page);
  const url = await makeLink(page);
  console.log(`${name}: link ${url.length} characters`);
  const opened = await openLink(browser, url);
  const after = await snapshot(opened.page);
  expect(differences(before, after)).toEqual([]);
  expect(await markdown(opened.page)).toBe(mdBefore);
  // Nothing on screen was computed from the link's data: no line says so.
  await expect(opened.page.getByTestId("link-basis")).toHaveCount(0);
  await expect(opened.page.getByTestId("compare-basis")).toHaveCount(0);
  await opened.page.screenshot({ path: `screens/share-faithful-${name}.png`, fullPage: true });
  await opened.close();
}

test("the demo's link reopens every number, verdict and ratio of its author's page, digit for digit", async ({ page, browser }) => {
  await page.goto("./");
  await idle(page);
  await page.getByTestId("compare-open").click();
  await idle(page);
  await expect(page.getByTestId("compare-sentence")).toBeVisible();
  await roundTrip(page, browser, "demo", [
    "[data-testid=series]",
    "[data-testid=percentile-table] td[data-series]",
    "[data-testid=sustainable]",
    "[data-testid=ratio-point]",
    "[data-testid=compare-sentence]",
  ]);

  // The sweep over common throughputs is a new question on the opened page: computed from the
  // link's data, and said so.
  const opened = await openLink(browser, await makeLink(page));
  await opened.page.getByTestId("compare-sweep").click();
  await opened.page.waitForTimeout(50);
  await idle(opened.page);
  await expect(opened.page.getByTestId("compare-sweep-row")).toHaveCount(3);
  await expect(opened.page.getByTestId("sweep-basis")).toBeVisible();
  await expect(opened.page.getByTestId("compare-basis")).toHaveCount(0);
  await opened.close();
});

test("a two-log comparison with a requirement, windows, a tail threshold and a time window reopens digit for digit; a new question says what it rests on", async ({
  page,
  browser,
}) => {
  const dir = mkdtempSync(join(tmpdir(), "share-faithful-"));
  const base = join(dir, "base_3k.hlog");
  const cand = join(dir, "cand_3k.hlog");
  writeFileSync(base, writeHlog(simulateQueue({ rate: 3000, seconds: 90, medianServiceSec: 250e-6, sigma: 0.5, stalls: [{ at: 41.2, duration: 0.8 }], seed: 11 })));
  writeFileSync(cand, writeHlog(simulateQueue({ rate: 3000, seconds: 60, medianServiceSec: 240e-6, sigma: 0.55, stalls: [{ at: 20.5, duration: 0.3 }], seed: 12 })));
  await openEmpty(page);
  await loadFiles(page, [base, cand]);
  await page.getByTestId("unit-select").selectOption("us");
  await apply(page, "requirement-input", "p50<=1ms, p99<=5ms, p99.9<=50ms, max<=400ms");
  await apply(page, "window-length", "10s");
  await apply(page, "tail-threshold", ">20ms");
  // A CO correction: each series' corrected copy joins the table and the verdicts.
  await apply(page, "co-interval", "1ms");
  await expect(page.locator("[data-testid=series][data-corrected=true]")).toHaveCount(2);
  // A time window: the link carries the window's histograms and the answers computed on it.
  await page.getByTestId("range-start").fill("5");
  await apply(page, "range-end", "55");
  await page.getByTestId("compare-open").click();
  await idle(page);
  await page.getByTestId("compare-baseline").selectOption("base_3k");
  await page.getByTestId("compare-candidate").selectOption("cand_3k");
  await page.getByTestId("compare-margin").fill("10");
  await page.waitForTimeout(50);
  await idle(page);
  await expect(page.getByTestId("compare-sentence")).toBeVisible();
  await roundTrip(page, browser, "two-logs", [
    "[data-testid=percentile-table] td[data-series]",
    "[data-testid=ratio-point]",
    "[data-testid=window-verdict]",
    "[data-testid=tail-summary]",
  ]);

  // A question the author's page did not answer is computed from the link's data, and says so.
  const url = await makeLink(page);
  const opened = await openLink(browser, url);
  const p2 = opened.page;
  await p2.getByTestId("compare-swap").click();
  await p2.waitForTimeout(50);
  await idle(p2);
  await expect(p2.getByTestId("compare-basis")).toContainText("Computed here from the link's rounded histograms");
  await p2.getByTestId("compare").screenshot({ path: "screens/share-compare-basis.png" });
  for (const v of await p2.locator("[data-testid=ratio-point]").evaluateAll((els) => els.map((e) => e.getAttribute("data-verdict"))))
    expect(v, "no verdict from counts resampled without their intervals").toBe("unknown");
  // Back to the author's pair: the author's answer again.
  await p2.getByTestId("compare-swap").click();
  await p2.waitForTimeout(50);
  await idle(p2);
  await expect(p2.getByTestId("compare-basis")).toHaveCount(0);
  // A requirement at a percentile the author's page did not read is computed here, and says so.
  await apply(p2, "requirement-input", "p95<=1ms");
  await expect(p2.getByTestId("link-basis")).toContainText("the requirement at p95 computed here from the link's histograms");
  await p2.getByTestId("link-basis").screenshot({ path: "screens/share-link-basis.png" });
  await opened.close();
});
