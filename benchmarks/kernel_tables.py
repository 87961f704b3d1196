"""The kernel's games/s per thread at every legal table, for random and greedy play.

    python benchmarks/kernel_tables.py                      # random and greedy, 1 thread, 5 rounds
    python benchmarks/kernel_tables.py --threads 2 --policy random

Each round times every table once, one after the other, so a slow spell of
a shared machine hits them alike; a table's best round is reported (load can
only slow a round down). Games come from ``simkit.play.simulate`` as a run
plays them (no Parquet). Nothing else heavy should run.
"""

from __future__ import annotations

import argparse
import time

from simkit.play import set_threads, simulate
from simkit.policies import Lineup
from simkit.rules import Rules

TABLES = [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)]
GAMES = {"random": 200_000, "greedy": 30_000}


def rates(policy: str, threads: int, rounds: int, games: int, tables=TABLES) -> dict[tuple[int, int], float]:
    """Best games/s of `rounds` rounds at each table."""
    set_threads(threads)
    configs = {}
    for players, teams in tables:
        rules = Rules.make(players, teams)
        configs[players, teams] = (rules, Lineup.parse(policy, rules))
        simulate(*configs[players, teams], 1, 0, 100)  # compile or load, warm
    best = dict.fromkeys(configs, 0.0)
    for r in range(rounds):
        for key, (rules, lineup) in configs.items():
            t = time.perf_counter()
            simulate(rules, lineup, 1, (r + 1) * games, games)
            best[key] = max(best[key], games / (time.perf_counter() - t))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", action="append", choices=sorted(GAMES))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the games per timing")
    args = parser.parse_args()
    for policy in args.policy or ["random", "greedy"]:
        best = rates(policy, args.threads, args.rounds, int(GAMES[policy] * args.scale))
        print(f"{policy}, {args.threads} thread(s), best of {args.rounds}: "
              + ", ".join(f"{p}p/{t}t {v:,.0f}" for (p, t), v in best.items()), flush=True)


if __name__ == "__main__":
    main()
