"""What `make results` costs on this machine: its games, timed on a sample of its configurations.

    python benchmarks/results_cost.py                 # every study of results/ and the three runs
    python benchmarks/results_cost.py --samples 2 --seconds 1   # coarser, faster
    python benchmarks/results_cost.py --out runs/results_cost.md

Every study of `make results` lists its configurations (games, line-up, rules)
in results/<study>/study.json; the three single runs are declared below as
the Makefile plays them. Within each stratum (a study, a line-up and a table:
a player's speed differs most between tables), the script plays the first
games of `--samples` configurations drawn at random (seeded) on all cores,
in a batch of at least `--seconds` (after a warm-up that loads the compiled
kernels), and estimates the stratum's play as its games times the mean
seconds per game of its sample. Prints a markdown table per study and line-up
(configurations, games, the sampled seconds per game from lowest to highest,
the estimate in minutes), the estimate per study and the total. Reading and
writing Parquet, the summaries, plots and compiles are not counted (a few
minutes in all). Never run this while anything else loads the machine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from simkit.game.play import cores, simulate
from simkit.game.players import Lineup
from simkit.game.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
# The studies `make results` plays, in its order (results/confirmation is kept as published, never replayed).
STUDIES = [
    "first-player",
    "hand-size",
    "teams",
    "variants",
    "restricted",
    "layouts",
    "skill",
    "compensation",
    "confirmation-2",
]
# The single runs of `make results`: (name, line-up, games), each at 2 players with the default rules.
RUNS = [
    ("default-2p-random", "random", 1_000_000),
    ("p2t2-ismcts", "ismcts", 20_000),
    ("p2t2-ismcts-rich", "ismcts-rich", 20_000),
]
MOST_GAMES = 200_000  # a timed batch's largest: its statistics take 32 MB


@dataclass(frozen=True)
class Configuration:
    """One dataset of results/: its stratum (study, line-up), games, rules and seat rotation."""

    study: str
    lineup: str
    games: int
    rules: dict
    swap_seats: bool


def configurations() -> list[Configuration]:
    """Every dataset `make results` plays, from the studies' study.json and RUNS."""
    found = [
        Configuration(study, c["lineup"], c["games"], c["rules"], c["swap_seats"])
        for study in STUDIES
        for c in json.loads((RESULTS / study / "study.json").read_text())["configurations"]
    ]
    return found + [Configuration("runs", lineup, games, {"players": 2}, False) for _, lineup, games in RUNS]


def seconds_per_game(c: Configuration, at_least: float) -> float:
    """Wall seconds per game of c's first games on all cores: batches grow until one takes at_least s
    (or plays MOST_GAMES, or all of c's)."""
    rules = Rules.make(**c.rules)
    lineup = Lineup.parse(c.lineup, rules, c.swap_seats)
    simulate(rules, lineup, 0, 0, 2)  # loads (or compiles) the kernels
    most = min(c.games, MOST_GAMES)
    games = min(16, most)
    while True:
        start = time.perf_counter()
        simulate(rules, lineup, 0, 0, games)
        elapsed = time.perf_counter() - start
        if elapsed >= at_least or games >= most:
            return elapsed / games
        games = min(most, games * max(2, int(at_least / max(elapsed, 1e-3))))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=2, help="configurations timed per study, line-up and table")
    parser.add_argument("--seconds", type=float, default=2.0, help="wall seconds each timed batch lasts at least")
    parser.add_argument("--out", type=Path, help="also write the table to this file")
    args = parser.parse_args(argv)
    strata: dict[tuple[str, str, int, int], list[Configuration]] = {}
    for c in configurations():
        strata.setdefault((c.study, c.lineup, c.rules["players"], c.rules.get("teams", 2)), []).append(c)
    draw = random.Random(2026)
    lines = [
        f"`make results` play on {cores()} cores, estimated from {args.samples} configurations per study, "
        "line-up and table",
        "",
        "| study | line-up | configurations | games | s/game in the sample | estimate (min) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    rows: dict[tuple[str, str], list] = {}  # (study, line-up): configurations, games, rates, minutes
    for (study, lineup, _, _), group in strata.items():
        sample = draw.sample(group, min(args.samples, len(group)))
        rates = [seconds_per_game(c, args.seconds) for c in sample]
        games = sum(c.games for c in group)
        row = rows.setdefault((study, lineup), [0, 0, [], 0.0])
        row[0] += len(group)
        row[1] += games
        row[2] += rates
        row[3] += games * sum(rates) / len(rates) / 60
    total = 0.0
    per_study: dict[str, float] = {}
    for (study, lineup), (n, games, rates, minutes) in rows.items():
        total += minutes
        per_study[study] = per_study.get(study, 0.0) + minutes
        spread = f"{min(rates):.3g} to {max(rates):.3g}"
        lines.append(f"| {study} | {lineup} | {n} | {games:,} | {spread} | {minutes:,.1f} |")
    lines += ["", "| study | estimate (min) |", "| --- | --- |"]
    lines += [f"| {study} | {minutes:,.1f} |" for study, minutes in per_study.items()]
    lines += [f"| **all** | **{total:,.0f} ({total / 60:.1f} h)** |"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
