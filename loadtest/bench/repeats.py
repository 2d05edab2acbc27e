"""The top inbox rate's three runs, as one line under its table (written by report.py): a p99 is
the tail of one 10 s run, so one run of it is one draw."""
import statistics


def run_names(prefix, rate):
    """The names of the runs at `rate`: `prefix{rate}` and its `-run2`, `-run3` repeats."""
    return [f"{prefix}{rate}", f"{prefix}{rate}-run2", f"{prefix}{rate}-run3"]


def repeat_line(load, f, prefix, rate):
    """The runs at `rate` (`run_names`) summed up; None without repeats."""
    runs = [r for r in map(load, run_names(prefix, rate)) if r]
    if len(runs) < 2:
        return None
    p99 = [r["p99_ms"] for r in runs]
    p50 = [r["p50_ms"] for r in runs]
    lost = sum(r["lost"] + r["duplicates"] for r in runs)
    return (f"At {rate:,}/s, {len(runs)} runs (the row above is the first): p99 "
            f"{', '.join(f(x, 2) for x in p99)} ms (median {f(statistics.median(p99), 2)}), "
            f"p50 {', '.join(f(x, 2) for x in p50)} ms; "
            f"{'nothing lost or duplicated' if lost == 0 else f'{lost:,} lost or duplicated'}.")
