"""Independent referee for simkit.game/1 records.

Replays a record with no random numbers and without trusting the engine that
wrote it, checking every step against docs/RULES.md and docs/ENGINE.md.  It
shares no code with tests/naive.py on purpose.  `check_record` returns a list
of human-readable violations; an empty list means the game is legal.

The referee knows every hand (the record gives them all after the deal and
every card drawn since), so it knows the exact multiset of cards in the draw
pile: the 104-card double deck minus the hands minus the discards.  A drawn
card must come from that multiset; the reshuffle flag must be set exactly
when a draw found the pile empty.
"""

from __future__ import annotations

from collections import Counter

FORMAT = "simkit.game/1"
RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "SHDC"

# The published Sequence board, row 0 at the top (hard-coded on purpose, so
# that a wrong board.csv is caught too).
OFFICIAL_BOARD: list[str] = (
    "XX 2S 3S 4S 5S 6S 7S 8S 9S XX "
    "6C 5C 4C 3C 2C AH KH QH TH TS "
    "7C AS 2D 3D 4D 5D 6D 7D 9H QS "
    "8C KS 6C 5C 4C 3C 2C 8D 8H KS "
    "9C QS 7C 6H 5H 4H AH 9D 7H AS "
    "TC TS 8C 7H 2H 3H KH TD 6H 2D "
    "QC 9S 9C 8H 9H TH QH QD 5H 3D "
    "KC 8S TC QC KC AC AD KD 4H 4D "
    "AC 7S 6S 5S 4S 3S 2S 2H 3H 5D "
    "XX AD KD QD TD 9D 8D 7D 6D XX"
).split()

CORNER_CELLS = {0, 9, 90, 99}
TWO_EYED_JACKS = {"JD", "JC"}
ONE_EYED_JACKS = {"JS", "JH"}
TEAM_SUPPLY = {0: 50, 1: 50, 2: 35}

LEGAL_TABLE = {  # players -> allowed team counts
    2: {2},
    3: {3},
    4: {2},
    6: {2, 3},
    8: {2},
    9: {3},
    10: {2},
    12: {2, 3},
}
HAND_TABLE = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
WIN_TABLE = {2: 2, 3: 1}

RECORD_KEYS = ["format", "rules", "policies", "seed", "game", "board", "hands", "turns", "result"]
TURN_KEYS = ["seat", "dead", "card", "action", "cell", "cell_name", "drawn", "reshuffle", "sequences"]
RESULT_KEYS = ["winner_team", "end", "turns", "sequences"]
RULE_KEYS = ["players", "teams", "hand_size", "sequences_to_win", "max_turns"]

FULL_DECK: Counter = Counter(r + s for s in SUIT_CHARS for r in RANK_CHARS for _ in range(2))


def _is_card(x: object) -> bool:
    """A two-character card string like 'QS'."""
    return isinstance(x, str) and len(x) == 2 and x[0] in RANK_CHARS and x[1] in SUIT_CHARS


def _is_int(x: object) -> bool:
    """An integer that is not a bool."""
    return isinstance(x, int) and not isinstance(x, bool)


def _five_in_a_row_lines() -> list[tuple[str, list[int]]]:
    """Every five-cell line as (direction, cells in line order).

    Directions in ENGINE.md's order: row, column, diagonal down-right,
    diagonal down-left; within a direction, by ascending first cell.
    Built from (row, column) coordinates, independently of naive.py.
    """
    directions = [("row", 0, 1), ("column", 1, 0), ("down-right", 1, 1), ("down-left", 1, -1)]
    lines: list[tuple[str, list[int]]] = []
    for name, dr, dc in directions:
        found = []
        for r in range(10):
            for c in range(10):
                cells = []
                for i in range(5):
                    rr, cc = r + i * dr, c + i * dc
                    if 0 <= rr < 10 and 0 <= cc < 10:
                        cells.append(rr * 10 + cc)
                if len(cells) == 5:
                    found.append(cells)
        found.sort(key=lambda cells: cells[0])
        lines.extend((name, cells) for cells in found)
    return lines


ALL_LINES = _five_in_a_row_lines()
assert len(ALL_LINES) == 192


def _is_board(board) -> bool:
    """Whether `board` is 100 card names with 4 corners XX and each card but the Jacks on two cells."""
    if not isinstance(board, list) or len(board) != 100 or board.count("XX") != 4:
        return False
    cards = Counter(c for c in board if c != "XX")
    return len(cards) == 48 and set(cards.values()) == {2} and not any(c[0] == "J" for c in cards)


class _Table:
    """The referee's view of the game: board chips, locks, cards."""

    def __init__(self, players: int, teams: int, chip_limit: bool, board: list[str]) -> None:
        self.board = board
        self.corners = {c for c, card in enumerate(board) if card == "XX"}
        self.players = players
        self.teams = teams
        self.chip_limit = chip_limit
        self.owner: dict[int, int] = {}  # cell -> team, only occupied cells
        self.locked: set[int] = set()
        self.seqs: list[list[list[int]]] = [[] for _ in range(teams)]
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.discards: list[str] = []
        self.pile: Counter = Counter()  # exact multiset of the draw pile
        self.where: dict[str, list[int]] = {}
        for cell, card in enumerate(board):
            if card != "XX":
                self.where.setdefault(card, []).append(cell)

    def pile_size(self) -> int:
        """Cards in the draw pile."""
        return sum(n for n in self.pile.values() if n > 0)

    def dead(self, card: str) -> bool:
        """Non-Jack card whose two cells are both occupied."""
        if card[0] == "J":
            return False
        return all(cell in self.owner for cell in self.where[card])

    def may_place(self, team: int) -> bool:
        """False only when the chip limit is on and the team's supply is used up."""
        if not self.chip_limit:
            return True
        on_board = len([c for c, t in self.owner.items() if t == team])
        return on_board < TEAM_SUPPLY[team]

    def legal_cells(self, card: str, team: int) -> list[int]:
        """Every cell on which `card` may legally act for `team`."""
        if card in ONE_EYED_JACKS:
            return sorted(c for c, t in self.owner.items() if t != team and c not in self.locked)
        if not self.may_place(team):
            return []
        if card in TWO_EYED_JACKS:
            return [c for c in range(100) if c not in self.corners and c not in self.owner]
        return [c for c in self.where[card] if c not in self.owner]

    def sequences_through(self, cell: int, team: int) -> list[list[int]]:
        """ENGINE.md's 'New sequences' rule after `team` placed on `cell`."""
        declared: list[list[int]] = []
        for _name, cells in ALL_LINES:
            if cell not in cells:
                continue
            full = True
            for c in cells:
                if c in self.corners:
                    continue
                if self.owner.get(c) != team:
                    full = False
            if not full:
                continue
            overlap_ok = True
            for seq in self.seqs[team]:
                if len(set(seq) & set(cells)) > 1:
                    overlap_ok = False
            if overlap_ok:
                seq = sorted(cells)
                self.seqs[team].append(seq)
                self.locked.update(seq)
                declared.append(seq)
        return declared


def check_record(record: dict, strict_rules: bool = True) -> list[str]:
    """Replay `record` and return every rule violation found (empty = legal).

    With `strict_rules`, the player count / team count / hand size /
    sequences-to-win must also match the tables of RULES.md.
    """
    bad: list[str] = []

    # ---- structure ------------------------------------------------------
    if not isinstance(record, dict):
        return ["record is not an object"]
    missing = [k for k in RECORD_KEYS if k not in record]
    extra = [k for k in record if k not in RECORD_KEYS]
    if missing:
        return [f"record lacks keys {missing}"]
    if extra:
        bad.append(f"record has unknown keys {extra}")
    if record["format"] != FORMAT:
        bad.append(f"format is {record['format']!r}, not {FORMAT!r}")

    rules = record["rules"]
    if not isinstance(rules, dict):
        return bad + ["rules is not an object"]
    lacking = [k for k in RULE_KEYS if k not in rules]
    if lacking:
        return bad + [f"rules lack keys {lacking}"]
    for k in RULE_KEYS:
        if k == "hand_size" and isinstance(rules[k], list):
            continue  # one size per seat: checked below
        if not _is_int(rules[k]):
            return bad + [f"rules.{k} is not an integer"]
    players, teams = rules["players"], rules["teams"]
    hand_size, to_win, max_turns = rules["hand_size"], rules["sequences_to_win"], rules["max_turns"]
    # RECORD.md: hand_size is one integer for every seat, or a list of one integer per seat.
    if isinstance(hand_size, list):
        if len(hand_size) != players or not all(_is_int(h) for h in hand_size):
            return bad + [f"rules.hand_size must list one integer per seat ({players}), got {hand_size}"]
        if len(set(hand_size)) == 1:
            bad.append("rules.hand_size is a list of equal sizes; RECORD.md writes one integer then")
        sizes = list(hand_size)
    else:
        sizes = [hand_size] * players
    chip_limit = rules.get("chip_limit", False)
    if not isinstance(chip_limit, bool):
        bad.append("rules.chip_limit is not a boolean")
        chip_limit = bool(chip_limit)
    # RULES.md, "Rule variants": a record lists an option only when it differs from its default.
    reshuffle_on = rules.get("reshuffle", True)
    dead_swap_on = rules.get("dead_swap", True)
    late_card = rules.get("late_card", 0)
    for key, value in (("reshuffle", reshuffle_on), ("dead_swap", dead_swap_on)):
        if not isinstance(value, bool):
            bad.append(f"rules.{key} is not a boolean")
    if not _is_int(late_card) or late_card < 0:
        return bad + [f"rules.late_card must be a whole number >= 0, got {late_card!r}"]
    # docs/RULES.md, handicap: H (team 0) or [H0, H1] (three teams): the team's seats, in seat order,
    # share H turns of a card short, the earlier ones at most one turn longer.
    handicap = rules.get("handicap", 0)
    per_team = handicap if isinstance(handicap, list) else [handicap]
    if not all(_is_int(h) and h >= 0 for h in per_team) or len(per_team) > 2 or (len(per_team) == 2 and teams != 3):
        return bad + [f"rules.handicap must be H, or H0,H1 with three teams, got {handicap!r}"]
    if late_card and any(per_team):
        bad.append("rules give both late_card and handicap")
    known = set(RULE_KEYS) | {"chip_limit", "reshuffle", "dead_swap", "late_card", "handicap", "layout"}
    if set(rules) - known:
        bad.append(f"rules has unknown options {sorted(set(rules) - known)}")
    if teams not in (2, 3) or players < teams or players % teams != 0:
        return bad + [f"illegal players/teams {players}/{teams}"]
    if min(sizes) < 1 or sum(sizes) > 104:
        return bad + [f"illegal hand_size {hand_size}"]
    if to_win < 1 or max_turns < 0:
        return bad + ["illegal sequences_to_win or max_turns"]
    if strict_rules:
        if teams not in LEGAL_TABLE.get(players, set()):
            bad.append(f"{players} players in {teams} teams is not a legal table")
        if HAND_TABLE.get(players) != hand_size:
            bad.append(f"hand_size {hand_size} is not RULES.md's {HAND_TABLE.get(players)}")
        if WIN_TABLE[teams] != to_win:
            bad.append(f"sequences_to_win {to_win} is not RULES.md's {WIN_TABLE[teams]}")

    policies = record["policies"]
    if not isinstance(policies, list) or len(policies) != players or not all(isinstance(p, str) for p in policies):
        bad.append("policies must be a list of one string per seat")
    if not _is_int(record["seed"]) or not _is_int(record["game"]):
        bad.append("seed and game must be integers")
    board = record["board"]
    named = record["rules"].get("layout", "official") if isinstance(record["rules"], dict) else "official"
    if named == "official" and board != OFFICIAL_BOARD:
        bad.append("board is not the official layout")
    if not _is_board(board):
        bad.append("board is not a Sequence board: 4 corners XX and each card but the Jacks on two cells")
        board = OFFICIAL_BOARD

    table = _Table(players, teams, chip_limit, board)

    def late_turn(seat: int) -> int:
        """The seat's own turn (from 1) at whose end it draws a card it was dealt short of; 0: none."""
        team_of = seat % teams
        if late_card >= 1 and team_of == 0:
            return late_card
        if team_of < len(per_team):
            index_in_team, team_size = seat // teams, players // teams
            share = per_team[team_of] - index_in_team
            return 0 if share <= 0 else -(-share // team_size)
        return 0

    # ---- the deal ------------------------------------------------------
    hands = record["hands"]
    if not isinstance(hands, list) or len(hands) != players:
        return bad + [f"hands must list {players} seats"]
    for s, hand in enumerate(hands):
        if not isinstance(hand, list) or not all(_is_card(x) for x in hand):
            return bad + [f"seat {s}: hand is not a list of cards"]
        # late_card and handicap: a seat owed a late card is dealt one card short.
        expected = sizes[s] - (1 if late_turn(s) else 0)
        if len(hand) != expected:
            bad.append(f"seat {s}: dealt {len(hand)} cards, expected {expected}")
        codes = [SUIT_CHARS.index(x[1]) * 13 + RANK_CHARS.index(x[0]) for x in hand]
        if codes != sorted(codes):
            bad.append(f"seat {s}: hand not sorted by card code")
        table.hands[s] = list(hand)
    dealt: Counter[str] = Counter()
    for hand in table.hands:
        dealt.update(hand)
    for card, n in dealt.items():
        if n > FULL_DECK[card]:
            bad.append(f"card {card} dealt {n} times (deck has {FULL_DECK[card]})")
    table.pile = FULL_DECK.copy()
    table.pile.subtract(dealt)

    conservation_reported = False

    def conservation(where: str) -> None:
        """Every one of the 104 cards is in exactly one place."""
        nonlocal conservation_reported
        if conservation_reported:
            return
        total: Counter[str] = Counter()
        for hand in table.hands:
            total.update(hand)
        total.update(table.discards)
        for card, n in table.pile.items():
            if n < 0:
                bad.append(f"{where}: card {card} is in more places than the deck allows")
                conservation_reported = True
                return
            total[card] += n
        if +total != FULL_DECK:
            bad.append(f"{where}: card conservation broken")
            conservation_reported = True

    conservation("after the deal")

    # ---- the turns -----------------------------------------------------
    turns = record["turns"]
    if not isinstance(turns, list):
        return bad + ["turns is not a list"]
    passes_in_a_row = 0
    ended: str | None = None
    winner: int | None = None

    for i, turn in enumerate(turns):
        where = f"turn {i + 1}"
        if ended is not None:
            bad.append(f"{where}: turn after the game ended ({ended})")
            break
        if i == max_turns:
            bad.append(f"{where}: turn beyond max_turns {max_turns}")
            break
        if not isinstance(turn, dict) or set(turn) != set(TURN_KEYS):
            bad.append(f"{where}: turn object must have exactly keys {TURN_KEYS}")
            break
        seat = i % players
        team = seat % teams
        if turn["seat"] != seat:
            bad.append(f"{where}: seat {turn['seat']} moved, expected seat {seat}")
        hand = table.hands[seat]
        drawn = turn["drawn"]
        if not isinstance(drawn, list) or not all(_is_card(x) for x in drawn):
            bad.append(f"{where}: drawn is not a list of cards")
            break
        if not isinstance(turn["reshuffle"], bool):
            bad.append(f"{where}: reshuffle is not a boolean")
        if not isinstance(turn["sequences"], list):
            bad.append(f"{where}: sequences is not a list")
            break
        draws_left = list(drawn)
        reshuffled = False

        def draw_one(why: str, where=where, draws_left=draws_left, hand=hand) -> None:
            """Take the next recorded draw, checking it was possible.

            No card can be drawn when the pile is empty and reshuffle is off, or
            nothing has been discarded: then the record must list none.
            """
            nonlocal reshuffled
            if table.pile_size() == 0 and (not reshuffle_on or not table.discards):
                return
            if not draws_left:
                bad.append(f"{where}: missing draw ({why})")
                return
            card = draws_left.pop(0)
            if table.pile_size() == 0:
                table.pile = Counter(table.discards)
                table.discards = []
                reshuffled = True
            if table.pile[card] <= 0:
                bad.append(f"{where}: drew {card}, which cannot be in the draw pile")
            table.pile[card] -= 1
            hand.append(card)

        def late(game_ends: bool, i=i, seat=seat) -> None:
            """late_card, handicap: a seat dealt short draws one more card at the end of its own late
            turn (passes included), unless this turn ends the game."""
            own_turn = i // players + 1
            if own_turn == late_turn(seat) and not game_ends and i + 1 < max_turns:
                draw_one("late card")

        # dead card
        dead = turn["dead"]
        if dead is not None:
            if not _is_card(dead):
                bad.append(f"{where}: dead {dead!r} is not a card")
                break
            if not dead_swap_on:
                bad.append(f"{where}: swapped dead card {dead} with dead_swap off")
            elif not reshuffle_on and table.pile_size() == 0:
                bad.append(f"{where}: swapped dead card {dead} with an empty pile and reshuffle off")
            if dead not in hand:
                bad.append(f"{where}: dead card {dead} is not in seat {seat}'s hand")
            elif not table.dead(dead):
                bad.append(f"{where}: card {dead} discarded as dead but it is not dead")
            if dead in hand:
                hand.remove(dead)
            table.discards.append(dead)
            draw_one("dead card replacement")

        action = turn["action"]
        card = turn["card"]
        cell = turn["cell"]
        # RECORD.md: the cell's name, column letter A-J then row number 1-10 (row 1 at the top); null for a pass
        named = None if not _is_int(cell) or not 0 <= cell < 100 else "ABCDEFGHIJ"[cell % 10] + str(cell // 10 + 1)
        if turn["cell_name"] != named:
            bad.append(f"{where}: cell_name {turn['cell_name']!r} does not name cell {cell!r} ({named!r})")
        playable = sorted({c for c in hand if table.legal_cells(c, team)})

        if action == "pass":
            if card is not None or cell is not None:
                bad.append(f"{where}: a pass must have card and cell null")
            if playable:
                bad.append(f"{where}: passed although {playable} could be played")
            if turn["sequences"]:
                bad.append(f"{where}: a pass declared sequences")
            passes_in_a_row += 1
            if passes_in_a_row == players:
                ended = "stalemate"
            late(game_ends=ended is not None)
        elif action in ("place", "remove"):
            if not _is_card(card) or not _is_int(cell) or not 0 <= cell < 100:
                bad.append(f"{where}: card {card!r} / cell {cell!r} malformed")
                break
            passes_in_a_row = 0
            if card not in hand:
                bad.append(f"{where}: played {card}, not in seat {seat}'s hand {sorted(hand)}")
            else:
                hand.remove(card)
            table.discards.append(card)
            expected_seqs: list[list[int]] = []
            if action == "remove":
                if card not in ONE_EYED_JACKS:
                    bad.append(f"{where}: remove with {card}, not a one-eyed Jack")
                if cell not in table.owner:
                    bad.append(f"{where}: removed from empty cell {cell}")
                elif table.owner[cell] == team:
                    bad.append(f"{where}: removed own team's chip at {cell}")
                elif cell in table.locked:
                    bad.append(f"{where}: removed locked chip at {cell}")
                table.owner.pop(cell, None)
            else:
                if card in ONE_EYED_JACKS:
                    bad.append(f"{where}: placed with one-eyed Jack {card}")
                elif card not in TWO_EYED_JACKS and board[cell] != card:
                    bad.append(f"{where}: {card} placed on cell {cell} showing {board[cell]}")
                if cell in table.corners:
                    bad.append(f"{where}: placed on corner {cell}")
                if cell in table.owner:
                    bad.append(f"{where}: placed on occupied cell {cell}")
                if not table.may_place(team):
                    bad.append(f"{where}: team {team} placed beyond its chip supply")
                table.owner[cell] = team
                expected_seqs = table.sequences_through(cell, team)
            if turn["sequences"] != expected_seqs:
                bad.append(f"{where}: declared sequences {turn['sequences']}, rules give {expected_seqs}")
            if len(table.seqs[team]) >= to_win:
                ended = "win"
                winner = team
            else:
                draw_one("end of turn")
                late(game_ends=False)
        else:
            bad.append(f"{where}: unknown action {action!r}")
            break

        if draws_left:
            bad.append(f"{where}: {len(draws_left)} extra card(s) drawn {draws_left}")
            for extra_card in draws_left:  # keep the books balanced
                table.pile[extra_card] -= 1
                hand.append(extra_card)
        if turn["reshuffle"] != reshuffled:
            bad.append(
                f"{where}: reshuffle flag {turn['reshuffle']}, "
                f"but a reshuffle was {'needed' if reshuffled else 'not needed'}"
            )
        hand.sort(key=lambda x: SUIT_CHARS.index(x[1]) * 13 + RANK_CHARS.index(x[0]))
        conservation(where)

    # ---- the result ----------------------------------------------------
    if ended is None:
        if len(turns) == max_turns:
            ended = "turn_cap"
        else:
            bad.append(f"record stops after {len(turns)} turns without the game ending")
    result = record["result"]
    if not isinstance(result, dict) or set(result) != set(RESULT_KEYS):
        return bad + [f"result must have exactly keys {RESULT_KEYS}"]
    if result["end"] != ended:
        bad.append(f"result.end is {result['end']!r}, the replay gives {ended!r}")
    if result["winner_team"] != winner or isinstance(result["winner_team"], bool):
        bad.append(f"result.winner_team is {result['winner_team']!r}, the replay gives {winner!r}")
    if result["turns"] != len(turns):
        bad.append(f"result.turns is {result['turns']!r}, the record has {len(turns)}")
    counts = [len(s) for s in table.seqs]
    if result["sequences"] != counts:
        bad.append(f"result.sequences is {result['sequences']!r}, the replay gives {counts}")
    return bad
