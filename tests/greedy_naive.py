"""Greedy's scored action list, recomputed slowly in plain Python.

An independent reading of the module docstring of ``kernels/players/greedy.py`` and of
docs/RULES.md: every legal (card, cell) of a seat is scored by scanning the
five cells of each of the 192 lines of five (``tests/naive.py``'s ``LINES``,
built from row/column arithmetic) -- no bitboards, no ``in_line`` counts, no
kernel tables. Only the kernel ``State``'s plain arrays are read: the chips of
each team, the locked cells, the sequences each team holds and the seat's
hand.

Conventions (the kernel's, reconciled with its docstring):

- A cell is *covered* for team ``t`` when it holds a chip of ``t`` or is a
  corner (a corner counts for every team).
- Placing a chip of ``t`` on the empty cell ``c``, for each line through ``c``:

  * no chip of another team on the line (*open*): ``n`` = cells covered for
    ``t`` after the move (the new chip included). ``n == 5``: ``complete``
    if the line may be declared (it shares at most one cell with each
    sequence ``t`` holds), else nothing; ``n < 5``: ``build * growth**n``.
    (Greedy's docstring -- "build * growth**n, or complete when n == 5 and
    the line may be declared" -- leaves a five that may not be declared open;
    the kernel adds nothing for it, and so does this scorer.)
  * no chip of ``t`` and every chip on the line belongs to one other team
    ``u`` (*blocked*): ``m`` = cells covered for ``u``: ``block * growth**m``,
    plus ``block4`` when ``m == 4``.
  * otherwise (chips of two other teams, or of ``t`` and another team):
    nothing.

  The move is *strong* when some line reaches ``n == 4``, or ``n == 5`` and may
  be declared, or is blocked with ``m == 4``.
- Removing the chip of ``u`` on ``c`` (one-eyed Jack): ``break4`` for each line
  through ``c`` that is an *open four* of ``u``: four cells covered for ``u``
  (corners included) and the fifth empty.
- A Jack move costs ``jack_cost``. Care rule: a two-eyed Jack move is careful
  only when strong; a one-eyed Jack move only when it breaks at least one open
  four. That is a fact of the position, not of the weights (whatever
  break4 is, even 0 or less). Ordinary cards are always careful. The list holds every careful move; when
  there is none, it holds every Jack move instead, each ``CARELESS`` lower.
- Legal cells (RULES.md, "A turn"): an ordinary card, its empty cells; a
  two-eyed Jack, every empty non-corner cell; a one-eyed Jack, every chip of
  another team that is not locked. With the chip limit on, a team with all its
  chips (50/50/35) on the board may not place.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.naive import CORNERS, LINES, SUPPLY, card_cells, card_code, load_board

CARELESS = -1.0e12
JS, JH, JD, JC = 10, 23, 36, 49  # card code = suit * 13 + rank, suits S, H, D, C
ONE_EYED = (JS, JH)
TWO_EYED = (JD, JC)
WEIGHT_NAMES = ("complete", "build", "growth", "block", "block4", "break4", "jack_cost")

BOARD = load_board()
CELLS_OF_CARD = card_cells(BOARD)  # non-Jack code -> its two cells
LINE_CELLS = [list(cells) for _, cells in LINES]  # line number -> its five cells
LINES_THROUGH = {c: [cells for cells in LINE_CELLS if c in cells] for c in range(100)}


def code_of(card: str) -> int:
    """The code of a card name such as 'QS'."""
    return card_code(card)


def bits(word) -> list[int]:
    """The set bits of a 64-bit word, ascending."""
    word = int(word)
    return [i for i in range(64) if word >> i & 1]


def cells_of(words) -> list[int]:
    """The cells of a (2,) bitboard: cell c is bit c % 64 of word c // 64."""
    return [w * 64 + i for w in range(2) for i in bits(words[w])]


@dataclass
class View:
    """What greedy looks at: the board, the sequences, one seat's hand."""

    teams: int
    team: int
    owner: dict[int, int]  # cell -> team of the chip on it
    locked: set[int]
    sequences: list[list[set[int]]]  # per team, each sequence as its set of cells
    hand: list[int]  # distinct card codes in the seat's hand, ascending
    chip_limit: bool

    @classmethod
    def of(cls, st, seat: int, team: int, teams: int, chip_limit: bool) -> View:
        owner: dict[int, int] = {}
        for t in range(teams):
            for c in cells_of(st.chips[t]):
                assert c not in owner and c not in CORNERS, (c, t)
                owner[c] = t
        locked = set(cells_of(st.locked)) - set(CORNERS)  # a sequence through a corner may lock it
        assert locked <= set(owner), "a locked cell without a chip"
        sequences = []
        for t in range(teams):
            seqs = [set(LINE_CELLS[int(k)]) for k in st.seqs[t, : int(st.nseq[t])]]
            for s in seqs:  # each is five cells covered for t, all locked
                assert all(c in CORNERS or (owner.get(c) == t and c in locked) for c in s), (t, s)
            sequences.append(seqs)
        hand = [k for k in range(52) if int(st.count[seat, k]) > 0]
        assert hand == bits(st.held[seat]), "count and held disagree"
        return cls(teams, team, owner, locked, sequences, hand, chip_limit)

    # -- rules -----------------------------------------------------------------

    def covered(self, c: int, t: int) -> bool:
        return c in CORNERS or self.owner.get(c) == t

    def may_place(self) -> bool:
        if not self.chip_limit:
            return True
        return sum(1 for t in self.owner.values() if t == self.team) < SUPPLY[self.team]

    def legal_cells(self, code: int) -> list[int]:
        if code in ONE_EYED:
            return sorted(c for c, t in self.owner.items() if t != self.team and c not in self.locked)
        if not self.may_place():
            return []
        if code in TWO_EYED:
            return [c for c in range(100) if c not in CORNERS and c not in self.owner]
        return [c for c in CELLS_OF_CARD[code] if c not in self.owner]

    def may_declare(self, cells) -> bool:
        """At most one cell shared with each sequence the team holds (RULES.md, Sequences)."""
        return all(len(set(cells) & s) <= 1 for s in self.sequences[self.team])

    # -- greedy's scores ---------------------------------------------------------

    def place_score(self, cell: int, w: dict) -> tuple[float, bool]:
        """(score, strong) of a chip of the team on the empty `cell`."""
        assert cell not in self.owner and cell not in CORNERS
        t = self.team
        score, strong = 0.0, False
        for cells in LINES_THROUGH[cell]:
            others = {self.owner[c] for c in cells if c in self.owner and self.owner[c] != t}
            mine = [c for c in cells if self.owner.get(c) == t]
            if not others:  # open for t
                n = sum(1 for c in cells if c == cell or self.covered(c, t))
                if n == 5:
                    if self.may_declare(cells):
                        score += w["complete"]
                        strong = True
                else:
                    score += w["build"] * w["growth"] ** n
                    strong |= n == 4
            elif not mine and len(others) == 1:  # the move blocks u's line
                (u,) = others
                m = sum(1 for c in cells if self.covered(c, u))
                score += w["block"] * w["growth"] ** m
                if m == 4:
                    score += w["block4"]
                    strong = True
        return score, strong

    def strong_kinds(self, cell: int) -> set[str]:
        """Why a chip on `cell` is strong: 'four', 'sequence', 'block4' (for test coverage)."""
        t = self.team
        kinds = set()
        for cells in LINES_THROUGH[cell]:
            others = {self.owner[c] for c in cells if c in self.owner and self.owner[c] != t}
            if not others:
                n = sum(1 for c in cells if c == cell or self.covered(c, t))
                if n == 4:
                    kinds.add("four")
                elif n == 5 and self.may_declare(cells):
                    kinds.add("sequence")
            elif len(others) == 1 and not any(self.owner.get(c) == t for c in cells):
                (u,) = others
                if sum(1 for c in cells if self.covered(c, u)) == 4:
                    kinds.add("block4")
        return kinds

    def open_fours_broken(self, cell: int) -> int:
        """Open fours of the chip's owner through `cell` (four covered, the fifth empty)."""
        u = self.owner[cell]
        fours = 0
        for cells in LINES_THROUGH[cell]:
            covered = sum(1 for c in cells if self.covered(c, u))
            empty = sum(1 for c in cells if c not in CORNERS and c not in self.owner)
            if covered == 4 and empty == 1:
                fours += 1
        return fours

    def scored(self, code: int, cell: int, w: dict) -> tuple[float, bool]:
        """(score, careful) of one legal action (no CARELESS added)."""
        if code in ONE_EYED:
            fours = self.open_fours_broken(cell)
            score = w["break4"] * fours
            careful = fours > 0
            return score - w["jack_cost"], careful
        score, strong = self.place_score(cell, w)
        if code in TWO_EYED:
            return score - w["jack_cost"], strong
        return score, True


def weights(values) -> dict:
    """A weight dict from greedy's parameter row (or a dict)."""
    if isinstance(values, dict):
        return {k: float(values[k]) for k in WEIGHT_NAMES}
    return dict(zip(WEIGHT_NAMES, (float(v) for v in values)))


def all_jack_moves(view: View, w: dict) -> dict[tuple[int, int], tuple[float, bool]]:
    """(code, cell) -> (score, careful) of every legal Jack move of the seat, on every cell."""
    out = {}
    for code in view.hand:
        if code in ONE_EYED or code in TWO_EYED:
            for cell in view.legal_cells(code):
                out[code, cell] = view.scored(code, cell, w)
    return out


def score_actions(view: View, w) -> dict[tuple[int, int], float]:
    """(code, cell) -> score of greedy's listed actions (see the module doc)."""
    w = weights(w)
    careful: dict[tuple[int, int], float] = {}
    careless: dict[tuple[int, int], float] = {}
    for code in view.hand:
        for cell in view.legal_cells(code):
            score, ok = view.scored(code, cell, w)
            if ok:
                careful[code, cell] = score
            else:
                careless[code, cell] = score + CARELESS
    return careful if careful else careless
