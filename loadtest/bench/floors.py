"""Floors for docs/BENCHMARKS.md: loopback HTTP round trip and one fsync'd write.

usage: floors.py RTT_URL DIR  -> prints JSON {rtt_p50_us, rtt_p99_us, fsync_p50_us, fsync_p99_us}
"""
import http.client
import json
import os
import sys
import time
import urllib.parse


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def rtt(url, n=5000):
    u = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port)
    samples = []
    for _ in range(n):
        t = time.perf_counter_ns()
        conn.request("GET", u.path)
        conn.getresponse().read()
        samples.append((time.perf_counter_ns() - t) / 1000)
    return samples


def fsync(directory, n=300):
    path = os.path.join(directory, "fsync-probe.tmp")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    block = b"x" * 4096
    samples = []
    try:
        for i in range(n):
            os.pwrite(fd, block, (i % 16) * 4096)
            t = time.perf_counter_ns()
            os.fdatasync(fd)
            samples.append((time.perf_counter_ns() - t) / 1000)
    finally:
        os.close(fd)
        os.unlink(path)
    return samples


if __name__ == "__main__":
    r = rtt(sys.argv[1])
    f = fsync(sys.argv[2])
    print(json.dumps({
        "rtt_p50_us": round(pct(r, 0.5), 1), "rtt_p99_us": round(pct(r, 0.99), 1),
        "fsync_p50_us": round(pct(f, 0.5), 1), "fsync_p99_us": round(pct(f, 0.99), 1),
    }))
