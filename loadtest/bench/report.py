"""Writes docs/BENCHMARKS.md (and the latency plot) from a bench run's JSON files.

usage: report.py RESULTS_DIR BENCHMARKS_MD PLOT_PNG

The document interleaves what a run measured with the hand-written text of
loadtest/bench/findings.md: the introduction, then the machine (generated), running the suite
(hand-written), failed runs if any, the floors (generated), the targets (hand-written), one
generated section per scenario (idle, fanout, inbox, inbox on Postgres and two nodes from
postgres_sections.py, send, bulk), then the remaining
hand-written sections (what bounds each figure, recipient files, the web app, the decision
records) in findings.md's order.
"""
import glob
import json
import os
import platform
import re
import resource
import subprocess
import sys
import textwrap
from datetime import datetime, timezone

from postgres_sections import postgres_sections
from repeats import repeat_line

results, out_md, out_png = sys.argv[1], sys.argv[2], sys.argv[3]


def load(name):
    path = os.path.join(results, name + ".json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def cmd(name):
    path = os.path.join(results, name + ".cmd")
    return open(path).read().strip() if os.path.exists(path) else ""


def steal(name):
    path = os.path.join(results, name + ".steal")
    return open(path).read().strip() + " %" if os.path.exists(path) else "–"


def sh(*args):
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=10).stdout.strip()
    except Exception:
        return "?"


def sizes(prefix, exact=False):
    """The sizes of the runs named `prefix…-N` (`exact`: named `prefixN`)."""
    found = set()
    for path in glob.glob(os.path.join(results, prefix + "*.json")):
        m = re.search((re.escape(prefix) if exact else "-") + r"(\d+)\.json$", path)
        if m:
            found.add(int(m.group(1)))
    return sorted(found)


def f(x, digits=1):
    return "–" if x is None else f"{x:,.{digits}f}"


def findings():
    """The hand-written parts: (text under the title, {heading: section text}) in file order."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "findings.md")
    text = open(path).read() if os.path.exists(path) else ""
    text = re.sub(r"\A\s*<!--.*?-->\s*", "", text, flags=re.S)
    chunks = re.split(r"^(?=## )", text, flags=re.M)
    intro = chunks[0].strip() if chunks and not chunks[0].startswith("## ") else ""
    sections = {}
    for chunk in chunks:
        if chunk.startswith("## "):
            sections[chunk.split("\n", 1)[0][3:].strip()] = chunk.strip()
    return intro, sections


def bound_ms(name):
    """The p99 bound a fanout run climbed against, from its command."""
    m = re.search(r"--p99-bound-ms (\S+)", cmd(name))
    return float(m.group(1)) if m else None


def over(step, bound):
    return (bound is not None and step["p99_ms"] > bound) or step["lost"] > 0 or step.get("errors", 0) > 0


intro, hand = findings()


def hand_section(heading):
    if heading in hand:
        w(hand.pop(heading))
        w("")
    else:
        print(f"findings.md has no section '## {heading}'", file=sys.stderr)


lines = []
w = lines.append
cpuinfo = open("/proc/cpuinfo").read()
cpu = next((l.split(":", 1)[1].strip() for l in cpuinfo.splitlines() if l.startswith("model name")), "?")
vm = " (a shared VM; steal time is recorded per run)" if re.search(r"^flags\s*:.*\bhypervisor\b", cpuinfo, re.M) else ""
mem = next((l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal")), "0")
nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
w("# Benchmarks")
w("")
if intro:
    w(intro)
    w("")

# Machine
w("## Machine")
w("")
w("| | |")
w("|---|---|")
run = load("run") or {}
w(f"| date | {run.get('started') or datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} |")
w(f"| commit | {run.get('commit') or sh('git', 'rev-parse', '--short', 'HEAD')} |")
w(f"| CPU | {cpu}, {os.cpu_count()} cores{vm} |")
w(f"| memory | {int(mem) // 1024 // 1024} GiB |")
w(f"| kernel | {platform.release()} |")
w(f"| rustc | {sh('rustc', '-V')} |")
w(f"| nginx / nchan | {sh('dpkg-query', '-W', '-f', '${Version}', 'nginx-light')} / {sh('dpkg-query', '-W', '-f', '${Version}', 'libnginx-mod-nchan')} |")
w(f"| open files per process | {'unlimited' if nofile == resource.RLIM_INFINITY else f'{nofile:,}'} (hard limit, cannot be raised) |")
w("")
steals = []
for path in glob.glob(os.path.join(results, "*.steal")):
    try:
        steals.append(float(open(path).read().strip()))
    except ValueError:
        pass
if not steals:
    steal_note = "No steal time was recorded."
elif max(steals) == 0:
    steal_note = "Every run below was at 0 % steal."
else:
    steal_note = f"Steal reached {max(steals):.0f} % in this run's worst case (the `steal` columns)."
w(textwrap.fill("Parley runs pinned to core 0 (`taskset -c 0`), SQLite in WAL mode with `synchronous = full`; "
                "nginx + nchan (Debian's `nginx-light` + `libnginx-mod-nchan`, one worker) also on core 0; the "
                f"generator on core 1. {steal_note} Figures from other hosts do not compare with these.",
                width=96, break_on_hyphens=False))
w("")

hand_section("Running the suite")

failures = os.path.join(results, "failures.txt")
if os.path.exists(failures):
    w("## Runs that failed")
    w("")
    w("```")
    w(open(failures).read().strip())
    w("```")
    w("")

# Floors
fl = load("floors") or {}
w("## Floors")
w("")
w("| floor | p50 | p99 | how |")
w("|---|---|---|---|")
w(f"| loopback HTTP round trip | {f(fl.get('rtt_p50_us'))} µs | {f(fl.get('rtt_p99_us'))} µs | keep-alive GET to nginx `return 200`, Python client, 5,000 requests |")
w(f"| fdatasync of a 4 KiB write | {f(fl.get('fsync_p50_us'))} µs | {f(fl.get('fsync_p99_us'))} µs | 300 writes in the data dir's file system |")
pg = os.path.join(results, "pg_test_fsync.txt")
if os.path.exists(pg):
    txt = open(pg).read()
    m = re.search(r"fdatasync\s+([\d.,]+) ops/sec\s+([\d.,]+) usecs/op", txt)
    if m:
        w(f"| pg_test_fsync, one 8 kB write, fdatasync | {m.group(2)} µs/op | | {m.group(1)} ops/s |")
fs_p50 = fl.get("fsync_p50_us")
w("")
if fs_p50:
    w(f"One durable commit costs about {fs_p50 / 1000:.2f} ms here, so one transaction per message would bound durable")
    w(f"ingest near {round(1e6 / fs_p50, -2):,.0f} messages/s per writer; Parley commits inbound messages in groups")
    w("([ADR 0002](decisions/0002-group-commit.md)).")
    w("")

hand_section("Targets")


def rows(prefix, columns, row):
    """One table row per run of `prefix`; a failed run fills the rest of its `columns` blank."""
    for r_ in sizes(prefix):
        r = load(f"{prefix}{r_}")
        w(row(r_, r) if r else f"| {r_:,} | run failed |" + " |" * (columns - 2))


# Idle
w("## idle: sessions held open")
w("")
w("Server RSS per session is the growth of the server's VmRSS while the sessions after the first")
w("tenth (at least 500, at most half) connect, divided by their number; the first ones get the")
w("server past its start-up (the run's setup hashes passwords, which frees tens of MB an allocator")
w("may keep for a while).")
w("")
w("| peer | sessions | connected | lost | connect p50 ms | connect p99 ms | connects/s | server RSS per session | RSS Parley / nchan |")
w("|---|---|---|---|---|---|---|---|---|")
for n in sizes("idle-"):
    pr, nc = load(f"idle-parley-{n}"), load(f"idle-nchan-{n}")
    for peer, r in (("parley", pr), ("nchan", nc)):
        if not r:
            w(f"| {peer} | {n:,} | run failed | | | | | | |")
            continue
        rss = r.get("rss_per_session_bytes")
        ratio = ""
        if peer == "parley" and nc and rss and nc.get("rss_per_session_bytes"):
            ratio = f"{rss / nc['rss_per_session_bytes']:.2f}×"
        w(f"| {peer} | {n:,} | {r.get('connected', 0):,} | {r['lost']:,} | {f(r['p50_ms'], 2)} | {f(r['p99_ms'], 2)} | {f(r['delivered_per_sec'], 0)} | {f(rss / 1024 if rss else None, 1)} KiB | {ratio} |")
w("")

# Fanout
w("## fanout: one conversation, many followers")
w("")
w("| peer | sessions | frame bytes | best deliveries/s | at publish rate | p50 ms | p99 ms | lost | dup | Parley / peer | steal |")
w("|---|---|---|---|---|---|---|---|---|---|---|")
FANOUT_PEERS = ("parley", "nchan", "nchanbare")
for n in sizes("fanout-"):
    pr = load(f"fanout-parley-{n}")
    for peer in FANOUT_PEERS:
        r = load(f"fanout-{peer}-{n}")
        if not r:
            w(f"| {peer} | {n:,} | run failed | | | | | | | | |")
            continue
        ratio = ""
        if peer != "parley" and pr and r["delivered_per_sec"]:
            ratio = f"{pr['delivered_per_sec'] / r['delivered_per_sec']:.2f}×"
        size = r.get("mean_frame_bytes", "–")
        w(f"| {peer} | {n:,} | {size} | {f(r['delivered_per_sec'], 0)} | {f(r['offered_rate'], 0)}/s | {f(r['p50_ms'], 2)} | {f(r['p99_ms'], 2)} | {r['lost']} | {r['duplicates']} | {ratio} | {steal(f'fanout-{peer}-{n}')} |")
w("")


def best_index(r):
    """The step the run reports as its best (the same publish rate), or None."""
    for i, s in enumerate(r.get("steps", [])):
        if s["offered_rate"] == r["offered_rate"]:
            return i
    return None


def fails(r):
    """The step after the best one, which the climb failed."""
    nxt = r["steps"][best_index(r) + 1:best_index(r) + 2]
    return f"fails {f(nxt[0]['offered_rate'], 0)}/s ({f(nxt[0]['p99_ms'], 0)} ms)" if nxt else "reaches the climb's top"


fanout_sizes = sizes("fanout-")
notes = []
for k, n in enumerate(fanout_sizes):
    runs = {peer: load(f"fanout-{peer}-{n}") for peer in FANOUT_PEERS}
    runs = {peer: r for peer, r in runs.items() if r and r.get("steps") and best_index(r) is not None}
    if k == 0 and runs:
        # The steps around the best ones: two below the lowest best rate, one above the highest.
        rates = sorted({round(s["offered_rate"]) for r in runs.values() for s in r["steps"]})
        bests = [round(r["offered_rate"]) for r in runs.values()]
        lo, hi = rates.index(min(bests)), rates.index(max(bests))
        shown = rates[max(0, lo - 2):hi + 2]
        w(f"Around the best step, {n:,} followers (every step of every peer is in `target/bench/` after a run):")
        w("")
        w("| publish rate | " + " | ".join(f"{peer} p99 ms" for peer in runs) + " |")
        w("|---|" + "---|" * len(runs))
        for rate in shown:
            cells = []
            for r in runs.values():
                s = next((s for s in r["steps"] if round(s["offered_rate"]) == rate), None)
                cells.append(f(s["p99_ms"], 2) if s else "–")
            w(f"| {rate:,}/s | " + " | ".join(cells) + " |")
        w("")
        for peer, r in runs.items():
            b = best_index(r)
            bound = bound_ms(f"fanout-{peer}-{n}")
            back = [s for s in r["steps"][:b] if over(s, bound)]
            if back:
                listed = " and ".join(f"{f(s['offered_rate'], 0)}/s" for s in back)
                notes.append(f"{peer} passes the bound again after one step over it ({listed}), which the climb's rule of two steps in a row allows.")
    elif "parley" in runs:
        r = runs["parley"]
        b = best_index(r)
        bound = bound_ms(f"fanout-parley-{n}")
        best = r["steps"][b]
        text = (f"With {n:,} followers Parley stays within {f(bound, 0)} ms up to {f(best['offered_rate'], 0)} publishes/s"
                f" (p99 {f(best['p99_ms'], 2)} ms)")

        text += f" and {fails(r)}"
        if "nchan" in runs:
            text += f"; nchan {fails(runs['nchan'])}"
        notes.append(text + ".")
if notes:
    w(textwrap.fill(" ".join(notes), width=96, break_on_hyphens=False))
    w("")

# Inbox
def inbox_table(prefix):
    """The inbox runs named `prefixRATE`, a row each; answers (rate, p50, p99) per run."""
    w("| offered/s | seconds | messages | delivered msg/s | p50 ms | p90 ms | p99 ms | max ms | ack p50 ms | ack p99 ms | lost | dup | errors | steal |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    points = []
    for r_ in sizes(prefix, exact=True):
        r = load(f"{prefix}{r_}")
        if not r:
            w(f"| {r_:,} | run failed |" + " |" * 12)
            continue
        msgs = r["expected"] // max(1, r["sessions"])
        points.append((r_, r["p50_ms"], r["p99_ms"]))
        w(f"| {r_:,} | {f(r['duration_secs'], 0)} | {msgs:,} | {f(r['delivered_per_sec'], 0)} | {f(r['p50_ms'], 2)} | {f(r['p90_ms'], 2)} | {f(r['p99_ms'], 2)} | {f(r['max_ms'], 2)} | {f(r.get('ack_p50_ms'), 2)} | {f(r.get('ack_p99_ms'), 2)} | {r['lost']:,} | {r['duplicates']} | {r['errors']} | {steal(f'{prefix}{r_}')} |")
    w("")
    line = repeat_line(load, f, prefix, points[-1][0]) if points else None
    if line:
        w(textwrap.fill(line, width=96, break_on_hyphens=False))
        w("")
    return points


w("## inbox: signed webhooks → persisted → pushed to agents")
w("")
inbox_points = inbox_table("inbox-")
w("*steal*: the share of the VM's CPU time the hypervisor took during the run (`/proc/stat`);")
w("latency figures only compare between runs at similar steal.")
w("")
w("![Latency against offered rate](bench-latency.png)")
w("")

# Postgres: the inbox, two nodes, the statement profile, NOTIFY's cost
inbox_pg_points = postgres_sections(results, w, load, f, inbox_table)

# Send
w("## send: agents send through /api/send-message, receipts from the sandbox")
w("")
w("| offered/s | sends/s | send p50 ms | send p99 ms | delivered p50 ms | delivered p99 ms | read p50 ms | read p99 ms | sent | lost | dup | errors |")
w("|---|---|---|---|---|---|---|---|---|---|---|---|")
rows("send-", 12, lambda r_, r: f"| {r_:,} | {f(r['delivered_per_sec'], 0)} | {f(r['p50_ms'], 2)} | {f(r['p99_ms'], 2)} | {f(r.get('delivered_p50_ms'), 2)} | {f(r.get('delivered_p99_ms'), 2)} | {f(r.get('read_p50_ms'), 2)} | {f(r.get('read_p99_ms'), 2)} | {r['expected']:,} | {r['lost']} | {r['duplicates']} | {r['errors']} |")
w("")
w("Receipt times include the sandbox's configured delivered/read delays (about 1 s and 3–4 s).")
w("")

# Bulk
w("## bulk: one template job, paced by `[outbox] rate_per_second`")
w("")
w("| recipients | configured/s | achieved/s | deviation % | worst 1 s window % | worst 10 s window % | wall s | sent once | lost | dup | errors | finished |")
w("|---|---|---|---|---|---|---|---|---|---|---|---|")
rows("bulk-", 12, lambda r_, r: f"| {r_:,} | {f(r['offered_rate'], 0)} | {f(r['delivered_per_sec'], 1)} | {f(r.get('rate_deviation_pct'), 2)} | {f(r.get('worst_1s_deviation_pct'), 2)} | {f(r.get('worst_10s_deviation_pct'), 2)} | {f(r['duration_secs'], 1)} | {r['delivered']:,} | {r['lost']} | {r['duplicates']} | {r['errors']} | {r.get('job_finished')} |")
w("")
w("Windows run from one `bulk_send_progress` event (pushed at most every 0.5 s) to the first at")
w("least 1 s (10 s) later; lost and duplicates count the recipients in the sandbox's")
w("`sandbox-sent.jsonl`. The worst 1 s window is the token bucket's full first second: it starts")
w("with one second of tokens, so the first second runs at about twice the rate.")
w("")

# Big inbox
BIG_TARGETS = {"list first page": 5, "list later page": 5, "list filtered": 5,
               "contact by phone": 5, "contact by name": 5, "contact by first name": 5,
               "open deep conversation": 5,
               "search rare word": 50, "search common word": 50, "search arabic word": 50,
               "search common prefix": 50}
for backend in ("sqlite", "postgres"):
    r = load(f"biginbox-{backend}")
    if not r:
        continue
    rss = r.get("rss_after_bytes")
    w(f"## Big inbox on {'SQLite' if backend == 'sqlite' else 'Postgres'}")
    w("")
    w(f"{r['customers']:,} conversations and {r['delivered']:,} of {r['expected']:,} messages seeded through signed webhooks of")
    w(f"up to 1,000 messages in {f(r['duration_secs'], 0)} s ({f(r['delivered_per_sec'], 0)} messages/s); server RSS after seeding")
    w(f"{f(rss / 2**20 if rss else None, 0)} MiB. Each read timed {r['queries'][0]['requests']} times one after another, after {r['queries'][0].get('warm_up', 3)} untimed runs:")
    w("")
    w("| read | request | results | p50 ms | p90 ms | p99 ms | max ms | target p99 | verdict |")
    w("|---|---|---|---|---|---|---|---|---|")
    for q in r["queries"]:
        target = BIG_TARGETS.get(q["name"])
        verdict = "" if target is None else ("met" if q["p99_ms"] <= target and not q["errors"] else "missed")
        w(f"| {q['name']} | `{q['path']}` | {q['results']} | {f(q['p50_ms'], 2)} | {f(q['p90_ms'], 2)} | {f(q['p99_ms'], 2)} | {f(q['max_ms'], 2)} | {'≤ ' + str(target) + ' ms' if target else ''} | {verdict} |")
    w("")

# The rest of findings.md (what bounds each figure, recipient files, the web app, the decision
# records), in its order.
for section in hand.values():
    w(section)
    w("")
while lines and lines[-1] == "":
    lines.pop()
lines.append("")

with open(out_md, "w") as fh:
    fh.write("\n".join(lines))

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    ax = axes[0]
    if inbox_points:
        xs = [p[0] for p in inbox_points]
        ax.plot(xs, [max(p[1], 0.01) for p in inbox_points], "o-", label="p50")
        ax.plot(xs, [max(p[2], 0.01) for p in inbox_points], "s-", label="p99")
    if inbox_pg_points:
        xs = [p[0] for p in inbox_pg_points]
        ax.plot(xs, [max(p[2], 0.01) for p in inbox_pg_points], "d--", label="p99, Postgres")
    ax.axhline(50, color="grey", ls="--", lw=0.8)
    ax.axhline(10, color="grey", ls=":", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("offered webhook rate (messages/s)")
    ax.set_ylabel("webhook → agent latency (ms)")
    ax.set_title("inbox (SQLite synchronous=full; Postgres fsync on)")
    ax.legend()
    ax = axes[1]
    for n in sizes("fanout-"):
        for peer, style in (("parley", "o-"), ("nchan", "s--"), ("nchanbare", "^:")):
            r = load(f"fanout-{peer}-{n}")
            if r and r.get("steps"):
                ax.plot([s["offered_rate"] for s in r["steps"]],
                        [max(s["p99_ms"], 0.01) for s in r["steps"]], style,
                        label=f"{peer}, {n} sessions")
    ax.axhline(50, color="grey", ls="--", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("publish rate (messages/s)")
    ax.set_ylabel("p99 publish → follower (ms)")
    ax.set_title("fanout p99")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
except ImportError:
    print("matplotlib missing: no plot", file=sys.stderr)
