#!/bin/sh
# Runs a tiny Gatling 3.13 simulation (gatling/, from Maven Central) against a loopback Node server
# and keeps its binary simulation.log as a fixture, with the numbers Gatling itself reported for
# that run (its console summary and the report's js/stats.js, kept as stats.js.txt) as the reference the tests use:
# fixtures/producers/gatling/. Needs: mvn, java 17, node.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../../fixtures/producers/gatling"
port=${GATLING_PORT:-41850}
command -v mvn >/dev/null || { echo "mvn is not installed: skipped"; exit 0; }
work=$(mktemp -d)
node "$here/gatling/server.mjs" "$port" &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$work" "$here/gatling/target"' EXIT
cd "$here/gatling"
mvn -q -B compile dependency:build-classpath -Dmdep.outputFile="$work/cp" >/dev/null
sleep 1
# Gatling 3.13 writes its binary log through String internals, hence the --add-opens.
java --add-opens=java.base/java.lang=ALL-UNNAMED -Dbase="http://127.0.0.1:$port" \
  -cp "target/classes:$(cat "$work/cp")" io.gatling.app.Gatling \
  -s sim.Tiny -rf "$work/results" -rd "fixture run" >"$work/console.txt" 2>&1
run=$(ls -d "$work"/results/*/ | head -1)
mkdir -p "$out"
cp "$run/simulation.log" "$out/simulation.log"
cp "$run/js/stats.js" "$out/stats.js.txt" # .txt: the report's script, kept as data (not linted)
awk '/---- Global Information/{p=1} p{print} p && /^=====/{exit}' "$work/console.txt" >"$out/console-summary.txt"
printf '%s\n' "java -cp … io.gatling.app.Gatling -s sim.Tiny (Gatling 3.13.5, scripts/producers/gatling.sh)" >"$out/simulation.log.cmd"
ls -l "$out"
