// The unit an interval log's series was recorded in: the log's format never states it.
import { inferUnitFromIntervalMax, type IntervalTable, type UnitSource } from "../../core/series";
import type { Unit } from "../../core/types";
import { producerUnit } from "../../formats/hlog";

/**
 * A producer named in the header fixes the unit; a DoubleHistogram's values were taken as
 * seconds and recorded in ns, an assumption; else the Interval_Max ratio suggests one. Without
 * a usable Interval_Max column, what Java's writers assume: ns values.
 */
export function unitOfSeries(double: boolean, producer: string | null, intervals: IntervalTable): { recordedUnit: Unit; unitSource: UnitSource } {
  const known = double ? null : producerUnit(producer);
  const inferred = known || double ? null : inferUnitFromIntervalMax(intervals);
  return { recordedUnit: known ?? inferred ?? "ns", unitSource: known ? "format" : inferred ? "interval-max" : "default" };
}
