// Exports a chart exactly as drawn: the SVG with the page's chart styles inlined (so it looks
// the same in a slide or another browser), or a PNG rendered from it at 2× for slides.
import { downloadBlob, downloadPng, pageCanvas } from "./download";

/** The chart rules of the page's style sheets, so the exported SVG carries its own look. */
function chartCss(): string {
  const out: string[] = [];
  for (const sheet of Array.from(document.styleSheets)) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // a cross-origin sheet: not ours
    }
    for (const r of Array.from(rules)) {
      if (r instanceof CSSStyleRule && /\.(plot|timeline-overlay)\b/.test(r.selectorText)) out.push(r.cssText);
    }
  }
  const root = getComputedStyle(document.documentElement);
  const vars = ["--fg", "--muted", "--bg", "--line", "--accent", "--danger"].map((v) => `${v}: ${root.getPropertyValue(v)};`).join(" ");
  return `svg { ${vars} font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; } ${out.join("\n")}`;
}

export function svgText(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.removeAttribute("style");
  clone.querySelectorAll("[data-testid=plot-hover], [data-testid=timeline-hover]").forEach((n) => n.remove());
  const style = document.createElementNS("http://www.w3.org/2000/svg", "style");
  style.textContent = chartCss();
  clone.insertBefore(style, clone.firstChild);
  const bg = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  bg.setAttribute("width", "100%");
  bg.setAttribute("height", "100%");
  bg.setAttribute("fill", getComputedStyle(document.documentElement).getPropertyValue("--bg").trim() || "#fff");
  clone.insertBefore(bg, style.nextSibling);
  return new XMLSerializer().serializeToString(clone);
}

export function exportSvg(svg: SVGSVGElement, name: string): void {
  downloadBlob(`${name}.svg`, new Blob([svgText(svg)], { type: "image/svg+xml" }));
}

/** PNG at `scale`× of the SVG, with an optional canvas (the timeline's lines) drawn beneath it. */
export async function exportPng(svg: SVGSVGElement, name: string, under?: HTMLCanvasElement | null, scale = 2): Promise<void> {
  const w = Number(svg.getAttribute("width"));
  const h = Number(svg.getAttribute("height"));
  const { canvas, ctx } = pageCanvas(w, h, scale);
  if (under) ctx.drawImage(under, 0, 0, canvas.width, canvas.height);
  const text = svgText(svg).replace(/<rect width="100%" height="100%"[^>]*\/>/, under ? "" : "$&");
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    img.decoding = "sync";
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error("the chart could not be rendered to PNG"));
      img.src = url;
    });
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  } finally {
    URL.revokeObjectURL(url);
  }
  await downloadPng(name, canvas);
}

/**
 * The chart to export from a container: its one plot, or, when it holds several (side by side:
 * one plot per configuration), one SVG that places them as they stand on the page, so "System A
 * vs System B" goes onto a slide whole. Null when there is none.
 */
export function chartSvg(container: HTMLElement): SVGSVGElement | null {
  const plots = Array.from(container.querySelectorAll<SVGSVGElement>("svg.plot"));
  if (plots.length <= 1) return plots[0] ?? container.querySelector("svg");
  const rects = plots.map((p) => p.getBoundingClientRect());
  const left = Math.min(...rects.map((r) => r.left));
  const top = Math.min(...rects.map((r) => r.top));
  const width = Math.ceil(Math.max(...rects.map((r) => r.right)) - left);
  const height = Math.ceil(Math.max(...rects.map((r) => r.bottom)) - top);
  const ns = "http://www.w3.org/2000/svg";
  const all = document.createElementNS(ns, "svg");
  all.setAttribute("width", String(width));
  all.setAttribute("height", String(height));
  all.setAttribute("viewBox", `0 0 ${width} ${height}`);
  all.setAttribute("class", "plot");
  plots.forEach((p, i) => {
    const c = p.cloneNode(true) as SVGSVGElement;
    c.setAttribute("x", String(Math.round(rects[i]!.left - left)));
    c.setAttribute("y", String(Math.round(rects[i]!.top - top)));
    all.appendChild(c);
  });
  return all;
}
