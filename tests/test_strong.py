"""The later players: ismcts (kernels/players/search.py), fast (kernels/players/fast.py), swift
(kernels/players/rollouts.py's race with kernels/values/rich.py's value at its leaves) and ismcts-rich (ismcts's
search with that value at its playouts' ends).

Each plays legal games (the referee) at every table shape and under every
rule variant, the same games for any threads, chunks and resumes
(tests/test_runner.py and tests/test_distributed.py run them too), and sees
only what RULES.md's Information allows: hiding the unseen cards' order
differently leaves its decision unchanged. The cheating instruments are the
exception, named only in the research group, and tests show what they read:
``ismcts:research.cheat=1`` the hands and the deck's order,
``ismcts:research.cheat=2`` the hands alone.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.game.cards import tables
from simkit.game.play import simulate
from simkit.game.players import PLAYERS, Lineup, LineupError, value_table
from simkit.game.records import game_record
from simkit.game.rules import Rules
from simkit.kernels.core.turn import decide
from simkit.kernels.players.dispatch import workspace
from tests import referee
from tests.positions import random_midgame, scramble_hidden

TWO = Rules.make(2)
CHEAP_ISMCTS = "ismcts:iterations=24:width=3:reply=2:horizon=1"
CHEAT = CHEAP_ISMCTS + ":research.cheat=1"
CHEAT_HANDS = CHEAP_ISMCTS + ":research.cheat=2"
HONEST = [CHEAP_ISMCTS, "ismcts:iterations=60:horizon=0", "fast", "fast:width=6"]
TWO_TEAM_TABLES = [(2, 2), (4, 2), (6, 2)]  # ismcts-rich's search is for two teams only
SWIFT_TABLES = [(2, 2), (4, 2), (3, 3), (6, 3)]  # swift plays every table: one of each shape
CHEAP_RICH = "ismcts-rich:iterations=24:width=3:reply=2:horizon=1"


def test_every_lineup_plays_the_decisions_of_its_players_one_type_for_all():
    """Every line-up's decisions but random alone's are one tuple type, holding each of its players' decisions
    by kernel id and random's in the other slots; random alone has none (its own game loop, no pointer)."""
    from numba import typeof

    from simkit.kernels.players.dispatch import BY_ID, decision, decisions

    specs = ["greedy,random", "lookahead", "swift,lookahead", "ismcts-rich,ismcts", "fast,greedy"]
    made = [Lineup.parse(spec, TWO).decisions() for spec in specs]
    assert len({typeof(d) for d in made}) == 1
    for spec, each in zip(specs, made):
        ids = {PLAYERS[name.split(":")[0]].id for name in spec.split(",")}
        assert each == tuple(decision(i if i in ids else 0) for i in range(len(BY_ID)))
    assert decisions([0, 1]) == decisions([1])
    assert Lineup.parse("random", TWO).decisions() is None and decisions([0, 0]) is None


def test_the_search_arena_is_sized_by_the_lineup():
    """A line-up's search arena holds its largest search; one that does not search has the smallest arena."""
    lineup = Lineup.parse("ismcts:iterations=300,lookahead", TWO, swap_seats=True)
    assert workspace(lineup.ids(), lineup.params()).nodes.shape[0] == 300 + 2 + 16
    plain = Lineup.parse("fast,lookahead", TWO)
    assert workspace(plain.ids(), plain.params()).nodes.shape[0] == 2
    both = Lineup.parse("ismcts:iterations=300,ismcts-rich:iterations=500", TWO, swap_seats=True)
    assert workspace(both.ids(), both.params()).nodes.shape[0] == 500 + 2 + 16
    alone = Lineup.parse("random", TWO)
    assert workspace(alone.ids(), alone.params()).nodes.shape[0] == 2


@pytest.mark.parametrize(
    "spec, message",
    [
        ("ismcts:iterations=-1", "iterations of 'ismcts' must be a whole number from 0 to 1000000"),
        ("ismcts:width=17", "width of 'ismcts' must be a whole number from 1 to 16"),
        ("ismcts:reply=0", "reply of 'ismcts' must be a whole number from 1 to 16"),
        ("ismcts:explore=-1", "explore of 'ismcts' must be at least 0"),
        ("ismcts:research.cheat=0.5", "research.cheat of 'ismcts' must be a whole number from 0 to 2"),
        ("ismcts:research.cheat=3", "research.cheat of 'ismcts' must be a whole number from 0 to 2"),
        ("ismcts:cheat=1", "cheat of 'ismcts' is a research instrument .*give it as research.cheat=1"),
        (
            "ismcts:research.width=3",
            r"bad parameter 'research.width=3' for player 'ismcts' \(did you mean width\?\); parameters: "
            "iterations, width, reply, explore, horizon, research.cheat, race",
        ),
        ("greedy:research.cheat=1", "bad parameter 'research.cheat=1' for player 'greedy'"),
        ("fast:width=0", "width of 'fast' must be a whole number from 1 to 16"),
        ("swift:shortlist=17", "shortlist of 'swift' must be a whole number from 1 to 16"),
        ("swift:batch=0", "batch of 'swift' must be a whole number from 1 to 1000000"),
        ("swift:batch=2.5", "batch of 'swift' must be a whole number from 1 to 1000000"),
        ("swift:view=2", "view of 'swift' must be a whole number from 0 to 1"),
        ("ismcts-rich:width=17", "width of 'ismcts-rich' must be a whole number from 1 to 16"),
        ("ismcts-rich:research.cheat=3", "research.cheat of 'ismcts-rich' must be a whole number from 0 to 2"),
        ("ismcts-rich:cheat=2", "cheat of 'ismcts-rich' is a research instrument"),
    ],
)
def test_bad_parameters_are_refused(spec, message):
    with pytest.raises(LineupError, match=message):
        Lineup.parse(spec, TWO)


def test_swift_plays_every_table_with_the_value_fitted_for_it():
    """The value of hand and board of the table's shape, or the table's own where it has one (8 players or
    more: RICH_WEIGHTS); the search settings of its shape."""
    from simkit.game.rules import LEGAL_TEAMS
    from simkit.kernels.values.weights import RICH_WEIGHTS, rich_table, rich_weights

    for players, teams in [(p, t) for p, ts in LEGAL_TEAMS.items() for t in ts]:
        rules = Rules.make(players, teams)
        params = Lineup.parse("swift,lookahead", rules).seats()[0].resolved()["params"]
        assert {k: params[k] for k in rich_weights(players, teams)} == rich_weights(players, teams)
        assert rich_table(players, teams) == (
            f"{players} players, {teams} teams"
            if f"{players} players, {teams} teams" in RICH_WEIGHTS
            else value_table(rules)
        )
    assert rich_table(12, 2) == "12 players, 2 teams" and rich_table(4, 2) == "2 teams, partners"


@pytest.mark.parametrize("players, teams", [(3, 3), (6, 3)])
def test_ismcts_rich_is_refused_where_its_value_is_not_fitted(players, teams):
    with pytest.raises(
        LineupError,
        match="ismcts-rich's value is fitted for tables of '2 teams' and "
        "'2 teams, partners' only, not '3 teams.*play ismcts",
    ):
        Lineup.parse("ismcts-rich,greedy", Rules.make(players, teams))


def test_ismcts_rich_is_ismcts_with_the_value_of_hand_and_board_of_its_table():
    """ismcts's search settings and greedy weights; the value weights of the table shape (RICH_WEIGHTS)."""
    from simkit.game.players import RICH_WEIGHTS
    from simkit.kernels.values.weights import rich_weights

    for players in (2, 4, 12):
        rules = Rules.make(players, 2)
        rich = Lineup.parse("ismcts-rich", rules).seats()[0].resolved()["params"]
        plain = Lineup.parse("ismcts", rules).seats()[0].resolved()["params"]
        weights = rich_weights(players, 2)
        assert {k: rich[k] for k in weights} == weights
        assert {k: v for k, v in rich.items() if k not in RICH_WEIGHTS["2 teams"]} == {
            k: v for k, v in plain.items() if not k.startswith("value_")
        }
        assert Lineup.parse("ismcts-rich", rules).names[0] == "ismcts-rich"


def test_ismcts_rich_plays_other_games_than_ismcts():
    """The same search on another value: some decisions differ (and the games with them)."""

    def games(spec):
        return simulate(TWO, Lineup.parse(f"{spec},greedy", TWO, swap_seats=True), 9, 0, 6)

    assert not np.array_equal(games(CHEAP_RICH), games(CHEAP_ISMCTS))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_playouts_end_scored_as_the_seat_that_played_last_sees_the_deal(players):
    """RICH: that seat's team's chance by kernels.values.rich (its hand, the board), the other team the rest;
    FITTED: kernels.values.evaluation's softmax over the teams (ismcts, unchanged)."""
    import numba

    from simkit.game.players import RICH_WEIGHTS, VALUE_WEIGHTS, value_table
    from simkit.kernels.players.search import end_value, leaf_values
    from simkit.kernels.values.leaves import FITTED, RICH
    from simkit.kernels.values.rich import rich_chance

    @numba.njit
    def values(leaf, tb, cfg, st, mover, weights, out):
        leaf_values(leaf, tb, cfg, st, mover, weights, out)

    rules = Rules.make(players, 2)
    rich_w = np.array(list(RICH_WEIGHTS[value_table(rules)].values()))
    fitted_w = np.array(list(VALUE_WEIGHTS[value_table(rules)].values()))
    for seed in range(4):
        turns = 9 + seed
        st = random_midgame(rules, seed, turns)
        mover = turns % players
        last = (mover - 1) % players
        out = np.full(6, -1.0)
        values(RICH, tables(), rules.cfg(), st, mover, rich_w, out)
        p = rich_chance(tables(), rules.cfg(), st, last, rich_w)
        assert out[last % 2] == p and out[1 - last % 2] == 1.0 - p and 0.0 < p < 1.0
        expected = np.zeros(6)
        end_value(tables(), rules.cfg(), st, mover, fitted_w, expected)
        values(FITTED, tables(), rules.cfg(), st, mover, fitted_w, out)
        assert np.array_equal(out[:2], expected[:2]) and abs(out[:2].sum() - 1.0) < 1e-12


def test_swift_takes_the_value_and_the_search_settings_of_its_table():
    """Measured per table shape (docs/research.md, simkit.game.players.SWIFT_SETTINGS), 10 deals raced
    every 2 and all four candidates searched when they hold a removal at every shape: one player per team
    and every three-team table, gap=16 and the lookahead's own weights for the other teams' replies (the
    leaves seen by the searching seat with three teams); two teams with partners, every candidate
    searched, the default greedy's replies and the leaves seen by the searching seat; at 12p/3t, a table
    of its own, 4 plies on 20 deals raced every 4."""
    from simkit.game.players import LOOKAHEAD_OWN_WEIGHTS

    alone = {
        "gap": 16.0,
        "rollouts": 10.0,
        "race": 0.5,
        "batch": 2.0,
        "view": 0.0,
        "removals": 4.0,
        **{f"opponent_{k}": v for k, v in LOOKAHEAD_OWN_WEIGHTS.items()},
    }
    partners = {
        "gap": 0.0,
        "rollouts": 10.0,
        "race": 0.5,
        "batch": 2.0,
        "view": 1.0,
        "removals": 4.0,
        **{
            f"opponent_{k}": v
            for k, v in PLAYERS["greedy"].params.items()
            if not PLAYERS["greedy"].settable[k].restriction
        },
    }
    from simkit.kernels.values.weights import rich_weights

    three = {**alone, "view": 1.0}
    wide = {**three, "horizon": 4.0, "rollouts": 20.0, "batch": 4.0}  # 12p/3t: a table of its own
    for players, teams, settings in (
        (2, 2, alone),
        (4, 2, partners),
        (12, 2, partners),
        (3, 3, three),
        (6, 3, three),
        (9, 3, three),
        (12, 3, wide),
    ):
        rules = Rules.make(players, teams)
        policy = Lineup.parse("swift", rules).seats()[0]
        params = policy.resolved()["params"]
        assert {k: params[k] for k in rich_weights(players, teams)} == rich_weights(players, teams)
        assert {k: params[k] for k in settings} == settings
        assert policy.spec == "swift"
        given = ":".join(f"{k}={v:g}" for k, v in settings.items())
        assert Lineup.parse(f"swift:{given}", rules).seats()[0].spec == "swift"  # the defaults are not printed
    assert Lineup.parse("swift:gap=16", Rules.make(4, 2)).seats()[0].spec == "swift:gap=16"
    assert Lineup.parse("swift:view=1", TWO).seats()[0].spec == "swift:view=1"
    assert PLAYERS["swift"].defaults() == PLAYERS["swift"].params  # the base row is the two-player table's


def test_cheating_is_never_a_default():
    assert PLAYERS["ismcts"].params["cheat"] == 0 and PLAYERS["ismcts-rich"].params["cheat"] == 0
    assert PLAYERS["ismcts"].research == ("cheat",) and PLAYERS["ismcts-rich"].research == ("cheat",)
    assert not any(p.research for name, p in PLAYERS.items() if not name.startswith("ismcts"))
    assert Lineup.parse("ismcts:research.cheat=1", TWO).names[0] == "ismcts:research.cheat=1"  # always printed
    assert Lineup.parse("ismcts-rich:research.cheat=2", TWO).names[0] == "ismcts-rich:research.cheat=2"


@pytest.mark.parametrize(
    "spec", [CHEAP_ISMCTS + ",greedy", "fast,lookahead:rollouts=4:shortlist=3", CHEAT, CHEAT_HANDS]
)
@pytest.mark.parametrize("players, teams", [(2, 2), (4, 2), (3, 3), (6, 3)])
def test_recorded_games_pass_the_referee(spec, players, teams):
    rules = Rules.make(players, teams)
    lineup = Lineup.parse(spec, rules)
    for game in range(2):
        record = game_record(rules, lineup, 17, game)
        assert record["policies"] == lineup.names
        assert referee.check_record(record, strict_rules=False) == []


@pytest.mark.parametrize(
    "spec, players, teams",
    [("swift,lookahead:rollouts=4:shortlist=3", p, t) for p, t in SWIFT_TABLES]
    + [(CHEAP_RICH + ",greedy", p, t) for p, t in TWO_TEAM_TABLES],
)
def test_swift_and_ismcts_rich_records_pass_the_referee(spec, players, teams):
    rules = Rules.make(players, teams)
    lineup = Lineup.parse(spec, rules, swap_seats=True)
    for game in range(2):
        record = game_record(rules, lineup, 17, game)
        assert referee.check_record(record, strict_rules=False) == []


@pytest.mark.parametrize("options", [dict(reshuffle=False), dict(dead_swap=False), dict(late_card=3), dict(handicap=2)])
@pytest.mark.parametrize("spec", ["swift", CHEAP_RICH])
def test_two_team_players_play_legal_games_under_the_rule_variants(spec, options):
    for players in (2, 4):
        rules = Rules.make(players, 2, **options)
        lineup = Lineup.parse(f"{spec},greedy", rules, swap_seats=True)
        for game in range(2):
            record = game_record(rules, lineup, 41, game)
            assert referee.check_record(record) == [], referee.check_record(record)[:3]


@pytest.mark.parametrize("spec", [CHEAP_ISMCTS, "fast", CHEAT])
@pytest.mark.parametrize(
    "options",
    [
        dict(reshuffle=False),
        dict(dead_swap=False),
        dict(late_card=3),
        dict(handicap=2),
        dict(reshuffle=False, dead_swap=False, late_card=6),
    ],
)
def test_legal_games_under_every_rule_variant(spec, options):
    """RULES.md, Rule variants and Compensation families: the deals a search plays on respect them."""
    for players, teams in ((2, 2), (3, 3), (4, 2)):
        rules = Rules.make(players, teams, **options)
        lineup = Lineup.parse(f"{spec},greedy", rules, swap_seats=True)
        for game in range(2):
            record = game_record(rules, lineup, 41, game)
            assert referee.check_record(record) == [], referee.check_record(record)[:3]


@pytest.mark.parametrize("spec", [CHEAP_ISMCTS, "fast", CHEAT_HANDS, "swift", CHEAP_RICH])
def test_same_seed_same_games(spec):
    lineup = Lineup.parse(spec + ",greedy", TWO)
    a = simulate(TWO, lineup, 4, 0, 12)
    b = simulate(TWO, lineup, 4, 6, 6)
    assert np.array_equal(a[6:], b)
    assert game_record(TWO, lineup, 4, 3) == game_record(TWO, lineup, 4, 3)


def reverse_pile(st, seat, players):
    """Reverse the order of the draw pile's cards, nothing else."""
    pos, n = st.ctr.pile_pos, st.ctr.pile_n
    st.pile[pos:n] = st.pile[pos:n][::-1].copy()


def _scrambled_decisions(spec, players, teams, seed, turns=21, scramble=scramble_hidden):
    """The seat's decision before and after `scramble` (default: the other hands' cards are swapped
    with the pile's and the pile is reversed: what the seat sees is the same)."""
    rules = Rules.make(players, teams)
    st = random_midgame(rules, seed, turns)
    seat = turns % rules.players
    team = seat % rules.teams
    lineup = Lineup.parse(spec, rules)
    ids, params, cfg, pset = lineup.ids()[0], lineup.params()[0], rules.cfg(), lineup.decisions()
    rng = st.rng.copy()
    first = decide(pset, ids[seat], params[seat], tables(), cfg, st, workspace(ids, params), seat, team)
    scramble(st, seat, rules.players)
    st.rng[:] = rng
    second = decide(pset, ids[seat], params[seat], tables(), cfg, st, workspace(ids, params), seat, team)
    return first, second


@pytest.mark.parametrize("spec", HONEST)
@pytest.mark.parametrize("players, teams", [(2, 2), (4, 2), (3, 3)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_decision_ignores_hidden_cards(spec, players, teams, seed):
    """RULES.md, Information: the other hands and the pile's order are hidden from the seat."""
    first, second = _scrambled_decisions(spec, players, teams, seed)
    assert first == second


@pytest.mark.parametrize(
    "spec",
    [
        "swift",
        "swift:shortlist=6:rollouts=16:horizon=3",
        "swift:gap=4",
        "swift:rollouts=8:race=0.5:batch=2",
        "swift:view=1",
    ],
)
@pytest.mark.parametrize("players, teams", SWIFT_TABLES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_swift_ignores_hidden_cards(spec, players, teams, seed):
    """RULES.md, Information, for swift."""
    first, second = _scrambled_decisions(spec, players, teams, seed)
    assert first == second


@pytest.mark.parametrize("spec", [CHEAP_RICH, "ismcts-rich:iterations=60:horizon=0", "ismcts-rich:iterations=48"])
@pytest.mark.parametrize("players, teams", TWO_TEAM_TABLES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ismcts_rich_ignores_hidden_cards(spec, players, teams, seed):
    """RULES.md, Information, for ismcts-rich (its tables: two teams)."""
    first, second = _scrambled_decisions(spec, players, teams, seed)
    assert first == second


def test_swift_searches_only_the_candidates_within_gap_of_greedys_choice():
    """gap: a candidate whose greedy score trails the best by more than gap is not searched. A gap wider than
    any score plays the games of gap=0 (every candidate searched); a gap narrower than any difference,
    greedy's choice by swift's own weights on every turn without a tie at the top."""
    from simkit.kernels.players.greedy import score_actions
    from simkit.kernels.players.rollouts import RACE_ROW

    lineup = Lineup.parse("swift:gap=0,greedy", TWO, swap_seats=True)
    wide = Lineup.parse("swift:gap=1e15,greedy", TWO, swap_seats=True)
    assert np.array_equal(simulate(TWO, lineup, 9, 0, 6), simulate(TWO, wide, 9, 0, 6))
    default = Lineup.parse("swift,greedy", TWO, swap_seats=True)  # gap=16: some decisions not searched
    assert not np.array_equal(simulate(TWO, default, 9, 0, 6), simulate(TWO, lineup, 9, 0, 6))
    own = Lineup.parse("swift:gap=1e-9:removals=0", TWO)  # removals=0: no decision searched whatever the gap
    ids, params, cfg, pset = own.ids()[0], own.params()[0], TWO.cfg(), own.decisions()
    weights = params[0, RACE_ROW.own : RACE_ROW.race]
    checked = 0
    for seed in range(8):
        st = random_midgame(TWO, seed, 11 + seed)
        seat = (11 + seed) % 2
        n = score_actions(tables(), cfg, st, seat, seat, weights, st.scratch, st.fscores)
        scores = st.fscores[:n].copy()
        top = st.scratch[int(np.argmax(scores))]
        card, cell = decide(pset, ids[seat], params[seat], tables(), cfg, st, workspace(ids, params), seat, seat)
        if np.sum(scores == scores.max()) == 1:  # else the tied candidates are searched
            assert card * 128 + cell == top, seed
            checked += 1
    assert checked >= 4


@pytest.mark.parametrize("players", [2, 4])
def test_swift_searches_all_four_when_they_hold_a_removal(players):
    """removals=4: a decision where greedy's best four (by swift's own greedy weights) hold a one-eyed Jack
    searches all four, whatever shortlist and gap say (as swift:shortlist=4:gap=0 would), or the whole
    shortlist if it is longer (shortlist=6: as swift:shortlist=6:gap=0 would); any other decision is
    swift's with removals=0. Positions: random midgames with a four of the other team planted
    (greedy lists a removal only where it breaks a four), the seat's hand cut to three cards of its own
    and, in half of them, the one-eyed Jack of spades."""
    from simkit.game.players import LOOKAHEAD_OWN_WEIGHTS
    from simkit.kernels.core.tables import ONE_EYED
    from simkit.kernels.players.greedy import GREEDY, score_actions
    from tests.positions import CORNERS, hand_cards, place_chip, set_hand

    rules = Rules.make(players, 2)
    cfg, weights = rules.cfg(), GREEDY.row(LOOKAHEAD_OWN_WEIGHTS)

    def choice(spec, st, seat):
        lineup = Lineup.parse(spec, rules)
        ids, params, pset = lineup.ids()[0], lineup.params()[0], lineup.decisions()
        rng = st.rng.copy()
        made = decide(pset, ids[seat], params[seat], tables(), cfg, st, workspace(ids, params), seat, seat % 2)
        st.rng[:] = rng
        return made

    def plant_four(st, team):
        """Four chips of `team` on the first empty stretch of five cells in a row, the fifth left empty."""
        taken = int(st.occupied[0]) | int(st.occupied[1]) << 64
        for start in (r * 10 + c for r in range(10) for c in range(6)):
            cells = range(start, start + 5)
            if not any(taken >> x & 1 or x in CORNERS for x in cells):
                for x in cells[:4]:
                    place_chip(tables(), st, team, x)
                return
        raise AssertionError("no empty stretch of five")

    held, differ, longer = [0, 0], 0, 0
    for seed in range(16):
        turns = 6 + seed
        st = random_midgame(rules, seed, turns)
        seat = turns % players
        plant_four(st, 1 - seat % 2)
        own = [c for c in hand_cards(st, seat) if tables().card_kind[c] != ONE_EYED][:3]
        set_hand(st, seat, own + (["JS"] if seed % 2 else []))
        n = score_actions(tables(), cfg, st, seat, seat % 2, weights, st.scratch, st.fscores)
        best = st.scratch[np.argsort(-st.fscores[:n], kind="stable")[:4]]
        removal = any(tables().card_kind[a // 128] == ONE_EYED for a in best)
        held[removal] += 1
        wide = choice("swift:shortlist=4:gap=0:removals=0", st, seat)
        first = choice("swift:shortlist=1:removals=0", st, seat)  # greedy's choice, no search
        differ += removal and first != wide
        assert choice("swift:shortlist=1:removals=4", st, seat) == (wide if removal else first), seed
        plain = choice("swift:removals=0", st, seat)
        assert choice("swift", st, seat) == (wide if removal else plain), seed
        six = choice("swift:shortlist=6:gap=0:removals=0", st, seat)
        longer += removal and six != wide
        gapped = choice("swift:shortlist=6:removals=0", st, seat)
        assert choice("swift:shortlist=6:removals=4", st, seat) == (six if removal else gapped), seed
    assert min(held) >= 5 and differ >= 1 and longer >= 1, (held, differ, longer)


def test_swift_looks_at_its_race_every_batch_deals():
    """batch: challengers are dropped (race) after every `batch` deals. Without a race batch changes nothing;
    a batch of all the deals or more is one look at the end, where a dropped challenger could not have been
    chosen (mean + race * se <= 0 < margin * se), so it plays the games of no race at all (swift's first
    defaults: 6 deals, race 0); looks every 2 deals drop challengers early and play others."""

    def games(spec):
        return simulate(TWO, Lineup.parse(f"{spec},greedy", TWO, swap_seats=True), 9, 0, 6)

    assert np.array_equal(games("swift:rollouts=12:race=0:batch=2"), games("swift:rollouts=12:race=0:batch=16"))
    assert np.array_equal(games("swift:rollouts=6:race=1:batch=6"), games("swift:rollouts=6:race=0:batch=16"))
    assert np.array_equal(games("swift:rollouts=6:race=1:batch=1000000"), games("swift:rollouts=6:race=0"))
    assert not np.array_equal(games("swift:rollouts=12:race=0.5:batch=2"), games("swift:rollouts=12:race=0.5:batch=16"))


def test_swift_views_its_leaves_as_the_last_seat_or_as_itself():
    """view=1: the leaves are scored as the searching seat sees the deal. With two players and an even
    horizon that seat played last, so view changes no game; after an odd horizon, or at horizon 2 with a
    partner (who played last), it does."""

    def games(spec, rules):
        return simulate(rules, Lineup.parse(f"{spec},greedy", rules, swap_seats=True), 9, 0, 4)

    assert np.array_equal(games("swift:view=1", TWO), games("swift:view=0", TWO))
    assert np.array_equal(games("swift:view=1:horizon=4", TWO), games("swift:view=0:horizon=4", TWO))
    assert not np.array_equal(games("swift:view=1:horizon=1", TWO), games("swift:view=0:horizon=1", TWO))
    partners = Rules.make(4, 2)
    assert not np.array_equal(games("swift:view=1", partners), games("swift:view=0", partners))


@pytest.mark.parametrize("name", ["ismcts", "ismcts-rich"])
def test_the_cheating_instrument_reads_the_hidden_cards(name):
    """research.cheat=1 sees every hand and the pile: scrambling them changes some of its decisions."""
    spec = f"{name}:iterations=200:research.cheat=1"
    changed = sum(a != b for seed in range(12) for a, b in [_scrambled_decisions(spec, 2, 2, seed, 15 + seed)])
    assert changed > 0


def test_the_hands_only_instrument_reads_the_hands_but_not_the_deck_order():
    """research.cheat=2 sees every hand, not the pile's order: scrambling the hands changes some of its
    decisions, reversing the pile none (its deals shuffle the pile's cards afresh)."""
    spec = "ismcts:iterations=200:research.cheat=2"
    scrambled = [_scrambled_decisions(spec, 2, 2, seed, 15 + seed) for seed in range(12)]
    assert sum(a != b for a, b in scrambled) > 0
    for players, teams in ((2, 2), (4, 2), (3, 3)):
        for seed in range(4):
            first, second = _scrambled_decisions(spec, players, teams, seed, scramble=reverse_pile)
            assert first == second, (players, teams, seed)


def test_the_new_players_beat_random():
    """A sanity check of strength: both win nearly every game against random, seats swapped."""
    for spec in (CHEAP_ISMCTS, "fast", "swift", CHEAP_RICH):
        lineup = Lineup.parse(f"{spec},random", TWO, swap_seats=True)
        winners = simulate(TWO, lineup, 8, 0, 40)["winner_team"]
        wins = sum(int(w == g % 2) for g, w in enumerate(winners))
        assert wins >= 36, (spec, wins)


def test_chunks_are_short_when_a_slow_player_plays():
    from simkit.running.runner import RunSpec

    assert RunSpec(TWO, Lineup.parse("ismcts,greedy", TWO), 1, 10).chunking == 100
    assert RunSpec(TWO, Lineup.parse("fast,random", TWO), 1, 10).chunking == 1_000
    assert RunSpec(TWO, Lineup.parse("swift", TWO), 1, 10).chunking == 1_000
    assert RunSpec(TWO, Lineup.parse("ismcts-rich,lookahead", TWO), 1, 10).chunking == 100
