"""A game does not depend on the player set it was compiled in.

Users get the smallest player set holding their line-up; the test suite plays every line-up beyond
the reference players in the one set holding every player (``SIMKIT_ONE_STRONG_SET``,
tests/conftest.py), so that it compiles one set instead of one per combination. These tests show
that both play the same games: the same statistics rows and the same records, move by move.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.game.play import simulate
from simkit.game.players import Lineup
from simkit.game.records import game_record
from simkit.game.rules import Rules
from simkit.kernels.players.dispatch import ONE_STRONG_SET, PLAYERS

# Two line-ups whose own sets hold, between them, every player beyond the reference players
# (tests/warm.py compiles both sets).
OWN_SETS = [
    "swift,ismcts-rich:iterations=16:width=3:reply=2:horizon=1",
    "ismcts:iterations=16:width=3:reply=2:horizon=1,fast",
]


def held(lineup: Lineup) -> list[str]:
    return [type(mark).__name__ for mark in lineup.player_set().held]


def test_the_own_sets_cover_every_player_beyond_the_reference_players():
    covered = {part.split(":")[0] for spec in OWN_SETS for part in spec.split(",")}
    assert covered == {p.name for p in PLAYERS if p.name not in ("random", "greedy", "lookahead")}


@pytest.mark.parametrize("spec", OWN_SETS)
def test_a_game_does_not_depend_on_the_policy_set_it_was_compiled_in(spec, monkeypatch):
    rules = Rules.make(2)
    lineup = Lineup.parse(spec, rules, swap_seats=True)
    monkeypatch.setenv(ONE_STRONG_SET, "1")
    joint_set = held(lineup)
    joint = simulate(rules, lineup, 5, 0, 6), [game_record(rules, lineup, 5, g) for g in (0, 1)]
    monkeypatch.delenv(ONE_STRONG_SET)
    own_set = held(lineup)
    own = simulate(rules, lineup, 5, 0, 6), [game_record(rules, lineup, 5, g) for g in (0, 1)]
    assert len(own_set) < len(joint_set)
    assert np.array_equal(own[0], joint[0])
    assert own[1] == joint[1]
