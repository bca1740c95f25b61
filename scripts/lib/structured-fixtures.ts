// Fixture writers for the structured formats whose producers cannot run here (Envoy's Nighthawk
// needs a Bazel build of Envoy), and generated inputs for the fuzzer in the shapes the real
// producers write (scripts/producers/fixtures holds their real outputs).
import type { LoadSample } from "./loadgen-fixtures";
import { fortioJson } from "./producer-fixtures";

/**
 * The Fortio result Nighthawk writes for the same calls (nighthawk_client --output-format fortio):
 * protobuf's JSON mapping makes every 64-bit count a string, and its buckets come from
 * HdrHistogram's percentile iteration: a first bucket Start = End = Min holding one call, and
 * empty buckets ("Count": "0") that repeat the previous End.
 */
export function nighthawkJson(samples: readonly LoadSample[]): string {
  const r = JSON.parse(fortioJson(samples)) as {
    Labels: string;
    RunType?: string;
    DurationHistogram: { Count: number | string; Min: number; Data: { Start: number; End: number; Percent: number; Count: number | string }[] };
    RetCodes: Record<string, number | string>;
  };
  r.Labels = "Nighthawk";
  delete r.RunType;
  const h = r.DurationHistogram;
  const data = h.Data as { Start: number; End: number; Percent: number; Count: number }[];
  const out: { Start: number; End: number; Percent: number; Count: string }[] = [{ Start: h.Min, End: h.Min, Percent: 0, Count: "1" }];
  data.forEach((b, i) => {
    const n = i === 0 ? b.Count - 1 : b.Count;
    out.push({ ...b, Start: i === 0 ? h.Min : b.Start, Count: String(n) });
    out.push({ Start: b.End, End: b.End, Percent: b.Percent, Count: "0" });
  });
  h.Data = out;
  h.Count = String(h.Count);
  for (const k of Object.keys(r.RetCodes)) r.RetCodes[k] = String(r.RetCodes[k]);
  return JSON.stringify(r, null, 1) + "\n";
}
