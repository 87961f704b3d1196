"""Close matches for mistyped names (simkit.suggest): one helper for players, parameters, studies and rule options."""

from __future__ import annotations

import pytest

import simkit
from simkit.game.options import RulesError, from_flags
from simkit.game.players import PLAYERS, Lineup, LineupError
from simkit.game.rules import Rules
from simkit.studies.options import StudyError
from simkit.studies.registry import make_study
from simkit.suggest import close_matches, did_you_mean


def test_did_you_mean_says_the_close_matches_or_nothing():
    assert did_you_mean("swfit", PLAYERS) == " (did you mean swift?)"
    assert did_you_mean("SWFIT ", PLAYERS) == " (did you mean swift?)"
    assert did_you_mean("clever", PLAYERS) == ""
    assert did_you_mean("blok", ["block", "block4", "build"]) == " (did you mean block or block4?)"
    assert did_you_mean("chet", ["cheat"], say=lambda n: f"research.{n}") == " (did you mean research.cheat?)"
    assert close_matches("ismct", PLAYERS) == ["ismcts", "ismcts-rich"]


@pytest.mark.parametrize(
    "spec, message",
    [
        ("swfit", "unknown player 'swfit' (did you mean swift?); known: random, greedy"),
        ("lookahed", "unknown player 'lookahed' (did you mean lookahead?)"),
        ("greedy:blok=1", "bad parameter 'blok=1' for player 'greedy' (did you mean block or block4?); parameters: "),
        ("lookahead:rolouts=8", "(did you mean rollouts?)"),
        ("swift:value_own_sequnces=1", "(did you mean value_own_sequences or value_other_sequences?)"),
    ],
)
def test_a_mistyped_player_or_parameter_gets_its_close_match(spec, message):
    with pytest.raises(LineupError) as caught:
        Lineup.parse(spec, Rules.make(2))
    assert message in str(caught.value)


def test_a_players_parameters_are_its_own_with_its_weights_counted():
    with pytest.raises(LineupError) as caught:
        Lineup.parse("greedy:depth=3", Rules.make(2))
    assert str(caught.value).endswith(
        "parameters: complete, build, growth, block, block4, break4, jack_cost, and the restrictions dead_swap, "
        "one_eyed, two_eyed, blocking, corners"
    )
    with pytest.raises(LineupError) as caught:
        Lineup.parse("random:depth=3", Rules.make(2))
    assert str(caught.value).endswith("parameters: none")
    with pytest.raises(LineupError) as caught:
        Lineup.parse("fast:depth=3", Rules.make(2))
    assert str(caught.value).endswith(
        "parameters: width, complete, build, growth, block, block4, break4, jack_cost, 13 value_* weights "
        "(docs/guide/players.md), and the restrictions dead_swap, one_eyed, two_eyed, blocking, corners"
    )


def test_a_mistyped_study_gets_its_close_match():
    with pytest.raises(StudyError, match=r"unknown study 'first_player' \(did you mean first-player\?\); known: "):
        make_study("first_player")


def test_a_mistyped_rule_option_gets_its_close_match():
    with pytest.raises(RulesError, match=r"unknown rule option 'late_crad' \(did you mean late_card\?\); options: "):
        simkit.simulate(games=10, late_crad=5)
    with pytest.raises(RulesError, match=r"'--late-crad' is not a rule option \(did you mean --late-card\?\); known"):
        from_flags("--late-crad 5")
    with pytest.raises(RulesError, match=r"unknown rule option 'jokers'; options: "):
        simkit.simulate(games=10, jokers=True)
