"""Head-to-head strength of policies, seats swapped half the time.

    python benchmarks/matches.py                       # greedy-random and lookahead-greedy, 10,000 games each
    python benchmarks/matches.py --games 2000 --pair lookahead:rollouts=32 greedy

Prints, per pair, the first policy's win share with its 95% Wilson interval
(draws count half) and games/s, and appends the lines to
benchmarks/matches.md. Two-player games; game indices are disjoint between
the two seatings so every game is different.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numba
from scipy.stats import binomtest

from simkit.play import simulate
from simkit.policies import Lineup
from simkit.rules import Rules

HERE = Path(__file__).resolve().parent


def match(a: str, b: str, games: int, seed: int) -> str:
    """One line: a's win share against b over `games` games, seats swapped half the time."""
    rules = Rules.make(2)
    half = games // 2
    t = time.perf_counter()
    first = simulate(rules, Lineup.parse(f"{a},{b}", rules), seed, 0, half)
    second = simulate(rules, Lineup.parse(f"{b},{a}", rules), seed, half, games - half)
    seconds = time.perf_counter() - t
    wins = int((first[:, 0] == 0).sum() + (second[:, 0] == 1).sum())
    draws = int((first[:, 0] < 0).sum() + (second[:, 0] < 0).sum())
    score = wins + draws / 2
    ci = binomtest(round(score), games).proportion_ci(0.95, method="wilson")
    return (
        f"| {a} | {b} | {games:,} | {wins:,} | {draws:,} | {score / games:.1%} "
        f"| [{ci.low:.1%}, {ci.high:.1%}] | {games / seconds:,.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--pair", nargs=2, action="append", metavar=("A", "B"),
                        help="policies to match (repeatable); default: greedy random, lookahead greedy")
    args = parser.parse_args()
    pairs = args.pair or [("greedy", "random"), ("lookahead", "greedy")]
    header = [
        f"Two-player games, seed {args.seed}, {numba.get_num_threads()} threads, {time.strftime('%Y-%m-%d')}:",
        "",
        "| policy A | policy B | games | A wins | draws | A's score | 95% CI | games/s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    lines = [match(a, b, args.games, args.seed) for a, b in pairs]
    text = "\n".join(header + lines) + "\n"
    print(text)
    with (HERE / "matches.md").open("a", encoding="utf-8") as f:
        f.write("\n" + text)


if __name__ == "__main__":
    main()
