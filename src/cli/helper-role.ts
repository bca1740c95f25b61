// workerData that makes the bundled command line serve as a helper thread (bin.ts reads it
// before it imports anything else).
export const HELPER_ROLE = "hdr-spectrum-part";
