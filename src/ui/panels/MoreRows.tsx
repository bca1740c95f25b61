// The end of a long list that shows its first rows only (use-in-slices.ts, useRowsShown): says
// how many are shown of how many, shows more as it scrolls into view, or all at once.
import { useEffect, useRef } from "react";
import { formatCount } from "../../core/format";

interface Props {
  shown: number;
  total: number;
  /** "series-more" or "table-more". */
  moreHook: "series-more" | "table-more";
  onMore: () => void;
  onAll: () => void;
}

export function MoreRows({ shown, total, moreHook, onMore, onAll }: Props) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    // Within a screen's height of the end: the next rows are drawn before they are reached.
    const io = new IntersectionObserver((es) => es.some((e) => e.isIntersecting) && onMore(), { rootMargin: "100% 0px" });
    io.observe(el);
    return () => io.disconnect();
  }, [onMore, shown]);
  if (shown >= total) return null;
  return (
    <p ref={ref} className="more-rows" data-testid={moreHook} data-shown={String(shown)} data-total={String(total)}>
      {`The first ${formatCount(shown)} of ${formatCount(total)} series; more as you scroll. `}
      <button type="button" onClick={onAll}>
        Show all {formatCount(total)}
      </button>
    </p>
  );
}
