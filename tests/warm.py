"""Compile the kernels the test suite plays, each policy set once, on every core, before the tests.

Under pytest-xdist each worker compiles a policy set the first time one of its tests plays it,
so two workers may compile the same set at once. This script compiles every set the suite
plays exactly once (the fast build, and with ``--boundscheck-cache`` the bounds-checked build
in its own numba cache), the largest first, as many at a time as there are cores; the
workers then load them from numba's cache. With a warm cache it loads and returns in seconds.

    python tests/warm.py --tier quick                 # random and greedy (make test-quick)
    python tests/warm.py --tier all --boundscheck-cache .numba-boundscheck   # make test
    python tests/warm.py --tier boundscheck --boundscheck-cache .numba-boundscheck   # its bounds-checked sets

Every line-up beyond the lookahead shares one policy set in the tests (``SIMKIT_ONE_STRONG_SET``,
tests/conftest.py), so "swift" stands for all of them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from test_policy_sets import OWN_SETS as OWN_SET_LINEUPS

HERE = Path(__file__).resolve().parent
# (line-up, players, teams): one line-up per policy set the suite plays, the costliest first.
# The strong line-up's table plays every strong player (swift and ismcts-rich refuse three teams);
# "own-*" are the two line-ups tests/test_policy_sets.py plays in their own smallest sets.
SETS = {"strong": ("ismcts-rich:iterations=4,swift", 2, 2), "lookahead": ("lookahead", 2, 2),
        "greedy": ("greedy", 2, 2), "random": ("random", 2, 2)}
OWN_SETS = {f"own-{i}": (spec, 2, 2) for i, spec in enumerate(OWN_SET_LINEUPS)}
TIERS = {"quick": ["greedy", "random"], "all": ["strong", "lookahead", "greedy", "random", *OWN_SETS],
         "boundscheck": []}
BOUNDSCHECKED = ["lookahead", "greedy", "random"]  # the sets of the bounds-checked pass (make test-boundscheck)


def compile_set(name: str) -> None:
    """Compile (or load) one policy set's entry points: batches of games on one thread and on two,
    a game's record, and one decision on a fresh deal."""
    from simkit.cards import tables
    from simkit.kernels.batch import run_batch
    from simkit.kernels.engine import reset
    from simkit.kernels.players.dispatch import decide, workspace
    from simkit.kernels.core.state import new_state
    from simkit.policies import Lineup
    from simkit.records import game_record
    from simkit.rules import Rules

    spec, players, teams = {**SETS, **OWN_SETS}[name]
    rules = Rules.make(players, teams)
    lineup = Lineup.parse(spec, rules)
    policies = lineup.policy_set()
    for games, threads in ((1, 1), (4, 2)):  # one block of games, and several
        run_batch(policies, tables(), rules.cfg(), lineup.ids(), lineup.params(), 1, 0, games, threads)
    game_record(rules, lineup, 1, 0)
    ids, params = lineup.ids()[0], lineup.params()[0]
    st = new_state(0)
    reset(rules.cfg(), st, 1, 0)
    decide(policies, ids[0], params[0], tables(), rules.cfg(), st, workspace(policies, ids, params), 0, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", choices=sorted(TIERS), default="all")
    parser.add_argument("--boundscheck-cache", help="also compile the bounds-checked build into this numba cache")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--one", choices=sorted({**SETS, **OWN_SETS}), help=argparse.SUPPRESS)  # a worker
    args = parser.parse_args()
    if args.one:
        compile_set(args.one)
        return

    os.environ.setdefault("SIMKIT_ONE_STRONG_SET", "1")
    own = {k: v for k, v in os.environ.items() if k != "SIMKIT_ONE_STRONG_SET"}  # a line-up's own set
    tasks = [(name, own if name in OWN_SETS else dict(os.environ)) for name in TIERS[args.tier]]
    if args.tier == "boundscheck" and not args.boundscheck_cache:
        parser.error("--tier boundscheck needs --boundscheck-cache")
    if args.boundscheck_cache:
        checked = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(Path(args.boundscheck_cache).resolve())}
        tasks[1:1] = [(name, checked) for name in BOUNDSCHECKED]  # after the largest, before the small ones
    start, running, failed = time.perf_counter(), [], []
    while tasks or running:
        while tasks and len(running) < args.jobs:
            name, env = tasks.pop(0)
            label = name + (" (bounds-checked)" if env.get("NUMBA_BOUNDSCHECK") else "")
            running.append((label, subprocess.Popen([sys.executable, __file__, "--one", name], env=env)))
        time.sleep(0.2)
        for label, proc in list(running):
            if proc.poll() is not None:
                running.remove((label, proc))
                if proc.returncode:
                    failed.append(label)
    if failed:
        sys.exit(f"error: compiling the kernels failed for {', '.join(failed)} (the output above says why)")
    print(f"kernels compiled or loaded for the {args.tier} tier in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
