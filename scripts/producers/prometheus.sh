#!/bin/sh
# Runs Debian's Prometheus (2.42, native histograms enabled) on loopback, scraping the exporter in
# prometheus-exporter/ (Go, client_golang) every second until the exporter's third phase has been scraped, then saves the HTTP API's
# answers as fixtures:
#   prom-native-range.json   query_range of the native histogram, step 1s
#   prom-classic-range.json  query_range of the classic _bucket series, step 1s
#   prom-native-instant.json query (instant) of the native histogram at the end
#   prom-values.json         the values the exporter observed, per phase (s)
# Needs: prometheus, go (/usr/local/go/bin), curl.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../../fixtures/producers/structured"
command -v prometheus >/dev/null || { echo "prometheus is not installed (apt-get install -y prometheus): skipped"; exit 0; }
PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || { echo "go is not installed: skipped"; exit 0; }
work=$(mktemp -d)
cleanup() { [ -n "${ep:-}" ] && kill "$ep" 2>/dev/null; [ -n "${pp:-}" ] && kill "$pp" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
(cd "$here/prometheus-exporter" && go build -o "$work/exporter" .)
cat >"$work/prometheus.yml" <<YML
global: {scrape_interval: 1s}
scrape_configs:
  - job_name: demo
    static_configs: [{targets: ["127.0.0.1:19464"]}]
YML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" --web.listen-address=127.0.0.1:19090 \
  --enable-feature=native-histograms >"$work/prometheus.out" 2>&1 & pp=$!
api=http://127.0.0.1:19090/api/v1
for i in $(seq 60); do curl -sf http://127.0.0.1:19090/-/ready >/dev/null && break; sleep 0.5; done
start=$(date +%s)
"$work/exporter" -listen 127.0.0.1:19464 -values "$work/values.json" & ep=$!
# until the exporter has observed its third phase (4 s and 8 s after the first scrape), and 2 s more
for i in $(seq 120); do [ "$(grep -o '\],\[' "$work/values.json" 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.5; done
sleep 2
end=$(date +%s)
curl -sf "$api/query_range" --data-urlencode 'query=demo_native_duration_seconds' -d "start=$start" -d "end=$end" -d step=1 >"$out/prom-native-range.json"
curl -sf "$api/query_range" --data-urlencode 'query=demo_classic_duration_seconds_bucket' -d "start=$start" -d "end=$end" -d step=1 >"$out/prom-classic-range.json"
curl -sf "$api/query" --data-urlencode 'query=demo_native_duration_seconds' -d "time=$end" >"$out/prom-native-instant.json"
cp "$work/values.json" "$out/prom-values.json"
ls -l "$out"/prom-*
