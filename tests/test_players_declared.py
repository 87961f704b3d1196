"""Adding a player is its kernel module and its tests (docs/dev/extending.md): each thing a declared player
needs besides is checked here, in the quick tier, with the step that gives it."""

from __future__ import annotations

import re
from pathlib import Path

from simkit.game import players
from simkit.kernels.players.dispatch import PLAYERS
from simkit.running.runner import compile_seconds
from tests import test_nojit, warm
from tests.fingerprint import SPELLED, every_configuration

ROOT = Path(__file__).resolve().parents[1]
GENERIC = {"test_players_declared.py", "fingerprint.py", "warm.py", "test_players.py"}  # name every player


def test_kernel_ids_run_from_zero_without_a_gap():
    ids = sorted({p.id for p in PLAYERS})
    assert ids == list(range(len(ids))), f"kernel ids must run 0..{len(ids) - 1}: a new player takes id {len(ids)}"


def test_every_player_plays_in_the_games_stamp_corpus():
    played = {part.split(":")[0] for spec, *_ in every_configuration() for part in SPELLED.get(spec, spec).split(",")}
    missing = sorted(set(players.PLAYERS) - played)
    assert not missing, f"add the games of {missing} to tests/fingerprint.py's ADDED, then run make regenerate"


def test_every_player_has_tests_of_its_own_play():
    texts = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("*.py") if p.name not in GENERIC}

    def in_a_lineup(name: str) -> str:  # the name in a line-up's text: "NAME:..." or "NAME,..." or "...,NAME"
        return rf"""["']{re.escape(name)}[:,]|,{re.escape(name)}["':,]"""

    untested = [
        name for name in players.PLAYERS if not any(re.search(in_a_lineup(name), text) for text in texts.values())
    ]
    assert not untested, (
        f"write tests of {untested}'s play (legal moves, what it may see: tests/test_strong.py shows how)"
    )


def test_the_docs_show_every_player_and_its_parameters():
    text = (ROOT / "docs" / "guide" / "players.md").read_text(encoding="utf-8")
    for name, kind in players.PLAYERS.items():
        found = re.search(
            rf"<!-- parameters of {re.escape(name)}: simkit.game.players.parameters_table -->\n(.*?)"
            r"<!-- end of parameters -->",
            text,
            re.S,
        )
        assert found and found.group(1) == players.parameters_table(kind), (
            f"the players page does not show {name}'s parameters as declared: run make regenerate"
        )
        assert f"| `{name}` |" in text, f"the players page's table lacks {name}: run make regenerate"


def test_the_suite_compiles_every_player_before_it_plays():
    assert set(warm.SETS) == set(players.PLAYERS)


def test_every_player_plays_as_python():
    played = {part.split(":")[0] for spec, *_ in test_nojit.GAMES for part in spec.split(",")}
    missing = sorted(set(players.PLAYERS) - played)
    assert not missing, (
        f"add a game of {missing} to tests/test_nojit.py's GAMES (few iterations and a turn cap: it plays as Python)"
    )


def test_every_player_has_a_measured_compile_estimate():
    """The compile notice's estimate of each player is measured (a player not measured counts as the slowest)."""
    missing = sorted(set(players.PLAYERS) - {"random"} - set(compile_seconds()))
    assert not missing, (
        f"measure the compile of {missing}: python benchmarks/compile_estimates.py "
        + " ".join(f"--player {name}" for name in missing)
        + " --write (on a quiet machine)"
    )
