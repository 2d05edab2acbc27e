#!/usr/bin/env bash
# Schemathesis fuzzes every route of the OpenAPI document the server serves at
# /api/openapi.json, on SQLite and then on Postgres: no answer may be a server error, and every
# answer must match its documented schema (settings in scripts/schemathesis.toml).
#
# Schemathesis is installed from PyPI into a virtualenv under target/. The server is the debug
# binary `cargo test` builds, with the sandbox provider, on a free port and a fresh data dir (and
# a fresh Postgres database). A registered business gives the bearer token.
#
# Each backend runs in three passes under that one token, so that every route is exercised and
# none pulls the ground from under the others:
#   1. every route but the two below;
#   2. PATCH /identity/users/profile and PATCH /api/users/profile: fuzzed credentials overwrite
#      the sandbox's phone number id and access token, after which every route that calls the
#      provider answers 503 (rightly) for the rest of the run;
#   3. POST /identity/auth/logout-all: it revokes the token every other request carries.
#
# MAX_EXAMPLES (default 10) bounds the cases per route; both backends take about 3 minutes on
# 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/schemathesis-venv
if [ ! -x "$venv/bin/python" ]; then
  echo "== installing schemathesis into $venv"
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check "schemathesis>=4.32,<5"

cargo build -q -p parley-server --bin parley

max_examples=${MAX_EXAMPLES:-10}
pg_base=$(scripts/ensure-postgres.sh)
pg_db="parley_test_schemathesis_$$"

free_port() {
  "$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

server=""
data=""
stop_server() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  fi
  if [ -n "$data" ]; then
    rm -rf "$data"
    data=""
  fi
}
cleanup() {
  stop_server
  psql "$pg_base" -qc "drop database if exists $pg_db" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# Runs schemathesis with the shared options and the filters given.
fuzz() {
  "$venv/bin/schemathesis" --config-file scripts/schemathesis.toml run "$url/api/openapi.json" \
    --url "$url" -H "Authorization: Bearer $token" --max-examples "$max_examples" --workers 2 \
    --generation-database none --no-color "$@"
}

# Starts the server on the database URL given (empty: SQLite in the data dir) and fuzzes it.
run_backend() {
  local name=$1 database_url=$2
  echo "== schemathesis on $name"
  local port
  port=$(free_port)
  data=$(mktemp -d)
  url="http://127.0.0.1:$port"
  DATABASE_URL="$database_url" PARLEY_SERVER__PUBLIC_URL="$url" RUST_LOG=warn \
    PARLEY_SANDBOX__SIMULATED_CUSTOMERS=0 PARLEY_SANDBOX__REPLY_PROBABILITY=0 \
    target/debug/parley serve --bind "127.0.0.1:$port" --data-dir "$data" >"$data/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do
    if curl -sfI "$url/api/health" >/dev/null; then break; fi
    sleep 0.2
  done
  local registered
  registered=$(curl -sf "$url/identity/auth/register" -H 'Content-Type: application/json' \
    -d '{"firstName":"Schema","lastName":"Thesis","username":"schemathesis","email":"schemathesis@example.com","password":"correct horse"}') || {
    echo "registration failed; server log:" >&2
    cat "$data/server.log" >&2
    exit 1
  }
  token=$(echo "$registered" | "$venv/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')

  local status=0
  fuzz --exclude-operation-id logout_all --exclude-operation-id update_profile \
    --exclude-operation-id update_user || status=1
  fuzz --include-operation-id update_profile --include-operation-id update_user || status=1
  fuzz --include-operation-id logout_all || status=1
  if [ "$status" != 0 ]; then
    echo "schemathesis found failures on $name; the server's panics, if any:" >&2
    grep -A 2 panicked "$data/server.log" | head -20 >&2 || true
    exit 1
  fi
  stop_server
}

run_backend SQLite ""
psql "$pg_base" -qc "create database $pg_db" >/dev/null
run_backend Postgres "$(echo "$pg_base" | sed "s#/[^/]*\$#/$pg_db#")"
echo "schemathesis: no server errors and no schema mismatches on SQLite and Postgres"
