"""A player's declaration: one ``Player`` entry beside its kernel, read by everything else.

Each module of kernels/players/ that holds a player declares it in a tuple
``PLAYERS`` (kernels.players.dispatch finds them): its name and kernel id,
the kernel that plays its turn, its
parameters with their defaults and ranges, the tables it plays, what it costs
to run, whether it can see hidden cards, and a line saying what it does. The
line-up parser (simkit.game.players), the player sets and the dispatcher
(kernels.players.dispatch), the runner's chunks and compile notice, the
studies' default games and the docs' players table read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..core.params import RESEARCH, Layout, Param

# The table shapes (kernels.values.weights.table_shape) a player may be refused at.
ALL_TABLES = ("2 teams", "2 teams, partners", "3 teams", "3 teams, partners")
TWO_TEAM_TABLES = ("2 teams", "2 teams, partners")


@dataclass(frozen=True)
class Cost:
    """What running a player costs, as the defaults that follow from it.

    name: the class; speed: what it means per core; slow: whether a study plays it few games by
    default (study_games) rather than a million; chunk_size: games per part file, so a killed run
    loses little.
    """

    name: str
    speed: str
    slow: bool
    study_games: int
    chunk_size: int


# A million games give a 95% half-width of 0.1 pp on a team's share; 9,604 give 1 pp (a round 10,000).
LIGHT = Cost("light", "thousands of games/s per core and more", False, 1_000_000, 100_000)
HEAVY = Cost("heavy", "tens to thousands of games/s per core", True, 10_000, 1_000)
SEARCHING = Cost("searching", "a few games/s per core", True, 10_000, 100)


@dataclass(frozen=True)
class Player:
    """One player: its kernel, its parameters, the tables it plays and what it costs.

    id: the kernel's player id (players may share a kernel with other defaults).
    action: the kernel that chooses its move, ``action(tb, cfg, st, work, seat, team, params) -> (card, cell)``
    (work: the spare arrays, kernels.core.workspace).
    layout: its parameter row (kernels.core.params): every parameter with its default at a two-player
    table, limits and help; table_defaults: (players, teams) -> the defaults that differ at that table.
    tables: the table shapes it plays; instead: what to play at the others.
    """

    name: str
    id: int
    action: Callable
    description: str
    cost: Cost
    layout: Layout = field(default_factory=lambda: Layout(()))
    table_defaults: Callable[[int, int], dict[str, float]] | None = None
    tables: tuple[str, ...] = ALL_TABLES
    instead: str = ""
    arena: Callable | None = None  # (its seats' parameter rows) -> the search nodes its spare arrays need

    @cached_property
    def settable(self) -> dict[str, Param]:
        """The parameters a spec may name, by name (a fixed setting of the row is not one), in row order."""
        return {p.name: p for p in self.layout.params if not p.fixed}

    @property
    def params(self) -> dict[str, float]:
        """Every parameter a spec may name, with its default at a two-player table (before table_defaults)."""
        return {name: p.default for name, p in self.settable.items()}

    @property
    def research(self) -> tuple[str, ...]:
        """The parameters that, away from 0, let it see cards RULES.md hides: research instruments, never
        fair play, 0 by default, and named in a spec only in the research group (``research.NAME=VALUE``)."""
        return tuple(name for name, p in self.settable.items() if p.research)

    def spec_name(self, param: str) -> str:
        """How a spec names `param`: research.NAME for a research parameter, else NAME."""
        return RESEARCH + param if param in self.research else param

    def plays(self, shape: str) -> bool:
        """Whether it plays tables of `shape` (kernels.values.weights.table_shape)."""
        return shape in self.tables

    def defaults(self, table=None) -> dict[str, float]:
        """Every parameter's default at `table` (anything with .players and .teams, e.g. a
        simkit Rules; None: a two-player table)."""
        if self.table_defaults is None:
            return dict(self.params)
        players, teams = (table.players, table.teams) if table is not None else (2, 2)
        return {**self.params, **self.table_defaults(players, teams)}

    def row(self, values: dict[str, float]) -> np.ndarray:
        """Its parameter row (layout.width,) float64: `values` by name, a fixed setting its own value."""
        return np.array([p.default if p.fixed else values[p.name] for p in self.layout.params], np.float64)
