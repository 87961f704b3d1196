"""Game configurations: the tables of RULES.md and their validation.

``Rules`` is one configuration. Options default to the table values of
RULES.md ("Players and teams") and the simulation conventions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from simkit.kernels import state as ks

# RULES.md, "Players and teams": legal team counts per player count.
LEGAL_TEAMS: dict[int, tuple[int, ...]] = {
    2: (2,), 3: (3,), 4: (2,), 6: (2, 3), 8: (2,), 9: (3,), 10: (2,), 12: (2, 3),
}
HAND_SIZE = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
SEQUENCES_TO_WIN = {2: 2, 3: 1}
CHIP_SUPPLY = (50, 50, 35)  # blue (team 0), green (team 1), red (team 2)
TEAM_COLOURS = ("blue", "green", "red")
# Far above any game seen: random 2-player games end within ~200 turns.
DEFAULT_MAX_TURNS = 1000
MAX_HAND_SIZE = ks.MAX_HAND - 1
MAX_SEQUENCES_TO_WIN = 8
MAX_MAX_TURNS = 100_000


class RulesError(ValueError):
    """An illegal configuration; the message says what is allowed."""


def legal_configurations() -> str:
    """'2 (2 teams), 3 (3 teams), ...' for error messages."""
    return ", ".join(
        f"{p} players ({' or '.join(f'{t} teams' for t in ts)})" for p, ts in LEGAL_TEAMS.items()
    )


def parse_hand_size(value) -> int | tuple[int, ...] | None:
    """A --hand-size value: None, one size, or sizes per seat ('7,6' or a sequence)."""
    if value is None or isinstance(value, (int, np.integer)):
        return value if value is None else int(value)
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        if not value.strip() or any(not p for p in parts):
            raise RulesError(f"hand size {value!r} is empty; give one size or a comma list per seat, e.g. 7,6")
        try:
            sizes = tuple(int(p) for p in parts)
        except ValueError:
            raise RulesError(f"hand size {value!r} must be whole numbers, e.g. 7 or 7,6") from None
    else:
        sizes = tuple(int(v) for v in value)
        if not sizes:
            raise RulesError("hand size list is empty; give one size or a list per seat")
    return sizes[0] if len(sizes) == 1 else sizes


@dataclass(frozen=True)
class Rules:
    """One game configuration (RULES.md plus the simulation conventions).

    hand_size is one integer when every seat holds the same number of cards,
    else a tuple with one size per seat, seat 0 first.
    """

    players: int
    teams: int
    hand_size: int | tuple[int, ...]
    sequences_to_win: int
    max_turns: int = DEFAULT_MAX_TURNS
    chip_limit: bool = False

    @classmethod
    def make(
        cls,
        players: int = 2,
        teams: int | None = None,
        hand_size: int | str | Sequence[int] | None = None,
        sequences_to_win: int | None = None,
        max_turns: int | None = None,
        chip_limit: bool = False,
    ) -> Rules:
        """Validate and fill in defaults from the RULES.md tables.

        hand_size: one size for every seat, or a list ('7,6') that cycles over
        the seats as a line-up cycles over the teams; default: the RULES.md table.
        """
        if players not in LEGAL_TEAMS:
            raise RulesError(f"{players} players is not a legal game; legal: {legal_configurations()}")
        if teams is None:
            teams = LEGAL_TEAMS[players][0]
        if teams not in LEGAL_TEAMS[players]:
            raise RulesError(
                f"{players} players cannot form {teams} equal teams; legal: {legal_configurations()}"
            )
        hand_size = _hand_sizes(players, parse_hand_size(hand_size))
        sequences_to_win = SEQUENCES_TO_WIN[teams] if sequences_to_win is None else sequences_to_win
        if not 1 <= sequences_to_win <= MAX_SEQUENCES_TO_WIN:
            raise RulesError(f"sequences to win must be 1..{MAX_SEQUENCES_TO_WIN}, got {sequences_to_win}")
        max_turns = DEFAULT_MAX_TURNS if max_turns is None else max_turns
        if not 1 <= max_turns <= MAX_MAX_TURNS:
            raise RulesError(f"max turns must be 1..{MAX_MAX_TURNS}, got {max_turns}")
        return cls(players, teams, hand_size, sequences_to_win, max_turns, bool(chip_limit))

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards dealt to each seat, seat 0 first."""
        if isinstance(self.hand_size, tuple):
            return self.hand_size
        return (self.hand_size,) * self.players

    @property
    def hand_size_text(self) -> str:
        """The hand size as written in the dataset: '7', or '7,6' per seat."""
        return ",".join(str(h) for h in self.hand_sizes) if isinstance(self.hand_size, tuple) else str(self.hand_size)

    def as_dict(self) -> dict:
        """The configuration as plain values (for records and metadata); hand_size an int or a list."""
        d = asdict(self)
        if isinstance(self.hand_size, tuple):
            d["hand_size"] = list(self.hand_size)
        return d

    def cfg(self) -> np.ndarray:
        """The kernel's (N_CFG,) int64 configuration vector."""
        v = np.zeros(ks.N_CFG, np.int64)
        v[ks.CFG_PLAYERS] = self.players
        v[ks.CFG_TEAMS] = self.teams
        v[ks.CFG_SEQUENCES_TO_WIN] = self.sequences_to_win
        v[ks.CFG_MAX_TURNS] = self.max_turns
        v[ks.CFG_CHIP_LIMIT] = int(self.chip_limit)
        v[ks.CFG_SUPPLY:ks.CFG_SUPPLY + 3] = CHIP_SUPPLY
        v[ks.CFG_HAND:ks.CFG_HAND + self.players] = self.hand_sizes
        return v


def _hand_sizes(players: int, given: int | tuple[int, ...] | None) -> int | tuple[int, ...]:
    """Validated hand size: an int when every seat gets the same, else one size per seat."""
    if given is None:
        return HAND_SIZE[players]
    listed = given if isinstance(given, tuple) else (given,)
    if len(listed) > players:
        raise RulesError(
            f"hand size list {_text(listed)} has {len(listed)} sizes for {players} seats; "
            f"give at most one size per seat"
        )
    for h in listed:
        if not 1 <= h <= MAX_HAND_SIZE:
            raise RulesError(f"hand size {h} is not allowed: each size must be 1..{MAX_HAND_SIZE}")
    sizes = tuple(listed[s % len(listed)] for s in range(players))
    if sum(sizes) > ks.DECK_SIZE:
        raise RulesError(
            f"hand size {_text(listed)} deals {sum(sizes)} cards to {players} players; "
            f"the deck holds {ks.DECK_SIZE}"
        )
    return sizes[0] if len(set(sizes)) == 1 else sizes


def _text(sizes: tuple[int, ...]) -> str:
    return ",".join(str(h) for h in sizes)
