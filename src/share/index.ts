// Share links: the whole view, data included, in the URL fragment (`#s=…`). Pure: no DOM.
export { SHARE_VERSION, MAX_FRAGMENT_CHARS, MAX_SERIES, MAX_TIMELINE_BUCKETS, identityFields } from "./schema";
export type { ShareState, ShareView, SharedSeries, SharedTimeline, SharedSeriesTime, SharedWindows, SharedTail, ShareTimeOptions } from "./schema";
export { encodeShare, decodeShare } from "./codec";
export type { EncodeOptions, Encoded, DecodeResult } from "./codec";
export { LOSSY_TOLERANCE, quantiseTimelineValue } from "./histogram-pack";
