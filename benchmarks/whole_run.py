"""A whole `simkit run` against the kernel's own speed (issue 23 item 1), optionally for another tree.

    python benchmarks/whole_run.py                          # 10,000,000 two-player random games, 3 rounds
    python benchmarks/whole_run.py --before ../old-checkout # the same command of another checkout too
                                                            # (it needs old-checkout/simkit/kernels -> ../kernels)

Prints the kernel's best games/s on two threads (1,000,000 games per call, best of 3), then for each
round and tree the whole command's wall time (start-up, numba's cache load, the Parquet parts and the
manifest included), its games/s and its share of the kernel's, and `simkit run --games 1` (start-up
alone). Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

from bench import SIMKIT, checkout_env, timed_subprocess


def kernel_best(games: int = 1_000_000, rounds: int = 3) -> float:
    """The two-player random kernel on two threads: best games/s of `rounds` calls of `games`."""
    from simkit.play import set_threads, simulate
    from simkit.policies import Lineup
    from simkit.rules import Rules

    rules = Rules.make(2)
    lineup = Lineup.parse("random", rules)
    set_threads(2)
    simulate(rules, lineup, 1, 0, 1000)  # load the kernels
    best = 0.0
    for k in range(rounds):
        t = time.perf_counter()
        simulate(rules, lineup, 1, k * games, games)
        best = max(best, games / (time.perf_counter() - t))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", help="another checkout's root: its simkit is timed too (PYTHONPATH)")
    args = parser.parse_args()
    before_env = checkout_env(args.before) if args.before else None
    kernel = kernel_best()
    print(f"kernel, 2 threads: {kernel:,.0f} games/s (best of 3 calls of 1,000,000)")
    trees = [("this tree", {})] + ([("before", before_env)] if before_env else [])
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # `python -m` puts the working directory first on sys.path: not a checkout's
        best: dict[str, float] = {}
        for round_ in range(args.rounds):
            for name, env in trees[::-1]:  # interleaved: a slow spell of the machine hits both
                out = f"{tmp}/{name.replace(' ', '-')}{round_}"
                wall, peak = timed_subprocess([*SIMKIT, "run", "--games", str(args.games), "--out", out, "--quiet"],
                                              env)
                shutil.rmtree(out)
                best[name] = min(best.get(name, wall), wall)
                print(f"{name}, round {round_ + 1}: {args.games:,} games in {wall:.2f} s = {args.games / wall:,.0f} "
                      f"games/s, {args.games / wall / kernel:.1%} of the kernel; peak RSS {peak:.0f} MiB")
        for name, wall in best.items():
            print(f"{name}, best of {args.rounds}: {wall:.2f} s, {args.games / wall / kernel:.1%} of the kernel")
        for name, env in trees[::-1]:
            wall, _ = timed_subprocess([*SIMKIT, "run", "--games", "1", "--out", f"{tmp}/one", "--quiet"], env)
            shutil.rmtree(f"{tmp}/one")
            print(f"{name}: `simkit run --games 1` {wall:.2f} s (start-up)")


if __name__ == "__main__":
    sys.exit(main())
