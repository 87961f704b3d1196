"""A whole `simkit run` against the kernel's own speed, optionally for another tree.

    python benchmarks/whole_run.py                          # 10,000,000 two-player random games, 3 rounds
    python benchmarks/whole_run.py --before ../old-checkout # the same command of another checkout too
                                                            # (it needs old-checkout/simkit/kernels -> ../kernels)

Each round times the kernel alone on two threads over the same number of games (calls of
1,000,000, as long as the run itself, so a slow spell of a shared machine weighs on both),
then, for each tree in turn, the whole command's wall time (start-up, numba's cache load,
the Parquet parts and the manifest included), its games/s and its share of that round's
kernel; at the end each tree's best against the kernel's best, and `simkit run --games 1`
(start-up alone). Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

from bench import SIMKIT, checkout_env, timed_subprocess


def kernel_speed(games: int, call: int = 1_000_000) -> float:
    """The two-player random kernel on two threads: games/s over `games` games in calls of `call`
    (this tree's kernel, loaded before the timing)."""
    from simkit.game.play import set_threads, simulate
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules

    rules = Rules.make(2)
    lineup = Lineup.parse("random", rules)
    set_threads(2)
    simulate(rules, lineup, 1, 0, 1000)  # load the kernels
    t = time.perf_counter()
    for first in range(0, games, call):
        simulate(rules, lineup, 1, first, min(call, games - first))
    return games / (time.perf_counter() - t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", help="another checkout's root: its simkit is timed too (PYTHONPATH)")
    args = parser.parse_args()
    before_env = checkout_env(args.before) if args.before else None
    trees = [("this tree", {})] + ([("before", before_env)] if before_env else [])
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # `python -m` puts the working directory first on sys.path: not a checkout's
        best: dict[str, float] = {}
        kernel = 0.0
        for round_ in range(args.rounds):
            speed = kernel_speed(args.games)
            kernel = max(kernel, speed)
            print(f"round {round_ + 1}: the kernel alone, 2 threads: {args.games:,} games at {speed:,.0f} games/s")
            for name, env in trees[::-1]:  # interleaved: a slow spell of the machine hits both
                out = f"{tmp}/{name.replace(' ', '-')}{round_}"
                wall, peak = timed_subprocess(
                    [*SIMKIT, "run", "--games", str(args.games), "--out", out, "--quiet"], env
                )
                shutil.rmtree(out)
                best[name] = min(best.get(name, wall), wall)
                print(
                    f"round {round_ + 1}: {name}: {args.games:,} games in {wall:.2f} s = {args.games / wall:,.0f} "
                    f"games/s, {args.games / wall / speed:.1%} of this round's kernel; peak RSS {peak:.0f} MiB",
                    flush=True,
                )
        print(f"the kernel alone, best of {args.rounds}: {kernel:,.0f} games/s")
        for name, wall in best.items():
            print(
                f"{name}, best of {args.rounds}: {wall:.2f} s = {args.games / wall:,.0f} games/s, "
                f"{args.games / wall / kernel:.1%} of the kernel's best"
            )
        for name, env in trees[::-1]:
            wall, _ = timed_subprocess([*SIMKIT, "run", "--games", "1", "--out", f"{tmp}/one", "--quiet"], env)
            shutil.rmtree(f"{tmp}/one")
            print(f"{name}: `simkit run --games 1` {wall:.2f} s (start-up)")


if __name__ == "__main__":
    sys.exit(main())
