"""Compiling: only what a line-up plays, said on the terminal, cached under a stamp that cannot go stale."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from numba.core import caching

from simkit.game.play import GAME_LOOP, simulate
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels.batch import play_block
from simkit.kernels.core import jit
from simkit.kernels.engine import play_game
from simkit.running.runner import ENTRY_SECONDS, compile_seconds

FRESH_PROCESS = textwrap.dedent("""
    import json, sys
    from simkit.cli import app
    from simkit.kernels.players import greedy, rollouts
    from simkit.kernels.values import evaluation

    def compiled(after):  # greedy's scorer, the lookahead's race (its deals), the fitted value
        print(json.dumps({"after": after, "greedy": len(greedy.score_actions.signatures),
                          "lookahead": len(rollouts.determinise.signatures),
                          "evaluation": len(evaluation.win_chance.signatures)}), file=sys.stderr)

    from simkit.running.runner import compile_estimate
    print(json.dumps({"estimate": compile_estimate("random")}), file=sys.stderr)
    try:
        app(["run", "--games", "200", "--policy", "random", "--out", "random-run"], standalone_mode=False)
    except SystemExit:
        pass
    compiled("random run")
    if sys.argv[1:] == ["greedy"]:  # a greedy decision, compiled cold
        from simkit.game.cards import tables
        from simkit.kernels.engine import reset
        from simkit.kernels.core.state import new_state
        from simkit.kernels.core.turn import decide
        from simkit.kernels.players.dispatch import workspace
        from simkit.game.players import Lineup
        from simkit.game.rules import Rules

        rules = Rules.make(2)
        lineup = Lineup.parse("greedy", rules)
        ids, params = lineup.ids()[0], lineup.params()[0]
        st = new_state()
        reset(rules.cfg(), st, 1, 0)
        decide(lineup.decisions(), ids[0], params[0], tables(), rules.cfg(), st, workspace(ids, params), 0, 0)
        compiled("greedy decision")
""")


def test_a_run_compiles_only_the_policies_it_plays_and_says_it_is_compiling(tmp_path):
    """Empty numba cache: a random run compiles no greedy, lookahead or evaluation; greedy's decision
    compiles greedy but no lookahead or evaluation (its choice of a move, compiled cold: the game loop
    around it is the random run's).

    While compiling, one line names the line-up and says it happens on the first run only, with the
    estimate measured for its kernels; the same run again loads every kernel from the cache, says nothing of
    compiling, and plays nothing, and the estimate left is an entry point's (the game loop is cached).
    """
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    result = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS, "greedy"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    compiled = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    measured = compile_seconds()[GAME_LOOP]
    assert compiled == [
        {"estimate": measured},  # nothing cached: the game loop, as measured
        {"after": "random run", "greedy": 0, "lookahead": 0, "evaluation": 0},
        {"after": "greedy decision", "greedy": 1, "lookahead": 0, "evaluation": 0},
    ]
    notices = [line for line in result.stderr.splitlines() if line.startswith("compiling")]
    assert len(notices) == 1 and notices[0].startswith("compiling the kernels for random (first run only, about ")
    again = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert "compiling" not in again.stderr and "nothing to do" in again.stderr  # loaded from the cache
    assert json.loads(again.stderr.splitlines()[0]) == {"estimate": ENTRY_SECONDS}  # the game loop is cached


def test_every_kernel_is_cached_under_the_stamp_of_all_kernel_sources():
    """kernels/core/jit.py's hook applies: the cache entries carry the hash of every kernel file, a player's
    decision called through its pointer (a Decision) included."""
    from simkit.kernels.core.turn import play_turn
    from simkit.kernels.players.dispatch import decision
    from simkit.kernels.players.greedy import GREEDY_ID, score_actions

    rules = Rules.make(2)
    simulate(rules, Lineup.parse("greedy,random", rules), 1, 0, 3)  # the game loop, and greedy's decision
    for dispatcher in (play_block, play_game, play_turn, score_actions, decision(GREEDY_ID)):
        assert jit.is_stamped(dispatcher), dispatcher.py_func.__name__


def test_a_numba_whose_cache_internals_moved_is_refused_loudly(monkeypatch):
    """Without the hook an edited kernel could run stale machine code: refuse at import instead."""

    class Moved:
        pass

    monkeypatch.setattr(caching, "CacheImpl", Moved, raising=False)
    monkeypatch.setattr(caching, "_CacheImpl", Moved, raising=False)
    with pytest.raises(ImportError, match=r"cannot stamp numba .* compile cache .* tested with numba >=0.59,<0.69"):
        jit._install_stamp()


def test_the_tested_numba_range_is_the_one_pyproject_allows():
    from pathlib import Path

    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    assert f'"numba{jit.TESTED_NUMBA}"' in pyproject


START_UP = textwrap.dedent("""
    import sys
    import numba
    import numpy as np
    import simkit.kernels.core.jit  # noqa: F401 - every kernel module imports it

    @numba.njit
    def total(a):
        return a.sum()

    total(np.ones(3))  # numba loads its implementations, as before the first kernel call
    print("scipy.linalg" in sys.modules)

    @numba.njit
    def dot(a, b):
        return np.dot(a, b)

    print(dot(np.ones(3), np.ones(3)), "scipy.linalg" in sys.modules)
""")


def test_numba_starts_without_scipy_linalg_and_still_has_blas_when_asked():
    """Start-up: numba's import-time probe for scipy's BLAS (0.2-0.3 s) is skipped (kernels.core.jit),
    and a function that needs BLAS still gets it when it is compiled."""
    done = subprocess.run([sys.executable, "-c", START_UP], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "3.0", "True"]


def test_an_index_naming_a_type_that_moved_is_obsolete_not_an_error(tmp_path, monkeypatch):
    """A cache index written by other kernel sources (a module moved since) names a type that no longer
    imports: numba's loader would raise; it reads as an empty index, so the function recompiles."""
    import pickle
    import types

    import numba

    gone = types.ModuleType("simkit_moved_away")
    exec("class Marker:\n    pass", gone.__dict__)
    gone.Marker.__module__ = "simkit_moved_away"
    monkeypatch.setitem(sys.modules, "simkit_moved_away", gone)
    data = pickle.dumps((("stamp",), {(gone.Marker,): "f.1.nbc"}))
    monkeypatch.delitem(sys.modules, "simkit_moved_away")
    index = caching.IndexDataCacheFile(str(tmp_path), "f", ("stamp",))
    with open(index._index_path, "wb") as f:
        pickle.dump(index._version, f)
        f.write(data)
    assert index._load_index() == {}
    assert numba.__version__ == index._version
