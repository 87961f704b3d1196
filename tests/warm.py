"""Compile the kernels the test suite plays, each player's decision once, on every core, before the tests.

Under pytest-xdist each worker compiles a kernel the first time one of its tests plays it, so two
workers may compile the same one at once. This script compiles every player's decision and the
game loops exactly once (the fast build, and with ``--boundscheck-cache`` the bounds-checked build
in its own numba cache), as many at a time as there are cores; the workers then load them from
numba's cache. With a warm cache it loads them and returns in seconds.

    python -m tests.warm --tier quick                 # random and greedy (make test-quick)
    python -m tests.warm --tier all --boundscheck-cache .numba-boundscheck   # make test
    python -m tests.warm --tier boundscheck --boundscheck-cache .numba-boundscheck   # its bounds-checked sets

Every line-up plays one game loop (its players' decisions called through pointers:
``kernels.core.turn.decide``): greedy's line-up compiles it, with greedy's decision and the helpers the
other players share, and each other player then compiles its own decision only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sets() -> dict[str, tuple[str, int, int]]:
    """name -> (line-up, players, teams): every declared player, at two players (each plays 2p/2t)."""
    from simkit.kernels.players.dispatch import PLAYERS

    return {p.name: (p.name, 2, 2) for p in PLAYERS}


SETS = sets()
BEYOND_GREEDY = [name for name in SETS if name not in ("greedy", "random")]
# The tiers' line-ups in the order they start, and what must be compiled before one starts (greedy's
# line-up compiles the game loop every other line-up plays).
TIERS = {"quick": ["greedy", "random"], "all": ["greedy", "random", *BEYOND_GREEDY], "boundscheck": []}
AFTER = {name: {"greedy"} for name in BEYOND_GREEDY}
BOUNDSCHECKED = ["greedy", "random"]  # the line-ups of the bounds-checked pass (make test-boundscheck: not strong)


def compile_set(name: str) -> None:
    """Compile (or load) one line-up's kernels and entry points: a batch of games, a game's record, and
    one decision on a fresh deal."""
    from simkit.game.cards import tables
    from simkit.game.play import simulate
    from simkit.game.players import Lineup
    from simkit.game.records import game_record
    from simkit.game.rules import Rules
    from simkit.kernels.core.state import new_state
    from simkit.kernels.core.turn import decide
    from simkit.kernels.engine import reset
    from simkit.kernels.players.dispatch import workspace

    spec, players, teams = SETS[name]
    rules = Rules.make(players, teams, max_turns=1)  # games of one turn: the same kernels, compiled
    lineup = Lineup.parse(spec, rules)
    simulate(rules, lineup, 1, 0, 2)
    game_record(rules, lineup, 1, 0)
    ids, params = lineup.ids()[0], lineup.params()[0]
    st = new_state()
    reset(rules.cfg(), st, 1, 0)
    decide(lineup.decisions(), ids[0], params[0], tables(), rules.cfg(), st, workspace(ids, params), 0, 0)


def tasks_of(tier: str, boundscheck_cache: str | None) -> list[tuple[str, str, dict]]:
    """(label, line-up, environment) of every compile, in the order they may start."""
    tasks = [(name, name, dict(os.environ)) for name in TIERS[tier]]
    if boundscheck_cache:
        checked = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(Path(boundscheck_cache).resolve())}
        tasks += [(f"{name} (bounds-checked)", name, checked) for name in BOUNDSCHECKED]
    return tasks


def waits_for(label: str, name: str) -> set[str]:
    """The labels of the compiles the one labelled `label` (of line-up `name`) waits for: those of AFTER,
    in the same build ("lookahead (bounds-checked)" waits for "greedy (bounds-checked)")."""
    build = label[len(name) :]
    return {after + build for after in AFTER.get(name, set())}


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
        ready = [t for t in waiting if waits_for(t[0], t[1]) <= done]
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
