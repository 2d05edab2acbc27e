"""The Postgres sections of docs/BENCHMARKS.md, written by report.py: the inbox on Postgres, two
nodes on one Postgres (cross-node delivery, a node killed), where Postgres spends its time in the
busiest inbox run, and what a NOTIFY costs a commit."""
import json
import os
import re
import textwrap

from repeats import run_names


def postgres_sections(results, w, load, f, inbox_table):
    """Writes the sections through `w`; answers the Postgres inbox's (rate, p50, p99) points."""
    w("## inbox on Postgres: the same runs, Parley on the suite's own Postgres")
    w("")
    w("Postgres 15 with `fsync = on` and `synchronous_commit = on`, pinned to core 0 with Parley.")
    w("")
    points = inbox_table("inbox-pg-")
    busiest = max((p[0] for p in points), default=None)
    if busiest is not None:
        autovacuum_table(results, load, f, w, busiest)
        statement_table(results, f"inbox-pg-{busiest}", f, w)
    notify_table(results, f, w)
    cluster_table(load, f, w)
    return points


def autovacuum_table(results, load, f, w, rate):
    """Autovacuum's first pass over each run's fresh database at `rate`: when it ended on each
    table, against the run's load window (and the 2 s after it) and its p99."""
    rows = []
    for name in run_names("inbox-pg-", rate):
        path = os.path.join(results, name + ".autovacuum.json")
        run = load(name)
        if not (run and os.path.exists(path)):
            continue
        with open(path) as fh:
            passes = json.load(fh)
        window = run["duration_secs"]
        # A pass takes about a second: one that ends just after the load still ran in it.
        inside = [p for p in passes if p["after_s"] <= window + 2]
        when = "none"
        if inside:
            tables = ", ".join(dict.fromkeys(p["table_name"] for p in inside))
            when = (f"{len(inside)} from +{f(inside[0]['after_s'], 1)} to "
                    f"+{f(inside[-1]['after_s'], 1)} s ({tables})")
        rows.append(f"| `{name}` | {f(window, 0)} s | {when} | {f(run['p99_ms'], 2)} |")
    if not rows:
        return
    w(textwrap.fill(
        f"Autovacuum's passes over each {rate:,}/s run's fresh database that ended within its "
        "load window or the 2 s after it (seconds after the generator started). Its first pass "
        "vacuums and analyzes every table at once, about half a second of CPU on the shared "
        "core ([ADR 0052](decisions/0052-autovacuum-in-the-postgres-inbox-run.md)):",
        width=96, break_on_hyphens=False))
    w("")
    w("| run | load | autovacuum passes ended in the window | p99 ms |")
    w("|---|---|---|---|")
    for row in rows:
        w(row)
    w("")


def statement_table(results, name, f, w):
    path = os.path.join(results, name + ".statements.json")
    if not os.path.exists(path):
        return
    with open(path) as fh:
        rows = json.load(fh)
    w(f"Where Postgres spent its time in `{name}` (`pg_stat_statements`, top statements by total time):")
    w("")
    w("| calls | total ms | mean ms | rows | statement |")
    w("|---|---|---|---|---|")
    for r in rows:
        query = " ".join(r["query"].split()).replace("|", "\\|")
        w(f"| {r['calls']:,} | {f(r['total_ms'], 0)} | {f(r['mean_ms'], 3)} | {r['rows']:,} | `{query}` |")
    w("")


def pgbench(results, variant):
    """(transactions/s, mean latency ms) of one pgbench run, or None."""
    path = os.path.join(results, f"pgnotify-{variant}.txt")
    text = open(path).read() if os.path.exists(path) else ""
    tps = re.search(r"tps = ([\d.]+)", text)
    latency = re.search(r"latency average = ([\d.]+) ms", text)
    if not (tps and latency):
        return None
    return float(tps.group(1)), float(latency.group(1))


def notify_table(results, f, w):
    variants = {
        "insert": "INSERT, commit",
        "insert-notify": "INSERT and NOTIFY, one commit",
        "insert-then-notify": "INSERT, commit; then NOTIFY, commit (Parley's way)",
    }
    measured = {v: pgbench(results, v) for v in variants}
    if not any(measured.values()):
        return
    w("What a NOTIFY costs a commit (pgbench, 8 clients, one row a transaction):")
    w("")
    w("| transaction | transactions/s | mean latency ms |")
    w("|---|---|---|")
    for variant, label in variants.items():
        m = measured[variant]
        w(f"| {label} | {f(m[0], 0) if m else 'run failed'} | {f(m[1], 2) if m else ''} |")
    w("")


def cluster_table(load, f, w):
    runs = [(name, load(name)) for name in ("cluster-1000", "cluster-200", "cluster-kill")]
    runs = [(name, r) for name, r in runs if r]
    if not runs:
        return
    w("## cluster: two nodes on one Postgres")
    w("")
    w("Customer n's webhooks go to node n % 2; the agents following them are connected to the other")
    w("node, so every delivery crosses nodes (both nodes and Postgres on core 0, the generator on")
    w("core 1). In *kill* the second node gets SIGKILL halfway through: its webhooks then go to the")
    w("first node (a failed post is retried there, as the provider retries) and its agents reconnect")
    w("there and resume after the last event they saw.")
    w("")
    w("| run | offered/s | agents | delivered msg/s | p50 ms | p90 ms | p99 ms | max ms | lost | dup | errors | reconnected |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, r in runs:
        run = "second node killed" if name == "cluster-kill" else "both nodes up"
        w(f"| {run} | {f(r['offered_rate'], 0)} | {r['agents']} | {f(r['delivered_per_sec'], 0)} | {f(r['p50_ms'], 2)} | {f(r['p90_ms'], 2)} | {f(r['p99_ms'], 2)} | {f(r['max_ms'], 2)} | {r['lost']:,} | {r['duplicates']} | {r['errors']} | {r.get('reconnected', 0)} |")
    w("")
