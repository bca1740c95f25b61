// Presentation mode: a deck for people who will not read a table. Full screen, large type, one
// idea per slide (deck-slides.tsx), stepped with the arrow keys; Escape leaves. The deck prints
// to a PDF one slide a page (all slides are laid out at the page's size while printing), and
// each slide saves as a PNG.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { flushSync } from "react-dom";
import { DetailsSlide, HeadlineSlide, HeatmapSlide, slideKinds, SpectraSlide, SustainableSlide, TimelineSlide, type DeckData, type SlideKind } from "./deck-slides";
import { saveSlidePng } from "./slide-png";
import "./deck.css";

interface Props extends DeckData {
  onExit: () => void;
  /** Downloads the deck as a PowerPoint file. */
  onPptx?: () => void;
}

/** A4 landscape at 96 px to the inch, the printed page a slide fills. */
export const PRINT_PAGE = { w: 1122, h: 793 };
const PRINT_PAD = { x: 40, y: 28 };

function SlideBody({ kind, d }: { kind: SlideKind; d: DeckData }) {
  switch (kind) {
    case "headline":
      return <HeadlineSlide d={d} />;
    case "spectra":
      return <SpectraSlide d={d} />;
    case "timeline":
      return <TimelineSlide d={d} />;
    case "heatmap":
      return <HeatmapSlide d={d} />;
    case "sustainable":
      return <SustainableSlide d={d} />;
    default:
      return <DetailsSlide d={d} />;
  }
}

/** Text a little smaller, step by step, until the slide holds it (a long name, a phone). */
function fitText(el: HTMLElement) {
  let scale = 1;
  el.style.setProperty("--deck-scale", "1");
  while (scale > 0.45 && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)) {
    scale = Math.round((scale - 0.05) * 100) / 100;
    el.style.setProperty("--deck-scale", String(scale));
  }
}

/**
 * While the deck is open nothing behind it can be reached (Tab, a screen reader's cursor): the
 * page's other parts are made inert; focus goes back where it was when the deck closes.
 */
function useModal(dialog: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const behind = Array.from(el.parentElement?.children ?? []).filter((c): c is HTMLElement => c !== el && c instanceof HTMLElement && !c.inert);
    for (const c of behind) c.inert = true;
    el.focus();
    return () => {
      for (const c of behind) c.inert = false;
      before?.focus();
    };
  }, [dialog]);
}

export function Presentation(p: Props) {
  const [slide, setSlide] = useState(0);
  const [size, setSize] = useState({ w: window.innerWidth, h: window.innerHeight });
  /** Every slide laid out at the printed page's size (printing, or about to). */
  const [printing, setPrinting] = useState(false);
  const [pngError, setPngError] = useState<string | null>(null);
  const slideRef = useRef<HTMLDivElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const slides = slideKinds(p);
  const n = slides.length;
  const { onExit } = p;
  useModal(dialogRef);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onExit();
      else if (e.key === "ArrowRight" || e.key === "PageDown" || (e.key === " " && !(e.target instanceof HTMLButtonElement))) setSlide((s) => Math.min(n - 1, s + 1));
      else if (e.key === "ArrowLeft" || e.key === "PageUp") setSlide((s) => Math.max(0, s - 1));
      else return;
      e.preventDefault();
    };
    const onResize = () => setSize({ w: window.innerWidth, h: window.innerHeight });
    // Ctrl+P prints the whole deck too: lay it out before the browser takes the page.
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(false);
    window.addEventListener("keydown", onKey);
    window.addEventListener("resize", onResize);
    window.addEventListener("beforeprint", before);
    window.addEventListener("afterprint", after);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("resize", onResize);
      window.removeEventListener("beforeprint", before);
      window.removeEventListener("afterprint", after);
    };
  }, [n, onExit]);

  useEffect(() => {
    document.documentElement.requestFullscreen?.().catch(() => undefined);
    return () => {
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    };
  }, []);

  const printPdf = useCallback(() => {
    setPrinting(true);
    // The charts draw after layout (canvases when idle, off screen): give them a moment.
    window.setTimeout(() => window.print(), 800);
  }, []);

  const current = Math.min(slide, n - 1);
  // Charts take the room the words leave (deck-slides.tsx Fill); the words shrink when even they do not fit.
  useLayoutEffect(() => {
    const el = dialogRef.current;
    if (!el) return;
    for (const s of el.querySelectorAll<HTMLElement>("[data-testid=slide]")) fitText(s);
  }, [current, size, printing]);
  const savePng = useCallback(() => {
    if (!slideRef.current) return;
    setPngError(null);
    saveSlidePng(slideRef.current, `slide-${current + 1}-${slides[current]}`).catch((e: unknown) => setPngError(e instanceof Error ? e.message : String(e)));
  }, [current, slides]);

  if (printing) {
    return (
      <div
        ref={dialogRef}
        tabIndex={-1}
        className="presentation printing"
        data-testid="presentation"
        data-printing="true"
        role="dialog"
        aria-modal="true"
        aria-label="Presentation, all slides"
      >
        <div className="deck-print-bar">
          All {n} slides, one a page.{" "}
          <button type="button" onClick={() => setPrinting(false)} data-testid="present-print-done">
            Back to the slides
          </button>
        </div>
        {slides.map((k, i) => (
          <section
            key={k}
            className={`slide slide-${k}`}
            data-testid="slide"
            data-slide={String(i)}
            style={{ width: PRINT_PAGE.w, height: PRINT_PAGE.h, padding: `${PRINT_PAD.y}px ${PRINT_PAD.x}px` }}
          >
            <SlideBody kind={k} d={p} />
          </section>
        ))}
      </div>
    );
  }

  return (
    <div ref={dialogRef} tabIndex={-1} className="presentation" data-testid="presentation" data-slide={String(current)} role="dialog" aria-modal="true" aria-label="Presentation">
      <section ref={slideRef} className={`slide slide-${slides[current]}`} data-testid="slide" data-slide={String(current)}>
        <SlideBody kind={slides[current]!} d={p} />
      </section>
      <footer className="presentation-footer">
        <span>
          {current + 1} / {n}
        </span>
        <span className="deck-keys">← → to step, Esc to leave</span>
        <span className="deck-actions">
          {pngError ? <span className="compare-error">{pngError}</span> : null}
          <button type="button" onClick={() => setSlide((s) => Math.max(0, s - 1))} disabled={current === 0} data-testid="present-prev" aria-label="Previous slide">
            ←
          </button>
          <button type="button" onClick={() => setSlide((s) => Math.min(n - 1, s + 1))} disabled={current === n - 1} data-testid="present-next" aria-label="Next slide">
            →
          </button>
          <button type="button" onClick={savePng} data-testid="present-png" title="Save this slide as a PNG image">
            Slide as PNG
          </button>
          {p.onPptx ? (
            <button type="button" onClick={p.onPptx} data-testid="download-pptx" title="Download the deck as a PowerPoint file (.pptx)">
              Download PowerPoint
            </button>
          ) : null}
          <button type="button" onClick={printPdf} data-testid="present-pdf" title="Print the deck, or save it as a PDF: one slide a page">
            Print / PDF
          </button>
          <button type="button" onClick={p.onExit} data-testid="present-exit">
            Leave
          </button>
        </span>
      </footer>
    </div>
  );
}
