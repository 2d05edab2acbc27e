#!/usr/bin/env bash
# The sandbox driven by pywa, an off-the-shelf Python client of the WhatsApp Cloud API
# (scripts/pywa/sandbox_test.py): pywa is installed into a virtualenv under target/, the server
# runs with the sandbox provider on a free port and a fresh data dir, a business is registered
# to get its sandbox number and token, and the Python test runs against it.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/pywa-venv
if [ ! -x "$venv/bin/python" ]; then
  echo "== installing pywa into $venv"
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check "pywa>=4.5,<5"

cargo build -q -p parley-server --bin parley

free_port() {
  "$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

port=$(free_port)
data=$(mktemp -d)
PARLEY_SERVER__PUBLIC_URL="http://127.0.0.1:$port" RUST_LOG=warn \
  PARLEY_SANDBOX__SIMULATED_CUSTOMERS=0 PARLEY_SANDBOX__REPLY_PROBABILITY=0 \
  target/debug/parley serve --bind "127.0.0.1:$port" --data-dir "$data" >"$data/server.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT

export PARLEY_URL="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
  if curl -sfI "$PARLEY_URL/api/health" >/dev/null; then break; fi
  sleep 0.2
done

# A business of its own: the sandbox number, its access token and account come with it.
registered=$(curl -sf "$PARLEY_URL/identity/auth/register" -H 'Content-Type: application/json' \
  -d '{"firstName":"Py","lastName":"Wa","username":"pywa","email":"pywa@example.com","password":"correct horse"}') || {
  echo "registration failed; server log:" >&2
  cat "$data/server.log" >&2
  exit 1
}
APP_TOKEN=$(echo "$registered" | "$venv/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
profile=$(curl -sf "$PARLEY_URL/identity/users/profile" -H "Authorization: Bearer $APP_TOKEN")
field() { echo "$profile" | "$venv/bin/python" -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
export APP_TOKEN
PHONE_ID=$(field phoneNumberId)
WABA_ID=$(field whatsappBusinessAccountID)
TOKEN=$(field accessToken)
export PHONE_ID WABA_ID TOKEN

echo "== pywa against the sandbox"
"$venv/bin/python" scripts/pywa/sandbox_test.py
