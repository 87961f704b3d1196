"""Swift's value of hand and board (kernels/values/rich.py), against a plain-Python count.

The extras are counted here from referee.py's 192 lines and the official
board, independently of the kernel's tables; the first 24 features are the
fast policy's fair features (kernels/players/fast.py) of the seat's team, then of the
others (summed, with three teams). What the value reads is what RULES.md's Information lets the seat see.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simkit.game.cards import tables
from simkit.game.players import RICH_NAMES, RICH_WEIGHTS, value_table
from simkit.game.rules import Rules
from simkit.kernels.values.evaluation import F_FOUR_CELLS, F_FOURS, F_SEQUENCES, F_THREES, F_TWO_EYED, N_FEATURES
from simkit.kernels.values.fair import fair_features
from simkit.kernels.values.rich import EXTRAS, N_BASE, N_RICH, N_RICH_WEIGHTS, rich_chance, rich_features
from tests.positions import CORNERS, bb_cells, hand_cards, name, random_midgame, scramble_hidden
from tests.referee import ALL_LINES, OFFICIAL_BOARD

TWO_EYED = {"JD", "JC"}
ONE_EYED = {"JS", "JH"}


def kernel_rich(st, cfg, seat: int) -> np.ndarray:
    out = np.full(N_RICH, np.nan)
    rich_features(tables(), cfg, st, seat, out)
    return out


def kernel_fair(st, cfg, seat: int, teams: int) -> np.ndarray:
    out = np.full(teams * N_FEATURES, np.nan)
    fair_features(tables(), cfg, st, seat, out, np.zeros(52))
    return out


def expected_extras(st, seat: int, teams: int, own: np.ndarray, other: np.ndarray) -> list[float]:
    """The 26 EXTRAS of `seat`, counted from the chips and its own hand; own and other: the fair features of
    its team and of the others (summed). The other teams count as one, and a line holding chips of two of
    them is no one's."""
    team = seat % teams
    owner = {c: t for t in range(teams) for c in bb_cells(st.chips[t])}
    locked = set(bb_cells(st.locked))
    hand = [name(c) for c in hand_cards(st, seat)]
    held = set(hand)
    own_two = sum(c in TWO_EYED for c in hand)
    own_one = sum(c in ONE_EYED for c in hand)
    e = [0.0] * len(EXTRAS)
    # empty cell -> own (other's) open threes and fours through it
    through: dict[bool, dict[int, int]] = {True: {}, False: {}}
    useful: set[int] = set()
    other_fours = blockable = 0
    for _, cells in ALL_LINES:
        mine_chips = sum(owner.get(c) == team for c in cells)
        other_chips = sum(c in owner and owner[c] != team for c in cells)
        if len({owner[c] for c in cells if c in owner and owner[c] != team}) > 1:
            continue  # two other teams' chips
        if (mine_chips and other_chips) or mine_chips + other_chips == 0:
            continue
        mine = mine_chips > 0
        covered = mine_chips + other_chips + sum(c in CORNERS for c in cells)
        if not 2 <= covered <= 4:
            continue
        empty = [c for c in cells if c not in CORNERS and c not in owner]
        if covered >= 3:
            if sum(c in locked for c in cells if c in owner) >= 2:
                e[22 if mine else 23] += 1  # it would share two cells with a sequence
                continue
            for c in empty:
                through[mine][c] = through[mine].get(c, 0) + 1
        n_held = sum(OFFICIAL_BOARD[c] in held for c in empty)
        if mine:
            useful.update(empty)
            if covered in (2, 3):
                e[3 * (covered - 2) + min(n_held, 2)] += 1
        elif covered == 4:
            other_fours += 1
            blockable += n_held > 0
    e[6] = sum(n >= 2 for n in through[True].values())
    e[7] = sum(n >= 2 for n in through[False].values())
    e[8] = blockable
    e[9] = own_two * own[F_THREES]
    e[10] = own_two * (own[F_FOURS] > 0)
    e[11] = own_one * other_fours
    e[12] = own_one * (other_fours > 0)
    e[13] = other[F_TWO_EYED] * other[F_THREES]
    left = (st.ctr.pile_n - st.ctr.pile_pos) / 104
    e[14], e[15], e[16] = left, left * own[F_SEQUENCES], left * other[F_SEQUENCES]
    for card in hand:
        cells = [c for c in range(100) if OFFICIAL_BOARD[c] == card]
        if not cells:
            continue  # a Jack
        open_cells = [c for c in cells if c not in owner]
        e[17] += any(c in useful for c in open_cells)
        e[18] += not open_cells
    e[19] = own_two >= 2
    e[20] = own[F_FOUR_CELLS] >= 2
    e[21] = other[F_FOUR_CELLS] >= 2
    e[24] = own[F_SEQUENCES] * own[F_THREES]
    e[25] = other[F_SEQUENCES] * other[F_THREES]
    return [float(x) for x in e]


def team_features(fair: np.ndarray, team: int) -> np.ndarray:
    return fair[team * N_FEATURES : (team + 1) * N_FEATURES]


@pytest.mark.parametrize("players, teams", [(2, 2), (4, 2), (3, 3), (6, 3)])
@pytest.mark.parametrize("seed", range(6))
def test_the_extras_match_a_plain_count_in_random_positions(players, teams, seed):
    rules = Rules.make(players, teams)
    st = random_midgame(rules, seed, turns=30 + 12 * seed)
    cfg = rules.cfg()
    for seat in range(players):
        fair = kernel_fair(st, cfg, seat, teams)
        team = seat % teams
        own = team_features(fair, team)
        other = team_features(fair, (team + 1) % teams)
        if teams == 3:
            other = other + team_features(fair, (team + 2) % teams)
        got = kernel_rich(st, cfg, seat)
        assert got[:N_BASE].tolist() == [*own, *other]
        assert got[N_BASE:].tolist() == pytest.approx(expected_extras(st, seat, teams, own, other), abs=1e-12)


def test_random_positions_exercise_the_extras():
    """The positions above are not empty of what the extras count (else the test would prove little)."""
    seen = np.zeros(len(EXTRAS))
    for players, teams in ((2, 2), (4, 2), (3, 3), (6, 3)):
        rules = Rules.make(players, teams)
        for seed in range(6):
            st = random_midgame(rules, seed, turns=30 + 12 * seed)
            for seat in range(players):
                seen += kernel_rich(st, rules.cfg(), seat)[N_BASE:] != 0
    untouched = [EXTRAS[i][0] for i in np.flatnonzero(seen == 0)]
    assert len(untouched) <= 6, untouched


@pytest.mark.parametrize("players, teams", [(2, 2), (4, 2), (3, 3), (6, 3)])
def test_the_value_is_the_logistic_of_the_weighted_features(players, teams):
    rules = Rules.make(players, teams)
    table = value_table(rules)
    weights = np.array(list(RICH_WEIGHTS[table].values()))
    assert len(weights) == N_RICH_WEIGHTS == len(RICH_NAMES)
    st = random_midgame(rules, 5, turns=50)
    for seat in range(players):
        z = weights[-1] + float(weights[:-1] @ kernel_rich(st, rules.cfg(), seat))
        assert rich_chance(tables(), rules.cfg(), st, seat, weights) == pytest.approx(1 / (1 + math.exp(-z)))


@pytest.mark.parametrize("players, teams", [(2, 2), (4, 2), (3, 3), (6, 3)])
@pytest.mark.parametrize("seed", range(4))
def test_the_value_reads_only_what_the_seat_sees(players, teams, seed):
    """RULES.md, Information: swapping the other hands with the pile and reversing the pile leaves
    every feature unchanged."""
    rules = Rules.make(players, teams)
    st = random_midgame(rules, seed, turns=25 + 5 * seed)
    seat = seed % players
    before = kernel_rich(st, rules.cfg(), seat)
    scramble_hidden(st, seat, players)
    assert kernel_rich(st, rules.cfg(), seat).tolist() == before.tolist()
