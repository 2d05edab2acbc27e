#!/usr/bin/env bash
# The sandbox driven by pywa, an off-the-shelf Python client of the WhatsApp Cloud API
# (scripts/pywa/sandbox_test.py): pywa is installed into a virtualenv under target/, the server
# runs with the sandbox provider on a free port and a fresh data dir, a business is registered
# to get its sandbox number and token, and the Python test runs against it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/sandbox-server.sh

venv=target/pywa-venv
python_venv "$venv" "pywa>=4.5,<5"

start_server
trap stop_server EXIT
export PARLEY_URL="$url"

# A business of its own: the sandbox number, its access token and account come with it.
registered=$(register_business pywa)
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
