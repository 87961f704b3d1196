"""Compile the kernels the test suite plays, each player set once, on every core, before the tests.

Under pytest-xdist each worker compiles a player set the first time one of its tests plays it,
so two workers may compile the same set at once. This script compiles every set the suite
plays exactly once (the fast build, and with ``--boundscheck-cache`` the bounds-checked build
in its own numba cache), as many at a time as there are cores; the workers then load them from
numba's cache. With a warm cache it loads them and returns in seconds.

    python -m tests.warm --tier quick                 # random and greedy (make test-quick)
    python -m tests.warm --tier all --boundscheck-cache .numba-boundscheck   # make test
    python -m tests.warm --tier boundscheck --boundscheck-cache .numba-boundscheck   # its bounds-checked sets

Every line-up beyond the lookahead shares one player set in the tests (``SIMKIT_ONE_STRONG_SET``,
tests/conftest.py). That set calls every player's kernel, and numba caches each kernel apart:
the two line-ups that tests/test_player_sets.py plays in their own sets compile those kernels
first, one on each core, and the joint set then only compiles its game loop around them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.test_player_sets import OWN_SETS as OWN_SET_LINEUPS

ROOT = Path(__file__).resolve().parents[1]

ONE_STRONG_SET = "SIMKIT_ONE_STRONG_SET"
# name -> (line-up, players, teams, in the tests' joint set): one line-up per player set the suite plays.
# The joint line-up's table plays every strong player (swift and ismcts-rich refuse three teams).
SETS = {
    "joint": ("ismcts-rich:iterations=4,swift", 2, 2, True),
    "lookahead": ("lookahead", 2, 2, False),
    "greedy": ("greedy", 2, 2, False),
    "random": ("random", 2, 2, False),
    **{f"own-{i}": (spec, 2, 2, False) for i, spec in enumerate(OWN_SET_LINEUPS)},
}
OWN = [name for name in SETS if name.startswith("own-")]
# The tiers' sets in the order they start, and what must be compiled before a set starts (the kernels it
# calls: the joint set waits for the own sets and the lookahead, so that no kernel compiles twice).
TIERS = {"quick": ["greedy", "random"], "all": [*OWN, "lookahead", "joint", "greedy", "random"], "boundscheck": []}
AFTER = {"joint": {*OWN, "lookahead"}}
BOUNDSCHECKED = ["lookahead", "greedy", "random"]  # the sets of the bounds-checked pass (make test-boundscheck)


def compile_set(name: str) -> None:
    """Compile (or load) one player set's entry points: a batch of games, a game's record, and one
    decision on a fresh deal."""
    from simkit.game.cards import tables
    from simkit.game.play import simulate
    from simkit.game.players import Lineup
    from simkit.game.records import game_record
    from simkit.game.rules import Rules
    from simkit.kernels.core.state import new_state
    from simkit.kernels.engine import reset
    from simkit.kernels.players.dispatch import decide, workspace

    spec, players, teams, _ = SETS[name]
    rules = Rules.make(players, teams)
    lineup = Lineup.parse(spec, rules)
    simulate(rules, lineup, 1, 0, 2)
    game_record(rules, lineup, 1, 0)
    ids, params, policies = lineup.ids()[0], lineup.params()[0], lineup.player_set()
    st = new_state()
    reset(rules.cfg(), st, 1, 0)
    decide(policies, ids[0], params[0], tables(), rules.cfg(), st, workspace(policies, ids, params), 0, 0)


def tasks_of(tier: str, boundscheck_cache: str | None) -> list[tuple[str, str, dict]]:
    """(label, set, environment) of every compile, in the order they may start."""
    joint = {**os.environ, ONE_STRONG_SET: "1"}
    own = {k: v for k, v in os.environ.items() if k != ONE_STRONG_SET}
    tasks = [(name, name, joint if SETS[name][3] else own) for name in TIERS[tier]]
    if boundscheck_cache:
        checked = {**own, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(Path(boundscheck_cache).resolve())}
        tasks += [(f"{name} (bounds-checked)", name, checked) for name in BOUNDSCHECKED]
    return tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", choices=sorted(TIERS), default="all")
    parser.add_argument("--boundscheck-cache", help="also compile the bounds-checked build into this numba cache")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--verbose", action="store_true", help="say how long each player set took")
    parser.add_argument("--one", choices=sorted(SETS), help=argparse.SUPPRESS)  # a worker: compile one set
    args = parser.parse_args()
    if args.one:
        compile_set(args.one)
        return
    if args.tier == "boundscheck" and not args.boundscheck_cache:
        parser.error("--tier boundscheck needs --boundscheck-cache")

    waiting, failed = tasks_of(args.tier, args.boundscheck_cache), []
    running: list[tuple[str, float, subprocess.Popen]] = []  # (label, when it began, its process)
    done: set[str] = set()
    start = time.perf_counter()
    while waiting or running:
        ready = [t for t in waiting if AFTER.get(t[0], set()) <= done]
        while ready and len(running) < args.jobs:
            label, name, env = task = ready.pop(0)
            waiting.remove(task)
            proc = subprocess.Popen([sys.executable, "-m", "tests.warm", "--one", name], env=env, cwd=ROOT)
            running.append((label, time.perf_counter(), proc))
        time.sleep(0.2)
        for started in list(running):
            label, began, proc = started
            if proc.poll() is None:
                continue
            running.remove(started)
            done.add(label)
            if proc.returncode:
                failed.append(label)
            elif args.verbose:
                print(f"  {label}: {time.perf_counter() - began:.0f} s", flush=True)
    if failed:
        sys.exit(f"error: compiling the kernels failed for {', '.join(failed)} (the output above says why)")
    print(f"kernels compiled or loaded for the {args.tier} tier in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
