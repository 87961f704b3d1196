"""Head-to-head strength of policies, seats swapped half the time.

    python benchmarks/matches.py                       # greedy-random and lookahead-greedy, 10,000 games each
    python benchmarks/matches.py --games 2000 --pair lookahead:rollouts=32 greedy
    python benchmarks/matches.py --players 3 --games 3000 --pair lookahead greedy   # one team against two

Prints, per pair, the first policy's win share with its 95% Wilson interval
(a draw counts 1/teams: half in two-team games) and games/s, as a markdown
table (docs/research.md holds the matches behind the published figures).
Policy A plays one team, B every other; A's team takes each place at the
table for an equal share of the games (two teams: seats swapped half the
time). Game indices are disjoint between the places, so every game is
different.
"""

from __future__ import annotations

import argparse
import time

from scipy.stats import binomtest

from simkit.game.play import get_threads, set_threads, simulate
from simkit.game.players import Lineup
from simkit.game.rules import Rules


def play_match(a: str, b: str, games: int, seed: int, players: int = 2, teams: int = 2) -> dict:
    """a with one team against b on every other team: wins, draws, score (a draw counts
    1/teams), its share with the 95% Wilson interval (low, high), and the seconds it took.

    a's team takes each place at the table in turn (team j for games
    [games * j // teams, games * (j + 1) // teams)): with two teams, seats
    are swapped half the time. Game indices are disjoint between the parts.
    """
    rules = Rules.make(players, teams)
    lineups = [Lineup.parse(",".join(a if t == j else b for t in range(teams)), rules) for j in range(teams)]
    simulate(rules, lineups[0], seed, 0, 1)  # compile or load the kernels outside the timing
    wins = draws = 0
    t = time.perf_counter()
    for j, lineup in enumerate(lineups):
        first, last = games * j // teams, games * (j + 1) // teams
        winners = simulate(rules, lineup, seed, first, last - first)[:, 0]
        wins += int((winners == j).sum())
        draws += int((winners < 0).sum())
    seconds = time.perf_counter() - t
    score = wins + draws / teams  # a draw: an equal share for every team
    ci = binomtest(round(score), games).proportion_ci(0.95, method="wilson")
    return {"wins": wins, "draws": draws, "share": score / games, "low": ci.low, "high": ci.high, "seconds": seconds}


def match(a: str, b: str, games: int, seed: int, players: int = 2, teams: int = 2) -> str:
    """play_match's result as a markdown table row."""
    m = play_match(a, b, games, seed, players, teams)
    return (
        f"| {a} | {b} | {games:,} | {m['wins']:,} | {m['draws']:,} | {m['share']:.1%} "
        f"| [{m['low']:.1%}, {m['high']:.1%}] | {games / m['seconds']:,.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--pair",
        nargs=2,
        action="append",
        metavar=("A", "B"),
        help="policies to match (repeatable); default: greedy random, lookahead greedy",
    )
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", type=int, help="default: 2, or 3 for 3 or 9 players")
    parser.add_argument("--threads", type=int, help="kernel threads (default: all cores; 1 on a shared machine)")
    args = parser.parse_args()
    set_threads(args.threads)
    try:
        rules = Rules.make(args.players, args.teams)
    except ValueError as e:
        parser.error(str(e))
    pairs = args.pair or [("greedy", "random"), ("lookahead", "greedy")]
    header = [
        f"{rules.players}-player games, {rules.teams} teams (A's fair share {1 / rules.teams:.1%}), "
        f"seed {args.seed}, {get_threads()} threads, {time.strftime('%Y-%m-%d')}:",
        "",
        "| policy A | policy B | games | A wins | draws | A's score | 95% CI | games/s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    lines = [match(a, b, args.games, args.seed, rules.players, rules.teams) for a, b in pairs]
    print("\n".join(header + lines))


if __name__ == "__main__":
    main()
