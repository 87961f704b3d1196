"""The per-game statistics: each declared once (``STATS``), as a field of the record a game fills.

A game's statistics are ``st.stats``, a record of ``GAME_STATS`` (kernels.engine fills it: a new
statistic is its declaration here and the line there that fills it). A batch hands them over as an
array of these records, one per game (kernels.batch). Each declaration also says what its dataset
column holds: its numpy type (the Arrow type follows: simkit.running.dataset), its categories' names
for a category, and one column per team (``NAME_0``, ``NAME_1``, ``NAME_2``) for a statistic of each
team. docs/ENGINE.md, "Per-game statistics", defines them.
"""

from typing import NamedTuple

import numpy as np

from .config import MAX_TEAMS
from .record import record_dtype


class Stat(NamedTuple):
    """One per-game statistic: its name, its dataset column's numpy type and a line of what it is.

    per_team: one value per team (columns NAME_0..NAME_2); names: the names of a category's values (its
    column holds them as text)."""

    name: str
    column: type
    help: str
    per_team: bool = False
    names: tuple[str, ...] = ()


END_WIN, END_STALEMATE, END_TURN_CAP = 0, 1, 2
END_NAMES = ("win", "stalemate", "turn_cap")

STATS = (
    Stat("winner_team", np.int8, "the team that won; -1: none (a stalemate or the turn cap)"),
    Stat("end", np.int8, "how the game ended", names=END_NAMES),
    Stat("turns", np.int32, "turns played, passes included"),
    Stat("first_sequence_turn", np.int32, "the turn that completed the game's first sequence; -1: none"),
    Stat("first_sequence_team", np.int8, "the team that completed the first sequence; -1: none"),
    Stat("sequences", np.int8, "sequences each team completed", per_team=True),
    Stat("chips", np.int8, "each team's chips on the board at the end", per_team=True),
    Stat("one_eyed", np.int16, "one-eyed Jacks each team played", per_team=True),
    Stat("two_eyed", np.int16, "two-eyed Jacks each team played", per_team=True),
    Stat("dead_swaps", np.int32, "dead cards swapped"),
    Stat("reshuffles", np.int32, "times the discards were reshuffled into a new draw pile"),
    Stat("passes", np.int32, "turns passed for want of a playable card"),
    Stat(
        "lead_changes",
        np.int16,
        "times the lead passed from one team to another (the lead: strictly the most sequences; a tie holds none)",
    ),
)

# A game's statistics as one record: int64 fields in the order of STATS (a team's: (MAX_TEAMS,)), packed.
GAME_STATS = record_dtype(((s.name, np.int64, (MAX_TEAMS,) if s.per_team else ()) for s in STATS), packed=True)


COLUMNS = tuple(
    name for s in STATS for name in ([f"{s.name}_{t}" for t in range(MAX_TEAMS)] if s.per_team else [s.name])
)
"""The dataset's columns of the statistics, in order: NAME, or NAME_0..NAME_2 for a team's statistic."""


def as_rows(stats: np.ndarray) -> np.ndarray:
    """(n, len(COLUMNS)) int64: the (n,) GAME_STATS records `stats` as rows of their columns (a view)."""
    return stats.view(np.int64).reshape(len(stats), len(COLUMNS))
