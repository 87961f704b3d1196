"""One test per rule of docs/RULES.md, each one failing if the kernel broke that rule.

Fixed positions are built with tests/positions.py on the kernel's own State
arrays; whole games come from the kernel (``simkit.game.records.game_record``,
``simkit.game.play.simulate``) and are checked by replaying them with code that
shares nothing with the kernel (tests/positions.py ``replay``, the official
board of tests/referee.py).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
import pytest
from scipy.stats import chisquare

from simkit.game.cards import board_names, tables
from simkit.game.play import simulate
from simkit.game.players import Lineup
from simkit.game.records import game_record
from simkit.game.rules import Rules, RulesError
from simkit.kernels.core.state import is_dead, new_state, targets
from simkit.kernels.core.stats import COLUMNS, as_rows
from simkit.kernels.core.tables import ONE_EYED, ORDINARY, TWO_EYED
from simkit.kernels.core.turn import begin_turn
from tests import referee
from tests.positions import (
    CORNERS,
    bb_cells,
    board_at_end,
    build,
    cells_of,
    cells_showing,
    cfg_for,
    code,
    hand_cards,
    line,
    name,
    place,
    random_action,
    random_dead,
    remove_chip,
    replay,
    reset,
    seed_rng,
    set_hand,
)
from tests.referee import OFFICIAL_BOARD

# RULES.md, "Players and teams", written out again here on purpose.
LEGAL = {2: {2}, 3: {3}, 4: {2}, 6: {2, 3}, 8: {2}, 9: {3}, 10: {2}, 12: {2, 3}}
HAND = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
TO_WIN = {2: 2, 3: 1}
SUPPLY = (50, 50, 35)
ORDINARY_CARDS = sorted({n for n in OFFICIAL_BOARD if n != "XX"}, key=code)
STAT = {n: i for i, n in enumerate(COLUMNS)}


@pytest.fixture(scope="module")
def tb():
    return tables()


@cache
def kernel_records(players: int, teams: int | None = None, seed: int = 11, n: int = 30, **kw):
    """(rules, records, stats rows) of n kernel games."""
    rules = Rules.make(players, teams, **kw)
    lineup = Lineup.parse("random", rules)
    recs = tuple(game_record(rules, lineup, seed, g) for g in range(n))
    rows = as_rows(simulate(rules, lineup, seed, 0, n))
    return rules, recs, rows


def sample_records():
    """A spread of standard tables, for the whole-game checks."""
    for args in [(2, 2, 11, 40), (3, 3, 12, 30), (4, 2, 13, 30), (6, 3, 14, 20), (12, 3, 15, 20)]:
        rules, recs, rows = kernel_records(*args)
        yield from ((rules, rec, rows[i]) for i, rec in enumerate(recs))


def find_games(rules: Rules, want, seed: int = 0, limit: int = 4000, k: int = 1):
    """Game indices (up to k) of `rules` whose stats row satisfies `want`, found with simulate."""
    rows = as_rows(simulate(rules, Lineup.parse("random", rules), seed, 0, limit))
    hits = [g for g in range(limit) if want(rows[g])]
    assert hits, "no such game found"
    return hits[:k]


def hand_after_swap(snap, turn) -> list[str]:
    """The seat's hand after the optional dead-card swap, before it plays."""
    hand = list(snap.hands[turn["seat"]])
    if turn["dead"] is not None:
        hand.remove(turn["dead"])
        hand.append(turn["drawn"][0])
    return hand


# =============================================================================
# Equipment
# =============================================================================


def test_board_is_the_published_layout():
    """RULES.md, Equipment: the board is the published one (tests/referee.py OFFICIAL_BOARD)."""
    assert list(board_names()) == OFFICIAL_BOARD
    tb = tables()
    for c in range(52):
        if c % 13 == 10:
            continue
        assert sorted(int(x) for x in tb.card_cells[c]) == cells_showing(name(c)), name(c)


def test_board_each_non_jack_card_on_exactly_two_cells(tb):
    """RULES.md, Equipment: each of the 48 non-Jack cards is on exactly two cells: 96 card cells."""
    counts = Counter(n for n in OFFICIAL_BOARD if n != "XX")
    assert len(counts) == 48 and set(counts.values()) == {2}
    assert not any(n[0] == "J" for n in counts)
    covered = []
    for c in range(52):
        if c % 13 == 10:  # a Jack: printed nowhere
            assert list(tb.card_cells[c]) == [-1, -1], name(c)
            continue
        cells = [int(x) for x in tb.card_cells[c]]
        assert cells == sorted(cells) and len(set(cells)) == 2, name(c)
        assert all(OFFICIAL_BOARD[x] == name(c) for x in cells), name(c)
        assert cells_of(tb.card_lo[c], tb.card_hi[c]) == cells
        covered += cells
    assert len(covered) == len(set(covered)) == 96


def test_board_four_corners(tb):
    """RULES.md, Equipment: the four corner cells are free spaces (0, 9, 90, 99), 96 card cells."""
    assert [c for c, n in enumerate(OFFICIAL_BOARD) if n == "XX"] == [0, 9, 90, 99]
    assert bb_cells(tb.corners) == [0, 9, 90, 99]
    assert len(bb_cells(tb.playable_cells)) == 96 and not set(bb_cells(tb.playable_cells)) & set(CORNERS)


@pytest.mark.parametrize("players,teams,seed,game", [(2, 2, 0, 0), (4, 2, 3, 7), (12, 3, 9, 1), (3, 3, 5, 2)])
def test_deck_is_104_cards_two_of_each_with_8_jacks(players, teams, seed, game):
    """RULES.md, Equipment: two 52-card decks, 104 cards, every card twice, 8 Jacks (checked on a deal)."""
    cfg = cfg_for(players, teams)
    st = new_state()
    reset(cfg, st, seed, game)
    cards = []
    for s in range(players):
        cards += hand_cards(st, s)
    cards += [int(x) for x in st.pile[st.ctr.pile_pos : st.ctr.pile_n]]
    assert len(cards) == 104
    assert Counter(cards) == Counter({c: 2 for c in range(52)})
    assert sum(1 for c in cards if name(c)[0] == "J") == 8
    assert int(st.ctr.discard_n) == 0


def test_jack_kinds(tb):
    """RULES.md, Equipment: JD and JC are two-eyed (wild), JH and JS one-eyed (anti-wild)."""
    kinds = {name(c): int(tb.card_kind[c]) for c in range(52)}
    assert kinds.pop("JD") == TWO_EYED and kinds.pop("JC") == TWO_EYED
    assert kinds.pop("JH") == ONE_EYED and kinds.pop("JS") == ONE_EYED
    assert set(kinds.values()) == {ORDINARY}
    # And they act so: on a board with a green chip, blue's JD/JC place, JS/JH remove.
    st = build(chips={1: [44]})
    cfg = cfg_for(2)
    for card in ("JD", "JC"):
        assert len(cells_of(*targets(tb, cfg, st, 0, code(card)))) == 95
    for card in ("JS", "JH"):
        assert cells_of(*targets(tb, cfg, st, 0, code(card))) == [44]


def test_chip_supplies_50_50_35():
    """RULES.md, Equipment: chips blue 50, green 50, red 35 (team 0, 1, 2)."""
    cfg = Rules.make(6, 3, chip_limit=True).cfg()
    assert list(cfg.supply) == list(SUPPLY)


# =============================================================================
# Players and teams
# =============================================================================


def test_legal_player_and_team_counts():
    """RULES.md, Players and teams: only the listed (players, teams) are legal; errors list them."""
    for p in range(0, 16):
        for t in range(0, 5):
            if t in LEGAL.get(p, set()):
                r = Rules.make(p, t)
                assert (r.players, r.teams) == (p, t)
                continue
            with pytest.raises(RulesError) as err:
                Rules.make(p, t)
            msg = str(err.value)
            listed = {
                int(n): {int(x) for x in re.findall(r"(\d+) teams", ts)}
                for n, ts in re.findall(r"(\d+) players \(([^)]*)\)", msg)
            }
            assert listed == LEGAL, msg
    assert issubclass(RulesError, ValueError)
    # Default team count for a player count is a legal one.
    for p, ts in LEGAL.items():
        assert Rules.make(p).teams in ts


def test_teams_are_equal_in_size():
    """RULES.md, Players and teams: teams must be equal in size (e.g. 4 players cannot be 3 teams)."""
    for p, t in [(4, 3), (8, 3), (10, 3), (9, 2), (3, 2), (2, 3)]:
        with pytest.raises(RulesError):
            Rules.make(p, t)


@pytest.mark.parametrize("players,teams", [(4, 2), (6, 3), (6, 2), (12, 3)])
def test_seating_alternates_teams(players, teams):
    """RULES.md, Players and teams: seat s belongs to team s % teams."""
    rules, recs, rows = kernel_records(players, teams, seed=21, n=12)
    for g, rec in enumerate(recs):
        for i, turn, snap, _ in replay(rec):
            team = turn["seat"] % teams
            if turn["action"] == "place":
                # The sequences declared on this turn are made of the mover's chips.
                owner = dict(snap.owner)
                owner[turn["cell"]] = team
                for seq in turn["sequences"]:
                    assert all(c in CORNERS or owner.get(c) == team for c in seq), (g, i)
        # The kernel's own chip counts per team agree with "seat s plays for team s % teams".
        owner = board_at_end(rec)
        for t in range(teams):
            assert rows[g, STAT["chips_0"] + t] == sum(1 for x in owner.values() if x == t), (g, t)


def test_hand_size_table():
    """RULES.md, Players and teams: 2 -> 7; 3 or 4 -> 6; 6 -> 5; 8 or 9 -> 4; 10 or 12 -> 3."""
    for p, ts in LEGAL.items():
        for t in ts:
            rules = Rules.make(p, t)
            assert rules.hand_size == HAND[p]
            st = new_state()
            reset(rules.cfg(), st, 1, 0)
            assert [int(x) for x in st.hand_n[:p]] == [HAND[p]] * p
            assert int(st.ctr.pile_n - st.ctr.pile_pos) == 104 - p * HAND[p]
            rec = game_record(rules, Lineup.parse("random", rules), 1, 0)
            assert [len(h) for h in rec["hands"]] == [HAND[p]] * p


def test_sequences_to_win_table():
    """RULES.md, Players and teams: 2 teams need 2 sequences, 3 teams need 1."""
    for p, ts in LEGAL.items():
        for t in ts:
            assert Rules.make(p, t).sequences_to_win == TO_WIN[t]
    for players, teams in [(2, 2), (3, 3), (12, 3)]:
        rules, recs, _ = kernel_records(players, teams)
        wins = [r for r in recs if r["result"]["end"] == "win"]
        assert wins
        for rec in wins:
            w = rec["result"]["winner_team"]
            last = rec["turns"][-1]
            assert rec["result"]["sequences"][w] >= TO_WIN[teams]
            # Before the winning turn the winner was short (one placement may declare two at once).
            assert rec["result"]["sequences"][w] - len(last["sequences"]) < TO_WIN[teams]


def test_seat_zero_starts_play_goes_0_1_2():
    """RULES.md, Players and teams: in the simulator seat 0 starts and play goes 0, 1, 2, ..."""
    for rules, rec, _ in sample_records():
        seats = [t["seat"] for t in rec["turns"]]
        assert seats == [i % rules.players for i in range(len(seats))]
        first = rec["turns"][0]
        hand = list(rec["hands"][0])
        if first["dead"] is not None:
            hand.remove(first["dead"])
            hand.append(first["drawn"][0])
        assert first["card"] in hand  # seat 0 played from its own dealt hand


# =============================================================================
# A turn
# =============================================================================


def test_dead_card_definition(tb):
    """RULES.md, A turn 1: a non-Jack card is dead when both its cells hold chips of any colour."""
    for card in ORDINARY_CARDS:
        a, b = cells_showing(card)
        k = code(card)
        assert not is_dead(tb, build(), k)
        assert not is_dead(tb, build(chips={0: [a]}), k), card
        assert not is_dead(tb, build(chips={1: [b]}), k), card
        for ta, tb_ in [(0, 0), (0, 1), (1, 0), (2, 1), (2, 2)]:
            chips = {ta: [a]} if ta == tb_ else {ta: [a], tb_: [b]}
            if ta == tb_:
                chips[ta].append(b)
            assert is_dead(tb, build(chips=chips), k), (card, ta, tb_)
    full = build(chips={0: [c for c in range(100) if c not in CORNERS]})
    for jack in ("JS", "JH", "JD", "JC"):
        assert not is_dead(tb, full, code(jack))  # a Jack is never dead


def test_dead_card_swap_at_most_once_per_turn():
    """RULES.md, A turn 1: at most one dead card is swapped per turn, and a replacement is drawn."""
    still_dead_after_swap = 0
    for players, teams in [(2, 2), (3, 3), (12, 3)]:
        rules, recs, rows = kernel_records(players, teams, seed=31, n=40)
        for g, rec in enumerate(recs):
            assert rows[g, STAT["dead_swaps"]] == sum(t["dead"] is not None for t in rec["turns"])
            for i, turn, snap, _ in replay(rec):
                if turn["dead"] is None:
                    continue
                assert snap.dead(turn["dead"]) and turn["dead"] in snap.hands[turn["seat"]]
                assert len(turn["drawn"]) >= 1  # the replacement comes first
                hand = hand_after_swap(snap, turn)
                if any(snap.dead(c) for c in hand):
                    still_dead_after_swap += 1
                    # ...and yet no second swap: one replacement, then only the end-of-turn draw.
                    won = i == len(rec["turns"]) - 1 and rec["result"]["end"] == "win"
                    assert len(turn["drawn"]) == 1 + (turn["action"] != "pass" and not won), (g, i)
            assert referee.check_record(rec) == []
    assert still_dead_after_swap > 0  # the situation that would tempt a second swap did occur


def test_ordinary_card_only_on_an_empty_cell_showing_it(tb):
    """RULES.md, A turn 2: an ordinary card goes on one of its two cells, which must be empty."""
    cfg = cfg_for(3, 3)
    for card in ORDINARY_CARDS:
        a, b = cells_showing(card)
        k = code(card)
        for team in range(3):
            assert cells_of(*targets(tb, cfg, build(), team, k)) == [a, b]
            assert cells_of(*targets(tb, cfg, build(chips={team: [a]}), team, k)) == [b]
            assert cells_of(*targets(tb, cfg, build(chips={(team + 1) % 3: [b]}), team, k)) == [a]
            assert cells_of(*targets(tb, cfg, build(chips={0: [a], 2: [b]}), team, k)) == []
    for _rules, rec, _ in sample_records():
        for turn in rec["turns"]:
            if turn["action"] == "place" and turn["card"][0] != "J":
                assert OFFICIAL_BOARD[turn["cell"]] == turn["card"]


def test_two_eyed_jack_any_empty_non_corner_cell(tb):
    """RULES.md, A turn 2: a two-eyed Jack goes on any empty cell, never a corner."""
    cfg = cfg_for(3, 3)
    chips = {0: [1, 2, 44], 1: [55, 98], 2: [10, 89]}
    st = build(chips=chips, locked=[44])
    taken = {c for cs in chips.values() for c in cs}
    expected = [c for c in range(100) if c not in CORNERS and c not in taken]
    for card in ("JD", "JC"):
        for team in range(3):
            got = cells_of(*targets(tb, cfg, st, team, code(card)))
            assert got == expected
            assert not set(got) & set(CORNERS)
    for _rules, rec, _ in sample_records():
        for _i, turn, snap, _ in replay(rec):
            if turn["card"] in ("JD", "JC"):
                assert turn["action"] == "place"
                assert turn["cell"] not in CORNERS and turn["cell"] not in snap.owner


def test_one_eyed_jack_removes_unlocked_opponent_chip(tb):
    """RULES.md, A turn 2: a one-eyed Jack removes an opponent chip not in a completed sequence; never own, never
    locked."""
    st = build("""
        X b g r . . . . . X
        B B B B B . . . . .
        . . . . . . . . . .
        G G G G G g . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        R R R R R r . . . .
        . . . . . . . . . .
        . . . . . . . . b .
        X . . . . . . . . X
    """)
    cfg = cfg_for(3, 3)
    expect = {0: [2, 3, 35, 65], 1: [1, 3, 65, 88], 2: [1, 2, 35, 88]}
    for team, cells in expect.items():
        for card in ("JS", "JH"):
            assert cells_of(*targets(tb, cfg, st, team, code(card))) == cells
    # Two teams: every green chip but the locked ones.
    st2 = build(chips={0: [11, 12], 1: [21, 22, 23]}, locked=[22])
    assert cells_of(*targets(tb, cfg_for(2), st2, 0, code("JS"))) == [21, 23]
    assert cells_of(*targets(tb, cfg_for(2), st2, 1, code("JH"))) == [11, 12]
    # In games: removals hit only another team's unlocked chip.
    for rules, rec, _ in sample_records():
        for _i, turn, snap, _ in replay(rec):
            if turn["action"] == "remove":
                assert turn["card"] in ("JS", "JH")
                owner = snap.owner.get(turn["cell"])
                assert owner is not None and owner != turn["seat"] % rules.teams
                assert turn["cell"] not in snap.locked


def test_one_eyed_jack_turn_places_no_chip(tb):
    """RULES.md, A turn 2: after a one-eyed Jack the turn ends: the cell is cleared and no chip is placed."""
    st = build(chips={0: [11], 1: [44, 45]})
    remove_chip(tables(), st, 44)
    assert bb_cells(st.occupied) == [11, 45]
    assert bb_cells(st.chips[1]) == [45] and bb_cells(st.chips[0]) == [11]
    assert list(st.on_board[:2]) == [1, 1]
    removes = 0
    for _rules, rec, row in sample_records():
        for turn in rec["turns"]:
            if turn["card"] in ("JS", "JH"):
                removes += 1
                assert turn["action"] == "remove" and turn["sequences"] == []
        placed = sum(t["action"] == "place" for t in rec["turns"])
        removed = sum(t["action"] == "remove" for t in rec["turns"])
        # The kernel's chip counts: each remove takes one chip off and puts none on.
        assert sum(row[STAT["chips_0"] : STAT["chips_0"] + 3]) == placed - removed
        assert sum(row[STAT["one_eyed_0"] : STAT["one_eyed_0"] + 3]) == removed
    assert removes > 0


def test_draw_after_each_play():
    """RULES.md, A turn 3: every play is followed by drawing one card (a pass draws none)."""
    for _rules, rec, _ in sample_records():
        last = len(rec["turns"]) - 1
        for i, turn in enumerate(rec["turns"]):
            swap = turn["dead"] is not None
            won = i == last and rec["result"]["end"] == "win"
            plays = turn["action"] != "pass"
            assert len(turn["drawn"]) == swap + (plays and not won), (i, turn)


def test_reshuffle_when_draw_pile_is_empty():
    """RULES.md, A turn 3: when the draw pile is empty, the discards are shuffled into a new pile."""
    rules = Rules.make(2)
    games = find_games(rules, lambda r: r[STAT["reshuffles"]] > 0, seed=3, limit=400, k=3)
    for g in games:
        rec = game_record(rules, Lineup.parse("random", rules), 3, g)
        pile = Counter(referee.FULL_DECK)
        for h in rec["hands"]:
            pile.subtract(h)
        discards: list[str] = []
        draws, reshuffles = 0, 0
        for turn in rec["turns"]:
            flag = False
            pending = list(turn["drawn"])
            events = []
            if turn["dead"] is not None:
                events.append(("discard", turn["dead"]))
                events.append(("draw", pending.pop(0)))
            if turn["card"] is not None:
                events.append(("discard", turn["card"]))
            events += [("draw", c) for c in pending]
            for kind, card in events:
                if kind == "discard":
                    discards.append(card)
                    continue
                if sum(pile.values()) == 0:
                    # The first reshuffle comes when all 104 - dealt cards have been drawn.
                    assert reshuffles > 0 or draws == 104 - sum(rules.hand_sizes)
                    pile = Counter(discards)
                    discards = []
                    flag = True
                    reshuffles += 1
                assert pile[card] > 0, f"{card} drawn but not in the pile"
                pile[card] -= 1
                draws += 1
            assert turn["reshuffle"] == flag
        assert reshuffles >= 1
        assert referee.check_record(rec) == []


# =============================================================================
# Sequences
# =============================================================================

FIVE_IN_A_ROW = [
    (step, start, last)
    for step, start in [(1, 22), (10, 13), (11, 12), (9, 17), (1, 95), (9, 54)]
    for last in range(5)
    if line(start, step)[last] not in CORNERS
]


@pytest.mark.parametrize("step,start,last", FIVE_IN_A_ROW)
def test_sequence_is_five_in_a_row_in_each_direction(tb, step, start, last):
    """RULES.md, Sequences: five cells in a row, column or either diagonal all holding the team's chips."""
    cells = line(start, step)
    chips = [c for i, c in enumerate(cells) if i != last and c not in CORNERS]
    played = cells[last]
    st = build(chips={0: chips})
    assert place(tb, st, 0, played) == [sorted(cells)]
    assert int(st.nseq[0]) == 1
    # Four of five is not a sequence, nor is a line with an opponent chip in it.
    missing = next(c for c in cells if c != played and c not in CORNERS)
    st = build(chips={0: [c for c in chips if c != missing]})
    assert place(tb, st, 0, played) == []
    st = build(chips={0: [c for c in chips if c != missing], 1: [missing]})
    assert place(tb, st, 0, played) == []


@pytest.mark.parametrize("corner,step,start", [(0, 1, 0), (9, 10, 9), (90, 9, 54), (99, 11, 55)])
@pytest.mark.parametrize("team", [0, 1, 2])
def test_corner_counts_for_every_team(tb, corner, step, start, team):
    """RULES.md, Sequences: a corner counts as a chip of every team."""
    cells = line(start, step)
    assert corner in cells
    others = [c for c in cells if c != corner]
    st = build(chips={team: others[:-1]})
    assert place(tb, st, team, others[-1]) == [sorted(cells)]


def test_several_teams_use_the_same_corner(tb):
    """RULES.md, Sequences: several teams may use the same corner."""
    st = build(chips={0: [1, 2, 3], 1: [10, 20, 30], 2: [11, 22, 33]})
    assert place(tb, st, 0, 4) == [[0, 1, 2, 3, 4]]
    assert place(tb, st, 1, 40) == [[0, 10, 20, 30, 40]]
    assert place(tb, st, 2, 44) == [[0, 11, 22, 33, 44]]
    assert list(st.nseq[:3]) == [1, 1, 1]


def test_completed_sequence_is_permanent(tb):
    """RULES.md, Sequences: a completed sequence's chips can never be removed."""
    for teams in (2, 3):
        cfg = cfg_for(teams if teams == 3 else 2, teams)
        st = build(chips={1: [20, 21, 22, 23, 26], 0: [50]})
        assert place(tb, st, 1, 24) == [[20, 21, 22, 23, 24]]
        assert set(range(20, 25)) <= set(bb_cells(st.locked))
        assert 26 not in bb_cells(st.locked)
        for team in [t for t in range(teams) if t != 1]:
            for jack in ("JS", "JH"):
                # Green's unlocked 26 (and blue's 50, for red) only: never 20-24.
                expected = [26] if team == 0 else [26, 50]
                assert cells_of(*targets(tb, cfg, st, team, code(jack))) == expected
    # In games: no removal ever hits a cell of a declared sequence.
    removals = 0
    for _rules, rec, _ in sample_records():
        for _i, turn, snap, _ in replay(rec):
            if turn["action"] == "remove":
                removals += 1
                assert turn["cell"] not in snap.locked
    assert removals


def test_two_sequences_share_at_most_one_cell(tb):
    """RULES.md, Sequences: two sequences of one team may share at most one cell."""
    st = build(chips={0: [10, 11, 12, 13]})
    assert place(tb, st, 0, 14) == [[10, 11, 12, 13, 14]]
    assert place(tb, st, 0, 15) == []  # 11-15 would share four cells
    assert place(tb, st, 0, 16) == []  # 12-16 three
    assert place(tb, st, 0, 17) == []  # 13-17 two
    assert place(tb, st, 0, 18) == [[14, 15, 16, 17, 18]]  # 14-18 shares one: allowed
    assert int(st.nseq[0]) == 2
    # Crossing lines (one shared cell) are two sequences, declared with one chip.
    st = build(chips={0: [40, 41, 42, 43, 4, 14, 24, 34, 11, 22, 33]})
    got = place(tb, st, 0, 44)
    assert got == [[40, 41, 42, 43, 44], [4, 14, 24, 34, 44], [0, 11, 22, 33, 44]]
    # In games: every pair of one team's sequences shares at most one cell.
    for rules, rec, _ in sample_records():
        seqs: dict[int, list[set[int]]] = {}
        for turn in rec["turns"]:
            for s in turn["sequences"]:
                mine = seqs.setdefault(turn["seat"] % rules.teams, [])
                assert all(len(set(s) & other) <= 1 for other in mine)
                mine.append(set(s))


def test_line_of_nine_is_two_sequences(tb):
    """RULES.md, Sequences: a line of nine is two sequences, sharing the middle cell."""
    st = build(chips={0: [10, 11, 12, 13, 15, 16, 17, 18]})
    assert place(tb, st, 0, 14) == [[10, 11, 12, 13, 14], [14, 15, 16, 17, 18]]
    # Diagonal: 0 (corner), 11, 22, ..., 88; completed at the middle, 44.
    st = build(chips={1: [11, 22, 33, 55, 66, 77, 88]})
    assert place(tb, st, 1, 44) == [[0, 11, 22, 33, 44], [44, 55, 66, 77, 88]]
    # Built from one end: the second sequence comes with the ninth chip.
    st = build(chips={0: [61, 62, 63, 64]})
    assert place(tb, st, 0, 65) == [[61, 62, 63, 64, 65]]
    assert [place(tb, st, 0, c) for c in (66, 67, 68, 69)] == [[], [], [], [[65, 66, 67, 68, 69]]]


def test_line_of_six_is_one_sequence(tb):
    """RULES.md, Sequences: a line of six is one sequence."""
    for played in (10, 12, 15):
        chips = [c for c in range(10, 16) if c != played]
        st = build(chips={0: chips})
        got = place(tb, st, 0, played)
        assert len(got) == 1 and played in got[0]
        assert int(st.nseq[0]) == 1
    st = build(chips={0: [30, 31, 32, 33, 34]})
    assert len(place(tb, st, 0, 35)) == 1  # five chips first, but none declared: one sequence


def test_line_of_ten_is_two_sequences(tb):
    """RULES.md, Sequences: a line of ten is two sequences (at most one shared cell)."""
    for played in (14, 15):
        st = build(chips={0: [c for c in range(10, 20) if c != played]})
        got = place(tb, st, 0, played)
        assert len(got) == 2 and all(played in s for s in got)
        assert len(set(got[0]) & set(got[1])) == 1
    # Built cell by cell: exactly two sequences in the end.
    st = build()
    for c in range(10, 20):
        place(tb, st, 0, c)
    assert int(st.nseq[0]) == 2


@pytest.mark.parametrize("players,teams,kw", [(2, 2, {}), (3, 3, {}), (12, 3, {}), (2, 2, {"sequences_to_win": 3})])
def test_win_the_moment_a_team_has_enough_sequences(players, teams, kw):
    """RULES.md, Sequences: a team wins the moment it holds the sequences needed (the winning turn draws nothing)."""
    rules, recs, rows = kernel_records(players, teams, seed=41, n=25, **kw)
    wins = 0
    for g, rec in enumerate(recs):
        counts = [0] * teams
        for i, turn in enumerate(rec["turns"]):
            team = turn["seat"] % teams
            counts[team] += len(turn["sequences"])
            if counts[team] >= rules.sequences_to_win:
                assert i == len(rec["turns"]) - 1, f"game {g} went on after a win"
                assert rec["result"]["end"] == "win" and rec["result"]["winner_team"] == team
                assert len(turn["drawn"]) == (turn["dead"] is not None)
                assert rows[g, STAT["winner_team"]] == team and rows[g, STAT["end"]] == 0
                wins += 1
        if rec["result"]["end"] == "win":
            assert max(counts) >= rules.sequences_to_win
    assert wins > 0


# =============================================================================
# Table penalties
# =============================================================================


def test_table_penalties_off_hand_sizes_constant():
    """RULES.md, Table penalties: off in the simulator: every hand keeps its size all game."""
    from simkit.game.options import OPTIONS

    assert set(Rules.make(2).as_dict()) == set(OPTIONS)  # no option for either penalty
    for rules, rec, _ in sample_records():
        for i, turn, snap, _ in replay(rec):
            won = i == len(rec["turns"]) - 1 and rec["result"]["end"] == "win"
            assert all(len(h) == rules.hand_size for h in snap.hands), i
            if not won:
                after = (
                    len(snap.hands[turn["seat"]])
                    - (turn["card"] is not None)
                    + len(turn["drawn"])
                    - (turn["dead"] is not None)
                )
                assert after == rules.hand_size


# =============================================================================
# Simulation conventions
# =============================================================================


def test_detection_only_through_the_cell_just_played(tb):
    """RULES.md, Simulation conventions: new sequences are detected only through the cell just played."""
    st = build(chips={0: [10, 11, 12, 13, 14]})  # covered, never declared
    assert place(tb, st, 0, 50) == []
    assert int(st.nseq[0]) == 0 and bb_cells(st.locked) == []
    assert place(tb, st, 0, 15) == [[11, 12, 13, 14, 15]]  # through 15 only: 10-14 is not declared
    # In games, every declared sequence contains the cell just played.
    for _rules, rec, _ in sample_records():
        for turn in rec["turns"]:
            for s in turn["sequences"]:
                assert turn["cell"] in s and s == sorted(s) and len(s) == 5


def test_pass_when_no_legal_play(tb):
    """RULES.md, Simulation conventions: with no legal play after the dead-card swap the seat passes: no card, no
    draw."""
    cfg = cfg_for(2)
    st = build(hands={0: ["JS", "JH"]})
    assert random_action(tb, cfg, st, 0, 0) == (-1, -1)
    st = build(chips={0: [1, 86], 1: [2, 85]}, hands={0: ["2S", "3S"]})  # both dead
    assert random_action(tb, cfg, st, 0, 0) == (-1, -1)
    passes = 0
    for players, teams, hand in [(2, 2, 1), (12, 3, 1), (3, 3, None)]:
        rules, recs, rows = kernel_records(players, teams, seed=51, n=30, hand_size=hand)
        for g, rec in enumerate(recs):
            assert rows[g, STAT["passes"]] == sum(t["action"] == "pass" for t in rec["turns"])
            for i, turn, snap, _ in replay(rec):
                team = turn["seat"] % teams
                hand_now = hand_after_swap(snap, turn)
                playable = [c for c in hand_now if snap.legal_cells(c, team)]
                if turn["action"] == "pass":
                    passes += 1
                    assert turn["card"] is None and turn["cell"] is None and turn["sequences"] == []
                    assert turn["drawn"] == turn["drawn"][: turn["dead"] is not None]
                    assert playable == [], (g, i)
                else:
                    assert playable
    assert passes > 0


def test_stalemate_when_every_seat_passes_in_a_round():
    """RULES.md, Simulation conventions: a game is a draw when every seat passes in one full round."""
    seen_stalemate, seen_pass_then_play = 0, 0
    for players, teams in [(2, 2), (3, 3), (6, 3)]:
        rules = Rules.make(players, teams)
        games = find_games(rules, lambda r: r[STAT["end"]] == 1, seed=61, limit=600, k=3)
        rows = as_rows(simulate(rules, Lineup.parse("random", rules), 61, 0, 600))
        for g in games:
            rec = game_record(rules, Lineup.parse("random", rules), 61, g)
            acts = [t["action"] for t in rec["turns"]]
            assert acts[-players:] == ["pass"] * players
            assert rec["result"]["end"] == "stalemate" and rec["result"]["winner_team"] is None
            assert rows[g, STAT["winner_team"]] == -1
            # No earlier full round of passes.
            run = 0
            for a in acts[:-1]:
                run = run + 1 if a == "pass" else 0
                assert run < players
            assert referee.check_record(rec) == []
            seen_stalemate += 1
        # A pass does not end the game unless the whole round passes.
        for g in range(40):
            if rows[g, STAT["passes"]] > 0 and rows[g, STAT["end"]] != 1:
                seen_pass_then_play += 1
    assert seen_stalemate and seen_pass_then_play


def test_turn_cap():
    """RULES.md, Simulation conventions: a game ends in a draw when the turn cap is reached."""
    for players, cap in [(2, 1), (2, 5), (4, 17), (12, 30)]:
        rules = Rules.make(players, max_turns=cap)
        rec = game_record(rules, Lineup.parse("random", rules), 71, 0)
        assert rec["result"] == {
            "winner_team": None,
            "end": "turn_cap",
            "turns": cap,
            "sequences": rec["result"]["sequences"],
        }
        row = as_rows(simulate(rules, Lineup.parse("random", rules), 71, 0, 1))[0]
        assert row[STAT["end"]] == 2 and row[STAT["turns"]] == cap and row[STAT["winner_team"]] == -1
    # The cap changes nothing before it: a won game, capped one turn early, is its own prefix.
    full = Rules.make(2)
    rec = game_record(full, Lineup.parse("random", full), 72, 0)
    n = len(rec["turns"])
    assert rec["result"]["end"] == "win"
    at = Rules.make(2, max_turns=n)
    assert game_record(at, Lineup.parse("random", at), 72, 0)["result"]["end"] == "win"
    early = Rules.make(2, max_turns=n - 1)
    cut = game_record(early, Lineup.parse("random", early), 72, 0)
    assert cut["turns"] == rec["turns"][:-1] and cut["result"]["end"] == "turn_cap"


def test_default_turn_cap_far_above_game_length():
    """RULES.md, Simulation conventions: the default turn cap is far above any game seen in practice."""
    for p, ts in LEGAL.items():
        for t in ts:
            rules = Rules.make(p, t)
            rows = as_rows(simulate(rules, Lineup.parse("random", rules), 81, 0, 300))
            assert (rows[:, STAT["end"]] == 2).sum() == 0
            assert rows[:, STAT["turns"]].max() * 3 < rules.max_turns


def test_chip_limit_blocks_place_at_the_limit_one_eyed_jacks_still_work(tb):
    """RULES.md, Simulation conventions (Chip supply): with the limit on, a team at 50/50/35 cannot place; removals
    still work."""
    free = [c for c in range(100) if c not in CORNERS]
    for team, supply in enumerate(SUPPLY):
        cfg = cfg_for(3, 3, chip_limit=True)
        opp = (team + 1) % 3
        st = build(chips={team: free[: supply - 1], opp: [free[supply]]})
        empty_cell = free[-1]
        card = OFFICIAL_BOARD[empty_cell]
        assert cells_of(*targets(tb, cfg, st, team, code("JD"))) != []  # one chip left: may place
        assert empty_cell in cells_of(*targets(tb, cfg, st, team, code(card)))
        place(tb, st, team, free[supply - 1])  # now every chip is out
        assert int(st.on_board[team]) == supply
        for c in ("JD", "JC", card):
            assert cells_of(*targets(tb, cfg, st, team, code(c))) == [], (team, c)
        for c in ("JS", "JH"):
            assert cells_of(*targets(tb, cfg, st, team, code(c))) == [free[supply]]
        set_hand(st, team, ["JD", card])  # seat `team` plays for team `team` at a 3-player table
        assert random_action(tb, cfg, st, team, team) == (-1, -1)
        # The limit off: the same position still places.
        assert cells_of(*targets(tb, cfg_for(3, 3), st, team, code("JD"))) != []
        # A removed chip goes back to the supply.
        remove_chip(tables(), st, free[0])
        assert cells_of(*targets(tb, cfg, st, team, code("JD"))) != []
    assert Rules.make(2).chip_limit is False  # off by default


def test_chip_limit_in_games():
    """RULES.md, Simulation conventions (Chip supply): in games with the limit on, no team ever exceeds its supply."""
    rules, recs, _ = kernel_records(6, 3, seed=91, n=40, sequences_to_win=8, chip_limit=True)
    binding = 0
    for rec in recs:
        for _i, turn, snap, _ in replay(rec):
            counts = Counter(snap.owner.values())
            for t in range(3):
                assert counts[t] <= SUPPLY[t]
            team = turn["seat"] % 3
            if counts[team] >= SUPPLY[team]:
                assert turn["action"] != "place"
                hand = hand_after_swap(snap, turn)
                # Without the limit this hand could have placed a chip.
                binding += any(snap.legal_cells(c, team) for c in hand if c not in ("JS", "JH"))
        assert referee.check_record(rec, strict_rules=False) == []
    assert binding > 0  # the limit did bind


def test_information_random_policy_sees_no_hidden_cards(tb):
    """RULES.md, Simulation conventions (Information): the choice ignores other hands and the deck order."""
    cfg = cfg_for(4)
    base: dict[str, Any] = dict(chips={0: [1, 86, 23], 1: [2, 44]}, hands={0: ["2S", "3S", "QH", "JD", "5C"]})
    results = []
    for other in (["AS", "KD", "7C"], ["JS", "JH", "JC"], []):
        st = build(**base)
        for seat in (1, 2, 3):
            set_hand(st, seat, other)
        st.pile[:52] = np.random.default_rng(len(other)).permutation(52)
        st.ctr.pile_n = 52
        seed_rng(st, 5, 5)
        dead = random_dead(tb, st, 0)
        act = random_action(tb, cfg, st, 0, 0)
        results.append((dead, act))
    assert results[0] == results[1] == results[2]


# --- the random policy ------------------------------------------------------------


def test_random_policy_discards_a_dead_card_when_present(tb):
    """RULES.md, Simulation conventions (random policy): a dead card in hand is always discarded."""
    cfg = cfg_for(2)
    st = build(chips={0: [1], 1: [86, 2]}, hands={0: ["2S", "3S", "QH"]})
    for i in range(50):
        seed_rng(st, 9, i)
        assert name(random_dead(tb, st, 0)) == "2S"
        seed_rng(st, 9, i)
        begin_turn(tb, cfg, st, 0, True)  # the turn's step 1, as every player takes it
        assert name(st.turn.dead) == "2S"
    st = build(chips={0: [1]}, hands={0: ["2S", "3S", "QH", "JD"]})
    assert random_dead(tb, st, 0) == -1
    # In games: a seat holding a dead card always swaps one.
    for _rules, rec, _ in sample_records():
        for _i, turn, snap, _ in replay(rec):
            has_dead = any(snap.dead(c) for c in snap.hands[turn["seat"]])
            assert (turn["dead"] is not None) == has_dead


def test_random_policy_dead_choice_uniform_over_distinct_codes(tb):
    """RULES.md, Simulation conventions (random policy): the dead card is uniform over distinct dead codes."""
    st = build(chips={0: [1, 86, 2], 1: [85]}, hands={0: ["2S", "2S", "2S", "3S", "QH"]})
    seed_rng(st, 123, 0)
    n = 3000
    counts = Counter(name(random_dead(tb, st, 0)) for _ in range(n))
    assert set(counts) == {"2S", "3S"}
    obs = [counts["2S"], counts["3S"]]
    assert chisquare(obs, [n / 2, n / 2]).pvalue > 1e-3
    assert chisquare(obs, [n * 3 / 4, n / 4]).pvalue < 1e-9  # copies must not weigh


def test_random_policy_card_choice_uniform_over_distinct_codes(tb):
    """RULES.md, Simulation conventions (random policy): the card is uniform over distinct playable codes."""
    cfg = cfg_for(2)
    st = build(chips={0: [1, 86]}, hands={0: ["2S", "4S", "4S", "4S", "5S", "JS"]})  # 2S dead, JS idle
    seed_rng(st, 321, 0)
    n = 3000
    picks = [random_action(tb, cfg, st, 0, 0) for _ in range(n)]
    counts = Counter(name(c) for c, _ in picks)
    assert set(counts) == {"4S", "5S"}
    obs = [counts["4S"], counts["5S"]]
    assert chisquare(obs, [n / 2, n / 2]).pvalue > 1e-3
    assert chisquare(obs, [n * 3 / 4, n / 4]).pvalue < 1e-9  # three 4S must not count thrice
    # The cell, given the card, is uniform over its legal cells.
    cells = Counter(cell for c, cell in picks if name(c) == "4S")
    assert set(cells) == set(cells_showing("4S"))
    assert chisquare(list(cells.values())).pvalue > 1e-3


def test_random_policy_cell_choice_uniform(tb):
    """RULES.md, Simulation conventions (random policy): the target is uniform over the card's legal cells."""
    cfg = cfg_for(2)
    free = [c for c in range(100) if c not in CORNERS]
    empty = free[::6]  # 16 empty cells
    st = build(
        chips={0: [c for c in free if c not in empty][:40], 1: [c for c in free if c not in empty][40:]},
        hands={0: ["JD"]},
    )
    seed_rng(st, 7, 7)
    n = 3200
    counts = Counter(random_action(tb, cfg, st, 0, 0)[1] for _ in range(n))
    assert sorted(counts) == empty
    assert chisquare([counts[c] for c in empty]).pvalue > 1e-3
