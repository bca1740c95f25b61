import { useCallback, useLayoutEffect, useRef } from "react";

/**
 * A callback whose identity never changes but which always calls the latest `f`: lets memoised
 * children (the series list, its rows) skip re-rendering when only the parent re-rendered.
 * Not for use during render (the latest `f` is installed after the commit).
 */
export function useStableCallback<A extends unknown[], R>(f: (...args: A) => R): (...args: A) => R {
  const ref = useRef(f);
  useLayoutEffect(() => {
    ref.current = f;
  });
  return useCallback((...args: A) => ref.current(...args), []);
}
