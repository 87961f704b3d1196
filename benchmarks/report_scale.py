"""Wall time and peak memory of `simkit report` (and optionally `simkit run`) at growing dataset sizes.

    python benchmarks/report_scale.py DIR [DIR ...]            # report each existing dataset
    python benchmarks/report_scale.py --make 1000000 10000000   # first run datasets of these sizes (in /tmp)

Each figure is one whole command in a child process (`os.wait4`: the child's
own peak RSS). A report reads a dataset part by part (simkit.aggregate), so
its memory must not grow with the games (issue 21: at most 500 MB at 10 and
100 million games) and its time must grow linearly. Never run this while
anything else loads the machine.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIMKIT = [sys.executable, "-m", "simkit"]


def timed(args: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS in MiB) of a child process."""
    t = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise subprocess.CalledProcessError(os.waitstatus_to_exitcode(status), args)
    return time.perf_counter() - t, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*", type=Path)
    parser.add_argument("--make", nargs="*", type=int, default=[], help="run datasets of these many games first")
    args = parser.parse_args()
    rows = []
    work = Path(tempfile.mkdtemp(prefix="simkit-scale-"))
    for games in args.make:
        out = work / f"g{games}"
        wall, peak = timed([*SIMKIT, "run", "--games", str(games), "--out", str(out), "--quiet"])
        rows.append(f"| `simkit run --games {games:,}` | {wall:.1f} s | {peak:.0f} MiB |")
        args.datasets.append(out)
    for d in args.datasets:
        wall, peak = timed([*SIMKIT, "report", str(d)])
        size = sum(p.stat().st_size for p in d.glob("*.parquet")) / 1e6
        rows.append(f"| `simkit report` {d} ({size:,.0f} MB on disk) | {wall:.1f} s | {peak:.0f} MiB |")
    print("| command | wall time | peak RSS |\n| --- | --- | --- |\n" + "\n".join(rows))


if __name__ == "__main__":
    main()
