"""Greedy checked against a plain-Python scorer (tests/greedy_naive.py).

For positions of several tables, every seat's scored action list from the
kernel (``kernels.players.greedy.score_actions``) must be the plain scorer's: the same
(card, cell) pairs, codes then cells ascending, and the same scores (to 1e-9
relative; careless Jack moves compared after taking CARELESS off). The move
``greedy_action`` picks must be one of the plain scorer's best. The plain
scorer scores Jacks on every legal cell and applies the care rule itself, so
the kernel's shortcut (``jack_cells``: Jacks scored only on cells of certain
lines) is checked to lose no careful move.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.game.cards import tables
from simkit.game.players import PLAYERS
from simkit.game.rules import Rules
from simkit.kernels.core.workspace import new_workspace
from simkit.kernels.players.greedy import GREEDY, greedy_action, score_actions
from tests import greedy_naive as gn
from tests.positions import build, cfg_for, place, random_midgame, seed_rng, set_hand
from tests.referee import OFFICIAL_BOARD

DEFAULT = dict(PLAYERS["greedy"].params)
OTHER_WEIGHTS = [
    # the lookahead's own greedy weights (simkit.game.players.LOOKAHEAD_OWN_WEIGHTS)
    {**DEFAULT, "growth": 2.5, "block4": 50.0, "jack_cost": 60.0},
    # every weight moved, growth not a power of two
    {"complete": 333.0, "build": 0.7, "growth": 3.3, "block": 1.9, "block4": 77.0, "break4": 13.5, "jack_cost": 5.25},
    # flat growth, free (even rewarded) Jacks, blocking worth more than building
    {"complete": 50.0, "build": 2.0, "growth": 1.0, "block": 6.0, "block4": 0.0, "break4": 1000.0, "jack_cost": -3.0},
]
TABLES = [  # (players, teams, chip_limit)
    (2, 2, False),
    (4, 2, False),
    (3, 3, False),
    (6, 3, False),
    (12, 3, False),
    (3, 3, True),
    (2, 2, True),
]
TURNS = (6, 18, 30, 45, 70)  # random_midgame stops after this many turns (or at the game's end)
JACK_HANDS = [
    ["JD"],
    ["JC", "JC"],
    ["JS"],
    ["JH"],
    ["JD", "JS"],
    ["JC", "JH", "JS"],
    ["JD", "JS", "AS", "KC", "5H"],
    ["JH", "QD", "2C"],
    ["JC", "9S", "TD"],
]


# --- helpers --------------------------------------------------------------------


def params_row(w: dict) -> np.ndarray:
    """A block of greedy weights (its restrictions at their defaults: none)."""
    return GREEDY.row({k: w[k] for k in gn.WEIGHT_NAMES})


def kernel_list(st, cfg, seat: int, team: int, w: dict) -> list[tuple[tuple[int, int], float]]:
    """The kernel's listed ((card, cell), score), in its order."""
    actions = np.full(512, -1, np.int64)
    scores = np.full(512, np.nan)
    n = score_actions(tables(), cfg, st, seat, team, params_row(w), actions, scores)
    return [((int(a) // 128, int(a) % 128), float(s)) for a, s in zip(actions[:n], scores[:n])]


def close(a: float, b: float) -> bool:
    """Scores equal to 1e-9 relative; careless ones (below CARELESS / 2) compared without CARELESS."""
    if (a < gn.CARELESS / 2) != (b < gn.CARELESS / 2):
        return False
    if a < gn.CARELESS / 2:
        a, b = a - gn.CARELESS, b - gn.CARELESS
        return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1.0) + 1e-3  # ulp(1e12) ~ 1.2e-4
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1.0)


def name(code: int) -> str:
    return "A23456789TJQK"[code % 13] + "SHDC"[code // 13]


def check_seat(st, cfg, teams: int, chip_limit: bool, seat: int, w: dict) -> dict[tuple[int, int], float]:
    """Assert the kernel's list and pick agree with the plain scorer; return the plain list."""
    team = seat % teams
    view = gn.View.of(st, seat, team, teams, chip_limit)
    expected = gn.score_actions(view, w)
    got = kernel_list(st, cfg, seat, team, w)
    pairs = [p for p, _ in got]
    where = f"seat {seat} (team {team}), hand {[name(c) for c in view.hand]}"
    assert pairs == sorted(set(pairs)), f"{where}: not codes then cells ascending, or repeated: {pairs}"
    missing = sorted(set(expected) - set(pairs))
    extra = sorted(set(pairs) - set(expected))
    assert not missing and not extra, (
        f"{where}: kernel lacks {[(name(c), x, expected[c, x]) for c, x in missing]}, "
        f"lists too {[(name(c), x, s) for (c, x), s in got if (c, x) in extra]}"
    )
    bad = [(name(c), x, s, expected[c, x]) for (c, x), s in got if not close(s, expected[c, x])]
    assert not bad, f"{where}: (card, cell, kernel, plain) differ: {bad}"
    # greedy_action picks one of the best (its ties are broken by the game's generator)
    code, cell = greedy_action(tables(), cfg, st, new_workspace(0), seat, team, params_row(w))
    if not expected:
        assert (code, cell) == (-1, -1), where
    else:
        best = max(expected.values())
        picked = expected.get((int(code), int(cell)))
        assert picked is not None and close(picked, best), (
            f"{where}: greedy_action picked {(name(code), cell)} ({picked}), best {best}"
        )
    return expected


def midgame(players: int, teams: int, seed: int, turns: int):
    st = random_midgame(Rules.make(players, teams), seed, turns)
    return st


def jack_summary(view: gn.View, expected: dict) -> set[str]:
    """Which kinds of careful Jack move the list holds ('four', 'sequence', 'block4', 'break4')."""
    kinds = set()
    for (code, cell), score in expected.items():
        if score < gn.CARELESS / 2:
            kinds.add("careless")
        elif code in gn.TWO_EYED:
            kinds |= view.strong_kinds(cell)
        elif code in gn.ONE_EYED:
            kinds.add("break4")
    return kinds


# --- hand-computed positions: the plain scorer and the kernel against arithmetic ---


def _position(chips: dict[int, list[int]], hand: list[str], sequences: dict[int, list[int]] | None = None):
    """A 2-player State: `sequences` placed (and declared) first, then `chips`; seat 0 holds `hand`."""
    st = build(chips=chips, hands={0: hand})
    seed_rng(st, 7, 0)
    for team, cells in (sequences or {}).items():
        for c in cells:
            place(tables(), st, team, c)
    return st


def _both(st, w=DEFAULT) -> dict:
    return check_seat(st, cfg_for(2), 2, False, 0, w)


def test_hand_computed_block_and_break_with_a_corner():
    """Green covers 0 (corner), 1, 2, 3: an open four, 4 empty. Blue holds JD and JS.

    JD on 4 blocks 0-4 (m = 4: 4**4 + 500), 1-5 (m = 3: 64), 2-6 (16), 3-7 (4)
    and opens five lines of n = 1 (4 each): 856 - 20. JS on 1, 2 or 3 breaks
    the one open four: 400 - 20. No other Jack move is careful.
    """
    st = _position({1: [1, 2, 3]}, ["JD", "JS"])
    got = _both(st)
    assert got == {(gn.JS, 1): 380.0, (gn.JS, 2): 380.0, (gn.JS, 3): 380.0, (gn.JD, 4): 836.0}


def test_hand_computed_line_of_six_is_not_a_new_sequence():
    """Blue holds the sequence 10-14; JD on 15 makes 11-15 five covered, but it shares
    four cells with the sequence: it adds nothing. 12-16 (n = 4: 256), 13-17 (64),
    14-18 (16), 15-19 and six more lines of n = 1 (7 x 4): 364 - 20.
    """
    st = _position({}, ["JD"], sequences={0: [10, 11, 12, 13, 14]})
    assert int(st.nseq[0]) == 1
    got = _both(st)
    assert got[gn.JD, 15] == 344.0


def test_hand_computed_careless_fallback():
    """Green holds 11, 12 only: no four to break; the lone JS is listed careless on both."""
    st = _position({1: [11, 12]}, ["JS"])
    got = _both(st)
    assert got == {(gn.JS, 11): -20.0 + gn.CARELESS, (gn.JS, 12): -20.0 + gn.CARELESS}


def test_hand_computed_ordinary_card_outweighs_a_careless_jack():
    """With an ordinary card in hand the careless Jack moves vanish from the list."""
    card = OFFICIAL_BOARD[55]
    st = _position({1: [11, 12]}, ["JS", "JD", card])
    got = _both(st)
    assert got and all(code == gn.code_of(card) for code, _ in got)


# --- random positions of several tables -------------------------------------------


@pytest.mark.parametrize("players, teams, chip_limit", TABLES)
def test_every_seat_matches_on_random_midgames(players, teams, chip_limit):
    cfg = cfg_for(players, teams, chip_limit)
    listed = seats = 0
    for seed in range(8):
        for turns in TURNS:
            st = midgame(players, teams, 100 * players + seed, turns)
            for seat in range(players):
                listed += len(check_seat(st, cfg, teams, chip_limit, seat, DEFAULT))
                seats += 1
    assert listed > 2 * seats


@pytest.mark.parametrize("w", OTHER_WEIGHTS, ids=["lookahead-own", "all-moved", "flat-growth"])
@pytest.mark.parametrize("players, teams", [(2, 2), (6, 3)])
def test_other_weights_match(w, players, teams):
    cfg = cfg_for(players, teams)
    for seed in range(3):
        for turns in TURNS:
            st = midgame(players, teams, 7000 + seed, turns)
            for seat in range(players):
                check_seat(st, cfg, teams, False, seat, w)
            set_hand(st, 0, JACK_HANDS[(seed * 5 + turns) % len(JACK_HANDS)])
            check_seat(st, cfg, teams, False, 0, w)


@pytest.mark.parametrize("players, teams", [(2, 2), (4, 2), (3, 3), (6, 3)])
def test_jack_hands_care_rule_and_fallback(players, teams):
    """Seats given Jacks (alone or with ordinary cards): careful moves, and the careless
    fallback when no careful move exists, are both seen."""
    cfg = cfg_for(players, teams)
    kinds: set[str] = set()
    for seed in range(6):
        for turns in TURNS:
            st = midgame(players, teams, 900 + seed, turns)
            for i, hand in enumerate(JACK_HANDS):
                seat = (seed + i) % players
                set_hand(st, seat, hand)
                view = gn.View.of(st, seat, seat % teams, teams, False)
                kinds |= jack_summary(view, check_seat(st, cfg, teams, False, seat, DEFAULT))
    assert {"careless", "four", "block4", "break4"} <= kinds, kinds


def _threat_position(players: int, teams: int, seed: int, turns: int):
    """A random midgame where random lines of random teams were pushed to three or four
    (chips placed, sequences declared, by the kernel's own primitives)."""
    st = midgame(players, teams, seed, turns)
    rng = np.random.default_rng(seed)
    owner = {c: t for t in range(teams) for c in gn.cells_of(st.chips[t])}
    for _ in range(6):
        cells = gn.LINE_CELLS[rng.integers(len(gn.LINE_CELLS))]
        t = int(rng.integers(teams))
        if any(owner.get(c, t) != t for c in cells):
            continue
        empty = [c for c in cells if c not in owner and c not in gn.CORNERS]
        for c in empty[: max(0, len(empty) - int(rng.integers(1, 3)))]:  # leave 1 or 2 empty
            place(tables(), st, t, c)
            owner[c] = t
    return st


@pytest.mark.parametrize("players, teams", [(2, 2), (3, 3), (6, 3)])
def test_jack_shortcut_loses_no_careful_move(players, teams):
    """Every Jack move the plain scorer finds careful, over EVERY legal cell of the Jack,
    is in the kernel's list with its score; no other Jack move is (careful moves exist)."""
    cfg = cfg_for(players, teams)
    kinds: set[str] = set()
    careful_moves = 0
    for seed in range(12):
        st = _threat_position(players, teams, 300 + seed, TURNS[seed % len(TURNS)])
        for seat in range(players):
            set_hand(st, seat, ["JD", "JS", "JC", "JH"])
            team = seat % teams
            view = gn.View.of(st, seat, team, teams, False)
            every = gn.all_jack_moves(view, gn.weights(DEFAULT))
            careful = {move: score for move, (score, ok) in every.items() if ok}
            if not careful:
                continue  # the fallback is checked elsewhere
            careful_moves += len(careful)
            got = dict(kernel_list(st, cfg, seat, team, DEFAULT))
            lost = sorted(set(careful) - set(got))
            assert not lost, f"seat {seat}: careful Jack moves not listed: {lost}"
            assert set(got) == set(careful), f"seat {seat}: careless Jack moves listed: {set(got) - set(careful)}"
            assert all(close(got[m], careful[m]) for m in careful)
            kinds |= jack_summary(view, careful)
            check_seat(st, cfg, teams, False, seat, DEFAULT)
    assert {"four", "sequence", "block4", "break4"} <= kinds, kinds
    assert careful_moves > 50


def _dense_board(teams: int, counts: list[int], seed: int):
    rng = np.random.default_rng(seed)
    cells = [c for c in rng.permutation(100).tolist() if c not in gn.CORNERS]
    chips, i = {}, 0
    for t, n in enumerate(counts):
        chips[t] = cells[i : i + n]
        i += n
    st = build(chips=chips)
    seed_rng(st, seed, 0)
    return st


@pytest.mark.parametrize(
    "players, teams, counts, full_team",
    [
        (3, 3, [20, 20, 35], 2),  # red has all its 35 chips out
        (3, 3, [20, 20, 34], -1),  # one red chip left
        (2, 2, [50, 25], 0),  # blue has all its 50 out
        (2, 2, [49, 25], -1),
    ],
)
def test_chip_limit(players, teams, counts, full_team):
    """With the chip limit on, a team with every chip out may only remove (one-eyed Jacks);
    with the limit off, or one chip left, it places as usual."""
    hands = [JACK_HANDS[6], JACK_HANDS[5] + ["3S", "8D"], JACK_HANDS[0] + ["6C", "KH", "2D"], ["4S", "9H"]]
    limited = 0
    for seed in range(4):
        st = _dense_board(teams, counts, 50 + seed)
        for seat in range(players):
            team = seat % teams
            set_hand(st, seat, hands[(seed + seat) % len(hands)])
            on = check_seat(st, cfg_for(players, teams, True), teams, True, seat, DEFAULT)
            off = check_seat(st, cfg_for(players, teams, False), teams, False, seat, DEFAULT)
            if team == full_team:
                assert all(code in gn.ONE_EYED for code, _ in on), on
                limited += on != off
            else:
                assert on == off
    assert limited > 0 or full_team < 0


def test_care_rule_does_not_depend_on_break4():
    """break4 = 0: removing a chip of an open four is still a careful one-eyed Jack move
    (it is listed without CARELESS, at -jack_cost)."""
    w = {**DEFAULT, "break4": 0.0}
    st = _position({1: [1, 2, 3]}, ["JS"])
    got = check_seat(st, cfg_for(2), 2, False, 0, w)
    assert got == {(gn.JS, 1): -20.0, (gn.JS, 2): -20.0, (gn.JS, 3): -20.0}


@pytest.mark.parametrize("players, teams", [(2, 2), (6, 3)])
def test_break4_zero_or_negative_keeps_the_care_rule(players, teams):
    """With break4 = 0 (and < 0) a one-eyed Jack is still careful exactly when it breaks an
    open four: the kernel's lists are the plain scorer's."""
    cfg = cfg_for(players, teams)
    for w in ({**DEFAULT, "break4": 0.0}, {**DEFAULT, "break4": -50.0, "jack_cost": 0.0}):
        for seed in range(4):
            st = _threat_position(players, teams, 4000 + seed, TURNS[seed % len(TURNS)])
            for seat in range(players):
                set_hand(st, seat, ["JS", "JH", "JD"][: 1 + (seat + seed) % 3])
                check_seat(st, cfg, teams, False, seat, w)
