"""The compile notice's estimates, measured: each kernel's first compile, cold, in seconds.

    python benchmarks/compile_estimates.py                        # measure and print
    python benchmarks/compile_estimates.py --write                # and write simkit/data/compile_seconds.json
    python benchmarks/compile_estimates.py --player NAME --write  # a new player's alone, beside the others'

Each figure is the first call of ``simkit.game.play.simulate`` in a fresh process with a numba cache of
its own: "game loop" is the game loop every line-up but random alone plays (compiled with random's decisions;
random alone's loop of its own is measured and printed beside it, and counted as the same), and each other
player's is its decision's first compile with both loops already cached. The compile notice
(``simkit.running.runner.compile_estimate``) reads the file; a player not in it counts as the slowest
player measured. Measure on a quiet machine after a change to what compiles (a new player, a kernel
edit that moves compile times), one process at a time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "simkit" / "data" / "compile_seconds.json"
GAME_LOOP = "game loop"

FIRST_CALL = """
import sys, time
from simkit.game.cards import tables
from simkit.game.play import get_threads, simulate
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels.batch import run_batch
from simkit.kernels.players.dispatch import BY_ID, decision
rules = Rules.make(2)
lineup = Lineup.parse(sys.argv[1], rules)
start = time.perf_counter()
if sys.argv[2:] == ["shared"]:  # the game loop every line-up but random alone plays, with random's decisions
    shared = tuple(decision(0) for _ in BY_ID)
    run_batch(shared, tables(rules.layout), rules.cfg(), lineup.ids(), lineup.params(), 1, 0, 0, get_threads())
else:
    simulate(rules, lineup, 1, 0, 0)
print(time.perf_counter() - start)
"""


def first_call(spec: str, cache: Path, *how: str) -> float:
    """Seconds of the first simulate() of `spec` at 2p/2t in a fresh process with numba cache `cache` (`how`
    "shared": the shared game loop's first batch with random's decisions instead)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    command = [sys.executable, "-c", FIRST_CALL, spec, *how]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


def measure(players: list[str]) -> dict[str, int]:
    """The first compile in whole seconds (at least 1) of the game loop, then of each of `players`' decisions."""
    with tempfile.TemporaryDirectory() as tmp:
        loop = Path(tmp) / "loop"
        seconds = {GAME_LOOP: first_call("random", loop, "shared")}
        alone = first_call("random", loop)  # random alone's own loop, beside it in the cache
        print(f"random alone's game loop: {alone:.1f} s", flush=True)
        print(f"{GAME_LOOP}: {seconds[GAME_LOOP]:.1f} s", flush=True)
        for name in players:
            if name == "random":
                continue
            cache = Path(tmp) / name
            shutil.copytree(loop, cache)
            seconds[name] = first_call(name, cache)
            print(f"{name}: {seconds[name]:.1f} s", flush=True)
    return {name: max(1, round(s)) for name, s in seconds.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    parser.add_argument(
        "--player", action="append", help="measure this player's decision only (and the game loop); repeatable"
    )
    args = parser.parse_args()
    from simkit.game.players import PLAYERS

    unknown = sorted(set(args.player or []) - set(PLAYERS))
    if unknown:
        parser.error(f"unknown player {', '.join(unknown)}; known: {', '.join(PLAYERS)}")
    seconds = measure(args.player or list(PLAYERS))
    if args.write:
        if args.player:  # the players' figures beside the others', the game loop's as measured with them
            kept = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
            seconds = {**kept, **{name: s for name, s in seconds.items() if name in args.player}}
        OUT.write_text(json.dumps(seconds, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
