#!/usr/bin/env bash
# Prints a Postgres URL for the test suite's Postgres leg. Uses PARLEY_TEST_DATABASE_URL when it
# answers; otherwise starts the machine's cluster (installing Debian's postgresql first when
# running as root and it is missing). Fails loudly: the Postgres leg is never skipped.
set -euo pipefail

if [ -n "${PARLEY_TEST_DATABASE_URL:-}" ] && psql "$PARLEY_TEST_DATABASE_URL" -Atqc 'select 1' >/dev/null 2>&1; then
  echo "$PARLEY_TEST_DATABASE_URL"
  exit 0
fi

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    echo "Postgres is not installed and this is not root: install postgresql or set PARLEY_TEST_DATABASE_URL" >&2
    exit 1
  fi
  echo "installing postgresql..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi

version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -q "^$version main$"; then
  pg_createcluster "$version" main >&2
fi
if ! pg_lsclusters -h | awk '$1=="'"$version"'" && $2=="main" {print $4}' | grep -q online; then
  pg_ctlcluster "$version" main start >&2
fi
port=$(pg_lsclusters -h | awk '$1=="'"$version"'" && $2=="main" {print $3}')
password=parley_test
su postgres -c "psql -p $port -Atqc \"ALTER USER postgres PASSWORD '$password'\"" >/dev/null
url="postgres://postgres:$password@127.0.0.1:$port/postgres"
for _ in $(seq 1 30); do
  psql "$url" -Atqc 'select 1' >/dev/null 2>&1 && { echo "$url"; exit 0; }
  sleep 1
done
echo "Postgres did not answer at 127.0.0.1:$port" >&2
exit 1
