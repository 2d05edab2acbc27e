"""Writes docs/BENCHMARKS.md (and the latency plot) from a bench run's JSON files.

usage: report.py RESULTS_DIR BENCHMARKS_MD PLOT_PNG
The hand-written findings in loadtest/bench/findings.md are appended as they are.
"""
import glob
import json
import os
import platform
import re
import subprocess
import sys
from datetime import datetime, timezone

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


def sizes(prefix):
    found = set()
    for path in glob.glob(os.path.join(results, prefix + "*.json")):
        m = re.search(r"-(\d+)\.json$", path)
        if m:
            found.add(int(m.group(1)))
    return sorted(found)


def f(x, digits=1):
    return "–" if x is None else f"{x:,.{digits}f}"


lines = []
w = lines.append
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
mem = next((l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal")), "0")
w("# Benchmarks")
w("")
w("Reproduce with one command: `make bench` (runs `scripts/bench.sh`, about 40 minutes, 14 of them the bulk job). It builds")
w("release binaries, starts Parley (SQLite, WAL, `synchronous = full`) pinned to core 0 with")
w("`taskset -c 0` and `parley-loadtest` on core 1, then runs `idle` and `fanout` against Parley and")
w("against nginx + nchan (Debian's `nginx-light` + `libnginx-mod-nchan`, one worker, also on core 0),")
w("`inbox` at rising rates and `send`. Each size runs on a freshly started server. Figures below are")
w("from one run; latency is measured from each message's *scheduled* send time (open loop).")
w("")
w("## Machine")
w("")
w("| | |")
w("|---|---|")
w(f"| date | {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} |")
w(f"| commit | {sh('git', 'rev-parse', '--short', 'HEAD')} |")
w(f"| CPU | {cpu}, {os.cpu_count()} cores |")
w(f"| memory | {int(mem) // 1024 // 1024} GiB |")
w(f"| kernel | {platform.release()} |")
w(f"| rustc | {sh('rustc', '-V')} |")
w(f"| nginx / nchan | {sh('dpkg-query', '-W', '-f', '${Version}', 'nginx-light')} / {sh('dpkg-query', '-W', '-f', '${Version}', 'libnginx-mod-nchan')} |")
w("| open files per process | 20,000 (hard limit, cannot be raised) |")
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
    w(f"One durable commit costs about {fs_p50 / 1000:.2f} ms here, so one transaction per message "
      f"bounds durable ingest near {1e6 / fs_p50:,.0f} messages/s per writer; more needs group commit.")
    w("")

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
            w(f"| {peer} | {n:,} | run failed | | | | | | | |")
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
w("The publish rate rises by 2^(1/4) (x1.19) every 3 s step until two steps in a row pass the")
w("p99 bound (or lose a delivery): from 400/s with a 50 ms bound for 100 followers, from 40/s with a")
w("500 ms bound for 1,000 followers (the generator's one core reads each 1,000-frame burst")
w("serially). Best = the step with the most deliveries/s within the bound.")
w("")
w("nchan runs twice: **nchan** publishes messages padded to the mean size of Parley's frames in")
w("the same run (`--frame-bytes`, the `frame bytes` column), so both servers write and the")
w("generator reads the same bytes per delivery; **nchanbare** publishes the bare ~30-byte markers.")
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
for n in sizes("fanout-"):
    for peer in FANOUT_PEERS:
        r = load(f"fanout-{peer}-{n}")
        if not r:
            continue
        w(f"<details><summary>{peer}, {n:,} sessions: every step</summary>")
        w("")
        w("| publish rate | published | deliveries/s | p50 ms | p90 ms | p99 ms | max ms | lost |")
        w("|---|---|---|---|---|---|---|---|")
        for s in r.get("steps", []):
            w(f"| {f(s['offered_rate'], 0)} | {s['published']:,} | {f(s['delivered_per_sec'], 0)} | {f(s['p50_ms'], 2)} | {f(s['p90_ms'], 2)} | {f(s['p99_ms'], 2)} | {f(s['max_ms'], 2)} | {s['lost']:,} |")
        w("")
        w("</details>")
        w("")

# Inbox
w("## inbox: signed webhooks → persisted → pushed to agents")
w("")
w("100 customers, 2 agents each following all 100 conversations, one message per webhook, mixed")
w("types (text, image, document, interactive, button, location). Latency: scheduled send → arrival")
w("at each agent; ack: scheduled send → webhook's 200.")
w("")
w("| offered/s | seconds | messages | delivered msg/s | p50 ms | p90 ms | p99 ms | max ms | ack p50 ms | ack p99 ms | lost | dup | errors | steal |")
w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
inbox_points = []
for r_ in sizes("inbox-"):
    r = load(f"inbox-{r_}")
    if not r:
        w(f"| {r_:,} | run failed | | | | | | | | | | | | |")
        continue
    msgs = r["expected"] // max(1, r["sessions"])
    inbox_points.append((r_, r["p50_ms"], r["p99_ms"], r["delivered_per_sec"]))
    w(f"| {r_:,} | {f(r['duration_secs'], 0)} | {msgs:,} | {f(r['delivered_per_sec'], 0)} | {f(r['p50_ms'], 2)} | {f(r['p90_ms'], 2)} | {f(r['p99_ms'], 2)} | {f(r['max_ms'], 2)} | {f(r.get('ack_p50_ms'), 2)} | {f(r.get('ack_p99_ms'), 2)} | {r['lost']:,} | {r['duplicates']} | {r['errors']} | {steal(f'inbox-{r_}')} |")
w("")
w("*steal*: the share of the VM's CPU time the hypervisor took during the run (`/proc/stat`);")
w("this box is a shared VM, and latency figures only compare between runs at similar steal.")
w("")
w("![Latency against offered rate](bench-latency.png)")
w("")

# Send
w("## send: agents send through /api/send-message, receipts from the sandbox")
w("")
w("| offered/s | sends/s | send p50 ms | send p99 ms | delivered p50 ms | delivered p99 ms | read p50 ms | read p99 ms | sent | lost | dup | errors |")
w("|---|---|---|---|---|---|---|---|---|---|---|---|")
def rows(prefix, columns, row):
    """One table row per run of `prefix`; a failed run fills the rest of its `columns` blank."""
    for r_ in sizes(prefix):
        r = load(f"{prefix}{r_}")
        w(row(r_, r) if r else f"| {r_:,} | run failed |" + " |" * (columns - 2))


rows("send-", 12, lambda r_, r: f"| {r_:,} | {f(r['delivered_per_sec'], 0)} | {f(r['p50_ms'], 2)} | {f(r['p99_ms'], 2)} | {f(r.get('delivered_p50_ms'), 2)} | {f(r.get('delivered_p99_ms'), 2)} | {f(r.get('read_p50_ms'), 2)} | {f(r.get('read_p99_ms'), 2)} | {r['expected']:,} | {r['lost']} | {r['duplicates']} | {r['errors']} |")
w("")
w("Receipt times include the sandbox's configured delivered/read delays.")
w("")

# Bulk
w("## bulk: one template job, paced by `[outbox] rate_per_second`")
w("")
w("| recipients | configured/s | achieved/s | deviation % | worst 1 s window % | worst 10 s window % | wall s | sent once | lost | dup | errors | finished |")
w("|---|---|---|---|---|---|---|---|---|---|---|---|")
rows("bulk-", 12, lambda r_, r: f"| {r_:,} | {f(r['offered_rate'], 0)} | {f(r['delivered_per_sec'], 1)} | {f(r.get('rate_deviation_pct'), 2)} | {f(r.get('worst_1s_deviation_pct'), 2)} | {f(r.get('worst_10s_deviation_pct'), 2)} | {f(r['duration_secs'], 1)} | {r['delivered']:,} | {r['lost']} | {r['duplicates']} | {r['errors']} | {r.get('job_finished')} |")
w("")
w("Windows run from one `bulk_send_progress` event (pushed at most every 0.5 s) to the first at least 1 s (10 s) later;")
w("lost and duplicates count the recipients in the sandbox's `sandbox-sent.jsonl`.")
w("")

# Commands
w("## Commands")
w("")
w("Each run, as `scripts/bench.sh` issued it (the generator runs under `taskset -c 1`):")
w("")
w("```")
for path in sorted(glob.glob(os.path.join(results, "*.cmd"))):
    w(open(path).read().strip())
w("```")
w("")
failures = os.path.join(results, "failures.txt")
if os.path.exists(failures):
    w("Runs that failed in this run:")
    w("")
    w("```")
    w(open(failures).read().strip())
    w("```")
    w("")

findings = os.path.join(os.path.dirname(__file__), "findings.md")
if os.path.exists(findings):
    w(open(findings).read().rstrip())
    w("")

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
    ax.axhline(50, color="grey", ls="--", lw=0.8)
    ax.axhline(10, color="grey", ls=":", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("offered webhook rate (messages/s)")
    ax.set_ylabel("webhook → agent latency (ms)")
    ax.set_title("inbox (Parley, SQLite synchronous=full)")
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
