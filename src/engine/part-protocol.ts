// Messages between the engine worker and its helper workers (part-worker.ts).
import type { HlogPart } from "./ingest";

export type PartRequest = { type: "read"; id: number; blob: Blob; name: string } | { type: "cancel"; id: number };

export type PartReply =
  | { id: number; type: "progress"; bytes: number; intervals: number }
  | { id: number; type: "done"; part: HlogPart }
  | { id: number; type: "error"; message: string };
