#!/usr/bin/env bash
# HdrHistogram Java's own percentile distribution for a histogram log: the reference that
# src/core/hgrm-export.test.ts compares formatPercentileDistribution against.
#
#   scripts/java-reference.sh LOG [HistogramLogProcessor options…]
#   e.g. scripts/java-reference.sh jHiccup.hlog -outputValueUnitRatio 1000000 [-tag A] [-csv]
#
# Fetches org.hdrhistogram:HdrHistogram (default 2.2.2) with Maven when it is not in ~/.m2.
# HistogramLogProcessor prints "#[StartTime: …]" and then the distribution on stdout; with
# "-o NAME" it writes the interval log to NAME and the distribution to NAME.hgrm instead.
set -euo pipefail
version="${HDRHISTOGRAM_VERSION:-2.2.2}"
jar="${HDRHISTOGRAM_JAR:-$HOME/.m2/repository/org/hdrhistogram/HdrHistogram/$version/HdrHistogram-$version.jar}"
if [ $# -lt 1 ]; then
  echo "usage: $0 LOG [HistogramLogProcessor options]" >&2
  exit 2
fi
if [ ! -f "$jar" ]; then
  mvn -q dependency:get -Dartifact="org.hdrhistogram:HdrHistogram:$version" >&2
fi
log="$1"
shift
exec java -cp "$jar" org.HdrHistogram.HistogramLogProcessor -i "$log" "$@"
