import { describe, expect, it } from "vitest";
import type { RunSummary } from "../core/history/types";
import { base64urlEncode, zlibDeflate } from "./bytes";
import { historyFragment, openHistoryFragment } from "./history-link";

const runs: RunSummary[] = [
  {
    id: "run-1",
    start: 1.8e9,
    series: [
      {
        name: "svc",
        unit: "us",
        count: 90000,
        percentiles: { "50": 1014.5, "90": 1703, "99": 2772, "99.9": 30916, "99.99": 53510, "99.999": 65699, "100": 65700 },
        se: { "50": 0.0108, "90": 0.0099, "99": 0.0234, "99.9": 0.18, "99.99": null },
      },
    ],
  },
  { id: "run-2", start: null, series: [] },
];

describe("history link", () => {
  it("gives back every run's numbers exactly", () => {
    const f = historyFragment(runs);
    expect(f).toMatch(/^#history=1\.[A-Za-z0-9_-]+$/);
    expect(openHistoryFragment(f)).toEqual({ ok: true, runs });
  });

  it("refuses damaged, newer and hostile links with a reason", () => {
    const enc = (doc: unknown) => `#history=1.${base64urlEncode(zlibDeflate(new TextEncoder().encode(JSON.stringify(doc))))}`;
    expect(openHistoryFragment("#history=1.AAAA")).toMatchObject({ ok: false, reason: expect.stringMatching(/corrupt/) });
    expect(openHistoryFragment("#history=9.AAAA")).toMatchObject({ ok: false, reason: expect.stringMatching(/version 9/) });
    expect(openHistoryFragment(enc({ v: 1, s: ["a"], r: [["r", 1, [[5, 0, 1, [1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0]]]]] }))).toMatchObject({ ok: false });
    expect(openHistoryFragment(enc({ v: 1, s: ["a"], r: Array.from({ length: 6000 }, () => ["r", 1, []]) }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/more runs/),
    });
    expect(openHistoryFragment(enc({ v: 1, s: ["a"], r: [["r", 1, [[0, 0, 1, [1, 1, 1, "x", 1, 1, 1], [0, 0, 0, 0, 0]]]]] }))).toMatchObject({ ok: false });
  });
});
