import type { Plugin } from "vite";
/** The edited source, or null when nothing was edited. `browser`: all three edits, else the formatter's only. */
export function editLibrary(code: string, browser: boolean): string | null;
/** The edits as a Vite/Rolldown plugin. */
export function libraryEdits(options: { browser: boolean }): Plugin;
