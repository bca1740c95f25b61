#!/bin/sh
# Builds the JMH 1.37 benchmark in jmh/ (Maven Central) and runs it in SampleTime mode, 2 forks of
# 2 short iterations, keeping its JSON result (`-rf json`) as a fixture: fixtures/producers/structured/jmh-sample.json.
# Needs: mvn, java 17.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
command -v mvn >/dev/null || { echo "mvn is not installed: skipped"; exit 0; }
cd "$here/jmh"
cp=$(mktemp)
trap 'rm -f "$cp"' EXIT
mvn -q -B compile dependency:build-classpath -Dmdep.outputFile="$cp" >/dev/null
java -cp "target/classes:$(cat "$cp")" org.openjdk.jmh.Main bench.Sleepy \
  -f 2 -wi 1 -w 200ms -i 2 -r 100ms -rf json -rff "$here/../../fixtures/producers/structured/jmh-sample.json" >/dev/null
rm -rf target
ls -l "$here/../../fixtures/producers/structured/jmh-sample.json"
