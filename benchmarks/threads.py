"""The random kernel on one thread and on two, per table, for this tree and optionally another.

    python benchmarks/threads.py                                # this tree, best of 3 rounds
    python benchmarks/threads.py --before ../old-checkout       # and another's, in turn

(--before: a checkout whose simkit/kernels is a link to ../kernels, as in this tree.)

Each round is one child process per tree (the trees in turn, so a slow spell
of the machine hits both), timing every table on 1 thread (`--games` games)
and on 2 (twice as many); each figure is the best round. Prints a markdown
table: games/s on 1 and 2 threads and their ratio, per tree. Run it on an
otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from bench import TABLES, checkout_env, per_table


def one_round(games: int) -> dict[str, list[float]]:
    """games/s of every table on 1 thread (`games` games) and on 2 (2 * games), once each."""
    return {row["table"]: [row["k1"][0], row["k2"][0]] for row in per_table(1, TABLES, 2 * games, whole_runs=False)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000, help="games per one-thread timing")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", help="another checkout's root, timed in turn with this one (PYTHONPATH)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_round(args.games)))
        return 0
    trees = {"this tree": {}}
    if args.before:
        trees = {"before": checkout_env(args.before), **trees}
    best: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    for _ in range(args.rounds):
        for name, env in trees.items():
            child = subprocess.run(
                [sys.executable, __file__, "--child", "--games", str(args.games)],
                env={**os.environ, **env},
                capture_output=True,
                text=True,
                check=True,
            )
            for table, rates in json.loads(child.stdout).items():
                old = best[name].get(table, [0.0, 0.0])
                best[name][table] = [max(a, b) for a, b in zip(old, rates)]
    names = list(trees)
    print("| table | " + " | ".join(f"{n}: 1 thread | 2 threads | 2 / 1" for n in names) + " |")
    print("| --- |" + " --- | --- | --- |" * len(names))
    for table in best[names[0]]:
        cells = []
        for n in names:
            one, two = best[n][table]
            cells += [f"{one:,.0f}", f"{two:,.0f}", f"{two / one:.2f}"]
        print(f"| {table} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
