// Hand-built share-link metadata (test code only): what the encoder would write, written directly
// so that tests can put wrong or hostile values in it.

/**
 * The metadata of one series in a link (v2 on): named "a", from file "a", untagged, with no
 * configuration, throughput or kind, recorded in ns, visible, no StartTime; `fields` added or replacing.
 */
export function seriesMeta(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: "a", source: "a", tag: "", config: "", throughput: null, kind: "", unit: "ns", visible: true, startTime: null, ...fields };
}
