# Parley: `make run` starts the inbox at http://127.0.0.1:8080; `make test` runs every test.
.PHONY: run test web build bench

# The binary is where cargo puts it: under CARGO_TARGET_DIR when that is set.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

run: web build
	$(TARGET_DIR)/release/parley serve

build:
	cargo build --release -p parley-server --bin parley

web:
	cd web && npm install --no-audit --no-fund --loglevel=error && npm run build

test:
	scripts/test.sh

# The benchmark suite (about 45 minutes, 14 of them the bulk job; writes docs/BENCHMARKS.md and
# docs/bench-latency.png): see scripts/bench.sh.
bench:
	scripts/bench.sh
