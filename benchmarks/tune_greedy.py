"""Greedy's weights tuned against a stronger player, by coordinate search (issue 22 item 4).

    python benchmarks/tune_greedy.py                               # against the lookahead, 2 players
    python benchmarks/tune_greedy.py --games 2000 --passes 2 --start build=0.7,growth=2

Each step scores one setting of greedy's weights (simkit.policies.POLICIES["greedy"]) against
the opponent over `--games` two-player games, seats swapped half the time, every setting on
the same games of the same seed (so two settings differ by their play, not by their deals);
a weight is multiplied by each of `--steps` in turn, and the best score so far is kept
(a pass that keeps nothing ends the search).
Selection on one seed flatters the winner: confirm it with benchmarks/matches.py on
another seed. Prints one line per setting (score, 95% Wilson interval, the weights) and the
best at the end.
"""

from __future__ import annotations

import argparse
import time

from matches import play_match
from simkit.play import set_threads
from simkit.policies import LOOKAHEAD_OWN_WEIGHTS, POLICIES

TUNED = ("build", "growth", "block", "block4", "break4", "jack_cost")  # "complete" stays the largest


def spec(weights: dict[str, float]) -> str:
    """The greedy policy spec of `weights`: 'greedy:build=0.7:...' (every tuned weight named)."""
    return "greedy:" + ":".join(f"{k}={weights[k]:g}" for k in TUNED)


def score(weights: dict[str, float], opponent: str, games: int, seed: int) -> tuple[float, float, float]:
    """(share, low, high): greedy with `weights` against `opponent`, two players, seats swapped
    half the time (matches.play_match); a draw counts half."""
    m = play_match(spec(weights), opponent, games, seed)
    return m["share"], m["low"], m["high"]


def parse_weights(text: str) -> dict[str, float]:
    """'build=0.7,growth=2' -> {'build': 0.7, 'growth': 2.0}, over the lookahead's own weights."""
    weights = {k: LOOKAHEAD_OWN_WEIGHTS[k] for k in POLICIES["greedy"].params}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if name not in TUNED:
            raise SystemExit(f"unknown weight {name!r}; tuned: {', '.join(TUNED)}")
        weights[name] = float(value)
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="lookahead", help="the opponent's policy spec")
    parser.add_argument("--games", type=int, default=1000, help="games per setting")
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--passes", type=int, default=2, help="passes over the weights")
    parser.add_argument("--steps", default="0.5,2", help="factors tried on each weight, comma-separated")
    parser.add_argument("--start", default="", help="starting weights (default: the lookahead's own)")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    set_threads(args.threads)
    steps = [float(s) for s in args.steps.split(",")]
    best = parse_weights(args.start)
    started = time.perf_counter()
    best_score = score(best, args.against, args.games, args.seed)
    print(f"start {best_score[0]:.1%} [{best_score[1]:.1%}, {best_score[2]:.1%}] {spec(best)}", flush=True)
    for pass_ in range(args.passes):
        start_of_pass = best
        for name in TUNED:
            for factor in steps:
                trial = {**best, name: best[name] * factor}
                result = score(trial, args.against, args.games, args.seed)
                kept = result[0] > best_score[0]
                print(f"pass {pass_ + 1} {name} x{factor:g}: {result[0]:.1%} [{result[1]:.1%}, {result[2]:.1%}]"
                      f"{' kept' if kept else ''}  {spec(trial)}", flush=True)
                if kept:
                    best, best_score = trial, result
        if best is start_of_pass:  # nothing kept: another pass would replay the same games
            break
    minutes = (time.perf_counter() - started) / 60
    print(f"best {best_score[0]:.1%} [{best_score[1]:.1%}, {best_score[2]:.1%}] over {args.games:,} games "
          f"(seed {args.seed}, {minutes:.1f} min): {spec(best)}")


if __name__ == "__main__":
    main()
