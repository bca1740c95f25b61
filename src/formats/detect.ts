// Which line reader takes a file: by name first (.jtl → JMeter, simulation.log → Gatling), then
// by content, the specific load-generator formats before generic samples. HdrHistogram's own
// formats (interval logs, percentile distributions, wrk2 output) are read elsewhere and are
// never claimed here.
import { detectPercentileFile } from "./hgrm";
import { detectHlog } from "./hlog";
import { gatlingContentMatch, gatlingNameMatch, gatlingReader } from "./gatling";
import { jmeterContentMatch, jmeterNameMatch, jmeterReader } from "./jmeter";
import { k6Reader } from "./k6";
import { samplesReader } from "./samples";
import type { FormatReader } from "./source";
import { vegetaReader } from "./vegeta";

/** In the order content detection tries them: specific formats before generic samples. */
export const READERS: FormatReader[] = [jmeterReader, gatlingReader, k6Reader, vegetaReader, samplesReader];

/** HdrHistogram text that this module must leave to the hlog/hgrm readers. */
export function isHdrHistogramText(name: string, head: string): boolean {
  if (detectHlog(name, head) || detectPercentileFile(name, head)) return true;
  if (/\.(hlog|hgrm)$/i.test(name)) return true;
  // #[StartTime: …], #[Mean = …] headers and footers. Indentation within the line only: `\s*`
  // after a multiline `^` crosses line breaks and rescans every blank line after each line start.
  if (/^[^\S\r\n\u2028\u2029]*#\[/m.test(head)) return true;
  if (/(^|[\s,])D?HIST[A-Za-z0-9+/]{16}/m.test(head) && /^(Tag=[^,\s]*,)?[\d.]+[,\s]/m.test(head)) return true;
  return /\bPercentile\b/.test(head) && /\bTotalCount\b/.test(head);
}

export function pickReader(name: string, head: string): FormatReader | null {
  if (isHdrHistogramText(name, head)) return null;
  // Names that say what a file is, whatever its first lines look like.
  if (jmeterNameMatch(name)) return jmeterReader;
  if (gatlingNameMatch(name)) return gatlingReader;
  // Content: the first lines.
  if (jmeterContentMatch(head)) return jmeterReader;
  if (gatlingContentMatch(head)) return gatlingReader;
  for (const r of READERS) if (r.detect(name, head)) return r;
  return null;
}
