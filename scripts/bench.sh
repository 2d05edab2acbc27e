#!/usr/bin/env bash
# `make bench`: Parley's benchmark suite (about 45 minutes, 14 of them the bulk job). Builds
# release, starts Parley pinned to core 0 and the load generator on core 1, runs every scenario
# at a few sizes, runs idle and fanout against nginx + nchan (same core, same run), records the
# floors, and writes docs/BENCHMARKS.md and docs/bench-latency.png. Loopback only; every step is
# bounded by `timeout`.
# The Postgres sections (inbox-pg, cluster) start a Postgres cluster of their own in $OUT/postgres
# (fsync and synchronous_commit on, pg_stat_statements loaded), pinned to core 0 with Parley.
# BENCH_QUICK=1 runs tiny sizes to check the script itself; BENCH_SKIP_BUILD=1 uses the binaries
# already built; BENCH_ONLY="idle fanout" reruns only those sections (floors, idle, fanout, inbox,
# inbox-pg, cluster, send, bulk, biginbox, firstload) and keeps the other sections' results from the last run for
# the report. The report (loadtest/bench/report.py) sets the run's tables among the hand-written
# text of loadtest/bench/findings.md.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${BENCH_OUT:-target/bench}
QUICK=${BENCH_QUICK:-0}
PARLEY_PORT=${PARLEY_PORT:-18181}
NCHAN_PORT=${NCHAN_PORT:-18282}
SECOND_PORT=${SECOND_PORT:-18484}
PG_PORT=${PG_PORT:-18383}
ONLY=${BENCH_ONLY:-}
wanted() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }
if [ -z "$ONLY" ]; then
  rm -rf "$OUT"
else
  for section in $ONLY; do rm -f "$OUT/$section"-* "$OUT/$section".json; done
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

for port in $PARLEY_PORT $NCHAN_PORT $SECOND_PORT $PG_PORT; do
  if ss -ltnH "sport = :$port" | grep -q .; then
    echo "port $port is already in use: stop what listens there or change PARLEY_PORT, NCHAN_PORT, SECOND_PORT or PG_PORT" >&2
    exit 1
  fi
done

# When and on what the run started: the report's machine table names the run, not the report.
printf '{"started": "%s", "commit": "%s"}\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" \
  "$(git rev-parse --short HEAD)" >"$OUT/run.json"

if [ "${BENCH_SKIP_BUILD:-0}" = 1 ]; then
  echo "== using the release binaries already in target/release"
else
  echo "== build (release)"
  cargo build --release -p parley-server -p parley-loadtest --bin parley --bin parley-loadtest
fi

echo "== peers and tools"
if [ ! -f /usr/lib/nginx/modules/ngx_nchan_module.so ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light libnginx-mod-nchan
fi
python3 -c 'import matplotlib' 2>/dev/null || pip install --quiet matplotlib ||
  echo "matplotlib unavailable: the plot is skipped"

LT=(taskset -c 1 target/release/parley-loadtest)
SERVER_PID=""
SECOND_PID=""
NGINX_PID=""
PG_BIN=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  [ -n "$SECOND_PID" ] && kill "$SECOND_PID" 2>/dev/null || true
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null || true
  stop_postgres
  wait 2>/dev/null || true
}
trap cleanup EXIT

wait_http() { # URL
  for _ in $(seq 1 100); do
    curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
    sleep 0.2
  done
  echo "no answer from $1" >&2
  return 1
}

launch_parley() { # PORT DATA_DIR [NAME=VALUE...]: a node on core 0; its process id in $LAUNCHED
  local port=$1 data=$2
  shift 2
  env RUST_LOG=warn PARLEY_AUTH__ACCESS_TOKEN_TTL_SECS=7200 "$@" taskset -c 0 \
    target/release/parley serve --bind "127.0.0.1:$port" --data-dir "$data" \
    >>"$OUT/parley.log" 2>&1 &
  LAUNCHED=$!
  wait_http "http://127.0.0.1:$port/api/health"
}

start_parley() { # [NAME=VALUE...]: extra settings for this server; its data dir lands in $PARLEY_DATA
  PARLEY_DATA=$(mktemp -d -p "$OUT" parley-data.XXXX)
  launch_parley "$PARLEY_PORT" "$PARLEY_DATA" "$@"
  SERVER_PID=$LAUNCHED
}

stop_parley() {
  for pid in $SERVER_PID $SECOND_PID; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  SERVER_PID=""
  SECOND_PID=""
  rm -rf "$OUT"/parley-data.*
}

# The suite's own Postgres (start_postgres, stop_postgres, fresh_database, autovacuum_passes,
# statements, notify_cost).
. scripts/bench-postgres.sh

start_nchan() {
  local prefix=$OUT/nchan
  rm -rf "$prefix"
  mkdir -p "$prefix"
  sed -e "s#__PREFIX__#$prefix#g" -e "s#__PORT__#$NCHAN_PORT#g" loadtest/bench/nchan.conf \
    >"$prefix/nginx.conf"
  taskset -c 0 nginx -c "$prefix/nginx.conf" -p "$prefix" -g 'daemon off;' \
    >>"$OUT/nchan.log" 2>&1 &
  NGINX_PID=$!
  wait_http "http://127.0.0.1:$NCHAN_PORT/rtt"
  NCHAN_WORKERS=$(pgrep -P "$NGINX_PID" | paste -sd, -)
}

stop_nchan() {
  kill "$NGINX_PID" 2>/dev/null || true
  wait "$NGINX_PID" 2>/dev/null || true
  NGINX_PID=""
}

# run NAME ARGS...: one bounded load-generator run; its command and JSON land in $OUT.
run() {
  local name=$1
  shift
  echo "-- $name: parley-loadtest $*"
  echo "parley-loadtest $*" >"$OUT/$name.cmd"
  local before
  before=$(head -n 1 /proc/stat)
  if ! timeout "${RUN_LIMIT:-900}" "${LT[@]}" "$@" --quiet --json "$OUT/$name.json" >"$OUT/$name.txt" 2>&1; then
    echo "$name failed: $(tail -n 3 "$OUT/$name.txt")" | tee -a "$OUT/failures.txt"
  fi
  steal_percent "$before" "$(head -n 1 /proc/stat)" >"$OUT/$name.steal"
}

# again NAME-RATE: the names of the top inbox rate's two further runs (none for the other rates).
# A p99 is the tail of one 10 s run, so the rate with a target is run three times.
again() {
  [ "${1##*-}" = "${INBOX_RATES##* }" ] && echo "$1-run2 $1-run3"
  return 0
}

# steal_percent BEFORE AFTER: the share of CPU time the hypervisor took from this VM between two
# `cpu` lines of /proc/stat (on a shared host, latency figures only compare at similar steal).
steal_percent() {
  echo "$1 $2" | awk '{ for (i = 2; i <= 9; i++) { total += $(i + 11) - $i }
    printf "%.0f\n", total ? 100 * ($20 - $9) / total : 0 }'
}

if [ "$QUICK" = 1 ]; then
  IDLE_SIZES="200 1000"; INBOX_RATES="50 200"; FANOUT_SESSIONS="50"; SEND_RATES="10"
  CLUSTER_RATE=200
  HOLD=2; LOAD_SECS=3; BULK_RECIPIENTS=2000
  BIG="--conversations 500 --messages 5000 --deep 500 --repeats 20"
else
  IDLE_SIZES="1000 5000 18000"; INBOX_RATES="100 200 400 1000 2000 5000"
  FANOUT_SESSIONS="100 1000"; SEND_RATES="20 75"; CLUSTER_RATE=1000
  HOLD=10; LOAD_SECS=10; BULK_RECIPIENTS=100000
  BIG="--conversations 100000 --messages 1000000 --deep 10000 --repeats 300"
fi
# The bulk job's configured pace (125/s: 100,000 recipients in ~800 s, within the generator's
# 900 s limit, a pace one core holds); the sandbox's own limit sits 10x above it so it never refuses.
BULK_RATE=${BULK_RATE:-125}
P=http://127.0.0.1:$PARLEY_PORT
N=http://127.0.0.1:$NCHAN_PORT

if wanted floors; then
echo "== floors"
start_nchan
python3 loadtest/bench/floors.py "$N/rtt" "$OUT" >"$OUT/floors.json"
cat "$OUT/floors.json"
if [ -x /usr/lib/postgresql/15/bin/pg_test_fsync ]; then
  timeout 120 /usr/lib/postgresql/15/bin/pg_test_fsync -s 2 -f "$OUT/pg_test_fsync.tmp" \
    >"$OUT/pg_test_fsync.txt" 2>&1 || true
  rm -f "$OUT/pg_test_fsync.tmp"
fi
stop_nchan
fi

if wanted idle; then
echo "== idle"
for n in $IDLE_SIZES; do
  start_nchan
  run "idle-nchan-$n" idle --peer nchan --target "$N" --sessions "$n" --rate 2000 \
    --duration "$HOLD" --server-pid "$NCHAN_WORKERS"
  stop_nchan
done
for n in $IDLE_SIZES; do
  start_parley
  run "idle-parley-$n" idle --target "$P" --sessions "$n" --rate 2000 --duration "$HOLD" \
    --agents 2 --server-pid "$SERVER_PID"
  stop_parley
done

fi

if wanted fanout; then
echo "== fanout"
for n in $FANOUT_SESSIONS; do
  # One message to 1,000 followers is a burst of 1,000 frames that the single generator core
  # reads one by one, so the last follower alone sits tens of ms behind: a 500 ms bound there.
  # Steps of 2^(1/4) (x1.19): both peers passed and failed the same steps of a doubling climb,
  # which could not tell them apart.
  # nchan runs twice: with messages padded to the mean size of Parley's frames (an event's
  # JSON), so both servers write and the generator reads the same bytes per delivery, and with
  # bare ~30-byte markers.
  if [ "$n" -ge 1000 ]; then start=40; bound=500; else start=400; bound=50; fi
  start_parley
  run "fanout-parley-$n" fanout --target "$P" --sessions "$n" --rate "$start" --agents 2 \
    --step-factor 1.19 --step-secs 3 --max-rate 12800 --p99-bound-ms "$bound" --duration 120
  stop_parley
  frame=$(python3 -c "import json; print(json.load(open('$OUT/fanout-parley-$n.json'))['mean_frame_bytes'])")
  start_nchan
  run "fanout-nchan-$n" fanout --peer nchan --target "$N" --sessions "$n" --rate "$start" \
    --step-factor 1.19 --step-secs 3 --max-rate 12800 --p99-bound-ms "$bound" --duration 120 \
    --frame-bytes "$frame"
  stop_nchan
  start_nchan
  run "fanout-nchanbare-$n" fanout --peer nchan --target "$N" --sessions "$n" --rate "$start" \
    --step-factor 1.19 --step-secs 3 --max-rate 12800 --p99-bound-ms "$bound" --duration 120
  stop_nchan
done

fi

if wanted inbox; then
echo "== inbox"
for r in $INBOX_RATES; do
  # At most ~50,000 messages per rate (10 s at 5,000/s: long enough for the tables to grow and
  # checkpoints to run), so an overloaded server still drains in bounded time.
  secs=$(python3 -c "print(min($LOAD_SECS, max(1, 50000 // $r)))")
  for name in "inbox-$r" $(again "inbox-$r"); do
    start_parley
    run "$name" inbox --target "$P" --rate "$r" --duration "$secs" --customers 100 --agents 2 \
      --drain 60 --max-inflight 1024
    stop_parley
  done
done

fi

if wanted inbox-pg; then
echo "== inbox on Postgres"
start_postgres
# A 20 s drain and a 180 s bound per run keep the section within about 4 minutes, 6 at worst.
for r in $INBOX_RATES; do
  secs=$(python3 -c "print(min($LOAD_SECS, max(1, 50000 // $r)))")
  for name in "inbox-pg-$r" $(again "inbox-pg-$r"); do
    fresh_database parley_inbox
    start_parley DATABASE_URL="$PG_URL/parley_inbox"
    started=$(date +%s.%N)
    RUN_LIMIT=180 run "$name" inbox --target "$P" --rate "$r" --duration "$secs" \
      --customers 100 --agents 2 --drain 20 --max-inflight 1024
    stop_parley
    autovacuum_passes parley_inbox "$name" "$started"
    statements parley_inbox "$name"
  done
done
notify_cost
stop_postgres

fi

if wanted cluster; then
echo "== cluster"
# Two nodes on the suite's Postgres and one data dir (one JWT key, shared media, as OPERATIONS.md
# asks of a deployment); both nodes and Postgres on core 0, the generator on core 1, as in the
# single-node sections. Customer n posts to node n % 2, the agents following them sit on the
# other node. Then again with the second node killed (SIGKILL) halfway through the load.
start_postgres
for mode in run kill; do
  fresh_database parley_cluster
  CLUSTER_DATA=$(mktemp -d -p "$OUT" parley-data.XXXX)
  launch_parley "$PARLEY_PORT" "$CLUSTER_DATA" DATABASE_URL="$PG_URL/parley_cluster"
  SERVER_PID=$LAUNCHED
  launch_parley "$SECOND_PORT" "$CLUSTER_DATA" DATABASE_URL="$PG_URL/parley_cluster"
  SECOND_PID=$LAUNCHED
  kill_flag=()
  name="cluster-$CLUSTER_RATE"
  if [ "$mode" = kill ]; then kill_flag=(--kill-second "$SECOND_PID"); name=cluster-kill; fi
  RUN_LIMIT=180 run "$name" cluster --target "$P" --second-target "http://127.0.0.1:$SECOND_PORT" \
    --rate "$CLUSTER_RATE" --duration "$LOAD_SECS" --customers 100 --agents 4 --drain 20 \
    "${kill_flag[@]}"
  stop_parley
  statements parley_cluster "$name"
done
stop_postgres

fi

if wanted send; then
echo "== send"
for r in $SEND_RATES; do
  start_parley
  run "send-$r" send --target "$P" --rate "$r" --duration "$LOAD_SECS" --customers 20 --agents 2 \
    --drain 30
  stop_parley
done

fi

if wanted bulk; then
echo "== bulk"
start_parley PARLEY_OUTBOX__RATE_PER_SECOND="$BULK_RATE" \
  PARLEY_SANDBOX__RATE_PER_SECOND=$((BULK_RATE * 10))
run "bulk-$BULK_RECIPIENTS" bulk --target "$P" --recipients "$BULK_RECIPIENTS" --rate "$BULK_RATE" \
  --sandbox-log "$PARLEY_DATA/sandbox-sent.jsonl" --drain 120
stop_parley

fi

if wanted biginbox; then
echo "== big inbox"
# One business with 100,000 conversations and 1,000,000 messages, seeded through batched signed
# webhooks, then each read timed one after another: on SQLite, then on the suite's own Postgres.
# Seeding takes longer than the other runs' 900 s bound. No simulated customers: they would
# write today while the seed writes the past, and search windows read the newest first.
export RUN_LIMIT=3600
start_parley PARLEY_SANDBOX__SIMULATED_CUSTOMERS=0
run "biginbox-sqlite" big-inbox --target "$P" $BIG --max-inflight 4 --server-pid "$SERVER_PID"
stop_parley
start_postgres
fresh_database parley_big
start_parley DATABASE_URL="$PG_URL/parley_big" PARLEY_SANDBOX__SIMULATED_CUSTOMERS=0
# The reads start once VACUUM ANALYZE has passed over the seed, as autovacuum has over a
# long-lived history (until then index-only scans visit the table, and the pass itself competes
# with the reads for core 0), and a checkpoint has written the seed's pages out (the checkpoint
# the seed's WAL set off spreads its writes over minutes, on core 0, into the reads).
run "biginbox-postgres" big-inbox --target "$P" $BIG --max-inflight 4 --server-pid "$SERVER_PID" \
  --before-reads "psql -q $PG_URL/parley_big -c 'VACUUM ANALYZE' -c CHECKPOINT"
stop_parley
statements parley_big biginbox-postgres
stop_postgres
unset RUN_LIMIT

fi

if wanted firstload; then
echo "== firstload"
# The web app's bytes on a first visit (a size check on the build), then a 10,000-row chat list
# scrolled in Chromium while a PerformanceObserver counts long tasks.
(cd web && npm install --no-audit --no-fund --loglevel=error && npm run build &&
  node scripts/first-load.mjs --json) >"$OUT/firstload-size.json"
cat "$OUT/firstload-size.json"
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
start_parley PARLEY_SANDBOX__SIMULATED_CUSTOMERS=0 PARLEY_SANDBOX__REPLY_PROBABILITY=0
echo "node web/bench/chat-list-scroll.mjs" >"$OUT/firstload-scroll.cmd"
PARLEY_URL=$P timeout 900 node web/bench/chat-list-scroll.mjs >"$OUT/firstload-scroll.json" ||
  echo "firstload-scroll failed" | tee -a "$OUT/failures.txt"
cat "$OUT/firstload-scroll.json"
stop_parley

fi

echo "== report"
python3 loadtest/bench/report.py "$OUT" docs/BENCHMARKS.md docs/bench-latency.png
echo "wrote docs/BENCHMARKS.md"
