#!/usr/bin/env bash
# Every test of Parley: formatting and lints, the Rust suites on SQLite and Postgres,
# Schemathesis against the served OpenAPI document, the sandbox driven by the pywa Cloud API
# client, the web app's type check, lint and unit tests, and the browser tests against the real
# server.
set -euo pipefail
cd "$(dirname "$0")/.."

PARLEY_TEST_DATABASE_URL=$(scripts/ensure-postgres.sh)
export PARLEY_TEST_DATABASE_URL
drop_test_databases() {
  psql "$PARLEY_TEST_DATABASE_URL" -Atqc \
    "select datname from pg_database where datname like 'parley_test_%'" 2>/dev/null |
    while read -r db; do psql "$PARLEY_TEST_DATABASE_URL" -qc "drop database if exists $db" >/dev/null 2>&1 || true; done
}
trap drop_test_databases EXIT

echo "== cargo fmt / clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings

echo "== Rust tests (SQLite and Postgres)"
cargo test --workspace

echo "== Schemathesis against the OpenAPI document (SQLite and Postgres)"
scripts/schemathesis.sh

echo "== the sandbox driven by pywa, a Cloud API client library"
scripts/pywa-tests.sh

if [ -f web/package.json ]; then
  echo "== web: install, typecheck, lint, unit tests, build with its size budget, native projects sync"
  # `npm test` ends with the build and its first-load budget; `cap sync` copies that build into
  # web/android and web/ios without Gradle, the SDKs or CocoaPods (it skips `pod install` where
  # CocoaPods is missing): docs/NATIVE.md.
  (cd web && npm install --no-audit --no-fund --loglevel=error && npm run typecheck && npm run lint && npm test &&
    npx cap sync)
fi

if [ -x scripts/browser-tests.sh ]; then
  echo "== browser tests"
  scripts/browser-tests.sh
fi
