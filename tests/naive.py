"""Naive, slow, obviously-correct reference engine for simkit.

Implements docs/ENGINE.md literally in plain Python (standard library only):
explicit lists, explicit scanning of the five cells of every line, no
bitboards.  It is the independent reference the Numba kernel is checked
against, so clarity wins over speed everywhere.
"""

from __future__ import annotations

import csv
from pathlib import Path

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

RANKS = "A23456789TJQK"
SUITS = "SHDC"

JS, JH, JD, JC = 10, 23, 36, 49
ONE_EYED = (JS, JH)  # anti-wild: remove
TWO_EYED = (JD, JC)  # wild: place anywhere empty (not a corner)
JACKS = (JS, JH, JD, JC)

CORNERS = (0, 9, 90, 99)
SUPPLY = (50, 50, 35)  # blue (team 0), green (team 1), red (team 2)
STEPS = (1, 10, 11, 9)
END_CODES = {"win": 0, "stalemate": 1, "turn_cap": 2}

DEFAULT_BOARD_PATH = Path(__file__).resolve().parents[1] / "simkit" / "data" / "board.csv"


# --------------------------------------------------------------------------
# Cards and board
# --------------------------------------------------------------------------


def cell_name(cell: int) -> str:
    """RECORD.md's cell name: the column letter A-J, then the row number 1-10 (row 1 at the top)."""
    return "ABCDEFGHIJ"[cell % 10] + str(cell // 10 + 1)


def card_str(code: int) -> str:
    """Text form of a card code: rank then suit, e.g. 11 -> 'QS'."""
    return RANKS[code % 13] + SUITS[code // 13]


def card_code(text: str) -> int:
    """Card code of a two-character card string: 'QS' -> 11."""
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])


def load_board(path: str | Path | None = None) -> list[str]:
    """The 100 cells of board.csv, row-major, as card strings ('XX' corners)."""
    if path is None:
        path = DEFAULT_BOARD_PATH
    cells: list[str] = []
    with open(path, newline="") as fh:
        for row in csv.reader(fh):
            row = [x.strip() for x in row if x.strip() != ""]
            if row:
                cells.extend(row)
    if len(cells) != 100:
        raise ValueError(f"board has {len(cells)} cells, expected 100")
    return cells


def card_cells(board: list[str]) -> dict[int, list[int]]:
    """Map each non-Jack card code to its cells on the board, ascending."""
    cells: dict[int, list[int]] = {}
    for cell in range(100):
        if board[cell] == "XX":
            continue
        cells.setdefault(card_code(board[cell]), []).append(cell)
    for code in cells:
        cells[code].sort()
    return cells


def all_lines() -> list[tuple[int, list[int]]]:
    """All 192 five-cell lines as (step, cells), ordered by step then start."""
    lines: list[tuple[int, list[int]]] = []
    for step in STEPS:
        for start in range(100):
            row, col = divmod(start, 10)
            if step == 1:
                ok = col <= 5
            elif step == 10:
                ok = row <= 5
            elif step == 11:
                ok = row <= 5 and col <= 5
            else:  # step 9: down-left
                ok = row <= 5 and col >= 4
            if ok:
                lines.append((step, [start + i * step for i in range(5)]))
    return lines


LINES = all_lines()


# --------------------------------------------------------------------------
# Random numbers
# --------------------------------------------------------------------------


def mix(z: int) -> int:
    """The splitmix64 output function (mod 2**64)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class SplitMix64:
    """One splitmix64 stream per game: state = mix(mix(S) ^ g)."""

    def __init__(self, seed: int, game: int = 0) -> None:
        self.state = mix(mix(seed & MASK64) ^ (game & MASK64))

    @classmethod
    def from_state(cls, state: int) -> SplitMix64:
        """A generator whose raw state is `state` (canonical splitmix64)."""
        rng = cls.__new__(cls)
        rng.state = state & MASK64
        return rng

    def next(self) -> int:
        """Advance the state and return the next 64-bit output."""
        self.state = (self.state + GOLDEN) & MASK64
        return mix(self.state)

    def below(self, n: int) -> int:
        """Uniform integer in 0..n-1 (Lemire multiply-and-reject, high 32 bits)."""
        if not 1 <= n < 2**32:
            raise ValueError(f"below({n}) out of range")
        x = self.next() >> 32
        m = x * n
        low = m & 0xFFFFFFFF
        if low < n:
            t = (2**32 - n) % n
            while low < t:
                x = self.next() >> 32
                m = x * n
                low = m & 0xFFFFFFFF
        return m >> 32


def shuffle(rng: SplitMix64, lst: list) -> None:
    """Fisher-Yates from the end, in place: j = below(i + 1), swap."""
    for i in range(len(lst) - 1, 0, -1):
        j = rng.below(i + 1)
        lst[i], lst[j] = lst[j], lst[i]


# --------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------

# RULES.md, "Players and teams": hand size by player count.
HAND_SIZE = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}


# RULES.md, "Rule variants": the options and their defaults (the standard game).
VARIANT_DEFAULTS = {"chip_limit": False, "reshuffle": True, "dead_swap": True, "late_card": 0, "handicap": 0}


def default_rules(players: int, teams: int, chip_limit: bool = False, max_turns: int = 1000, **extra) -> dict:
    """A record's rules dict for `players` in `teams` teams: RULES.md's table values, then the
    options in `extra` that differ from their default (RULES.md, "Rule variants"), in record order."""
    out = {
        "players": players,
        "teams": teams,
        "hand_size": HAND_SIZE[players],
        "sequences_to_win": 2 if teams == 2 else 1,
        "max_turns": max_turns,
        "chip_limit": chip_limit,
    }
    out.update(extra)
    return {k: v for k, v in out.items() if VARIANT_DEFAULTS.get(k, object()) != v}


class Game:
    """Mutable state of one game: board chips, locks, sequences, cards."""

    def __init__(self, rules: dict, board: list[str]) -> None:
        self.players: int = rules["players"]
        self.teams: int = rules["teams"]
        # One size for every seat, or a list with one size per seat (RECORD.md, rules).
        size = rules["hand_size"]
        self.hand_sizes: list[int] = list(size) if isinstance(size, list) else [size] * self.players
        self.to_win: int = rules["sequences_to_win"]
        self.max_turns: int = rules["max_turns"]
        self.chip_limit: bool = bool(rules.get("chip_limit", False))
        # RULES.md, "Rule variants" (absent from a record: the standard game).
        self.reshuffle: bool = bool(rules.get("reshuffle", True))
        self.dead_swap: bool = bool(rules.get("dead_swap", True))
        self.late_card: int = int(rules.get("late_card", 0))
        # docs/RULES.md, handicap: H for team 0, or [H0, H1] with three teams.
        handicap = rules.get("handicap", 0)
        self.handicap: list[int] = list(handicap) if isinstance(handicap, list) else [handicap]
        self.board = board
        self.cells = card_cells(board)
        self.chips: list[int] = [-1] * 100  # -1 empty, else team
        self.locked: list[bool] = [False] * 100
        self.sequences: list[list[list[int]]] = [[] for _ in range(self.teams)]
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.pile: list[int] = []
        self.discards: list[int] = []

    def chip_count(self, team: int) -> int:
        """Chips of `team` on the board."""
        return sum(1 for c in range(100) if self.chips[c] == team)

    def can_place(self, team: int) -> bool:
        """With the chip limit on, a place needs a chip left in supply."""
        return (not self.chip_limit) or self.chip_count(team) < SUPPLY[team]

    def is_dead(self, code: int) -> bool:
        """A non-Jack card is dead when both of its cells hold chips."""
        if code % 13 == 10:
            return False
        return all(self.chips[c] != -1 for c in self.cells[code])

    def targets(self, code: int, team: int) -> list[int]:
        """Legal cells for playing `code` as `team`, ascending."""
        if code in ONE_EYED:
            return [c for c in range(100) if self.chips[c] != -1 and self.chips[c] != team and not self.locked[c]]
        if not self.can_place(team):
            return []
        if code in TWO_EYED:
            return [c for c in range(100) if c not in CORNERS and self.chips[c] == -1]
        return [c for c in self.cells[code] if self.chips[c] == -1]

    def covered(self, line: list[int], team: int) -> bool:
        """Every cell holds a chip of `team` or is a corner."""
        for c in line:
            if not (c in CORNERS or self.chips[c] == team):
                return False
        return True

    def new_sequences(self, cell: int, team: int) -> list[list[int]]:
        """Declare new sequences through `cell` for `team` (ENGINE.md order)."""
        declared: list[list[int]] = []
        for step in STEPS:
            for line_step, line in LINES:  # LINES is ordered by step, then start
                if line_step != step or cell not in line:
                    continue
                if not self.covered(line, team):
                    continue
                ok = True
                for seq in self.sequences[team]:
                    shared = sum(1 for c in line if c in seq)
                    if shared > 1:
                        ok = False
                        break
                if ok:
                    seq = sorted(line)
                    self.sequences[team].append(seq)
                    for c in seq:
                        self.locked[c] = True
                    declared.append(seq)
        return declared

    def draw(self, rng: SplitMix64) -> tuple[int | None, bool]:
        """Draw the front card; reshuffle the discards first if the pile is empty.

        (None, False) when no card can be drawn: the pile is empty and either
        reshuffle is off or nothing has been discarded.
        """
        reshuffled = False
        if not self.pile:
            if not self.reshuffle or not self.discards:
                return None, False
            self.pile = self.discards
            self.discards = []
            shuffle(rng, self.pile)
            reshuffled = True
        return self.pile.pop(0), reshuffled

    def may_swap(self) -> bool:
        """A dead card may be swapped: dead_swap is on and a replacement can be drawn."""
        return self.dead_swap and (bool(self.pile) or self.reshuffle)

    def late_turn(self, seat: int) -> int:
        """The seat's own turn at whose end it draws its late card, 0 if it is dealt in full.

        late_card K: every seat of team 0, K. handicap H (per team): the team's
        m seats in seat order j = 0..m-1 wait ceil((H - j) / m) turns, j < H.
        """
        team = seat % self.teams
        if self.late_card >= 1 and team == 0:
            return self.late_card
        if team < len(self.handicap):
            total, j, m = self.handicap[team], seat // self.teams, self.players // self.teams
            if j < total:
                return (total - j + m - 1) // m
        return 0

    def dealt_size(self, seat: int) -> int:
        """Cards dealt to `seat`: its hand size, one fewer for a seat owed a late card."""
        return self.hand_sizes[seat] - (1 if self.late_turn(seat) > 0 else 0)


def play_game(rules: dict, policies: list[str], seed: int, game: int, board: list[str] | None = None) -> dict:
    """Play one game and return its simkit.game/1 record as a dict."""
    players = rules["players"]
    if len(policies) != players:
        raise ValueError(f"{len(policies)} policies for {players} players")
    for name in policies:
        if name != "random":
            raise ValueError(f"unsupported policy {name!r}")
    if board is None:
        board = load_board()
    g = Game(rules, board)
    rng = SplitMix64(seed, game)

    # Setting up: shuffle the double deck, deal one card at a time.
    deck = list(range(52)) + list(range(52))
    shuffle(rng, deck)
    g.pile = deck
    for round_ in range(max(g.hand_sizes)):
        for s in range(players):
            if round_ < g.dealt_size(s):
                g.hands[s].append(g.pile.pop(0))
    for hand in g.hands:
        hand.sort()
    hands_record = [[card_str(k) for k in hand] for hand in g.hands]

    turns: list[dict] = []
    passes = 0
    winner: int | None = None
    end: str
    while True:
        if len(turns) == g.max_turns:
            end = "turn_cap"
            break
        s = len(turns) % players
        t = s % g.teams
        hand = g.hands[s]
        drawn: list[int] = []
        reshuffle = False

        # Dead card (only when it may be swapped for a replacement).
        dead: int | None = None
        dead_codes = sorted(set(k for k in hand if g.is_dead(k))) if g.may_swap() else []
        if dead_codes:
            dead = dead_codes[rng.below(len(dead_codes))]
            hand.remove(dead)
            g.discards.append(dead)
            card, rs = g.draw(rng)
            assert card is not None  # may_swap(): a replacement can be drawn
            reshuffle = reshuffle or rs
            drawn.append(card)
            hand.append(card)
            hand.sort()

        def late_card(game_ends: bool, s=s, drawn=drawn, hand=hand) -> None:
            """The late card (late_card, handicap): drawn at the end of the seat's late turn, after
            its normal draw, unless this turn ends the game (a win, the last pass of a round,
            the turn cap)."""
            nonlocal reshuffle
            own_turn = len(turns) // players + 1
            if own_turn == g.late_turn(s) and not game_ends and len(turns) + 1 < g.max_turns:
                card, rs = g.draw(rng)
                reshuffle = reshuffle or rs
                if card is not None:
                    drawn.append(card)
                    hand.append(card)
                    hand.sort()

        # Action.
        playable = sorted(set(k for k in hand if g.targets(k, t)))
        if not playable:
            passes += 1
            late_card(game_ends=passes == players)
            turns.append(
                {
                    "seat": s,
                    "dead": None if dead is None else card_str(dead),
                    "card": None,
                    "action": "pass",
                    "cell": None,
                    "cell_name": None,
                    "drawn": [card_str(k) for k in drawn],
                    "reshuffle": reshuffle,
                    "sequences": [],
                }
            )
            if passes == players:
                end = "stalemate"
                break
            continue

        passes = 0
        card = playable[rng.below(len(playable))]
        cells = g.targets(card, t)
        cell = cells[rng.below(len(cells))]
        hand.remove(card)
        g.discards.append(card)
        declared: list[list[int]] = []
        if card in ONE_EYED:
            action = "remove"
            g.chips[cell] = -1
        else:
            action = "place"
            g.chips[cell] = t
            declared = g.new_sequences(cell, t)

        won = len(g.sequences[t]) >= g.to_win
        if not won:
            new, rs = g.draw(rng)
            reshuffle = reshuffle or rs
            if new is not None:
                drawn.append(new)
                hand.append(new)
                hand.sort()
            late_card(game_ends=False)

        turns.append(
            {
                "seat": s,
                "dead": None if dead is None else card_str(dead),
                "card": card_str(card),
                "action": action,
                "cell": cell,
                "cell_name": cell_name(cell),
                "drawn": [card_str(k) for k in drawn],
                "reshuffle": reshuffle,
                "sequences": declared,
            }
        )
        if won:
            end = "win"
            winner = t
            break

    return {
        "format": "simkit.game/1",
        "rules": dict(rules),
        "policies": list(policies),
        "seed": seed,
        "game": game,
        "board": list(board),
        "hands": hands_record,
        "turns": turns,
        "result": {
            "winner_team": winner,
            "end": end,
            "turns": len(turns),
            "sequences": [len(g.sequences[team]) for team in range(g.teams)],
        },
    }


# --------------------------------------------------------------------------
# Per-game statistics
# --------------------------------------------------------------------------


def stats(record: dict) -> dict:
    """The per-game statistics of ENGINE.md, computed from a record."""
    rules = record["rules"]
    teams = rules["teams"]
    turns = record["turns"]
    result = record["result"]

    chips = [-1] * 100
    one_eyed = [0, 0, 0]
    two_eyed = [0, 0, 0]
    first_turn = -1
    first_team = -1
    dead_swaps = 0
    reshuffles = 0
    passes = 0
    sequences = [0, 0, 0]
    leader, lead_changes = None, 0
    for i, turn in enumerate(turns):
        team = turn["seat"] % teams
        if turn["dead"] is not None:
            dead_swaps += 1
        if turn["reshuffle"]:
            reshuffles += 1
        if turn["action"] == "pass":
            passes += 1
            continue
        code = card_code(turn["card"])
        if code in ONE_EYED:
            one_eyed[team] += 1
        if code in TWO_EYED:
            two_eyed[team] += 1
        if turn["action"] == "remove":
            chips[turn["cell"]] = -1
        else:
            chips[turn["cell"]] = team
        if turn["sequences"] and first_turn == -1:
            first_turn = i + 1
            first_team = team
        sequences[team] += len(turn["sequences"])
        ahead = [u for u in range(teams) if all(sequences[u] > sequences[v] for v in range(teams) if v != u)]
        if ahead and ahead[0] != leader:  # the lead passes to a team: a change when another held it before
            lead_changes += leader is not None
            leader = ahead[0]

    seqs = list(result["sequences"]) + [0] * (3 - teams)
    out: dict = {
        "winner_team": -1 if result["winner_team"] is None else result["winner_team"],
        "end": END_CODES[result["end"]],
        "turns": len(turns),
        "first_sequence_turn": first_turn,
        "first_sequence_team": first_team,
    }
    for t in range(3):
        out[f"sequences_{t}"] = seqs[t] if t < teams else 0
    for t in range(3):
        out[f"chips_{t}"] = sum(1 for c in range(100) if chips[c] == t) if t < teams else 0
    for t in range(3):
        out[f"one_eyed_{t}"] = one_eyed[t] if t < teams else 0
    for t in range(3):
        out[f"two_eyed_{t}"] = two_eyed[t] if t < teams else 0
    out["dead_swaps"] = dead_swaps
    out["reshuffles"] = reshuffles
    out["passes"] = passes
    out["lead_changes"] = lead_changes
    return out
