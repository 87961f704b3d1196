"""Fixed positions for kernel tests, and an independent replay of game records.

Positions are built by calling the kernel's own jitted primitives on a fresh
``State`` (``place_chip``, ``declare_sequences``) or by writing its arrays
directly (hands, locked cells), so a test can ask the rule queries
(``targets``, ``is_dead``, the policies) about any situation it likes.

A position can be drawn as a picture of ten rows of ten symbols (spaces are
ignored)::

    .  empty cell          X  corner (only at 0, 9, 90, 99; '.' works too)
    b  team 0 (blue) chip  B  team 0 chip, locked
    g  team 1 (green)      G  team 1 chip, locked
    r  team 2 (red)        R  team 2 chip, locked

Card names, cells and lines here come from ``tests/referee.py``'s
``OFFICIAL_BOARD`` and plain (row, column) arithmetic, never from the kernel
tables, so expectations computed with them are independent of the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simkit.game.cards import tables
from simkit.game.rules import Rules
from simkit.kernels.core.moves import declare_sequences, place_chip, remove_chip  # noqa: F401  (re-exported: tests build positions with them)
from simkit.kernels.core.random_move import dead_codes, playable_codes, random_action, random_dead  # noqa: F401  (re-exported: tests build positions with them)
from simkit.kernels.core.rng import seed_stream
from simkit.kernels.core.state import new_state
from simkit.kernels.engine import reset  # noqa: F401  (re-exported: tests build positions with it)
from tests.referee import OFFICIAL_BOARD


def seed_rng(st, seed: int, game: int) -> None:
    """Start the State's random stream as game `game` of master seed `seed` would."""
    seed_stream(st.rng, seed, game)


RANKS = "A23456789TJQK"
SUITS = "SHDC"
CORNERS = (0, 9, 90, 99)
TEAM_OF_SYMBOL = {"b": 0, "g": 1, "r": 2}
JS, JH, JD, JC = "JS", "JH", "JD", "JC"


# --- cards and cells (independent of the kernel) ------------------------------


def code(name: str | int) -> int:
    """Card code of 'QS' (suit * 13 + rank); an int passes through."""
    if isinstance(name, (int, np.integer)):
        return int(name)
    return SUITS.index(name[1]) * 13 + RANKS.index(name[0])


def name(c: int) -> str:
    """'QS' for the queen of spades' code."""
    return RANKS[c % 13] + SUITS[c // 13]


def cells_showing(card: str) -> list[int]:
    """The cells printed with `card` on the official board, ascending."""
    return [c for c, n in enumerate(OFFICIAL_BOARD) if n == card]


def line(start: int, step: int) -> list[int]:
    """The five cells start + i*step (checked to be a straight line on the board)."""
    r, c = divmod(start, 10)
    dr, dc = {1: (0, 1), 10: (1, 0), 11: (1, 1), 9: (1, -1)}[step]
    cells = []
    for i in range(5):
        rr, cc = r + i * dr, c + i * dc
        assert 0 <= rr < 10 and 0 <= cc < 10, (start, step)
        cells.append(rr * 10 + cc)
    return cells


def cells_of(lo: int, hi: int) -> list[int]:
    """The cells of a bitboard (lo, hi), ascending."""
    lo, hi = int(lo), int(hi)
    return [c for c in range(64) if lo >> c & 1] + [64 + c for c in range(36) if hi >> c & 1]


def bb_cells(words) -> list[int]:
    """The cells of a (2,) uint64 bitboard array, ascending."""
    return cells_of(words[0], words[1])


# --- building kernel states -----------------------------------------------------


def parse_picture(picture: str | list[str]) -> tuple[dict[int, list[int]], list[int]]:
    """({team: cells}, locked cells) of a ten-by-ten picture."""
    rows = picture.strip().splitlines() if isinstance(picture, str) else list(picture)
    rows = [r.replace(" ", "") for r in rows if r.strip()]
    if len(rows) != 10 or any(len(r) != 10 for r in rows):
        raise ValueError(f"a picture is 10 rows of 10 symbols, got {rows}")
    chips: dict[int, list[int]] = {}
    locked: list[int] = []
    for r, row in enumerate(rows):
        for col, sym in enumerate(row):
            cell = r * 10 + col
            if sym == ".":
                continue
            if sym == "X":
                if cell not in CORNERS:
                    raise ValueError(f"X on non-corner cell {cell}")
                continue
            team = TEAM_OF_SYMBOL.get(sym.lower())
            if team is None:
                raise ValueError(f"unknown symbol {sym!r}")
            if cell in CORNERS:
                raise ValueError(f"chip on corner {cell}")
            chips.setdefault(team, []).append(cell)
            if sym.isupper():
                locked.append(cell)
    return chips, locked


def set_hand(st, seat: int, cards) -> None:
    """Give `seat` the hand `cards` (names or codes): copies per code and the set of codes."""
    st.count[seat, :] = 0
    for c in cards:
        st.count[seat, code(c)] += 1
    st.held[seat] = sum(1 << k for k in range(52) if st.count[seat, k])
    st.hand_n[seat] = len(cards)


def hand_cards(st, seat: int) -> list[int]:
    """The seat's cards as codes, ascending, copies repeated."""
    return [k for k in range(52) for _ in range(st.count[seat, k])]


def codes_of(codes) -> list[int]:
    """The card codes in a set of codes (a uint64 bit set), ascending."""
    return [k for k in range(52) if (int(codes) >> k) & 1]


def build(picture=None, chips: dict[int, list[int]] | None = None, locked=(), hands=None):
    """A kernel State with the given chips (placed with ``place_chip``), locked cells and hands.

    `hands` maps seat -> list of card names. Locked cells are written straight
    into ``st.locked`` (no sequence is recorded in ``st.seqs``).
    """
    st = new_state()
    all_chips: dict[int, list[int]] = {}
    all_locked = list(locked)
    if picture is not None:
        pc, pl = parse_picture(picture)
        all_chips.update(pc)
        all_locked += pl
    for team, cells in (chips or {}).items():
        all_chips.setdefault(team, []).extend(cells)
    seen: set[int] = set()
    for team, cells in all_chips.items():
        for cell in cells:
            assert cell not in seen and cell not in CORNERS, cell
            seen.add(cell)
            place_chip(tables(), st, team, cell)
    for cell in all_locked:
        st.locked[cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
    for seat, cards in (hands or {}).items():
        set_hand(st, seat, cards)
    return st


def random_midgame(rules: Rules, seed: int, turns: int):
    """The State of game 0 of `seed` played by random policies and stopped by a turn cap after `turns` turns."""
    from simkit.game.play import play_logged
    from simkit.game.players import Lineup

    capped = Rules.make(rules.players, rules.teams, max_turns=turns)
    st, _, _ = play_logged(capped, Lineup.parse("random", capped), seed, 0)
    return st


def scramble_hidden(st, seat: int, players: int) -> None:
    """Swap the other hands' cards with the draw pile's and reverse the pile: what `seat` sees (RULES.md,
    Information: its hand, the board, the discards, the pile's size) stays the same, nothing hidden does."""
    pos, n = st.ctr.pile_pos, st.ctr.pile_n
    assert n - pos >= 3
    for other in range(players):
        if other == seat:
            continue
        hand = hand_cards(st, other)
        for i in range(len(hand)):
            j = pos + (i + 3 * other) % (n - pos)
            hand[i], st.pile[j] = st.pile[j], hand[i]
        set_hand(st, other, hand)
    st.pile[pos:n] = st.pile[pos:n][::-1].copy()


def cfg_for(players: int = 2, teams: int | None = None, chip_limit: bool = False) -> np.record:
    """The kernel configuration record of a legal table."""
    cfg = Rules.make(players, teams, chip_limit=chip_limit).cfg()
    assert cfg.chip_limit == int(chip_limit)
    return cfg


def place(tb, st, team: int, cell: int) -> list[list[int]]:
    """Place a chip of `team` on `cell` and declare; return the new sequences' cells."""
    before = int(st.nseq[team])
    place_chip(tables(), st, team, cell)
    declare_sequences(tb, st, team, cell)
    return [sorted(int(c) for c in tb.line_cells[k]) for k in st.seqs[team, before : st.nseq[team]]]


# --- replaying records (independent of the kernel) ------------------------------


@dataclass
class Snapshot:
    """What the table looks like just before a turn starts."""

    owner: dict[int, int]  # cell -> team
    locked: set[int]
    sequences: list[int]  # per team
    hands: list[list[str]]
    pile_n: int  # cards left in the draw pile
    discards: list[str] = field(default_factory=list)

    def dead(self, card: str) -> bool:
        """A non-Jack card both of whose cells hold chips (RULES.md, A turn, 1)."""
        return card[0] != "J" and all(c in self.owner for c in cells_showing(card))

    def legal_cells(self, card: str, team: int, chip_limit: bool = False) -> list[int]:
        """Every cell the card may act on for `team` (RULES.md, A turn, 2)."""
        if card in (JS, JH):
            return sorted(c for c, t in self.owner.items() if t != team and c not in self.locked)
        if chip_limit and sum(1 for t in self.owner.values() if t == team) >= (50, 50, 35)[team]:
            return []
        if card in (JD, JC):
            return [c for c in range(100) if c not in CORNERS and c not in self.owner]
        return [c for c in cells_showing(card) if c not in self.owner]


def replay(record: dict):
    """Yield (index, turn, Snapshot before the turn, reshuffle events in the turn).

    Cards drawn are taken from the record; the pile is tracked by size only,
    which is all that is needed to know when a draw must reshuffle.
    """
    teams = record["rules"]["teams"]
    owner: dict[int, int] = {}
    locked: set[int] = set()
    nseq = [0] * teams
    hands = [list(h) for h in record["hands"]]
    pile_n = 104 - sum(len(h) for h in hands)
    discards: list[str] = []
    for i, turn in enumerate(record["turns"]):
        snap = Snapshot(dict(owner), set(locked), list(nseq), [list(h) for h in hands], pile_n, list(discards))
        seat = turn["seat"]
        team = seat % teams
        hand = hands[seat]
        drawn = list(turn["drawn"])
        events = 0

        def draw(hand=hand, drawn=drawn):
            nonlocal pile_n, discards, events
            if pile_n == 0:
                pile_n = len(discards)
                discards = []
                events += 1
            pile_n -= 1
            hand.append(drawn.pop(0))

        if turn["dead"] is not None:
            hand.remove(turn["dead"])
            discards.append(turn["dead"])
            draw()
        if turn["action"] != "pass":
            hand.remove(turn["card"])
            discards.append(turn["card"])
            if turn["action"] == "place":
                owner[turn["cell"]] = team
            else:
                del owner[turn["cell"]]
            for seq in turn["sequences"]:
                locked.update(seq)
                nseq[team] += 1
        while drawn:
            draw()
        yield i, turn, snap, events


def board_at_end(record: dict) -> dict[int, int]:
    """cell -> team of the chips on the board when the game ended (seat s plays for team s % teams)."""
    teams = record["rules"]["teams"]
    owner: dict[int, int] = {}
    for turn in record["turns"]:
        if turn["action"] == "place":
            owner[turn["cell"]] = turn["seat"] % teams
        elif turn["action"] == "remove":
            del owner[turn["cell"]]
    return owner


def reshuffle_events(record: dict) -> int:
    """How many times the discards became the draw pile over the game."""
    return sum(events for *_, events in replay(record))
