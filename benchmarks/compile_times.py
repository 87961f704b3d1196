"""Cold and warm compile times of `simkit run --games 1000 --policy P`, this tree and optionally another.

    python benchmarks/compile_times.py                          # random, greedy, lookahead; this tree
    python benchmarks/compile_times.py --before ../old-checkout # and another's, in turn

(--before: a checkout whose simkit/kernels is a link to ../kernels, as in this tree.)

Each figure is one whole command in a child process with an empty numba
cache (NUMBA_CACHE_DIR a fresh folder), then the same command warm; the
trees in turn per policy, so a slow spell of the machine hits both. The target:
a line-up of random, greedy or the lookahead compiles within 10% of
b49a13f (23.1 / 34.0 / 125.0 s on the day,
26.6 / 36.7 / 157.1 s on 2026-12-02; this VM's compile times move by 20%
from day to day, so time it here with `--before` a checkout of b49a13f).
Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import sys

from bench import checkout_env, compile_times

PLAYERS = ("random", "greedy", "lookahead")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", action="append", help=f"policies to time (default: {', '.join(PLAYERS)})")
    parser.add_argument("--before", help="another checkout's root, timed in turn with this one (PYTHONPATH)")
    args = parser.parse_args()
    trees = {"this tree": {}}
    if args.before:
        trees = {"before": checkout_env(args.before), **trees}
    print("| policy | " + " | ".join(f"{name}: empty cache / warm" for name in trees) + " |")
    print("| --- |" + " --- |" * len(trees))
    for policy in args.policy or PLAYERS:
        cells = []
        for env in trees.values():
            cold, warm = compile_times(policy, env)
            cells.append(f"{cold:.1f} s / {warm:.1f} s")
        print(f"| {policy} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
