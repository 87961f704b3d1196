"""Restrictions: a player forgoing a use of its cards (kernels/core/params.py RESTRICTIONS), as a parameter.

Greedy's scorer lists the moves a restricted player may make (kernels/players/greedy.py): checked on
random midgames against the unrestricted list, and in games; a restriction gives way only where it
would leave no legal move.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.game.cards import tables
from simkit.game.players import Lineup, LineupError
from simkit.game.records import game_record
from simkit.game.rules import Rules
from simkit.kernels.core.tables import ONE_EYED, TWO_EYED
from simkit.kernels.players.greedy import GREEDY, score_actions
from tests.positions import hand_cards, random_midgame, set_hand

TWO = Rules.make(2)


def listed(st, seat: int, team: int, **values: float) -> dict[int, float]:
    """Greedy's listed moves (card * 128 + cell -> score) for the seat, its block of weights `values`."""
    actions, scores = np.zeros(512, np.int64), np.zeros(512)
    n = score_actions(tables(), TWO.cfg(), st, seat, team, GREEDY.row(values), actions, scores)
    return dict(zip(actions[:n].tolist(), scores[:n].tolist()))


def positions(jacks: list[str]):
    """Random midgames at 2p, the seat to move holding `jacks` beside two of its own cards."""
    for seed in range(12):
        turns = 10 + 3 * seed
        st = random_midgame(TWO, seed, turns)
        seat = turns % 2
        own = [c for c in hand_cards(st, seat) if tables().card_kind[c] == 0][:2]
        set_hand(st, seat, own + jacks)
        yield st, seat


def kinds(moves) -> set[int]:
    return {int(tables().card_kind[m // 128]) for m in moves}


def test_a_restriction_is_a_parameter_named_by_its_word():
    lineup = Lineup.parse("greedy:one_eyed=never:two_eyed=complete", TWO)
    assert lineup.spec == "greedy:one_eyed=never:two_eyed=complete"
    assert Lineup.parse("greedy:one_eyed=1", TWO).spec == "greedy:one_eyed=never"
    with pytest.raises(LineupError, match="one_eyed of 'greedy' must be one of any, never, got 'sometimes'"):
        Lineup.parse("greedy:one_eyed=sometimes", TWO)
    with pytest.raises(LineupError, match="bad parameter 'one_eyed=never' for player 'random'"):
        Lineup.parse("random:one_eyed=never", TWO)


def test_one_eyed_never_lists_no_removal_while_another_move_is_legal():
    checked = 0
    for st, seat in positions(["JS", "JH"]):
        free, never = listed(st, seat, seat), listed(st, seat, seat, one_eyed=1)
        others = {m: s for m, s in free.items() if tables().card_kind[m // 128] != ONE_EYED}
        if others:
            assert never == others
            checked += ONE_EYED in kinds(free)
    assert checked >= 1


def test_two_eyed_complete_lists_a_two_eyed_jack_only_where_it_completes_a_sequence():
    for st, seat in positions(["JD"]):
        free, complete = listed(st, seat, seat), listed(st, seat, seat, two_eyed=1)
        for move in set(free) - set(complete):
            assert tables().card_kind[move // 128] == TWO_EYED
        for move, score in complete.items():
            if tables().card_kind[move // 128] == TWO_EYED:
                assert score - free[move] == 0 and score + 20 >= 1000  # a sequence completed: complete's 1000
    never = [listed(st, seat, seat, two_eyed=2) for st, seat in positions(["JD", "JC"])]
    assert all(TWO_EYED not in kinds(moves) for moves in never if any(k != TWO_EYED for k in kinds(moves)) or not moves)


def test_blocking_never_scores_the_moves_as_greedy_without_its_blocking_terms():
    for st, seat in positions([]):
        never = listed(st, seat, seat, blocking=1)
        without = listed(st, seat, seat, block=0, block4=0)
        assert never == without


def test_a_restriction_at_its_default_plays_the_games_of_the_player_without_it():
    rules = Rules.make(2)
    for spec in ("greedy:dead_swap=any:one_eyed=any:two_eyed=any:blocking=any:corners=use", "greedy"):
        assert Lineup.parse(spec, rules).spec == "greedy"


def test_dead_swap_never_keeps_the_dead_cards_of_its_team_alone():
    rules = Rules.make(2)
    lineup = Lineup.parse("greedy:dead_swap=never,greedy", rules)
    swaps = [0, 0]
    for game in range(40):
        for turn in game_record(rules, lineup, 5, game)["turns"]:
            swaps[turn["seat"] % 2] += turn["dead"] is not None
    assert swaps[0] == 0 and swaps[1] > 0


def test_restricted_games_stay_legal_and_differ(tmp_path):
    """Every restriction plays legal games (the referee) and other games than the player without it."""
    from tests import referee

    rules = Rules.make(2)
    base = [game_record(rules, Lineup.parse("greedy", rules), 9, g)["turns"] for g in range(6)]
    for restriction in ("one_eyed=never", "two_eyed=complete", "two_eyed=never", "blocking=never", "corners=ignore"):
        lineup = Lineup.parse(f"greedy:{restriction},greedy", rules)
        records = [game_record(rules, lineup, 9, g) for g in range(6)]
        assert all(referee.check_record(r) == [] for r in records), restriction
        assert [r["turns"] for r in records] != base, restriction
