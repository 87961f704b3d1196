"""The C reference against the kernel: the same games, and their speeds side by side.

    python benchmarks/c_reference/compare.py                   # check 20,000 games per table, 5 rounds
    python benchmarks/c_reference/compare.py --check 0 --rounds 9 --games 200000

Builds sequence.c (gcc -O2 -march=native) into a temporary folder, checks
that its statistics rows equal the kernel's at every legal table (games
1000.. of seed 7), then times both on one thread: in each round every table
is timed once, C then simkit (``simkit.game.play.simulate`` as a run plays, no
Parquet), so a slow spell of a shared machine hits both alike; each one's
best round is reported (load can only slow a round down). Prints the load
before and after: nothing else heavy should run.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from simkit.game.play import set_threads, simulate
from simkit.game.players import Lineup
from simkit.game.rules import Rules

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from bench import load  # noqa: E402  (after the path above: benchmarks/bench.py)

TABLES = [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)]


def build(out: Path) -> Path:
    exe = out / "sequence"
    subprocess.run(["gcc", "-O2", "-march=native", "-o", str(exe), str(HERE / "sequence.c")], check=True)
    return exe


def check(exe: Path, games: int) -> None:
    for players, teams in TABLES:
        rules = Rules.make(players, teams)
        kernel = simulate(rules, Lineup.parse("random", rules), 7, 1000, games)
        text = subprocess.run(
            [str(exe), "dump", str(players), str(teams), "7", "1000", str(games)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        c = np.loadtxt(text.splitlines(), delimiter=",", dtype=np.int64, ndmin=2)
        if not np.array_equal(kernel, c):
            bad = np.flatnonzero((kernel != c).any(axis=1))
            raise SystemExit(f"{players}p/{teams}t: C and kernel differ, first at game {1000 + bad[0]}")
    print(f"same statistics, C and kernel, {games:,} games at each of the {len(TABLES)} tables")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=int, default=20_000, help="games per table to compare (0: none)")
    parser.add_argument("--games", type=int, default=200_000, help="games per timing")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    set_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(Path(tmp))
        if args.check:
            check(exe, args.check)
        configs = {}
        for players, teams in TABLES:
            rules = Rules.make(players, teams)
            configs[players, teams] = (rules, Lineup.parse("random", rules))
            simulate(*configs[players, teams], 1, 0, 100)  # load or compile, warm
        best_c = dict.fromkeys(configs, 0.0)
        best_k = dict.fromkeys(configs, 0.0)
        print(f"before: {load()}", flush=True)
        for r in range(args.rounds):
            first = (r + 1) * args.games
            for key, (rules, lineup) in configs.items():
                out = subprocess.run(
                    [str(exe), "time", str(key[0]), str(key[1]), str(args.games), str(first)],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                best_c[key] = max(best_c[key], float(out.split()[0]))
                t = time.perf_counter()
                simulate(rules, lineup, 1, first, args.games)
                best_k[key] = max(best_k[key], args.games / (time.perf_counter() - t))
        print(f"after: {load()}")
    print(f"\nbest of {args.rounds} rounds of {args.games:,} random games, one thread (games/s):")
    print(f"{'table':>7} {'C':>9} {'simkit':>9} {'ratio':>6}")
    for key in configs:
        print(f"{key[0]:>3}p/{key[1]}t {best_c[key]:>9,.0f} {best_k[key]:>9,.0f} {best_k[key] / best_c[key]:>6.3f}")


if __name__ == "__main__":
    main()
