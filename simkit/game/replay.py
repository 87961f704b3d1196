"""Replay a simkit.game/1 record (docs/RECORD.md) turn by turn, checking every move against docs/RULES.md.

``read_record(path, game)`` reads one record of a JSON Lines file (and says
where it is: ``Found.where``, "game 7 (line 8) of games.jsonl");
``replay(record)`` checks it whole and returns one ``Step`` per turn (the
board after it and the turn in words), or raises ``ReplayError`` naming the
first turn that does not replay: a card the seat does not hold, a cell the
card cannot take, a removal of a locked chip, a pass with a playable card,
sequences the rules do not give, a result the turns do not reach, or a
record that is not a game record at all.

The checks follow RULES.md, written here apart from the engine that plays
the games: the dead card, the play (an ordinary card on one of its two empty
cells, a two-eyed Jack on any empty cell but a corner, a one-eyed Jack
removing an opponent's chip that is in no sequence), the chip supply
(``chip_limit``), new sequences through the cell played (as many as the
share-at-most-one-cell rule allows), the end of the game (enough sequences,
a full round of passes, the turn cap), and every card drawn coming from the
draw pile (the 104-card deck less the hands and the discards, the discards
reshuffled into it when it runs out). It does not check how many cards a
turn draws (late cards and handicaps vary it): a card too many or too few
shows up later as a card played that is not in the hand.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from simkit.game.cards import CORNER, RANKS, SUITS, board_names, card_code, cell_name, tables
from simkit.game.options import RulesError
from simkit.game.rules import CHIP_SUPPLY, TEAM_COLOURS, Rules  # RULES.md's facts, declared once in simkit.game.options

FORMAT = "simkit.game/1"
TWO_EYED = ("JD", "JC")
ONE_EYED = ("JS", "JH")
TURN_KEYS = ("seat", "dead", "card", "action", "cell", "drawn", "reshuffle", "sequences")


class ReplayError(ValueError):
    """A record that cannot be read or does not replay; the message says where and why, in one line."""


@dataclass
class Step:
    """The game after one turn: its number (from 1), the turn, the board, the turn in words."""

    number: int
    turn: dict
    owner: list[int | None]
    locked: set[int]
    words: str
    hand: list[str]  # the seat's hand before the turn, in card-code order


@dataclass
class Found:
    """A record read from a file: the record, the records in the file, the line it is on and the file."""

    record: dict
    in_file: int
    line: int
    path: Path

    @property
    def where(self) -> str:
        """'game 7 (line 8) of games.jsonl', or 'the record on line 8 of games.jsonl' when it has no game index."""
        game = self.record.get("game")
        if _is_int(game):
            return f"game {game} (line {self.line}) of {self.path}"
        return f"the record on line {self.line} of {self.path} (it has no game index)"


def read_record(path: Path, game: int | None = None) -> Found:
    """The record of game `game` in the JSON Lines file `path` (game None: the file's first record), with the
    number of records in the file and the line it is on."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ReplayError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    records, numbers = [], []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
            numbers.append(number)
        except ValueError:
            raise ReplayError(
                f"line {number} of {path} is not JSON: a record file holds one simkit.game/1 "
                "object per line (docs/RECORD.md)"
            ) from None
    if not records:
        raise ReplayError(f"{path} holds no game record")
    bad = next((n for r, n in zip(records, numbers) if not isinstance(r, dict)), None)
    if bad is not None:
        raise ReplayError(
            f"line {bad} of {path} is not a game record (a JSON object): {path} is not a file of "
            "simkit.game/1 records (docs/RECORD.md)"
        )
    games = [r.get("game") for r in records]
    if game is None:
        return Found(records[0], len(records), numbers[0], path)
    for r, n in zip(records, numbers):
        if r.get("game") == game:
            return Found(r, len(records), n, path)
    raise ReplayError(f"{path} holds no game {game}; its games: {_listed(games)}")


def _listed(games: list) -> str:
    shown = ", ".join(str(g) for g in games[:10])
    return shown + (", ..." if len(games) > 10 else "")


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _card(x, what: str) -> str:
    if not isinstance(x, str) or len(x) != 2 or x[0] not in RANKS or x[1] not in SUITS:
        raise ReplayError(f"{what} {x!r} is not a card (rank {RANKS}, then suit {SUITS}, as QS)")
    return x


class _Game:
    """The referee's view: the board, the sequences, the hands, the draw pile and the discards."""

    def __init__(self, record: dict):

        if record.get("format") != FORMAT:
            raise ReplayError(f"format {record.get('format')!r} is not {FORMAT!r} (docs/RECORD.md)")
        missing = [k for k in ("rules", "hands", "turns", "result", "board") if k not in record]
        if missing:
            raise ReplayError(f"the record lacks {', '.join(missing)} (docs/RECORD.md)")
        if not isinstance(record["rules"], dict):
            raise ReplayError("the record's rules are not an object")
        try:
            self.rules = Rules.make(**record["rules"])
        except (RulesError, TypeError, ValueError) as e:
            raise ReplayError(f"the record's rules do not make a game: {e}") from None
        if list(record["board"]) != list(board_names(self.rules.layout)):
            raise ReplayError(f"the record's board is not the layout of its rules' board ({self.rules.layout})")
        self.names = board_names(self.rules.layout)
        self.where: dict[str, list[int]] = {}
        for cell, name in enumerate(self.names):
            if name != CORNER:
                self.where.setdefault(name, []).append(cell)
        self.players, self.teams = self.rules.players, self.rules.teams
        self.owner: list[int | None] = [None] * 100
        self.locked: set[int] = set()
        self.sequences: list[list[frozenset[int]]] = [[] for _ in range(self.teams)]
        hands = record["hands"]
        if not isinstance(hands, list) or len(hands) != self.players or not all(isinstance(h, list) for h in hands):
            raise ReplayError(f"hands must list the {self.players} seats' hands (docs/RECORD.md)")
        self.hands = [[_card(c, f"seat {s}'s dealt card") for c in h] for s, h in enumerate(hands)]
        deck = Counter(r + s for s in SUITS for r in RANKS for _ in range(2))
        dealt = Counter(c for h in self.hands for c in h)
        over = [c for c, n in dealt.items() if n > deck[c]]
        if over:
            raise ReplayError(f"{over[0]} is dealt {dealt[over[0]]} times; the deck holds every card twice")
        self.pile = deck - dealt
        self.discards: list[str] = []

    def playable_cells(self, card: str, team: int) -> list[int]:
        """The cells `card` may act on for `team` (RULES.md, "A turn")."""
        if card in ONE_EYED:
            return [c for c, t in enumerate(self.owner) if t is not None and t != team and c not in self.locked]
        if self.rules.chip_limit and sum(t == team for t in self.owner) >= CHIP_SUPPLY[team]:
            return []
        if card in TWO_EYED:
            return [c for c in range(100) if self.names[c] != CORNER and self.owner[c] is None]
        return [c for c in self.where.get(card, []) if self.owner[c] is None]

    def dead(self, card: str) -> bool:
        return card[0] != "J" and all(self.owner[c] is not None for c in self.where[card])

    def draw(self, card, where: str) -> str:
        card = _card(card, f"{where}: the drawn card")
        if not +self.pile and self.rules.reshuffle:  # the discards become the new draw pile
            self.pile, self.discards = Counter(self.discards), []
        if self.pile[card] <= 0:
            raise ReplayError(
                f"{where}: draws {card}, which is not in the draw pile (both copies are in hands or discards)"
            )
        self.pile[card] -= 1
        return card

    def new_sequences(self, cell: int, team: int) -> list[frozenset[int]]:
        """The sequences placing on `cell` completes for `team`: full lines through it, each sharing at most
        one cell with the team's other sequences (RULES.md, "Sequences" and its conventions)."""
        found: list[frozenset[int]] = []
        for line in tables().line_cells:
            cells = frozenset(int(c) for c in line)
            if cell not in cells or not all(self.names[c] == CORNER or self.owner[c] == team for c in cells):
                continue
            if all(len(cells & s) <= 1 for s in self.sequences[team] + found):
                found.append(cells)
        return found


def describe(turn: dict, teams: int, players: int, number: int) -> str:
    """'turn 5 (round 3), seat 0 (team 0, blue): plays QS on D3; draws 5C' and the like."""
    seat = turn["seat"]
    team = seat % teams
    head = f"turn {number} (round {(number - 1) // players + 1}), seat {seat} (team {team}, {TEAM_COLOURS[team]}): "
    parts = []
    if turn.get("dead"):
        parts.append(f"discards the dead card {turn['dead']}")
    if turn["action"] == "pass":
        parts.append("passes (no card can be played)")
    elif turn["action"] == "remove":
        parts.append(f"removes the chip on {cell_name(turn['cell'])} with {turn['card']}")
    else:
        parts.append(f"plays {turn['card']} on {cell_name(turn['cell'])}")
    drawn = [c for c in turn.get("drawn", [])]
    if drawn:
        parts.append("draws " + " ".join(drawn))
    if turn.get("reshuffle"):
        parts.append("the discards are shuffled into a new draw pile")
    for seq in turn.get("sequences", []):
        parts.append("completes a sequence: " + " ".join(cell_name(c) for c in seq))
    return head + "; ".join(parts)


def replay(record: dict) -> list[Step]:
    """Check `record` against the rules, turn by turn: one Step per turn, or ReplayError at the first turn
    that does not replay (or a result the turns do not reach)."""
    if not isinstance(record, dict):
        raise ReplayError("the record is not a JSON object (docs/RECORD.md)")
    g = _Game(record)
    turns = record["turns"]
    if not isinstance(turns, list):
        raise ReplayError("the record's turns are not a list")
    players, teams = g.players, g.teams
    steps: list[Step] = []
    passes, winner, ended = 0, None, None
    for i, turn in enumerate(turns):
        number = i + 1
        seat = i % players
        where = f"turn {number} (seat {seat})"
        if ended is not None:
            raise ReplayError(f"{where}: the game ended before it ({ended})")
        if i >= g.rules.max_turns:
            raise ReplayError(f"{where}: beyond the turn cap, max_turns {g.rules.max_turns}")
        if not isinstance(turn, dict) or any(k not in turn for k in TURN_KEYS):
            raise ReplayError(f"{where}: a turn object needs the keys {', '.join(TURN_KEYS)} (docs/RECORD.md)")
        if turn["seat"] != seat:
            raise ReplayError(f"{where}: seat {turn['seat']!r} moves, but seat {seat} has the turn")
        if not isinstance(turn["drawn"], list) or not isinstance(turn["sequences"], list):
            raise ReplayError(f"{where}: drawn and sequences must be lists")
        team = seat % teams
        hand = g.hands[seat]
        before = sorted(hand, key=card_code)
        drawn = list(turn["drawn"])
        if turn["dead"] is not None:
            dead = _card(turn["dead"], f"{where}: the dead card")
            if not g.rules.dead_swap:
                raise ReplayError(f"{where}: swaps the dead card {dead}, but dead_swap is off")
            if dead not in hand:
                raise ReplayError(f"{where}: discards {dead} as dead, but seat {seat} does not hold it")
            if not g.dead(dead):
                free = [cell_name(c) for c in g.where.get(dead, []) if g.owner[c] is None]
                raise ReplayError(
                    f"{where}: discards {dead} as dead, but it is not dead ({', '.join(free)} still empty)"
                    if free
                    else f"{where}: a Jack is never dead"
                )
            hand.remove(dead)
            g.discards.append(dead)
            if drawn:
                hand.append(g.draw(drawn.pop(0), where))
        action, card, cell = turn["action"], turn["card"], turn["cell"]
        if "cell_name" in turn and turn["cell_name"] != (
            None if not _is_int(cell) or not 0 <= cell < 100 else cell_name(cell)
        ):
            raise ReplayError(f"{where}: cell_name {turn['cell_name']!r} does not name cell {cell!r}")
        if action == "pass":
            if card is not None or cell is not None:
                raise ReplayError(f"{where}: a pass has card and cell null")
            playable = sorted({c for c in hand if g.playable_cells(c, team)})
            if playable:
                raise ReplayError(f"{where}: passes, but {', '.join(playable)} can be played")
            if turn["sequences"]:
                raise ReplayError(f"{where}: a pass completes no sequence")
            passes += 1
            if passes == players:
                ended = "stalemate: every seat passed in one round"
        elif action in ("place", "remove"):
            card = _card(card, f"{where}: the card played")
            if not _is_int(cell) or not 0 <= cell < 100:
                raise ReplayError(f"{where}: cell {cell!r} is not a cell (0..99)")
            if card not in hand:
                raise ReplayError(f"{where}: plays {card}, but seat {seat} holds {' '.join(sorted(hand)) or 'nothing'}")
            passes = 0
            if action == "remove":
                if card not in ONE_EYED:
                    raise ReplayError(f"{where}: removes a chip with {card}; only a one-eyed Jack (JS, JH) removes")
                if g.owner[cell] is None or g.owner[cell] == team:
                    whose = "an empty cell" if g.owner[cell] is None else "its own team's chip"
                    raise ReplayError(
                        f"{where}: removes from {cell_name(cell)}, {whose}; a one-eyed Jack removes an opponent's chip"
                    )
                if cell in g.locked:
                    raise ReplayError(f"{where}: removes the chip on {cell_name(cell)}, which is part of a sequence")
                g.owner[cell] = None
                if turn["sequences"]:
                    raise ReplayError(f"{where}: a removal completes no sequence")
            else:
                if card in ONE_EYED:
                    raise ReplayError(f"{where}: places a chip with {card}, a one-eyed Jack (it removes)")
                if cell not in g.playable_cells(card, team):
                    may_take = ", ".join(cell_name(c) for c in g.playable_cells(card, team)) or "no cell"
                    raise ReplayError(
                        f"{where}: {card} cannot take {cell_name(cell)} (it shows "
                        f"{g.names[cell]}{', taken' if g.owner[cell] is not None else ''}); "
                        f"{card} may take {may_take}"
                    )
                g.owner[cell] = team
                found = g.new_sequences(cell, team)
                declared = turn["sequences"]
                lines = {frozenset(int(c) for c in line) for line in tables().line_cells}
                for seq in declared:
                    cells = frozenset(seq) if isinstance(seq, list) and all(_is_int(c) for c in seq) else None
                    if (
                        cells is None
                        or cells not in lines
                        or cell not in cells
                        or not all(g.names[c] == CORNER or g.owner[c] == team for c in cells)
                    ):
                        raise ReplayError(f"{where}: declares a sequence {seq!r} that the board does not hold")
                if len(declared) != len(found):
                    raise ReplayError(f"{where}: declares {len(declared)} sequence(s); the rules give {len(found)}")
                for seq in declared:
                    g.sequences[team].append(frozenset(seq))
                    g.locked.update(seq)
                if len(g.sequences[team]) >= g.rules.sequences_to_win:
                    winner, ended = team, f"team {team} won"
            hand.remove(card)
            g.discards.append(card)
        else:
            raise ReplayError(f"{where}: action {action!r} is not place, remove or pass")
        for c in drawn:
            hand.append(g.draw(c, where))
        steps.append(Step(number, turn, list(g.owner), set(g.locked), describe(turn, teams, players, number), before))
    _check_result(record.get("result"), turns, winner, ended, g)
    return steps


def _check_result(result, turns: list, winner: int | None, ended: str | None, g: _Game) -> None:
    if not isinstance(result, dict):
        raise ReplayError("the record's result is not an object")
    if ended is None and len(turns) != g.rules.max_turns:
        raise ReplayError(
            f"the record stops after {len(turns)} turns with no winner, no full round of passes "
            f"and no turn cap ({g.rules.max_turns})"
        )
    if result.get("winner_team") != winner:
        said = "a draw" if result.get("winner_team") is None else f"team {result.get('winner_team')} wins"
        got = "a draw" if winner is None else f"team {winner} wins"
        raise ReplayError(f"the result says {said}; the turns give {got}")
    if result.get("turns") != len(turns):
        raise ReplayError(f"the result says {result.get('turns')} turns; the record holds {len(turns)}")


def dealt(record: dict) -> str:
    """The deal in words: each seat's hand."""
    return "\n".join(
        f"seat {s} (team {s % record['rules']['teams']}): {' '.join(h)}" for s, h in enumerate(record["hands"])
    )
