// Messages between the engine worker and its helper workers (part-worker.ts).
import type { HlogPart } from "./ingest";

/** `before`: the log's bytes ahead of the piece `blob`, whose intervals the helper counts (piece-origins.ts). */
export type PartRequest = { type: "read"; id: number; blob: Blob; name: string; before?: Blob } | { type: "cancel"; id: number };

export type PartReply =
  { id: number; type: "progress"; bytes: number; intervals: number } | { id: number; type: "done"; part: HlogPart } | { id: number; type: "error"; message: string };

/** From the page to a helper it started: the port to the engine worker, where requests come from. */
export type PartSetup = { type: "port"; port: MessagePort };

/**
 * From the page to the engine worker, before any request: how many helpers the engine may use,
 * and ports to those the page started (it starts the others itself).
 */
export type HelperPorts = { helperPorts: MessagePort[]; helperCount: number };

/** From the page to the engine worker: helper number `helperFailed` died (its worker's error event). */
export type HelperFailed = { helperFailed: number; message: string };
