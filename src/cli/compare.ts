// `report --compare BASELINE`: the A vs B comparison belongs to core/compare (the page's
// comparison module); this command line only hands the runs over and prints what it says.
import type { Store, TimeRange } from "../engine/store";
import { CliError } from "./errors";

export interface CompareRequest {
  store: Store;
  /** The file or series name given with --compare. */
  baseline: string;
  range: TimeRange;
}

/** The comparison's Markdown section and its JSON. Not wired to core/compare yet: says so (exit 2). */
export function compareRuns(req: CompareRequest): { markdown: string; json: unknown } {
  throw new CliError(2, `--compare ${req.baseline}: comparison not available yet in this build of hdr-spectrum`);
}
