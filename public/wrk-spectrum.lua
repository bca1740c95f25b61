-- wrk-spectrum.lua: makes wrk (4.x) print the whole latency spectrum it recorded, not only the
-- four percentiles of --latency, in the form hdr-spectrum reads (HdrHistogram's percentile
-- distribution, as wrk2 prints it after "Detailed Percentile spectrum:").
--
--   wrk -t2 -c16 -d30s -s wrk-spectrum.lua http://host:port/path > run.txt
--
-- Then load run.txt. wrk keeps every latency in whole microseconds (one counter per value), so
-- one row per value seen is the exact distribution. latency:percentile(100) returns 0 in wrk 4,
-- so the max is taken from latency.max. Requests that timed out are not in wrk's latencies: their
-- number is printed above the table.
done = function(summary, latency, requests)
  local total = 0
  for i = 1, #latency do
    local _, count = latency(i)
    total = total + count
  end
  io.write(string.format("Timeouts: %d (not in the spectrum: wrk records no latency for them)\n", summary.errors.timeout))
  io.write("Detailed Percentile spectrum:\n")
  io.write("       Value   Percentile   TotalCount 1/(1-Percentile)\n\n")
  local cum = 0
  for i = 1, #latency do
    local value, count = latency(i)
    cum = cum + count
    local p = cum / total
    if cum == total then
      io.write(string.format("%12.3f %12f %12d %12s\n", value / 1000, 1.0, cum, "inf"))
    else
      io.write(string.format("%12.3f %12f %12d %12.2f\n", value / 1000, p, cum, 1 / (1 - p)))
    end
  end
  io.write(string.format("#[Mean    = %12.3f, StdDeviation   = %12.3f]\n", latency.mean / 1000, latency.stdev / 1000))
  io.write(string.format("#[Max     = %12.3f, Total count    = %12d]\n", latency.max / 1000, total))
  io.write("----------------------------------------------------------\n")
end
