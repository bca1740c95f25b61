// The <option>s of every unit menu (display unit, requirement rows, raw-sample columns).
import { UNIT_LABEL } from "../../core/format";
import { UNITS } from "../../core/types";

export function UnitOptions() {
  return (
    <>
      {UNITS.map((u) => (
        <option key={u} value={u}>
          {UNIT_LABEL[u]}
        </option>
      ))}
    </>
  );
}
