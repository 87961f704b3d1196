"""Instructions per game of the kernel, counted by valgrind's callgrind (repeatable on a busy machine).

    python benchmarks/callgrind_games.py --warm                      # fill numba's cache (no valgrind)
    python benchmarks/callgrind_games.py --run                       # random play, all ten tables
    python benchmarks/callgrind_games.py --run --policy greedy --games 400 --table 2,2

Counting is switched on (CALLGRIND_START_INSTRUMENTATION, TOGGLE_COLLECT from
a tiny C helper built here with gcc) only around one call of the batch
kernel ``play_block`` playing `--games` games on one thread, so Python's
start-up and numba's cache loading are not counted. ``--run`` runs itself
under valgrind for every table given and prints instructions per game.
Run it once outside valgrind first (``--warm``), so that numba's cache is
filled: compiling under valgrind takes many minutes. Valgrind shows the
program another CPU (LLVM sees a "haswell" without some features), so
``--run`` hands the child this machine's CPU name and features
(NUMBA_CPU_NAME, NUMBA_CPU_FEATURES): it then loads, and counts, the very
machine code a normal run executes.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HELPER = r"""
#include <valgrind/callgrind.h>
void cg_on(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_TOGGLE_COLLECT; }
void cg_off(void) { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_STOP_INSTRUMENTATION; }
"""
TABLES = [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)]


def helper() -> ctypes.CDLL:
    out = Path(tempfile.gettempdir()) / "simkit_cg_toggle.so"
    if not out.exists():
        src = out.with_suffix(".c")
        src.write_text(HELPER)
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(out), str(src)], check=True)
    return ctypes.CDLL(str(out))


def play(players: int, teams: int, policy: str, games: int, seed: int, first: int, count: bool) -> None:
    from simkit.game.cards import tables
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.kernels.batch import play_block
    from simkit.kernels.core.state import new_log, new_state
    from simkit.kernels.core.stats import GAME_STATS
    from simkit.kernels.players.dispatch import workspace

    rules = Rules.make(players, teams)
    lineup = Lineup.parse(policy, rules)
    args = (lineup.decisions(), tables(), rules.cfg(), lineup.ids(), lineup.params())
    st, work, log = new_state(), workspace(lineup.ids(), lineup.params()), new_log(0)

    def block(first_game: int, n: int) -> np.ndarray:
        out = np.zeros(n, GAME_STATS)
        play_block(*args, st, work, log, seed, first_game, out, 0, n, np.zeros(1, np.int64), np.zeros(1, np.int64), 0)
        return out

    block(first + games, 2)  # load or compile; touch everything once
    if count:
        cg = helper()
        cg.cg_on()
        out = block(first, games)
        cg.cg_off()
    else:
        out = block(first, games)
    print(f"turns {out['turns'].sum()}")


def native_cpu() -> dict[str, str]:
    """This machine's CPU as numba targets it (valgrind would show it another)."""
    import llvmlite.binding as ll

    ll.initialize_native_target()
    return {"NUMBA_CPU_NAME": ll.get_host_cpu_name(), "NUMBA_CPU_FEATURES": ll.get_host_cpu_features().flatten()}


def run(tables, policy: str, games: int, seed: int, valgrind: str, branches: bool = False) -> None:
    env = {**os.environ, **native_cpu()}
    for players, teams in tables:
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [
                valgrind,
                "--tool=callgrind",
                "--instr-atstart=no",
                "--collect-atstart=no",
                *(["--branch-sim=yes"] if branches else []),
                f"--callgrind-out-file={tmp}/cg.out",
                sys.executable,
                __file__,
                "--table",
                f"{players},{teams}",
                "--policy",
                policy,
                "--games",
                str(games),
                "--seed",
                str(seed),
                "--count",
            ]
            p = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
            turns = int(re.search(r"turns (\d+)", p.stdout).group(1))
            text = Path(f"{tmp}/cg.out").read_text()
            events = re.search(r"^events:\s+(.*)$", text, re.M).group(1).split()
            totals = dict(zip(events, map(int, re.search(r"^totals:\s+(.*)$", text, re.M).group(1).split())))
            ir = totals["Ir"]
            extra = ""
            if branches:  # valgrind's simple predictor: a relative measure, not this CPU's
                missed = totals.get("Bcm", 0) + totals.get("Bim", 0)
                extra = f", {missed / games:,.0f} branches mispredicted/game (simulated)"
            print(
                f"{players}p/{teams}t {policy}: {ir / games:,.0f} instructions/game, "
                f"{ir / turns:,.1f}/turn ({turns / games:.1f} turns/game){extra}, {games} games",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", action="append", help="players,teams (repeatable; default: all ten)")
    parser.add_argument("--policy", default="random")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", action="store_true", help="(inside valgrind) switch counting on")
    parser.add_argument("--warm", action="store_true", help="fill numba's cache for the tables, no valgrind")
    parser.add_argument("--run", action="store_true", help="run under valgrind, print instructions per game")
    parser.add_argument("--valgrind", default="valgrind")
    parser.add_argument("--branches", action="store_true", help="also simulate branch prediction (slower)")
    args = parser.parse_args()
    tables = [tuple(map(int, t.split(","))) for t in args.table] if args.table else TABLES
    if args.run:
        run(tables, args.policy, args.games, args.seed, args.valgrind, args.branches)
        return
    for players, teams in tables:
        play(players, teams, args.policy, args.games if not args.warm else 10, args.seed, args.first, args.count)


if __name__ == "__main__":
    main()
