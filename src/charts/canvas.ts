/**
 * The canvas' 2D context at the device's pixel ratio, sized to width × height CSS px and
 * cleared. Assigning a size, even the same one, throws the canvas' backing store away and
 * makes a new one: only on a real resize; clearRect empties it otherwise.
 */
export function clearedContext(canvas: HTMLCanvasElement, width: number, height: number): CanvasRenderingContext2D | null {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.round(width * dpr);
  const h = Math.round(height * dpr);
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}
