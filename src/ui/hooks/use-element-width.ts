import { useCallback, useState } from "react";

/** Width of an element, kept current with a ResizeObserver. */
export function useElementWidth<T extends HTMLElement>(): [(el: T | null) => void, number] {
  const [width, setWidth] = useState(900);
  const ref = useCallback((el: T | null) => {
    if (!el) return;
    const update = () => setWidth(Math.floor(el.getBoundingClientRect().width));
    update();
    new ResizeObserver(update).observe(el);
  }, []);
  return [ref, width];
}
