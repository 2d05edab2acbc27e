# Sourced by scripts/bench.sh: the suite's own Postgres, its databases, the statement profile of
# a run and the commit cost of NOTIFY. Uses OUT, PG_PORT, PG_BIN and HOLD from bench.sh.

# The suite's own Postgres: initdb into $OUT/postgres, its own port, pinned to core 0 beside
# Parley (the generator keeps core 1), durable commits (fsync and synchronous_commit on, the
# defaults, set here so no local config can change them), pg_stat_statements for the profile.
AS_POSTGRES=()
[ "$(id -u)" = 0 ] && AS_POSTGRES=(runuser -u postgres --)
PG_URL=postgres://postgres@127.0.0.1:$PG_PORT
start_postgres() {
  [ -n "$PG_BIN" ] && return 0
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  PG_BIN=/usr/lib/postgresql/$(ls /usr/lib/postgresql | sort -n | tail -1)/bin
  rm -rf "$OUT/postgres"
  mkdir -p "$OUT/postgres"
  [ "$(id -u)" = 0 ] && chown postgres: "$OUT/postgres"
  timeout 120 "${AS_POSTGRES[@]}" "$PG_BIN/initdb" -D "$OUT/postgres/data" -U postgres -A trust \
    -E UTF8 >"$OUT/postgres-initdb.log" 2>&1
  local options=(-p "$PG_PORT" -k "$OUT/postgres" -c listen_addresses=127.0.0.1 -c fsync=on
    -c synchronous_commit=on -c max_connections=200 -c shared_buffers=256MB
    -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all)
  timeout 120 taskset -c 0 "${AS_POSTGRES[@]}" "$PG_BIN/pg_ctl" -D "$OUT/postgres/data" -w -t 60 \
    -l "$OUT/postgres/postgres.log" -o "${options[*]}" start >/dev/null
  timeout 30 psql "$PG_URL/postgres" -qc 'CREATE EXTENSION pg_stat_statements'
}

stop_postgres() {
  [ -n "$PG_BIN" ] || return 0
  timeout 60 "${AS_POSTGRES[@]}" "$PG_BIN/pg_ctl" -D "$OUT/postgres/data" -m fast -w stop \
    >/dev/null 2>&1 || true
  PG_BIN=""
  rm -rf "$OUT/postgres"
}

fresh_database() { # NAME: an empty database on the suite's Postgres, the statement counts reset
  PGOPTIONS="-c client_min_messages=warning" timeout 60 psql "$PG_URL/postgres" -qc \
    "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" \
    -c 'SELECT pg_stat_statements_reset()' >/dev/null
}

# autovacuum_passes DATABASE RUN START: when autovacuum last vacuumed and analyzed each of
# DATABASE's tables, in seconds after START (epoch seconds, the run's start), as JSON in
# $OUT/RUN.autovacuum.json: a fresh database's first pass comes at a moment of its own.
autovacuum_passes() {
  timeout 60 psql "$PG_URL/$1" -Atc "SELECT coalesce(json_agg(p ORDER BY p.after_s), '[]') FROM (
      SELECT relname AS table_name, 'vacuum' AS pass,
             round((extract(epoch FROM last_autovacuum) - $3)::numeric, 2) AS after_s
      FROM pg_stat_user_tables WHERE last_autovacuum IS NOT NULL
      UNION ALL
      SELECT relname, 'analyze', round((extract(epoch FROM last_autoanalyze) - $3)::numeric, 2)
      FROM pg_stat_user_tables WHERE last_autoanalyze IS NOT NULL) p" \
    >"$OUT/$2.autovacuum.json" || true
}

# statements DATABASE RUN: the statements that took the most time in DATABASE since it was made,
# as JSON in $OUT/RUN.statements.json; then the database is dropped.
statements() {
  timeout 60 psql "$PG_URL/postgres" -Atc "SELECT coalesce(json_agg(s), '[]') FROM (
      SELECT calls, round(total_exec_time::numeric, 1) AS total_ms,
             round(mean_exec_time::numeric, 3) AS mean_ms, rows, left(query, 160) AS query
      FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '$1')
      ORDER BY total_exec_time DESC LIMIT 12) s" >"$OUT/$2.statements.json" || true
  timeout 60 psql "$PG_URL/postgres" -qc "DROP DATABASE IF EXISTS $1" || true
}

# What NOTIFY costs a commit: pgbench (on the generator's core) inserts one row per transaction
# from 8 clients: bare, with a NOTIFY in the same transaction (every notifying commit takes one
# database-wide lock), and with the notice sent after the commit in a transaction of its own (as
# Parley's notifier does, many notices a statement).
notify_cost() {
  fresh_database parley_notify
  timeout 60 psql "$PG_URL/parley_notify" -qc 'CREATE TABLE t (id bigserial PRIMARY KEY, body text)'
  local insert notice variant
  insert="INSERT INTO t (body) VALUES (repeat('x', 300));"
  notice="SELECT pg_notify('parley_events', '{\"node\":\"n\",\"business_id\":\"b\"}');"
  printf '%s\n' "$insert" >"$OUT/pgnotify-insert.sql"
  printf '%s\n' BEGIN\; "$insert" "$notice" COMMIT\; >"$OUT/pgnotify-insert-notify.sql"
  printf '%s\n' "$insert" "$notice" >"$OUT/pgnotify-insert-then-notify.sql"
  for variant in insert insert-notify insert-then-notify; do
    timeout 60 taskset -c 1 "$PG_BIN/pgbench" -n -c 8 -j 2 -T "$HOLD" \
      -f "$OUT/pgnotify-$variant.sql" "$PG_URL/parley_notify" >"$OUT/pgnotify-$variant.txt" 2>&1 ||
      echo "pgnotify-$variant failed" | tee -a "$OUT/failures.txt"
  done
  timeout 60 psql "$PG_URL/postgres" -qc 'DROP DATABASE IF EXISTS parley_notify'
}
