// The <option>s of every unit menu (display unit, requirement rows, raw-sample columns).
import { UNIT_LABEL } from "../../core/format";
import { UNITS } from "../../core/types";

// Made once: the toolbar's menu renders with the app, and a closure made per render has its
// optimised code dropped by V8 at every major collection.
const OPTIONS = UNITS.map((u) => (
  <option key={u} value={u}>
    {UNIT_LABEL[u]}
  </option>
));

export function UnitOptions() {
  return <>{OPTIONS}</>;
}
