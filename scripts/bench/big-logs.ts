// Two large 24-hour logs for the command line's comparison (~157 MB each): one hour of dense
// intervals written by the day-log generator, then repeated 24 times with its timestamps moved
// on (writing 86,400 intervals of this many distinct values takes minutes; this takes seconds).
// Cached in .bench/ like the other logs.
import { closeSync, existsSync, openSync, readFileSync, renameSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { dayLogName, writeDayLog, type DayLogOptions } from "../../tests/support/day-log";

const HOURS = 24;
/** Distinct values per interval: what makes the 24 hours ~157 MB, the size the goal names (6,000 made 140 MB). */
const DISTINCT = 8800;

/** The path of a ~157 MB 24-hour log for `seed`, written if not cached. */
export function bigDayLog(dir: string, seed: number): { path: string; bytes: number } {
  const hour: DayLogOptions = { intervals: 3600, seed, distinctPerInterval: DISTINCT };
  const path = join(dir, `big-${HOURS}h-${dayLogName(hour)}`);
  if (existsSync(path)) return { path, bytes: statSync(path).size };
  const src = writeDayLog(join(dir, dayLogName(hour)), hour);
  const lines = readFileSync(src.path, "latin1").split("\n");
  const head = lines.filter((l) => l.startsWith("#") || l.startsWith('"'));
  const body = lines.filter((l) => l && !l.startsWith("#") && !l.startsWith('"'));
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, head.join("\n") + "\n", null, "latin1");
    for (let h = 0; h < HOURS; h++) {
      // Each line starts with its start time in seconds since StartTime: move it on by h hours.
      const shifted = body.map((l) => {
        const comma = l.indexOf(",");
        return `${(Number(l.slice(0, comma)) + h * 3600).toFixed(3)}${l.slice(comma)}`;
      });
      writeSync(fd, shifted.join("\n") + "\n", null, "latin1");
    }
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  return { path, bytes: statSync(path).size };
}
