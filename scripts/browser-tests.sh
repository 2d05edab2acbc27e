#!/usr/bin/env bash
# Browser tests of the web app: Debian's Chromium driven by playwright-core (web/e2e/*.test.mjs,
# node's test runner) against the real server with the sandbox provider. Two servers run: the
# main one and one whose access tokens live 3 seconds, for the token-refresh tests.
# Arguments name test files to run alone.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian chromium"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

echo "== web: production build"
(cd web && npm install --no-audit --no-fund --loglevel=error && npm run build)

echo "== server build"
cargo build -q -p parley-server --bin parley

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

pids=()
dirs=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  for dir in "${dirs[@]}"; do rm -rf "$dir"; done
}
trap cleanup EXIT

# start_server PORT [ENV=VALUE...]: runs a server on a fresh data dir and waits for its health check.
start_server() {
  local port=$1
  shift
  local data
  data=$(mktemp -d)
  dirs+=("$data")
  env "$@" PARLEY_SERVER__WEB_DIR="$root/web/dist" PARLEY_SERVER__PUBLIC_URL="http://127.0.0.1:$port" \
    target/debug/parley serve --bind "127.0.0.1:$port" --data-dir "$data" >"$data/server.log" 2>&1 &
  pids+=("$!")
  for _ in $(seq 1 100); do
    if curl -sfI "http://127.0.0.1:$port/api/health" >/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "server on port $port did not start:" >&2
  cat "$data/server.log" >&2
  return 1
}

# The sandbox's customers never answer at random here, so a test sees only what it caused.
# Every test registers its own business, all from this one address.
port=$(free_port)
start_server "$port" RUST_LOG=warn PARLEY_SANDBOX__REPLY_PROBABILITY=0 PARLEY_AUTH__MAX_REGISTRATIONS_PER_ADDRESS=1000
short_port=$(free_port)
start_server "$short_port" RUST_LOG=warn PARLEY_SANDBOX__REPLY_PROBABILITY=0 PARLEY_AUTH__ACCESS_TOKEN_TTL_SECS=3

export PARLEY_URL="http://127.0.0.1:$port"
export PARLEY_SHORT_TTL_URL="http://127.0.0.1:$short_port"

echo "== browser tests"
node --test --test-concurrency=1 "${@:-web/e2e/}"
