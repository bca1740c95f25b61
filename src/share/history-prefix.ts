// The history link's fragment prefix, apart from its codec (history-link.ts): the page tells such
// a link at start without loading the codec.
export const HISTORY_PREFIX = "#history=";
