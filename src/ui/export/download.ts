/** Saves a blob as a file through a real download (an object URL on a temporary link). */
export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name.replace(/[\\/:*?"<>|]+/g, "_");
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(name: string, text: string, type = "text/plain"): void {
  downloadBlob(name, new Blob([text], { type }));
}

/** A canvas of `width`×`height` at `scale`× filled with the page's background: a PNG has no page behind it. */
export function pageCanvas(width: number, height: number, scale: number): { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D } {
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext("2d")!;
  ctx.fillStyle = getComputedStyle(document.documentElement).getPropertyValue("--bg").trim() || "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  return { canvas, ctx };
}

/** Saves the canvas as `name`.png; false when the browser could not encode it. */
export async function downloadPng(name: string, canvas: HTMLCanvasElement): Promise<boolean> {
  const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, "image/png"));
  if (blob) downloadBlob(`${name}.png`, blob);
  return blob !== null;
}
