#!/bin/sh
# Runs fio (Debian's fio 3.33) for two seconds on a 4 MB temporary file and keeps, as fixtures,
# one run's three outputs: json+ (every latency bin), the histogram log and the per-I/O log.
# The I/O rate is capped so that the per-I/O log stays a few KB.
set -eu
out="$(cd "$(dirname "$0")/../.." && pwd)/fixtures/producers/structured"
command -v fio >/dev/null || { echo "fio is not installed (apt-get install -y fio): skipped"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fio --name=job --filename="$work/data" --size=4M --bs=4k --rw=randrw --ioengine=psync \
  --runtime=2 --time_based --rate_iops=100 \
  --write_hist_log=fio --log_hist_msec=500 --write_lat_log=fio \
  --output-format=json+ --output=fio-jsonplus.json >/dev/null
cp fio-jsonplus.json "$out/fio-jsonplus.json"
cp fio_clat_hist.1.log "$out/fio_clat_hist.1.log"
cp fio_clat.1.log "$out/fio_clat.1.log"
# The same job's plain JSON (percentiles, no bins): statistics.
fio --name=job --filename="$work/data" --size=4M --bs=4k --rw=randread --ioengine=psync \
  --runtime=1 --time_based --rate_iops=50 --output-format=json --output=fio-plain.json >/dev/null
cp fio-plain.json "$out/fio-plain.json"
# A log averaged over 500 ms windows: statistics.
fio --name=job --filename="$work/data" --size=4M --bs=4k --rw=randread --ioengine=psync \
  --runtime=1 --time_based --rate_iops=50 --write_lat_log=fio-avg --log_avg_msec=500 --output=/dev/null >/dev/null
cp fio-avg_clat.1.log "$out/fio-avg_clat.1.log"
ls -l "$out"/fio*
