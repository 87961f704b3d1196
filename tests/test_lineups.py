"""Strategy policies: greedy and lookahead, and per-seat line-ups.

RULES.md, "Simulation conventions", Information: a policy sees its own hand,
the board, all discard piles and the number of cards left in the draw pile,
and nothing else.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest

from simkit.game.cards import tables
from simkit.game.play import simulate
from simkit.game.players import PLAYERS, Lineup, LineupError
from simkit.game.records import game_record
from simkit.game.rules import Rules
from simkit.kernels.core.state import new_state
from simkit.kernels.core.turn import decide
from simkit.kernels.players.dispatch import workspace
from tests import referee
from tests.positions import random_midgame, scramble_hidden, set_hand

TWO = Rules.make(2)
FAST_LOOKAHEAD = "lookahead:rollouts=4:shortlist=3"


def test_lineup_cycles_over_teams():
    rules = Rules.make(6, 3)
    lineup = Lineup.parse("greedy,random", rules)
    # seat s plays for team s % 3; teams 0, 1, 2 get greedy, random, greedy
    assert lineup.names == ["greedy", "random", "greedy", "greedy", "random", "greedy"]


def test_policy_parameters_parse_and_print_canonically():
    lineup = Lineup.parse("lookahead:rollouts=32:shortlist=2,greedy:block4=800", TWO)
    assert lineup.names == ["lookahead:rollouts=32:shortlist=2", "greedy:block4=800"]
    at = PLAYERS["lookahead"].layout.at
    assert lineup.params()[0, 0, at.rollouts] == 32 and lineup.params()[0, 0, at.shortlist] == 2
    assert Lineup.parse("greedy:complete=1000", TWO).names == ["greedy", "greedy"]  # defaults vanish


@pytest.mark.parametrize(
    "spec, message",
    [
        ("greedy:depth=3", "bad parameter 'depth=3' for player 'greedy'"),
        ("greedy:block4=high", "must be a number"),
        ("greedy,", "empty player"),
        ("minimax", "unknown player 'minimax'; known: random, greedy, lookahead"),
        ("lookahead:rollouts=-1", "rollouts of 'lookahead' must be a whole number from 0 to 100000, got -1"),
        ("lookahead:shortlist=2.5", "shortlist of 'lookahead' must be a whole number from 1 to 16, got 2.5"),
        ("lookahead:playout=2", "playout of 'lookahead' must be a whole number from 0 to 1"),
        ("lookahead:horizon=1e9", "horizon of 'lookahead' must be a whole number from 0 to 10000"),
        ("lookahead:margin=-0.5", "margin of 'lookahead' must be at least 0, got -0.5"),
        ("lookahead:race=-1", "race of 'lookahead' must be at least 0, got -1"),
        ("greedy:growth=nan", "growth of 'greedy' must be finite"),
    ],
)
def test_bad_policy_specs_are_refused(spec, message):
    with pytest.raises(LineupError, match=message):
        Lineup.parse(spec, TWO)


@pytest.mark.parametrize("spec", ["greedy", "greedy,random", FAST_LOOKAHEAD + ",greedy"])
@pytest.mark.parametrize("players, teams", [(2, 2), (4, 2), (3, 3), (6, 3), (12, 3)])
def test_recorded_games_of_every_policy_pass_the_referee(spec, players, teams):
    """Each move of a policy's game is legal by an independent referee."""
    rules = Rules.make(players, teams)
    lineup = Lineup.parse(spec, rules)
    for game in range(2):
        record = game_record(rules, lineup, 17, game)
        assert record["policies"] == lineup.names
        assert referee.check_record(record, strict_rules=False) == []


@pytest.mark.parametrize("spec", ["greedy", FAST_LOOKAHEAD])
def test_same_seed_same_games(spec):
    lineup = Lineup.parse(spec, TWO)
    a = simulate(TWO, lineup, 4, 0, 20)
    b = simulate(TWO, lineup, 4, 10, 10)
    assert np.array_equal(a[10:], b)
    assert game_record(TWO, lineup, 4, 3) == game_record(TWO, lineup, 4, 3)


@pytest.mark.parametrize("spec", ["random", "greedy", FAST_LOOKAHEAD, FAST_LOOKAHEAD + ":horizon=0:playout=1"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_decision_ignores_hidden_cards(spec, seed):
    """Swap the other hands' cards with the draw pile's and reorder the pile:
    what the seat sees is unchanged, and so is its decision."""
    rules = Rules.make(4)
    st = random_midgame(rules, seed, 21)
    seat = 21 % rules.players
    team = seat % rules.teams
    lineup = Lineup.parse(spec, rules)
    ids, params, cfg, pset = lineup.ids()[0], lineup.params()[0], rules.cfg(), lineup.decisions()
    sim = workspace(ids, params)
    rng = st.rng.copy()
    first = decide(pset, ids[seat], params[seat], tables(), cfg, st, sim, seat, team)

    scramble_hidden(st, seat, rules.players)
    st.rng[:] = rng
    second = decide(pset, ids[seat], params[seat], tables(), cfg, st, sim, seat, team)
    assert first == second


def test_greedy_beats_random():
    """Seats swapped half the time; greedy's win share is far above 95%."""
    games = 400
    g_first = simulate(TWO, Lineup.parse("greedy,random", TWO), 8, 0, games // 2)
    g_second = simulate(TWO, Lineup.parse("random,greedy", TWO), 8, games // 2, games // 2)
    wins = int((g_first["winner_team"] == 0).sum() + (g_second["winner_team"] == 1).sum())
    low = binomtest(wins, games).proportion_ci(0.95, method="wilson").low
    assert low > 0.95, f"greedy won {wins}/{games}"


def test_greedy_weights_change_its_play():
    """Weights are real parameters: a different style plays different games."""
    base = simulate(TWO, Lineup.parse("greedy", TWO), 5, 0, 50)
    other = simulate(TWO, Lineup.parse("greedy:block=0:block4=0:break4=0", TWO), 5, 0, 50)
    assert not np.array_equal(base, other)


def test_every_row_is_its_layout_and_starts_with_the_restrictions():
    """A line-up's parameter rows are each player's values laid out by its declaration, as wide as the
    widest; every row starts with the restrictions, and greedy's block with them too."""
    from simkit.game.players import PLAYERS
    from simkit.kernels.core.params import RESTRICTIONS
    from simkit.kernels.players.dispatch import ROW_WIDTH
    from simkit.kernels.players.greedy import GREEDY

    assert GREEDY.params[: RESTRICTIONS.width] == RESTRICTIONS.params
    for kind in PLAYERS.values():
        assert kind.layout.width <= ROW_WIDTH
        assert [p.name for p in kind.layout.params[: RESTRICTIONS.width]] in ([], [p.name for p in RESTRICTIONS.params])
        row = Lineup.parse(kind.name, Rules.make(2)).params()[0, 0]
        at = kind.layout.at
        for name, value in kind.defaults().items():
            assert row[getattr(at, name)] == value, (kind.name, name)


@pytest.mark.parametrize(
    "players, teams, table",
    [
        (2, 2, "2 teams"),
        (4, 2, "2 teams, partners"),
        (12, 2, "2 teams, partners"),
        (3, 3, "3 teams"),
        (6, 3, "3 teams, partners"),
        (9, 3, "3 teams, partners"),
    ],
)
def test_the_lookahead_takes_the_value_of_its_table(players, teams, table):
    """The value weights default to the table's; the canonical spec leaves them out, the
    resolved parameters (a run's identity) show them, and a value given explicitly wins."""
    from simkit.game.players import VALUE_WEIGHTS, value_table
    from simkit.kernels.players.rollouts import RACE_ROW

    rules = Rules.make(players, teams)
    assert value_table(rules) == table
    lineup = Lineup.parse("lookahead,greedy", rules)
    assert lineup.names[0] == "lookahead"
    value = slice(RACE_ROW.value, RACE_ROW.value + len(VALUE_WEIGHTS[table]))  # the value weights come last
    assert list(lineup.params()[0, 0, value]) == list(VALUE_WEIGHTS[table].values())
    assert {k: v for k, v in lineup.resolved()[0]["params"].items() if k.startswith("value_")} == VALUE_WEIGHTS[table]
    given = Lineup.parse("lookahead:value_move=0.5:value_ones=0", rules)
    assert given.names[0] == "lookahead:value_move=0.5:value_ones=0"
    row = given.params()[0, 0]
    assert row[value.start] == 0.5 and row[value.stop - 1] == 0.0
    assert list(row[value.start + 1 : value.stop - 1]) == list(VALUE_WEIGHTS[table].values())[1:-1]


def test_another_tables_value_is_printed():
    """Given the two-player value at a three-team table, the spec names every weight that
    differs from the three-team defaults, and parses back to the same parameters."""
    from simkit.game.players import VALUE_WEIGHTS

    three = Rules.make(3)
    two_team_value = ":".join(f"{k}={v!r}" for k, v in VALUE_WEIGHTS["2 teams"].items())
    lineup = Lineup.parse(f"lookahead:{two_team_value}", three)
    differ = [k for k, v in VALUE_WEIGHTS["2 teams"].items() if v != VALUE_WEIGHTS["3 teams"][k]]
    assert differ and all(f"{k}=" in lineup.names[0] for k in differ)
    assert np.array_equal(Lineup.parse(lineup.names[0], three).params(), lineup.params())
    assert Lineup.parse(f"lookahead:{two_team_value}", TWO).names[0] == "lookahead"


def test_racing_only_drops_challengers_that_could_not_be_chosen_at_its_last_look():
    """With no more rollouts than one batch, the race looks once, after the last deal: the
    games are those of race=0. With more, racing changes some choices (it is used)."""
    from simkit.kernels.players.rollouts import BATCH

    def moves(spec):
        lineup = Lineup.parse(spec + ",greedy", TWO)
        return [game_record(TWO, lineup, 12, game)["turns"] for game in range(4)]

    few = f"lookahead:rollouts={BATCH}:shortlist=3"
    assert moves(few + ":race=0") == moves(few + ":race=2")
    many = "lookahead:rollouts=64:shortlist=3"
    assert moves(many + ":race=0") != moves(many + ":race=0.25")


@pytest.mark.parametrize(
    "change", ["horizon=2", "horizon=0", "opponent_block4=0", "value_sequences=0", "value_ones=0.5", "jack_cost=20"]
)
def test_lookahead_parameters_change_its_play(change):
    """Each group of the lookahead's parameters is used: changing one changes the games."""
    base = simulate(TWO, Lineup.parse(FAST_LOOKAHEAD + ",greedy", TWO), 6, 0, 20)
    other = simulate(TWO, Lineup.parse(f"{FAST_LOOKAHEAD}:{change},greedy", TWO), 6, 0, 20)
    assert not np.array_equal(base, other)


def _position(team0_cells, team1_cells, hand):
    """A fresh 2-player State: chips placed, seat 0 holding `hand` (card names)."""
    from simkit.kernels.core.moves import place_chip
    from simkit.kernels.core.rng import seed_stream

    st = new_state()
    seed_stream(st.rng, 1, 0)
    for team, cells in ((0, team0_cells), (1, team1_cells)):
        for c in cells:
            place_chip(tables(), st, team, c)
    set_hand(st, 0, hand)
    return st


def _greedy_move(st):
    from simkit.game.cards import card_name

    lineup = Lineup.parse("greedy", TWO)
    code, cell = decide(
        lineup.decisions(),
        lineup.ids()[0, 0],
        lineup.params()[0, 0],
        tables(),
        TWO.cfg(),
        st,
        workspace(lineup.ids(), lineup.params()),
        0,
        0,
    )
    return card_name(code), int(cell)


def test_greedy_keeps_a_two_eyed_jack_for_later():
    """On an open board a two-eyed Jack is not spent: the ordinary card is played."""
    st = _position([], [], ["JD", "2S"])
    assert _greedy_move(st)[0] == "2S"


def test_greedy_spends_a_two_eyed_jack_to_complete_a_sequence():
    """Blue holds 11-14 (row 1); the Jack completes a sequence on 10 or 15."""
    st = _position([11, 12, 13, 14], [], ["JD", "2S"])
    assert _greedy_move(st) in {("JD", 10), ("JD", 15)}


def test_greedy_breaks_an_open_four_with_a_one_eyed_jack():
    """Green holds 11-14 with both ends open: blue's one-eyed Jack removes one."""
    st = _position([], [11, 12, 13, 14], ["JS", "2S"])
    card, cell = _greedy_move(st)
    assert card == "JS" and cell in {11, 12, 13, 14}


def test_greedy_keeps_a_one_eyed_jack_without_a_four_to_break():
    st = _position([], [11, 12], ["JS", "2S"])
    assert _greedy_move(st)[0] == "2S"


@pytest.mark.parametrize("players, teams", [(4, 2), (6, 3), (9, 3)])
def test_mixed_policies_run_in_team_games(players, teams):
    rules = Rules.make(players, teams)
    stats = simulate(rules, Lineup.parse("greedy,random,greedy" if teams == 3 else "greedy,random", rules), 2, 0, 50)
    assert (stats["turns"] > 0).all()
