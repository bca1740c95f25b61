// Where the coordinated-omission warning cannot judge a series. Its tests read a cliff at the top
// of the spectrum (or too few slow values for the rate) as requests a load generator never sent;
// that needs values measured one by one. A metric's histogram (Prometheus, OpenTelemetry) holds
// bucket counts an instrumented process kept: between two bucket bounds nothing can show, so an
// empty range there is the buckets' doing, and no load generator stood behind it. cyclictest
// counts a timer's wake-ups in 1 µs buckets up to its -h size and puts every overflow at its
// thread's max: the top of its spectrum is placed there, not measured.

/** Formats whose series the coordinated-omission tests cannot judge, and why. */
const NOT_JUDGED: Record<string, string> = {
  "prometheus-api": "a metric's histogram: bucket counts, not one measurement per request",
  otlp: "a metric's histogram: bucket counts, not one measurement per request",
  cyclictest: "a timer's wake-up latencies, its overflows placed at the max: not requests measured one by one",
};

/** Why the coordinated-omission tests cannot judge a series of this format; null when they can. */
export function coNotJudged(format: string): string | null {
  return NOT_JUDGED[format] ?? null;
}
