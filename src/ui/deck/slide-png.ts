// A slide as a PNG, as it stands on screen: its HTML (text, SVG charts, canvases turned into
// images) with the page's style sheets, drawn through an SVG foreignObject onto a canvas at 2×.
import { downloadPng, pageCanvas } from "../export/download";

function pageCss(): string {
  const out: string[] = [];
  for (const sheet of Array.from(document.styleSheets)) {
    try {
      for (const r of Array.from(sheet.cssRules)) out.push(r.cssText);
    } catch {
      // A cross-origin sheet: not ours.
    }
  }
  return out.join("\n");
}

/** The slide as an SVG document holding its HTML. */
export function slideSvg(el: HTMLElement): { svg: string; width: number; height: number } {
  // A margin around the slide, as on the screen.
  const pad = 24;
  const width = Math.ceil(el.offsetWidth) + 2 * pad;
  const height = Math.ceil(el.offsetHeight) + 2 * pad;
  const clone = el.cloneNode(true) as HTMLElement;
  const src = el.querySelectorAll("canvas");
  clone.querySelectorAll("canvas").forEach((c, i) => {
    const from = src[i]!;
    const img = document.createElement("img");
    img.src = from.toDataURL("image/png");
    img.setAttribute("style", from.getAttribute("style") ?? "");
    img.style.width = `${from.offsetWidth}px`;
    img.style.height = `${from.offsetHeight}px`;
    img.className = from.className;
    c.replaceWith(img);
  });
  const theme = document.documentElement.dataset.theme ?? "light";
  const body = new XMLSerializer().serializeToString(clone);
  const css = pageCss().replace(/<\/style/gi, "<\\/style");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<foreignObject x="0" y="0" width="${width}" height="${height}">` +
    `<div xmlns="http://www.w3.org/1999/xhtml" data-theme="${theme}" class="presentation slide-png" style="position: static; width: ${width}px; height: ${height}px; padding: ${pad}px; overflow: hidden;">` +
    `<style>${css.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</style>${body}</div></foreignObject></svg>`;
  return { svg, width, height };
}

export async function saveSlidePng(el: HTMLElement, name: string, scale = 2): Promise<void> {
  const { svg, width, height } = slideSvg(el);
  const img = new Image();
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error("the slide could not be rendered"));
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
  const { canvas, ctx } = pageCanvas(width, height, scale);
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  if (!(await downloadPng(name, canvas))) throw new Error("the slide could not be rendered");
}
