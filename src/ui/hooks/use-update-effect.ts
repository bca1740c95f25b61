import { useEffect, useRef, type DependencyList } from "react";

/** useEffect that skips the first render: for "re-query when this changes" effects. */
export function useUpdateEffect(effect: () => void, deps: DependencyList): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    effect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}
