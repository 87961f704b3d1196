"""The lookahead's position value (kernels/values/evaluation.py), against a plain-Python count.

The features are counted here from referee.py's 192 lines and the official
board, independently of the kernel's tables.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simkit.game.cards import tables
from simkit.game.players import VALUE_WEIGHTS, value_table
from simkit.game.rules import Rules
from simkit.kernels.core.state import MAX_TEAMS
from simkit.kernels.values.evaluation import N_FEATURES, N_VALUE_WEIGHTS, features, win_chance
from tests.positions import CORNERS, bb_cells, build, cfg_for, hand_cards, name, random_midgame
from tests.referee import ALL_LINES, OFFICIAL_BOARD

TWO_EYED = {"JD", "JC"}
ONE_EYED = {"JS", "JH"}


def expected_features(st, players: int, teams: int, team: int) -> list[float]:
    """The N_FEATURES features of `team`, counted from the State's chips and hands."""
    owner = {c: t for t in range(teams) for c in bb_cells(st.chips[t])}
    cards = [name(c) for s in range(team, players, teams) for c in hand_cards(st, s)]
    two_eyed = sum(c in TWO_EYED for c in cards)
    fours = held_fours = completable = threes = held_threes = twos = ones = 0
    completing: set[int] = set()
    for _, cells in ALL_LINES:
        if any(c in owner and owner[c] != team for c in cells):
            continue
        covered = sum(1 for c in cells if c in CORNERS or owner.get(c) == team)
        empty = [c for c in cells if c not in CORNERS and c not in owner]
        in_hand = any(OFFICIAL_BOARD[c] in cards for c in empty)
        if covered == 4:
            fours += 1
            held_fours += in_hand
            completable += in_hand or two_eyed > 0
            completing.update(empty)
        elif covered == 3:
            threes += 1
            held_threes += in_hand
        twos += covered == 2
        ones += covered == 1
    sequences = int(st.nseq[team])
    return [
        sequences,
        fours,
        held_fours,
        threes,
        twos,
        two_eyed,
        sum(c in ONE_EYED for c in cards),
        held_threes,
        completable,
        sequences * min(completable, 1),
        len(completing),
        ones,
    ]


def kernel_features(st, cfg, team: int) -> list[float]:
    """The kernel's features of `team` (it counts every team's in one pass)."""
    out = np.full(MAX_TEAMS * N_FEATURES, np.nan)
    features(tables(), cfg, st, out)
    return out[team * N_FEATURES : (team + 1) * N_FEATURES].tolist()


def test_an_open_four_with_its_card_in_hand():
    """Blue covers 11-14 (row 1): two open fours (10-14, 11-15); blue holds the card of cell 10."""
    card_10 = OFFICIAL_BOARD[10]
    st = build(chips={0: [11, 12, 13, 14], 1: [50]}, hands={0: [card_10, "JD", "JS", "JH"]})
    f = kernel_features(st, cfg_for(2), 0)
    assert f[:3] == [0, 2, 1]  # no sequence, two open fours, one completable from the hand
    assert f[5:7] == [1, 2]  # one two-eyed Jack, two one-eyed
    assert f[8] == 2  # the two-eyed Jack completes the other four
    assert f[10] == 2  # cells 10 and 15 each complete a four
    assert f == expected_features(st, 2, 2, 0)


def test_open_ones_count_lone_chips_and_corners():
    """Blue's lone chip on 44 lies on 20 lines; one of them (0, 11, 22, 33, 44) holds corner 0,
    so it is an open two, the other 19 are open ones. Every other line with a corner and no
    chip is an open one of both teams: green counts exactly those. Green's chip on 11 then
    takes that diagonal from both."""
    st = build(chips={0: [44]})
    blue, green = kernel_features(st, cfg_for(2), 0), kernel_features(st, cfg_for(2), 1)
    assert blue[11] == 19 + green[11] and blue[4] == 1
    st = build(chips={0: [44], 1: [11]})
    assert kernel_features(st, cfg_for(2), 0) == expected_features(st, 2, 2, 0)
    assert kernel_features(st, cfg_for(2), 1) == expected_features(st, 2, 2, 1)


def test_an_opponent_chip_spoils_a_line():
    """Green on 15 leaves blue one open four (10-14) instead of two."""
    st = build(chips={0: [11, 12, 13, 14], 1: [15]})
    assert kernel_features(st, cfg_for(2), 0)[1] == 1


@pytest.mark.parametrize("players, teams", [(2, 2), (4, 2), (3, 3), (6, 3)])
@pytest.mark.parametrize("seed", range(4))
def test_features_match_a_plain_count_in_random_positions(players, teams, seed):
    rules = Rules.make(players, teams)
    st = random_midgame(rules, seed, turns=20 + 10 * seed)
    cfg = rules.cfg()
    for team in range(teams):
        assert kernel_features(st, cfg, team) == expected_features(st, players, teams, team)


def _chances(st, cfg, teams: int, mover: int, weights) -> list[float]:
    w = np.asarray(weights, np.float64)
    return [win_chance(tables(), cfg, st, mover, t, w) for t in range(teams)]


@pytest.mark.parametrize("players, teams", [(2, 2), (4, 2), (3, 3), (6, 3)])
def test_win_chances_are_a_softmax_of_weighted_features(players, teams):
    rules = Rules.make(players, teams)
    st = random_midgame(rules, 7, turns=30)
    cfg = rules.cfg()
    weights = list(VALUE_WEIGHTS[value_table(rules)].values())
    assert len(weights) == N_VALUE_WEIGHTS
    for mover in range(players):
        z = [
            weights[0] * (t == mover % teams)
            + sum(w * f for w, f in zip(weights[1:], expected_features(st, players, teams, t)))
            for t in range(teams)
        ]
        expected = [math.exp(x) / sum(math.exp(y) for y in z) for x in z]
        assert _chances(st, cfg, teams, mover, weights) == pytest.approx(expected, rel=1e-12)


def test_two_teams_get_the_logistic_of_the_score_difference():
    st = random_midgame(Rules.make(2), 3, turns=40)
    cfg = Rules.make(2).cfg()
    weights = list(VALUE_WEIGHTS["2 teams"].values())
    p0, p1 = _chances(st, cfg, 2, 0, weights)
    assert p0 + p1 == pytest.approx(1.0)
    diff = weights[0] + sum(
        w * (a - b) for w, a, b in zip(weights[1:], expected_features(st, 2, 2, 0), expected_features(st, 2, 2, 1))
    )
    assert p0 == pytest.approx(1 / (1 + math.exp(-diff)))


def test_a_completable_four_is_worth_more():
    """With the fitted weights, every feature that brings a win nearer raises the chance."""
    assert all(w > 0 for w in VALUE_WEIGHTS["2 teams"].values())
    cfg, weights = cfg_for(2), list(VALUE_WEIGHTS["2 teams"].values())
    empty = _chances(build(), cfg, 2, 1, weights)[0]
    four = _chances(build(chips={0: [11, 12, 13, 14]}), cfg, 2, 1, weights)[0]
    four_and_card = _chances(build(chips={0: [11, 12, 13, 14]}, hands={0: [OFFICIAL_BOARD[10]]}), cfg, 2, 1, weights)[0]
    assert empty < 0.5  # the other team moves next
    assert empty < four < four_and_card
