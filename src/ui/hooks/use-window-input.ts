import { useEffect, useRef } from "react";

function inField(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
}

/**
 * Page-wide input outside form fields (which handle their own): Escape, and paste of files or
 * text anywhere on the page.
 */
export function useWindowInput(h: { onEscape: () => void; onPasteFiles: (f: File[]) => void; onPasteText: (t: string) => void }): void {
  const ref = useRef(h);
  ref.current = h;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !inField(e.target)) ref.current.onEscape();
    };
    const onPaste = (e: ClipboardEvent) => {
      if (inField(e.target)) return;
      const files = Array.from(e.clipboardData?.files ?? []);
      if (files.length > 0) {
        e.preventDefault();
        ref.current.onPasteFiles(files);
        return;
      }
      const text = e.clipboardData?.getData("text/plain") ?? "";
      if (text.trim()) {
        e.preventDefault();
        ref.current.onPasteText(text);
      }
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("paste", onPaste);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("paste", onPaste);
    };
  }, []);
}
