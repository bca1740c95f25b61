// Usage text of `history` and of `check --history`.
export const HISTORY_HELP = `Usage: hdr-spectrum history [--json] [--require R] DIR…

A history is a directory whose subdirectories are runs (each holds that run's files; name the
files the same in every run, so a series keeps its name), or a list of run directories. Runs
are ordered by their earliest StartTime, ties and runs without one by name.

For every series (by name) and every percentile from p50 to p99.99, finds where the history
changed: a step beyond the margin (±5 %) between a stable stretch of runs and the next, with
each run weighted by its own bootstrap interval and the scatter between runs. Prints, per
series, each change (the run where it starts, the values before and after, the ratio with
its 95 % interval) and the percentiles that stayed steady. With --json, the JSON (version 1):
{"runs": [{"id", "start", "series": [{"name", "count", "percentiles"}]}], "changes": [...]}.

Each run's summary is kept in DIR/RUN/.hdr-spectrum-cache.json and used again while the run's
files are unchanged (names, sizes, modification times, first and last kilobyte).

To judge a new run against the history in CI: hdr-spectrum check --history DIR FILES…

Options:
  --require R        also judge each run against the requirement (at p50 … p99.999, max)
  --unit U           unit of the text output: ns, us, ms (default), s
  --json             print the JSON instead of text
  --out DIR          also write DIR/history.md (Markdown for a review comment or a CI summary)
                     and DIR/history-<series>.svg (the chart of each series across runs)
  --link-base URL    where the page is hosted: history.md links to URL#history=… (the runs'
                     summaries as numbers; the page draws the same history from them)
  --workers N        read on N threads in all (default: one per core, at most 4); only a
                     speed setting: the output is the same for every N
  --no-workers       read on this thread only (as --workers 1)
  -h, --help         this text
`;
