import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { simulateQueue } from "../tests/support/queue-sim";
import { writeHlog } from "../tests/support/hlog-fixture";
import { idle, loadFiles, openEmpty } from "./helpers";

/** Collects CSP violations and page errors; a script injection that ran sets window.__pwned. */
async function watch(page: Page) {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __csp: string[] }).__csp ??= [];
      (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return problems;
}

const INJECTIONS = [
  `<img src=x onerror="window.__pwned=1">`,
  `"><script>window.__pwned=2</script>`,
  `<svg onload="window.__pwned=3">`,
  `javascript:window.__pwned=4`,
  `{{constructor.constructor('window.__pwned=5')()}}`,
  `</text><foreignObject><div onmouseover="window.__pwned=6">x</div></foreignObject>`,
];

test("the production page sends a CSP without unsafe-eval or inline scripts, and works under it", async ({ page }) => {
  const problems = await watch(page);
  await page.goto("./");
  await idle(page);
  const csp = await page.locator("meta[http-equiv=Content-Security-Policy]").getAttribute("content");
  expect(csp).toContain("script-src 'self'");
  // JavaScript eval stays refused; 'wasm-unsafe-eval' only lets the payload kernel (src/wasm) compile.
  expect(csp).not.toContain("'unsafe-eval'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  await expect(page.getByTestId("series")).toHaveCount(6);
  // Exercise the worker (hdr-histogram-js), a PNG export (blob: image) and a share link.
  const dl = page.waitForEvent("download");
  await page.locator(".chart-actions").first().getByTestId("export-png").click();
  await dl;
  await page.getByTestId("share-link").click();
  await expect(page.getByTestId("share-url")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).toEqual([]);
  expect(problems).toEqual([]);
});

test("names, tags and labels from files are text, never markup: no injected script runs", async ({ page }) => {
  const problems = await watch(page);
  await openEmpty(page);
  const dir = mkdtempSync(join(tmpdir(), "hdr-xss-"));
  const files: string[] = [];
  INJECTIONS.forEach((inj, i) => {
    // As a tag inside a log, and as a file name (where the file system allows the characters).
    const log = writeHlog(simulateQueue({ rate: 200, seconds: 3, medianServiceSec: 1e-4, sigma: 0.5, stalls: [], seed: i }), { tag: inj.replace(/[\s,]/g, "_") });
    const safeName = `x${i}_${inj.replace(/[/\\\0]/g, "_").slice(0, 60)}.hlog`;
    const p = join(dir, safeName);
    writeFileSync(p, log);
    files.push(p);
  });
  // A JMeter file whose labels are the injections.
  const jtl = [
    "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success",
    ...INJECTIONS.map((inj, i) => `${1700000000000 + i},${10 + i},"${inj.replace(/"/g, '""')}",200,OK,t,text,true`),
  ].join("\n");
  writeFileSync(join(dir, "labels.jtl"), jtl);
  files.push(join(dir, "labels.jtl"));
  await loadFiles(page, files);
  await expect(page.getByTestId("series")).toHaveCount(INJECTIONS.length * 2);
  // Hover, legend, table, Markdown and the presentation all render the names.
  const box = (await page.getByTestId("percentile-plot").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.getByTestId("copy-markdown").click();
  await page.getByTestId("present").click();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Escape");
  // The names are shown as text.
  await expect(page.locator("[data-testid=series]").filter({ hasText: "<img src=x" }).first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(problems.filter((p) => !p.includes("favicon"))).toEqual([]);
});

test("a share link carrying injections renders them as text", async ({ page, browser }) => {
  await openEmpty(page);
  const dir = mkdtempSync(join(tmpdir(), "hdr-xss-"));
  const p = join(dir, "run.hlog");
  writeFileSync(p, writeHlog(simulateQueue({ rate: 200, seconds: 3, medianServiceSec: 1e-4, sigma: 0.5, stalls: [], seed: 1 }), { tag: INJECTIONS[0]!.replace(/[\s,]/g, "_") }));
  await loadFiles(page, [p]);
  await page.getByTestId("requirement-input").fill(`p99<=5ms`);
  await page.getByTestId("requirement-input").press("Enter");
  await page.getByTestId("share-link").click();
  const url = await page.getByTestId("share-url").inputValue();
  const other = await browser.newContext();
  const p2 = await other.newPage();
  const problems = await watch(p2);
  await p2.goto(url.replace(/^https?:\/\/[^/]+\//, `http://127.0.0.1:${process.env.E2E_PORT || 4173}/`));
  await idle(p2);
  await expect(p2.getByTestId("series")).toHaveCount(1);
  expect(await p2.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(problems).toEqual([]);
  await other.close();
});

/** A loopback server that records every request and answers `body` to anyone (CORS *). */
function recordingServer(body: string): Promise<{ origin: string; hits: string[]; close: () => void }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(200, { "Access-Control-Allow-Origin": "*", "Content-Type": "text/plain" });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits, close: () => server.close() })),
  );
}

test("only the host the user agreed to is reached: the page, its workers and the agreed host's frame cannot reach another", async ({ page }) => {
  const log = writeHlog(simulateQueue({ rate: 200, seconds: 3, medianServiceSec: 1e-4, sigma: 0.5, stalls: [], seed: 4 }));
  const agreed = await recordingServer(log);
  const other = await recordingServer("not for this page");
  // The refusals below are logged as violations, as they should be: only the report is read here.
  await watch(page);
  try {
    await page.goto("./#src=" + encodeURIComponent(`${agreed.origin}/run.hlog`));
    await idle(page);
    await page.getByTestId("src-consent-load").click();
    await page.waitForTimeout(50);
    await idle(page);
    // The agreed host is asked, through its frame, and its log loads.
    await expect(page.getByTestId("series")).toHaveCount(1);
    expect(agreed.hits).toEqual(["/run.hlog"]);
    const csp = (await page.locator("meta[http-equiv=Content-Security-Policy]").getAttribute("content")) ?? "";
    expect(csp).toMatch(/connect-src 'self'(;|$)/);

    const tryFetch = (url: string) =>
      fetch(url).then(
        () => "reached",
        () => "blocked",
      );
    const attempts: Record<string, string> = {};
    attempts.page = await page.evaluate(tryFetch, `${other.origin}/from-page`);
    // Every worker (the engine, its helpers): started from blob: addresses, they keep the page's policy.
    const workers = page.workers();
    expect(workers.length).toBeGreaterThan(0);
    for (const [i, w] of workers.entries()) attempts[`worker ${i}`] = await w.evaluate(tryFetch, `${other.origin}/from-worker-${i}`);
    // The agreed host's frame admits that host alone.
    const frame = page.frames().find((f) => f.url().includes("net.html"));
    expect(frame, "the request frame").toBeTruthy();
    attempts.frame = await frame!.evaluate(tryFetch, `${other.origin}/from-frame`);
    expect(await frame!.evaluate(tryFetch, `${agreed.origin}/again`)).toBe("reached");
    expect(
      Object.values(attempts).every((a) => a === "blocked"),
      JSON.stringify(attempts),
    ).toBe(true);
    expect(other.hits).toEqual([]);
    expect(agreed.hits).toEqual(["/run.hlog", "/again"]);
    // The page's own violation report names the host it refused.
    expect(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).toEqual(expect.arrayContaining([`connect-src ${other.origin}/from-page`]));
  } finally {
    agreed.close();
    other.close();
  }
});
