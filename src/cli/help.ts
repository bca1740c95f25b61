// Usage texts of the command line.
export const MAIN_HELP = `hdr-spectrum: judge latency logs, compare runs and write the review comment, headless.
The same readers, histograms, verdicts, Markdown and share links as the page.

Usage:
  hdr-spectrum report FILES… [options]     Markdown summary (or --json); charts and deck with --out
  hdr-spectrum check --require R FILES…    exit 0 if every series passes, 1 if one fails
  hdr-spectrum hgrm FILE [options]         HistogramLogProcessor's output, byte for byte
  hdr-spectrum history DIR…                where a history of runs changed, per percentile
  hdr-spectrum check --history DIR FILES…  exit 1 if the new run is worse than the history
  hdr-spectrum watch --require R FILES…    follow logs as they are written, the running verdict
  hdr-spectrum serve FILES… DIRS…          the page, with the files drawn live as they grow

FILES: interval logs (.hlog), .hgrm, wrk2 output, JMeter, Gatling, k6, Vegeta, ghz, Fortio,
siege, plain samples;
a directory stands for the files in it. With --prometheus URL --query Q, series from a
Prometheus-compatible API too (see report --help).
Exit codes: 0 done (check: all pass), 1 a requirement fails (check), 2 input or usage error.

Run "hdr-spectrum COMMAND --help" for a command's options.
`;

const COMMON = `  --require R        requirement, e.g. "p50<=1ms, p99<=5ms, p99.9<=10ms, max<=100ms"
                     (units ns us µs ms s; entries separated by commas or spaces)
  --start S          time window start, seconds since each log's StartTime
  --end E            time window end (HistogramLogProcessor's -start/-end: an interval counts
                     when its start lies in the window)
  --unit U           display unit of the Markdown and the charts: ns, us, ms (default), s
  --merge            merge the files into one series per configuration, throughput, kind and
                     tag (parsed from names, as the page does), in batches with bounded memory
  --json             print the JSON (version 1) instead of text
  --link-base URL    where the page is hosted: the Markdown links to URL#… (the same view;
                     with --compare it carries the computed comparison, so the opened page
                     shows the same headline, ratios, ranges and sentence)
  --allow-partial    a file's last line cut mid-write (a log still being written) is a note,
                     and the rest is judged; any other damaged line still stops the judgment
  --workers N        read on N threads in all (default: one per core, at most 4); only a
                     speed setting: the output is the same for every N
  --no-workers       read on this thread only (as --workers 1)
  -h, --help         this text
`;

const PROMETHEUS = `  --prometheus URL   also read series from a Prometheus-compatible API (the address before
                     /api/v1/): one series per result of --query, one interval per step
  --query Q          a native histogram (name, or sum/increase of it) or name_bucket of a
                     classic one; histogram_quantile and other plain numbers are refused
  --start S, --end E with --prometheus: the query's range, RFC 3339 or epoch seconds (what was
                     observed in (S, E]; the point at S is asked for as the baseline)
  --step STEP        a duration (15s, 1m) or seconds; default (E − S) / 500 rounded up
  --bearer-token-file F  send the token in F; or basic auth from URL's user:password, or from
                     HDR_SPECTRUM_PROMETHEUS_USER / HDR_SPECTRUM_PROMETHEUS_PASSWORD. Never
                     printed, and never in a link or the JSON
`;

export const REPORT_HELP = `Usage: hdr-spectrum report FILES… [options]

Prints what the page's "Copy Markdown" gives for these files: the table (p50 … max, count),
each series' verdict, the sentence with the sustainable throughput, and a link that opens the
same view in the page. With --json, the JSON of every series (values in the recorded unit, as
the page's table data-raw).

Options:
${COMMON}${PROMETHEUS}  --out DIR          also write DIR/percentile-plot.svg, DIR/max-over-time.svg, one .hgrm per
                     series (display unit), DIR/summary.md, DIR/report.json and DIR/deck.pptx
                     (the page's PowerPoint deck: slide 1 the answer, then the charts)
  --log-axis MODE    latency axis of the charts and the deck: auto (log where the values span
                     more than two decades; default), on or off
  --compare BASE     compare every other series with BASE (a series name, or a file, read too
                     when it is not among FILES): the ratio at every percentile with its 95 %
                     bootstrap range and a verdict, as the page's A vs B panel computes it
                     (margin ±5 %)
`;

export const CHECK_HELP = `Usage: hdr-spectrum check --require R [options] FILES…

Judges every series against the requirement, as the page does (response time where a
configuration has it), and with --compare every other series against the baseline. Prints one
line per series and the answer ("1 of 3 fails p99 ≤ 10 ms: …", or the throughput each
configuration sustains when throughputs are known). Needs --require, --compare or both.
Exit 0 when every judgment passes, 1 when one fails (a requirement, a series whose every
request failed, or a candidate worse than the baseline at any percentile the comparison
judges), 2 when input cannot be read (each problem
on stderr as FILE:LINE: reason) or the arguments are wrong. Notes (a line read whole but
odd, such as a timestamp far from the others) are printed the same way and do not stop the
judgment.
The comparison's verdicts are one family: over all judged percentiles together, a candidate
no different from the baseline fails at most 5 % of the time. Where the data cannot decide (a
side without intervals, a percentile resting on fewer than 10 separate stretches of time, a
longer run's tail), the percentile is not judged and a "not judged: …" line says why.

Options:
${COMMON}${PROMETHEUS}  --compare BASE     fail when another series is worse than BASE (a series name, or a file,
                     read too when it is not among FILES)
  --strict           with --compare: a percentile the data cannot judge fails the check too
  --history DIR      FILES are a new run: fail when it is worse, beyond the margin at any
                     percentile the data supports, than the latest stable stretch of the
                     history DIR (its last runs since the last change, at most 20, as
                     repeats); see hdr-spectrum history --help
  --out DIR          also write the charts and files "report --out" writes
`;

export const HGRM_HELP = `Usage: hdr-spectrum hgrm FILE [--tag T] [--start S --end E] [--ratio R]

Prints exactly what HdrHistogram's HistogramLogProcessor prints for
"-i FILE [-tag T] [-start S] [-end E] [-outputValueUnitRatio R]": the "#[StartTime: …]" line
and the percentile distribution of the log's intervals at the log's own precision.

  --tag T            only intervals tagged T (default: only untagged intervals)
  --start S          skip intervals that start before S seconds after StartTime
  --end E            stop at the first interval that starts after E seconds
  --ratio R          divide values by R (default 1000000: ns shown in ms)
  -h, --help         this text

Where HistogramLogProcessor fails (no interval in range: an exception and no output; a damaged
line) this command exits 2 with the file, line and reason on stderr.
`;

export const WATCH_HELP = `Usage: hdr-spectrum watch --require R [--until DURATION|end] [--every N] FILES…

Follows interval logs (.hlog: jHiccup, HdrHistogram's log writer, the page's own) while they are
written. Prints one line per new interval: the verdict of the run so far and of that interval
alone (with --every N: one line every N seconds, the run so far and the intervals since the
line before). Only complete lines are read; a partial last line waits for the rest. A file that
shrinks, is replaced or comes back after it was deleted is said on stderr and starts a new run,
judged apart from the earlier one.
At the end it prints what "check" prints for what was read, and the first moment each series'
run so far failed (seconds since its StartTime).

  --require R        requirement, e.g. "p99<=5ms, max<=100ms" (as check)
  --until DURATION   stop after this long (30s, 5m, 1h); without --until, until stopped
  --until end        stop once the files stopped growing for 10 s (a file finished before:
                     read it all, print, exit)
  --every N          one line every N seconds instead of one per interval
  --unit U           display unit: ns, us, ms (default), s
  -h, --help         this text

Exit 0 when every run so far passes at the end (and every earlier run of a restarted file
passed), 1 when one fails (the same verdict "check" gives on the file as read), 2 when input
cannot be read (FILE:LINE: reason on stderr) or the arguments are wrong.
`;

export const SERVE_HELP = `Usage: hdr-spectrum serve [--port P] [--host H] FILES… DIRS…

Serves the page (built with npm run build) with the files loaded and followed as they are
written: every chart, table, verdict, time window and the heatmap follow each complete line.
Interval logs (.hlog) grow by appended intervals; line-by-line sample formats (plain samples,
JMeter CSV, k6 JSON, Gatling's simulation.log…) are read again with their new lines. A partial
last line waits for the rest. A file that shrinks, is replaced or comes back after it was
deleted starts a new run, said on the page and never mixed with the earlier one. A new file in
a named folder becomes a new series. A file that stops growing is said ("no new interval for
30 s"). The first line on stdout is "serving http://HOST:PORT/"; open it in a browser.

  --port P           port (default 0: any free port)
  --host H           address to listen on (default 127.0.0.1). Another address exposes the
                     page and the followed files to every machine that reaches it: said on stdout
  -h, --help         this text

Only the page and the named files and folders' files are served (no "..", no symlink out of a
named folder, no CORS header); files are opened read-only. Stop it with Ctrl-C.
Exit 2 when a named path does not exist or the port cannot be taken.
`;
