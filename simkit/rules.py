"""Game configurations: the tables of RULES.md and their validation.

``Rules`` is one configuration. Options default to the table values of
RULES.md ("Players and teams") and the simulation conventions.
"""

from __future__ import annotations

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


@dataclass(frozen=True)
class Rules:
    """One game configuration (RULES.md plus the simulation conventions)."""

    players: int
    teams: int
    hand_size: int
    sequences_to_win: int
    max_turns: int = DEFAULT_MAX_TURNS
    chip_limit: bool = False

    @classmethod
    def make(
        cls,
        players: int = 2,
        teams: int | None = None,
        hand_size: int | None = None,
        sequences_to_win: int | None = None,
        max_turns: int | None = None,
        chip_limit: bool = False,
    ) -> Rules:
        """Validate and fill in defaults from the RULES.md tables."""
        if players not in LEGAL_TEAMS:
            raise RulesError(f"{players} players is not a legal game; legal: {legal_configurations()}")
        if teams is None:
            teams = LEGAL_TEAMS[players][0]
        if teams not in LEGAL_TEAMS[players]:
            raise RulesError(
                f"{players} players cannot form {teams} equal teams; legal: {legal_configurations()}"
            )
        hand_size = HAND_SIZE[players] if hand_size is None else hand_size
        if not 1 <= hand_size <= MAX_HAND_SIZE or players * hand_size > ks.DECK_SIZE:
            raise RulesError(
                f"hand size {hand_size} is not allowed: it must be 1..{MAX_HAND_SIZE} and "
                f"players x hand size <= {ks.DECK_SIZE}"
            )
        sequences_to_win = SEQUENCES_TO_WIN[teams] if sequences_to_win is None else sequences_to_win
        if not 1 <= sequences_to_win <= MAX_SEQUENCES_TO_WIN:
            raise RulesError(f"sequences to win must be 1..{MAX_SEQUENCES_TO_WIN}, got {sequences_to_win}")
        max_turns = DEFAULT_MAX_TURNS if max_turns is None else max_turns
        if not 1 <= max_turns <= MAX_MAX_TURNS:
            raise RulesError(f"max turns must be 1..{MAX_MAX_TURNS}, got {max_turns}")
        return cls(players, teams, hand_size, sequences_to_win, max_turns, bool(chip_limit))

    def as_dict(self) -> dict:
        """The configuration as plain values (for records and metadata)."""
        return asdict(self)

    def cfg(self) -> np.ndarray:
        """The kernel's (N_CFG,) int64 configuration vector."""
        v = np.zeros(ks.N_CFG, np.int64)
        v[ks.CFG_PLAYERS] = self.players
        v[ks.CFG_TEAMS] = self.teams
        v[ks.CFG_HAND_SIZE] = self.hand_size
        v[ks.CFG_SEQUENCES_TO_WIN] = self.sequences_to_win
        v[ks.CFG_MAX_TURNS] = self.max_turns
        v[ks.CFG_CHIP_LIMIT] = int(self.chip_limit)
        v[ks.CFG_SUPPLY:ks.CFG_SUPPLY + 3] = CHIP_SUPPLY
        return v
