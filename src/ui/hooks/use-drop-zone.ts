import { useState, type DragEvent } from "react";

/** Files or text dropped anywhere on the element; `dragging` while something is held over it. */
export function useDropZone(onFiles: (f: File[]) => void, onText: (t: string) => void) {
  const [dragging, setDragging] = useState(false);
  return {
    dragging,
    handlers: {
      onDragOver: (e: DragEvent) => {
        e.preventDefault();
        setDragging(true);
      },
      onDragLeave: (e: DragEvent) => {
        if (e.currentTarget === e.target) setDragging(false);
      },
      onDrop: (e: DragEvent) => {
        e.preventDefault();
        setDragging(false);
        const files = Array.from(e.dataTransfer.files);
        if (files.length > 0) onFiles(files);
        else onText(e.dataTransfer.getData("text/plain"));
      },
    },
  };
}
