import { writeFileSync } from "node:fs";
import { newHistogram } from "../src/core/histogram";
import { writeHlog, PRODUCER_HEADERS } from "../scripts/lib/hlog-fixture";
const ivs = [];
for (let i = 0; i < 5; i++) {
  const h = newHistogram();
  for (let k = 0; k < 100 + i; k++) h.recordValue(1000 + k);
  ivs.push({ start: i === 0 ? -0.005 : i - 0.005, length: 1, histogram: h });
}
writeFileSync(".tmp-uis/ycsb.hlog", writeHlog(ivs as never, { ...PRODUCER_HEADERS.ycsb, maxRatio: 1e6 }));
