# Sourced by the scripts that drive a real server with a Python tool from PyPI
# (pywa-tests.sh, schemathesis.sh): the tool's virtualenv, and the debug server with the
# sandbox provider on a free port, a fresh data dir and no simulated customers.

# python_venv DIR SPEC: a virtualenv under target/ with SPEC installed into it.
python_venv() {
  if [ ! -x "$1/bin/python" ]; then
    echo "== installing $2 into $1"
    python3 -m venv "$1"
  fi
  "$1/bin/pip" install -q --disable-pip-version-check "$2"
}

# start_server [DATABASE_URL]: builds and starts the server (SQLite in its data dir when no
# URL is given), waits until it answers, and sets `server` (its pid), `data` (its data dir, with
# server.log) and `url`.
start_server() {
  cargo build -q -p parley-server --bin parley
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  data=$(mktemp -d)
  url="http://127.0.0.1:$port"
  DATABASE_URL="${1:-}" PARLEY_SERVER__PUBLIC_URL="$url" RUST_LOG=warn \
    PARLEY_SANDBOX__SIMULATED_CUSTOMERS=0 PARLEY_SANDBOX__REPLY_PROBABILITY=0 \
    target/debug/parley serve --bind "127.0.0.1:$port" --data-dir "$data" >"$data/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do
    if curl -sfI "$url/api/health" >/dev/null; then return 0; fi
    sleep 0.2
  done
}

# stop_server: ends the server started above and removes its data dir.
stop_server() {
  if [ -n "${server:-}" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  fi
  if [ -n "${data:-}" ]; then
    rm -rf "$data"
    data=""
  fi
}

# register_business USERNAME: signs up a business with its owner and prints the answer's JSON.
register_business() {
  curl -sf "$url/identity/auth/register" -H 'Content-Type: application/json' \
    -d '{"firstName":"Test","lastName":"Owner","username":"'"$1"'","email":"'"$1"'@example.com","password":"correct horse"}' || {
    echo "registration failed; server log:" >&2
    cat "$data/server.log" >&2
    return 1
  }
}
