"""One test per rule of docs/RULES.md, "Rule variants", each failing if the kernel broke it.

Whole games come from the kernel (``simkit.game.records.game_record``) and are
checked by replaying them with code that shares nothing with the kernel
(``tests/positions.replay``); the referee (``tests/referee.py``) must accept
every such game and refuse a record that breaks a variant's rule. The
kernel's games equal the naive engine's under every option
(tests/test_kernel_vs_naive.py, VARIANTS).
"""

from __future__ import annotations

import copy
from functools import cache

import pytest

from simkit.game.play import simulate
from simkit.game.players import Lineup
from simkit.game.records import game_record
from simkit.game.rules import Rules
from tests import naive, referee
from tests.positions import replay


@cache
def records(seed: int = 31, n: int = 40, policy: str = "random", **options):
    """(rules, kernel records) of n games."""
    rules = Rules.make(**options)
    lineup = Lineup.parse(policy, rules)
    return rules, tuple(game_record(rules, lineup, seed, g) for g in range(n))


def draws_expected(turn: dict, last: bool) -> int:
    """Cards a turn draws in the standard game: the dead card's replacement and the end-of-turn draw."""
    return int(turn["dead"] is not None) + int(turn["action"] != "pass" and not last)


# --- reshuffle ------------------------------------------------------------------


@pytest.mark.parametrize("players, teams", [(2, 2), (3, 3), (4, 2), (12, 3)])
def test_no_reshuffle_an_empty_pile_draws_nothing_and_hands_shrink(players, teams):
    """RULES.md, Rule variants, reshuffle false: with the pile empty no card is drawn, the discards stay."""
    rules, recs = records(players=players, teams=teams, reshuffle=False)
    shrunk = 0
    for rec in recs:
        for i, turn, snap, events in replay(rec):
            assert events == 0 and not turn["reshuffle"]
            last = i + 1 == len(rec["turns"])
            if snap.pile_n == 0:
                assert turn["drawn"] == [] and turn["dead"] is None  # no draw, so no swap either
                shrunk += turn["action"] != "pass"
            elif snap.pile_n >= 2:
                assert len(turn["drawn"]) == draws_expected(turn, last)
        assert referee.check_record(rec) == []
    assert shrunk > 0  # the rule was exercised


def test_no_reshuffle_a_seat_with_an_empty_hand_passes():
    """RULES.md, Rule variants, reshuffle false: a seat with an empty hand passes (then a round of passes ends it)."""
    rules, recs = records(players=2, reshuffle=False, n=60)
    empty = 0
    for rec in recs:
        for _, turn, snap, _ in replay(rec):
            if not snap.hands[turn["seat"]]:
                assert turn["action"] == "pass" and turn["drawn"] == []
                empty += 1
    assert empty > 0


def test_reshuffle_on_refills_the_pile():
    """RULES.md, A turn 3 (the default reshuffle true): the discards become the new pile."""
    rules, recs = records(players=2)
    assert any(turn["reshuffle"] for rec in recs for turn in rec["turns"])


def test_referee_refuses_a_draw_from_an_empty_pile_without_reshuffle():
    """RULES.md, Rule variants: a record that draws after the pile ran out (reshuffle false) is illegal."""
    rules, recs = records(players=2, reshuffle=False)
    rec = next(r for r in recs if any(s.pile_n == 0 and t["action"] != "pass" for _, t, s, _ in replay(r)))
    forged = copy.deepcopy(rec)
    forged["rules"].pop("reshuffle")  # the same game read as the standard game: draws are now missing
    assert any("missing draw" in p for p in referee.check_record(forged))


# --- dead_swap ------------------------------------------------------------------


@pytest.mark.parametrize("players, teams", [(2, 2), (6, 3)])
def test_no_dead_swap_dead_cards_are_kept(players, teams):
    """RULES.md, Rule variants, dead_swap false: dead cards are never swapped; a hand of dead cards passes."""
    rules, recs = records(players=players, teams=teams, dead_swap=False, n=60)
    kept = 0
    for rec in recs:
        for _, turn, snap, _ in replay(rec):
            assert turn["dead"] is None
            hand = snap.hands[turn["seat"]]
            kept += any(snap.dead(c) for c in hand)
            if hand and all(snap.dead(c) for c in hand):
                assert turn["action"] == "pass"
        assert referee.check_record(rec) == []
    assert kept > 0


def test_referee_refuses_a_swap_with_dead_swap_off():
    """RULES.md, Rule variants, dead_swap false: a record that swaps a dead card is illegal."""
    rules, recs = records(players=2)
    rec = next(r for r in recs if any(t["dead"] for t in r["turns"]))
    forged = copy.deepcopy(rec)
    forged["rules"]["dead_swap"] = False
    assert any("with dead_swap off" in p for p in referee.check_record(forged))


# --- late_card ------------------------------------------------------------------


@pytest.mark.parametrize("players, teams, k", [(2, 2, 1), (2, 2, 5), (4, 2, 3), (3, 3, 2), (12, 3, 2)])
def test_late_card_team_0_dealt_short_draws_it_after_its_kth_turn(players, teams, k):
    """RULES.md, Rule variants, late_card K: team 0's seats are dealt a card short and draw one
    extra card at the end of their own K-th turn (after the normal draw), unless the game ended."""
    rules, recs = records(players=players, teams=teams, late_card=k)
    size = rules.hand_sizes[0]
    late = 0
    for rec in recs:
        assert [len(h) for h in rec["hands"]] == [size - (s % teams == 0) for s in range(players)]
        for i, turn, _snap, _ in replay(rec):
            last = i + 1 == len(rec["turns"])
            seat = turn["seat"]
            kth = seat % teams == 0 and i // players + 1 == k
            extra = len(turn["drawn"]) - draws_expected(turn, last)
            assert extra == (1 if kth and not last else 0), (i, turn)
            late += extra
        # at the end every seat holds its hand size again (or fewer only once the game is over)
        assert referee.check_record(rec) == []
    assert late > 0


def test_late_card_zero_is_the_standard_deal():
    """RULES.md, Rule variants: K = 0 is the standard game, game for game."""
    standard = Rules.make(2)
    assert Rules.make(2, late_card=0) == standard
    lineup = Lineup.parse("random", standard)
    assert (simulate(standard, lineup, 5, 0, 200) == simulate(Rules.make(2, late_card=0), lineup, 5, 0, 200)).all()


def test_late_card_on_a_pass_and_not_on_the_last_turn():
    """RULES.md, Rule variants: a pass on the K-th turn still draws the late card (and counts as a pass);
    the turn that reaches the cap draws none."""
    # Team 0 dealt no card: seat 0 passes its first turns, then its late card arrives on a pass.
    rules, recs = records(players=2, hand_size=1, late_card=3, n=20)
    checked = 0
    for rec in recs:
        assert rec["hands"][0] == []
        assert referee.check_record(rec, strict_rules=False) == []
        if len(rec["turns"]) > 5:  # (seat 1's one card, a one-eyed Jack with nothing to remove, ends it sooner)
            turn = rec["turns"][4]  # seat 0's third turn
            assert turn["seat"] == 0 and turn["action"] == "pass" and len(turn["drawn"]) == 1
            checked += 1
    assert checked > 10
    # Cap at 9 turns: seat 0's 5th turn is turn 9, the last one: no late card.
    rules, recs = records(players=2, late_card=5, max_turns=9, n=10)
    for rec in recs:
        if rec["result"]["end"] == "turn_cap":
            assert len(rec["turns"][8]["drawn"]) == draws_expected(rec["turns"][8], False)
        assert referee.check_record(rec, strict_rules=False) == []


def test_referee_refuses_a_missing_or_extra_late_card():
    """RULES.md, Rule variants, late_card: the referee checks the deal and the extra draw."""
    rules, recs = records(players=2, late_card=2)
    rec = recs[0]
    wrong_k = copy.deepcopy(rec)
    wrong_k["rules"]["late_card"] = 3
    assert referee.check_record(wrong_k)  # the late card came on the wrong turn
    no_late = copy.deepcopy(rec)
    del no_late["rules"]["late_card"]
    assert any("dealt 6 cards, expected 7" in p for p in referee.check_record(no_late))


def test_every_option_combines_with_every_other_and_the_naive_engine_agrees():
    """RULES.md, Rule variants (every option combines): all three with per-seat sizes at a partner table."""
    rules = Rules.make(4, hand_size="6,5", reshuffle=False, dead_swap=False, late_card=2, chip_limit=True)
    lineup = Lineup.parse("random", rules)
    for g in range(15):
        rec = game_record(rules, lineup, 9, g)
        assert rec == naive.play_game(rules.record_rules(), ["random"] * 4, 9, g)
        assert referee.check_record(rec, strict_rules=False) == []


@pytest.mark.parametrize("policy", ["greedy", pytest.param("lookahead:rollouts=8", marks=pytest.mark.strong)])
@pytest.mark.parametrize(
    "options",
    [
        dict(reshuffle=False),
        dict(dead_swap=False),
        dict(late_card=3),
        dict(reshuffle=False, dead_swap=False, late_card=6),
    ],
)
def test_strategic_policies_play_legal_games_under_every_option(policy, options):
    """RULES.md, Rule variants: greedy and the lookahead play legal games under each option."""
    for players, teams in ((2, 2), (3, 3)):
        games = 6 if policy == "greedy" else 2
        rules, recs = records(seed=41, n=games, policy=policy, players=players, teams=teams, **options)
        for rec in recs:
            assert referee.check_record(rec) == [], referee.check_record(rec)[:3]
