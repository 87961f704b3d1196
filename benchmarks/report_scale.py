"""Wall time and peak memory of `simkit report` (and optionally `simkit run`) at growing dataset sizes.

    python benchmarks/report_scale.py DIR [DIR ...]            # report each existing dataset
    python benchmarks/report_scale.py --make 1000000 10000000   # first run datasets of these sizes (in /tmp)

Each figure is one whole command in a child process, its own peak RSS
(bench.timed_subprocess). A report reads a dataset part by part (simkit.analysis.aggregate), so
its memory must not grow with the games (the target: at most 500 MB at 10 and
100 million games) and its time must grow linearly. Never run this while
anything else loads the machine.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench import SIMKIT, timed_subprocess


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*", type=Path)
    parser.add_argument("--make", nargs="*", type=int, default=[], help="run datasets of these many games first")
    args = parser.parse_args()
    rows = []
    work = Path(tempfile.mkdtemp(prefix="simkit-scale-"))
    for games in args.make:
        out = work / f"g{games}"
        wall, peak = timed_subprocess([*SIMKIT, "run", "--games", str(games), "--out", str(out), "--quiet"])
        rows.append(f"| `simkit run --games {games:,}` | {wall:.1f} s | {peak:.0f} MiB |")
        args.datasets.append(out)
    for d in args.datasets:
        wall, peak = timed_subprocess([*SIMKIT, "report", str(d.resolve())])
        size = sum(p.stat().st_size for p in d.glob("*.parquet")) / 1e6
        rows.append(f"| `simkit report` {d} ({size:,.0f} MB on disk) | {wall:.1f} s | {peak:.0f} MiB |")
    print("| command | wall time | peak RSS |\n| --- | --- | --- |\n" + "\n".join(rows))


if __name__ == "__main__":
    main()
