// The table rows of the Markdown summary: the pure code is in core/judge.ts (the command line uses it too).
export { markdownRows } from "../../core/judge";
