// Presentation mode: a deck for people who will not read a table. Full screen, large type, one
// idea per slide (deck-slides.tsx), stepped with the arrow keys; Escape leaves. The deck prints
// to a PDF one slide a page (all slides are laid out at the page's size while printing), and
// each slide saves as a PNG.
import { useCallback, useEffect, useRef, useState } from "react";
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

function SlideBody({ kind, d, size }: { kind: SlideKind; d: DeckData; size: { w: number; h: number } }) {
  switch (kind) {
    case "headline":
      return <HeadlineSlide d={d} />;
    case "spectra":
      return <SpectraSlide d={d} size={size} />;
    case "timeline":
      return <TimelineSlide d={d} size={size} />;
    case "heatmap":
      return <HeatmapSlide d={d} size={size} />;
    case "sustainable":
      return <SustainableSlide d={d} size={size} />;
    default:
      return <DetailsSlide d={d} size={size} />;
  }
}

export function Presentation(p: Props) {
  const [slide, setSlide] = useState(0);
  const [size, setSize] = useState({ w: window.innerWidth, h: window.innerHeight });
  /** Every slide laid out at the printed page's size (printing, or about to). */
  const [printing, setPrinting] = useState(false);
  const [pngError, setPngError] = useState<string | null>(null);
  const slideRef = useRef<HTMLDivElement>(null);
  const slides = slideKinds(p);
  const n = slides.length;
  const { onExit } = p;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onExit();
      else if (e.key === "ArrowRight" || e.key === "PageDown" || e.key === " ") setSlide((s) => Math.min(n - 1, s + 1));
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
  const savePng = useCallback(() => {
    if (!slideRef.current) return;
    setPngError(null);
    saveSlidePng(slideRef.current, `slide-${current + 1}-${slides[current]}`).catch((e: unknown) => setPngError(e instanceof Error ? e.message : String(e)));
  }, [current, slides]);

  if (printing) {
    const chart = { w: PRINT_PAGE.w - 2 * PRINT_PAD.x, h: PRINT_PAGE.h - 2 * PRINT_PAD.y - 90 };
    return (
      <div className="presentation printing" data-testid="presentation" data-printing="true" role="dialog" aria-modal="true" aria-label="Presentation, all slides">
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
            <SlideBody kind={k} d={p} size={chart} />
          </section>
        ))}
      </div>
    );
  }

  const chart = { w: Math.max(400, size.w - 96), h: Math.max(300, size.h - 150) };
  return (
    <div className="presentation" data-testid="presentation" data-slide={String(current)} role="dialog" aria-modal="true" aria-label="Presentation">
      <section ref={slideRef} className={`slide slide-${slides[current]}`} data-testid="slide" data-slide={String(current)}>
        <SlideBody kind={slides[current]!} d={p} size={chart} />
      </section>
      <footer className="presentation-footer">
        <span>
          {current + 1} / {n}
        </span>
        <span>← → to step, Esc to leave</span>
        <span className="deck-actions">
          {pngError ? <span className="compare-error">{pngError}</span> : null}
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
