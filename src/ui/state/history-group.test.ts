import { describe, expect, it } from "vitest";
import { FOLDER_KEY, groupRuns } from "./history-group";

const file = (path: string) => ({ file: new File(["x"], path.split("/").pop()!), path });

describe("grouping files into runs", () => {
  it("makes one run per folder, skipping hidden files (the command line's cache)", () => {
    const g = groupRuns([file("h/run-1/svc.hlog"), file("h/run-1/db.hlog"), file("h/run-2/svc.hlog"), file("h/run-2/.hdr-spectrum-cache.json"), file("loose.hlog")], FOLDER_KEY);
    expect(g.runs.map((r) => [r.id, r.files.map((f) => f.name)])).toEqual([
      ["run-1", ["svc.hlog", "db.hlog"]],
      ["run-2", ["svc.hlog"]],
    ]);
    expect(g.unmatched).toEqual(["loose.hlog"]);
  });

  it("groups by a regular expression and takes the run key out of the series' file name", () => {
    const g = groupRuns([file("run-07_svc.hlog"), file("run-07_db.hlog"), file("svc-run-08.hlog"), file("other.hlog")], "run-\\d+");
    expect(g.runs.map((r) => [r.id, r.files.map((f) => f.name)])).toEqual([
      ["run-07", ["svc.hlog", "db.hlog"]],
      ["run-08", ["svc.hlog"]],
    ]);
    expect(g.unmatched).toEqual(["other.hlog"]);
    expect(groupRuns([file("a.hlog")], "build-(\\d+)").runs).toEqual([]);
    expect(groupRuns([file("a.hlog")], "(").error).toMatch(/run key \(/);
  });
});
