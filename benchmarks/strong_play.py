"""Speed of the strategic policies per core: greedy and the default lookahead, random for reference.

    python benchmarks/strong_play.py                  # 5 rounds, the best of each
    python benchmarks/strong_play.py --rounds 9 --lookahead-games 300
    python benchmarks/strong_play.py --spec lookahead:horizon=8:race=0   # other lookahead line-ups too
    python benchmarks/strong_play.py --players 4 --spec swift            # at another table
    python benchmarks/strong_play.py --players 9 --rounds 2 --lookahead-games 40 --spec swift --spec-games 400

Plays two-player games (or --players/--teams) with the same policy on every seat, on ONE kernel
thread (``simkit.game.play.set_threads(1)``, so games/s are per core), through
``simkit.game.play.simulate`` as a run does. Each round times every line-up once,
one after the other, so a slow spell of a shared machine hits them alike;
each line-up's best round is reported (the machine's load can only slow a
round down). Prints the load (``uptime``) and the busiest other processes
before and after, so a reading taken on a busy machine can be recognised:
nothing else heavy should run.

Targets: greedy >= 15% of random's rate; default lookahead
>= 25 games/s per core.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time

from simkit.game.play import set_threads, simulate
from simkit.game.players import Lineup
from simkit.game.rules import Rules


def load() -> str:
    """The load averages and the three busiest processes (other than this one)."""
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    ps = subprocess.run(["ps", "-eo", "pid,pcpu,comm", "--sort=-pcpu"], capture_output=True, text=True).stdout
    busy = [line.split(None, 2) for line in ps.splitlines()[1:]]
    others = [f"{comm} {cpu}%" for pid, cpu, comm in busy if int(pid) != os.getpid()][:3]
    return f"{uptime}; busiest: {', '.join(others)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--random-games", type=int, default=200_000)
    parser.add_argument("--greedy-games", type=int, default=40_000)
    parser.add_argument("--lookahead-games", type=int, default=200)
    parser.add_argument("--spec", action="append", default=[], help="another line-up to time (repeatable)")
    parser.add_argument("--spec-games", type=int, help="games of each --spec line-up (default: --lookahead-games)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", type=int, default=None, help="default: 2, or 3 for 3 or 9 players")
    args = parser.parse_args()
    set_threads(1)
    rules = Rules.make(args.players, args.teams)
    lineups = [("random", args.random_games), ("greedy", args.greedy_games), ("lookahead", args.lookahead_games)]
    lineups += [(spec, args.spec_games or args.lookahead_games) for spec in args.spec]
    print(f"before: {load()}", flush=True)
    for spec, _ in lineups:  # compile or load from numba's cache, outside the timing
        simulate(rules, Lineup.parse(spec, rules), args.seed, 0, 2)
    best = {spec: 0.0 for spec, _ in lineups}
    for r in range(args.rounds):
        rates = []
        for spec, games in lineups:
            t = time.perf_counter()
            simulate(rules, Lineup.parse(spec, rules), args.seed, r * games, games)
            rate = games / (time.perf_counter() - t)
            best[spec] = max(best[spec], rate)
            rates.append(f"{spec} {rate:,.1f}")
        print(f"round {r + 1}: " + ", ".join(rates) + " games/s", flush=True)
    print(f"after: {load()}")
    random = best["random"]
    table = "two-player games" if args.players == 2 else f"{args.players} players, {rules.teams} teams"
    print(f"\nbest of {args.rounds} rounds, {table}, one thread (games/s per core):")
    for spec, _ in lineups:
        share = f" ({best[spec] / random:.1%} of random)" if spec == "greedy" else ""
        print(f"  {spec}: {best[spec]:,.1f}{share}")


if __name__ == "__main__":
    main()
