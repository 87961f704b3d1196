"""The compile cache cannot go stale, and recompiles no more than an edit reaches (kernels.core.jit).

Each test works on a copy of the package laid out as installed (kernels/ inside simkit/) with a numba
cache of its own: it plays games to fill the cache, edits a kernel module so that the games change,
then plays again in a fresh process. The warm cache must give the games the edited code gives (nothing
stale), and must recompile only the functions of modules that import the edited one (nothing more).
The edited code's games are played as Python (NUMBA_DISABLE_JIT=1, which plays the compiled kernels'
games: tests/test_nojit.py), the reference a cold compile would give without a third compile per test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLAY = """
import hashlib, json, sys
from numba.core import event
from simkit.game.play import simulate
from simkit.game.players import Lineup
from simkit.game.rules import Rules


class Compiles(event.Listener):
    def __init__(self):
        self.names = set()

    def on_start(self, ev):
        self.names.add(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev):
        pass


rules = Rules.make(2)
compiles = Compiles()
with event.install_listener("numba:compile", compiles):
    rows = simulate(rules, Lineup.parse(sys.argv[1], rules), 7, 0, int(sys.argv[2]))
print(json.dumps({"games": hashlib.sha256(rows.tobytes()).hexdigest(), "compiled": sorted(compiles.names)}))
"""


def copy_tree(to: Path) -> Path:
    """A copy of the package as installed (simkit/ with kernels/ inside), under `to`."""
    ignore = shutil.ignore_patterns("__pycache__", "cli.py")
    shutil.copytree(ROOT / "simkit", to / "simkit", ignore=ignore)
    shutil.copytree(ROOT / "kernels", to / "simkit" / "kernels", ignore=ignore)
    return to


def play(tree: Path, cache: Path | None, spec: str, games: int = 10) -> dict:
    """Play `games` games of `spec` in a fresh process on the copy `tree` with numba cache `cache` (None: the
    kernels as Python, NUMBA_DISABLE_JIT=1): {"games": hash of the statistics, "compiled": the functions
    compiled, not loaded}."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.update({"NUMBA_CACHE_DIR": str(cache)} if cache is not None else {"NUMBA_DISABLE_JIT": "1"})
    done = subprocess.run(
        [sys.executable, "-c", PLAY, spec, str(games)], cwd=tree, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_an_edit_of_a_core_helper_recompiles_the_kernels_that_call_it(tmp_path):
    """The random stream's mixing constant (kernels/core/rng.py) changed: the game loop is recompiled
    and plays the edited code's games, not those of before."""
    tree, cache = copy_tree(tmp_path / "tree"), tmp_path / "cache"  # numba's cache is keyed on the tree's path
    before = play(tree, cache, "random")
    edit(tree / "simkit" / "kernels" / "core" / "rng.py", "0xBF58476D1CE4E5B9", "0xBF58476D1CE4E5BB")
    warm = play(tree, cache, "random")
    edited = play(tree, None, "random")
    assert warm["games"] == edited["games"] != before["games"]
    assert "play_block" in warm["compiled"]


def test_an_edit_of_a_player_recompiles_that_player_alone(tmp_path):
    """Greedy's ties broken by the first listed move, not the generator (kernels/players/greedy.py): its
    decision is recompiled and plays the edited code's games, while the game loop and random's
    decision, which do not import greedy, load from the cache."""
    tree, cache = copy_tree(tmp_path / "tree"), tmp_path / "cache"
    before = play(tree, cache, "greedy,random")
    edit(tree / "simkit" / "kernels" / "players" / "greedy.py", "st.scratch[below(st.rng, ties)]", "st.scratch[0]")
    warm = play(tree, cache, "greedy,random")
    edited = play(tree, None, "greedy,random")
    assert warm["games"] == edited["games"] != before["games"]
    assert "decide_greedy" in warm["compiled"]
    assert not {"play_block", "play_to_end", "decide_random"} & set(warm["compiled"]), warm["compiled"]
