// The page's theme as the charts that paint canvases need it: they cannot take colours from
// the style sheet, so they re-paint when the root's data-theme changes.
import { useEffect, useState } from "react";

const isDark = () => typeof document !== "undefined" && document.documentElement.dataset.theme === "dark";

export function useDarkTheme(): boolean {
  const [dark, setDark] = useState(isDark);
  useEffect(() => {
    const o = new MutationObserver(() => setDark(isDark()));
    o.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    setDark(isDark());
    return () => o.disconnect();
  }, []);
  return dark;
}
