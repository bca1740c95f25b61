#!/usr/bin/env bash
# Runs each installed producer on loopback for a second or two and keeps its output, small, as a
# fixture in fixtures/producers/<tool>/, each beside a .cmd file holding the command that made it.
# A producer that is not installed is skipped with a line saying so. Run as root (cyclictest,
# and postgres runs as the "postgres" user) from the repository root:
#   bash scripts/producers/run.sh [tool …]      (tools: hey wrk siege redis sysbench h2load
#                                                 cyclictest sockperf ioping ping hyperfine pgbench)
# Debian 12: apt-get install -y sysbench wrk redis-server redis-tools nghttp2-client rt-tests \
#   sockperf ioping iputils-ping hyperfine siege postgresql; go install github.com/rakyll/hey@latest
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT="$ROOT/fixtures/producers"
WORK=$(mktemp -d)
PORT=${PRODUCER_PORT:-41841}
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$WORK"' EXIT
PATH="$PATH:$HOME/go/bin:/usr/lib/postgresql/15/bin"
TOOLS=("$@")
[ ${#TOOLS[@]} -eq 0 ] && TOOLS=(hey wrk siege redis sysbench h2load cyclictest sockperf ioping ping hyperfine pgbench)

have() { command -v "$1" >/dev/null 2>&1 || { echo "skip: $1 not installed"; return 1; }; }
# keep DIR FILE CMD…: runs CMD (a shell string) in $WORK, then copies FILE into DIR with FILE.cmd.
keep() {
  local dir="$OUT/$1" file="$2" cmd="$3"
  mkdir -p "$dir"
  (cd "$WORK" && bash -c "$cmd") >/dev/null 2>&1
  if [ -s "$WORK/$file" ]; then
    cp "$WORK/$file" "$dir/$file"
    printf '%s\n' "$cmd" >"$dir/$file.cmd"
    echo "kept $1/$file"
  else
    echo "failed: $1/$file ($cmd)"
  fi
}
http_server() {
  python3 -m http.server "$PORT" --bind 127.0.0.1 >/dev/null 2>&1 &
  PIDS+=($!)
  sleep 1
}
URL="http://127.0.0.1:$PORT/"
SERVED=0
serve() { [ $SERVED -eq 1 ] || { http_server; SERVED=1; }; }

for t in "${TOOLS[@]}"; do
  case $t in
  hey)
    have hey || continue
    serve
    keep hey hey.csv "hey -n 200 -c 4 -o csv $URL > hey.csv"
    keep hey hey-summary.txt "hey -n 200 -c 4 $URL > hey-summary.txt"
    ;;
  wrk)
    have wrk || continue
    serve
    keep wrk wrk-latency.txt "wrk -t1 -c4 -d1s --latency $URL > wrk-latency.txt"
    cp "$ROOT/public/wrk-spectrum.lua" "$WORK/"
    keep wrk wrk-spectrum.txt "wrk -t1 -c1 -d1s -s wrk-spectrum.lua $URL > wrk-spectrum.txt"
    ;;
  siege)
    have siege || continue
    serve
    # siege prints request lines only with json_output off (Debian's siegerc turns it on), in
    # colour only on a terminal: `script` gives it one, as a user capturing it would.
    printf 'verbose = true\ncolor = on\njson_output = false\nlogging = false\nprotocol = HTTP/1.1\nconnection = close\n' >"$WORK/siegerc"
    keep siege siege-colour.txt "script -q -c 'siege -R ./siegerc -v -c2 -r10 $URL' siege-colour.txt"
    keep siege siege-json.txt "siege -c2 -r5 $URL > siege-json.txt"
    ;;
  redis)
    have redis-server && have redis-benchmark || continue
    redis-server --port $((PORT + 1)) --bind 127.0.0.1 --save '' --appendonly no >/dev/null 2>&1 &
    PIDS+=($!)
    sleep 1
    keep redis-benchmark redis-benchmark.txt "redis-benchmark -p $((PORT + 1)) -n 5000 -c 5 -t set,get,lpush > redis-benchmark.txt"
    keep redis-benchmark redis-benchmark.csv "redis-benchmark -p $((PORT + 1)) -n 5000 -c 5 -t set,get --csv > redis-benchmark.csv"
    ;;
  sysbench)
    have sysbench || continue
    keep sysbench sysbench-histogram.txt "sysbench cpu --cpu-max-prime=2000 --threads=1 --time=1 --histogram=on run > sysbench-histogram.txt"
    ;;
  h2load)
    have h2load || continue
    serve
    # One run: its log and its summary (the summary is what the tests compare the log with).
    keep h2load h2load-requests.tsv "h2load --h1 -n 300 -c 4 --log-file=h2load-requests.tsv $URL > h2load-summary.txt"
    cp "$WORK/h2load-summary.txt" "$OUT/h2load/h2load-summary.txt"
    echo "the summary h2load printed while writing h2load-requests.tsv (see h2load-requests.tsv.cmd)" >"$OUT/h2load/h2load-summary.txt.cmd"
    ;;
  cyclictest)
    have cyclictest || continue
    keep cyclictest cyclictest-h.txt "cyclictest -q -m -t2 -l 1000 -i 500 -h 200 > cyclictest-h.txt"
    ;;
  sockperf)
    have sockperf || continue
    sockperf server -i 127.0.0.1 -p $((PORT + 2)) >/dev/null 2>&1 &
    PIDS+=($!)
    sleep 1
    keep sockperf sockperf-full-log.csv "sockperf ping-pong -i 127.0.0.1 -p $((PORT + 2)) -t 1 --mps 500 --full-log sockperf-full-log.csv"
    ;;
  ioping)
    have ioping || continue
    keep ioping ioping.txt "ioping -c 30 -i 0.02 . > ioping.txt"
    ;;
  ping)
    have ping || continue
    keep ping ping.txt "ping -c 30 -i 0.02 127.0.0.1 > ping.txt"
    keep ping ping-D.txt "ping -D -c 20 -i 0.02 127.0.0.1 > ping-D.txt"
    ;;
  hyperfine)
    have hyperfine || continue
    keep hyperfine hyperfine.json "hyperfine -N --runs 20 --warmup 2 'true' 'sleep 0.001' --export-json hyperfine.json"
    keep hyperfine hyperfine.csv "hyperfine -N --runs 20 --warmup 2 'true' 'sleep 0.001' --export-csv hyperfine.csv"
    ;;
  pgbench)
    have pgbench && have initdb && have pg_ctl || continue
    id postgres >/dev/null 2>&1 || { echo "skip: pgbench needs a postgres user"; continue; }
    PG="$WORK/pg"
    mkdir -p "$PG" && chown postgres "$PG" "$WORK"
    su postgres -c "initdb -D $PG/data -A trust -U postgres >/dev/null && pg_ctl -D $PG/data -o '-p $((PORT + 3)) -k $PG -c listen_addresses=' -l $PG/log start >/dev/null && sleep 2 && pgbench -h $PG -p $((PORT + 3)) -i -s 1 postgres >/dev/null 2>&1"
    PGB="pgbench -h $PG -p $((PORT + 3))"
    # The logs are named prefix.PID (thread 0) and prefix.PID.N: renamed to a fixed run number.
    runpg() { su postgres -c "cd $PG && $1" >/dev/null 2>&1; }
    runpg "$PGB -c 2 -j 2 -t 150 --log --log-prefix=plain postgres > stdout.txt"
    runpg "$PGB -c 4 -j 2 -t 100 -R 3000 -L 1 --log --log-prefix=rate postgres > rate-stdout.txt"
    runpg "$PGB -c 2 -j 1 -T 3 --log --aggregate-interval=1 --log-prefix=agg postgres"
    mkdir -p "$OUT/pgbench"
    for p in plain rate agg; do
      for f in "$PG"/$p.*; do
        [ -e "$f" ] || continue
        n=$(basename "$f" | sed -E "s/^$p\.[0-9]+/$p.4242/")
        cp "$f" "$OUT/pgbench/pgbench_log-$n"
        echo "kept pgbench/pgbench_log-$n"
      done
    done
    cp "$PG/stdout.txt" "$OUT/pgbench/pgbench-stdout.txt"
    cp "$PG/rate-stdout.txt" "$OUT/pgbench/pgbench-rate-stdout.txt"
    {
      echo "pgbench -c 2 -j 2 -t 150 --log --log-prefix=plain postgres > pgbench-stdout.txt  (files plain.PID and plain.PID.1, renamed pgbench_log-plain.4242 and .4242.1)"
      echo "pgbench -c 4 -j 2 -t 100 -R 3000 -L 1 --log --log-prefix=rate postgres > pgbench-rate-stdout.txt  (rate.PID, rate.PID.1: a schedule-lag column, skipped transactions)"
      echo "pgbench -c 2 -j 1 -T 3 --log --aggregate-interval=1 --log-prefix=agg postgres  (agg.PID)"
    } >"$OUT/pgbench/README.cmd"
    su postgres -c "pg_ctl -D $PG/data stop -m immediate" >/dev/null 2>&1
    ;;
  *) echo "unknown producer $t" ;;
  esac
done
