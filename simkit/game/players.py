"""The players by name, their parameters, and who plays what at each seat.

A player's spec is ``NAME[:KEY=VALUE[:KEY=VALUE...]]``; a line-up is one spec
or several separated by commas, which cycle over the teams: ``greedy,random``
gives team 0 greedy and team 1 random (and team 2, if any, greedy again).
Seat ``s`` plays for team ``s % teams``. The command line's flag for a line-up is ``--policy``, the
word of simkit's first versions (and of RULES.md), kept so that commands and scripts keep working.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simkit.game.rules import Rules
from simkit.kernels.core.params import RESEARCH
from simkit.kernels.players import dispatch
from simkit.kernels.players.greedy import GREEDY
from simkit.kernels.players.lookahead import OWN_WEIGHTS as LOOKAHEAD_OWN_WEIGHTS
from simkit.kernels.players.player import ALL_TABLES, Player
from simkit.kernels.players.swift import BY_SHAPE as SWIFT_SETTINGS
from simkit.kernels.values.weights import RICH_NAMES, RICH_WEIGHTS, VALUE_NAMES, VALUE_WEIGHTS, table_shape
from simkit.suggest import did_you_mean

# Every declared player by name, in kernel id order: its parameters, defaults, limits, tables and cost.
PLAYERS: dict[str, Player] = {p.name: p for p in dispatch.PLAYERS}

__all__ = [
    "LOOKAHEAD_OWN_WEIGHTS",
    "PLAYERS",
    "RICH_NAMES",
    "RICH_WEIGHTS",
    "SWIFT_SETTINGS",
    "VALUE_NAMES",
    "VALUE_WEIGHTS",
    "Lineup",
    "PlayerSpec",
    "LineupError",
    "Player",
    "markdown_table",
    "value_table",
]


def value_table(rules: Rules) -> str:
    """The table shape whose value weights a player uses at `rules`: teams, and partners or not."""
    return table_shape(rules.players, rules.teams)


class LineupError(ValueError):
    """A line-up or player spec that cannot be understood; the message says what is allowed."""


@dataclass(frozen=True)
class PlayerSpec:
    """One player with its parameter values."""

    kind: Player
    values: tuple[float, ...]
    defaults: tuple[float, ...]  # at the table the player was parsed for

    @property
    def spec(self) -> str:
        """Canonical text form: the name, then every parameter that differs from its table's default."""
        settable = self.kind.settable
        extra = [
            f"{self.kind.spec_name(k)}={settable[k].text(v)}"
            for k, v, d in zip(settable, self.values, self.defaults)
            if v != d
        ]
        return ":".join([self.kind.name, *extra])

    def resolved(self) -> dict:
        """The player's name and every parameter's value, defaults included, for a run's identity: a
        restriction only when it forgoes something (at 0 it plays the games of the player without it)."""
        settable = self.kind.settable
        return {
            "name": self.kind.name,
            "params": {k: v for k, v in zip(settable, self.values) if v != 0 or not settable[k].restriction},
        }

    def row(self) -> np.ndarray:
        """Its parameter row (kernels.core.params.Layout): (width,) float64."""
        return self.kind.row(dict(zip(self.kind.settable, self.values)))

    @classmethod
    def parse(cls, text: str, rules: Rules | None = None) -> PlayerSpec:
        """Parse ``NAME[:KEY=VALUE...]`` for the table `rules` (None: a two-player table),
        whose defaults fill the parameters not given."""
        name, *assignments = text.strip().split(":")
        kind = PLAYERS.get(name.strip().lower())
        if kind is None:
            raise LineupError(
                f"unknown player {name.strip()!r}{did_you_mean(name, PLAYERS)}; known: {', '.join(PLAYERS)}"
            )
        shape = value_table(rules if rules is not None else Rules.make(2))
        if not kind.plays(shape):
            fitted = " and ".join(f"'{t}'" for t in kind.tables)
            raise LineupError(
                f"{kind.name}'s value is fitted for tables of {fitted} only, not '{shape}'; at this "
                f"table play {kind.instead}"
            )
        defaults = kind.defaults(rules)
        values = dict(defaults)
        given: set[str] = set()
        for a in assignments:
            named, sep, raw = a.partition("=")
            named = named.strip()
            key = named.removeprefix(RESEARCH)
            if key in kind.research and named != kind.spec_name(key):
                raise LineupError(
                    f"{key} of {kind.name!r} is a research instrument (it sees cards the rules "
                    f"hide, never fair play): give it as {RESEARCH}{key}={raw.strip() or 'N'}"
                )
            if not sep or key not in values or named != kind.spec_name(key):
                close = did_you_mean(key, kind.params, say=kind.spec_name)
                raise LineupError(
                    f"bad parameter {a!r} for player {kind.name!r}{close}; parameters: {parameters_text(kind)}"
                )
            if key in given:
                raise LineupError(f"parameter {named} of {kind.name!r} is given twice in {text.strip()!r}")
            given.add(key)
            values[key] = _value(kind, named, raw)
        return cls(kind, tuple(values.values()), tuple(defaults.values()))


GREEDY_WEIGHTS = tuple(p.name for p in GREEDY.params if not p.restriction)  # named after a player's own settings
WEIGHT_FAMILIES = ("value_", "opponent_")
"""Prefixes of the weights a player's parameters hold by the dozen: an error names each family by its count."""


def parameters_text(kind: Player) -> str:
    """`kind`'s parameters for an error line: its own settings, then its greedy weights, each by name; a family
    of weights (value_*, opponent_*) by its prefix and count; the restrictions last ('rollouts, shortlist, ...,
    complete, ..., 51 value_* and 7 opponent_* weights, and the restrictions dead_swap, ...')."""
    settable = kind.settable
    if not settable:
        return "none"
    restrictions = [n for n, p in settable.items() if p.restriction and not n.startswith(WEIGHT_FAMILIES)]
    weights = set(GREEDY_WEIGHTS)
    named = [kind.spec_name(n) for n, p in settable.items() if not p.restriction and not n.startswith(WEIGHT_FAMILIES)]
    plain = [n for n in named if n not in weights] + [n for n in named if n in weights]
    counts = {f: sum(n.startswith(f) and not p.restriction for n, p in settable.items()) for f in WEIGHT_FAMILIES}
    families = " and ".join(f"{c} {f}*" for f, c in counts.items() if c)
    parts = [", ".join(plain)] if plain else []
    if families:
        parts.append(f"{families} weights (docs/guide/players.md)")
    if restrictions:
        parts.append(f"the restriction{'s' if len(restrictions) > 1 else ''} {', '.join(restrictions)}")
    return ", and ".join(parts) if len(parts) < 3 else f"{parts[0]}, {parts[1]}, and {parts[2]}"


def _value(kind: Player, named: str, raw: str) -> float:
    """The value of parameter `named` of `kind` given as `raw` (a number, or one of its words), checked
    against its limits; a refusal says what is allowed."""
    param = kind.settable[named.removeprefix(RESEARCH)]
    word = raw.strip().lower()
    if param.words and word in param.words:
        return float(param.words.index(word))
    try:
        value = float(raw)
    except ValueError:
        kind_of = f"one of {param.allowed()}" if param.words else "a number"
        raise LineupError(f"parameter {named} of {kind.name!r} must be {kind_of}, got {raw!r}") from None
    if not math.isfinite(value):
        raise LineupError(f"parameter {named} of {kind.name!r} must be finite, got {raw!r}")
    if param.words:
        if not (value.is_integer() and 0 <= value < len(param.words)):
            raise LineupError(f"parameter {named} of {kind.name!r} must be one of {param.allowed()}, got {raw!r}")
    elif not param.low <= value <= param.high or (param.whole and not value.is_integer()):
        shown = str(int(value)) if value.is_integer() else repr(value)
        raise LineupError(f"parameter {named} of {kind.name!r} must be {param.allowed()}, got {shown}")
    return value


@dataclass(frozen=True)
class Lineup:
    """Who plays each team, and whether the teams swap places from game to game.

    per_team: the player of each team, team 0 first. With swap_seats, game g
    is played by rotation g % teams: team t plays per_team[(t + g) % teams],
    so each player holds every place at the table equally often (two teams:
    seats swapped every other game).
    """

    per_team: tuple[PlayerSpec, ...]
    players: int
    swap_seats: bool = False

    @classmethod
    def parse(cls, spec: str, rules: Rules, swap_seats: bool = False) -> Lineup:
        """Policies for each team from 'NAME[,NAME...]': one per team, a shorter list cycles.

        A list longer than the teams, an empty name or a repeated parameter is refused.
        """
        parts = spec.split(",")
        if not spec.strip() or any(not p.strip() for p in parts):
            raise LineupError(f"empty player in {spec!r}; give NAME[,NAME...] with one of: {', '.join(PLAYERS)}")
        if len(parts) > rules.teams:
            raise LineupError(
                f"{len(parts)} players in {spec!r} for {rules.teams} teams; the list gives one player "
                f"per team (team t plays seats t, t+{rules.teams}, ...)"
            )
        listed = [PlayerSpec.parse(p, rules) for p in parts]
        per_team = tuple(listed[t % len(listed)] for t in range(rules.teams))
        return cls(per_team, rules.players, bool(swap_seats))

    @property
    def teams(self) -> int:
        return len(self.per_team)

    @property
    def rotations(self) -> int:
        """How many line-ups games cycle through: the teams when seats are swapped, else 1."""
        return self.teams if self.swap_seats else 1

    def seats(self, rotation: int = 0) -> tuple[PlayerSpec, ...]:
        """The player of every seat in `rotation` (seat s plays for team s % teams)."""
        return tuple(self.per_team[(s % self.teams + rotation) % self.teams] for s in range(self.players))

    @property
    def names(self) -> list[str]:
        """Canonical spec per seat (rotation 0), seat 0 first."""
        return [p.spec for p in self.seats()]

    @property
    def spec(self) -> str:
        """Canonical text of the line-up: the shortest list of specs that cycles to every team's player."""
        specs = [p.spec for p in self.per_team]
        for k in range(1, len(specs) + 1):
            if all(specs[t] == specs[t % k] for t in range(len(specs))):
                return ",".join(specs[:k])
        return ",".join(specs)

    def seat_texts(self) -> list[str]:
        """The `policies` value of each rotation: per-seat specs, comma-separated."""
        return [",".join(p.spec for p in self.seats(r)) for r in range(self.rotations)]

    def resolved(self) -> list[dict]:
        """Every seat's player with all its parameters (rotation 0), for a run's identity."""
        return [p.resolved() for p in self.seats()]

    def ids(self) -> np.ndarray:
        """(rotations, players) int64 kernel player ids."""
        return np.array([[p.kind.id for p in self.seats(r)] for r in range(self.rotations)], np.int64)

    def params(self) -> np.ndarray:
        """(rotations, players, ROW_WIDTH) float64 parameter rows (each player's layout, zeros after it)."""
        out = np.zeros((self.rotations, self.players, dispatch.ROW_WIDTH), np.float64)
        for r in range(self.rotations):
            for s, p in enumerate(self.seats(r)):
                row = p.row()
                out[r, s, : len(row)] = row
        return out

    def decisions(self) -> tuple | None:
        """The kernel's decisions of its players (kernels.players.dispatch.decisions; None for random alone)."""
        return dispatch.decisions([p.kind.id for p in self.per_team])

    @property
    def chunk_size(self) -> int:
        """Games per part file: the smallest of its players' (a slow player's chunk stays short)."""
        return min(p.kind.cost.chunk_size for p in self.per_team)

    @property
    def study_games(self) -> int:
        """Games a study plays of it by default: the fewest of its players'."""
        return min(p.kind.cost.study_games for p in self.per_team)

    @property
    def slow(self) -> bool:
        """Whether a player of its costs a study few games (kernels.players.player.Cost)."""
        return any(p.kind.cost.slow for p in self.per_team)

    @property
    def mixed(self) -> bool:
        """Whether the teams play different players."""
        return len({p.spec for p in self.per_team}) > 1


def markdown_table(rated: list[str] | None = None) -> str:
    """The docs' players table (docs/guide/players.md), from the declarations: the players of `rated` first,
    in its order (the skill study's ratings, weakest first), then the others by id."""
    order = [*(rated or []), *PLAYERS]
    lines = ["| player | in one line | tables | cost | hidden cards |", "| --- | --- | --- | --- | --- |"]
    for p in sorted(PLAYERS.values(), key=lambda p: order.index(p.name)):
        teams = sorted({int(shape.split()[0]) for shape in p.tables})
        tables = "any" if set(p.tables) == set(ALL_TABLES) else " or ".join(map(str, teams)) + " teams"
        hidden = " or ".join(f"with `{p.spec_name(name)}` > 0" for name in p.research) or "never"
        cost = f"{p.cost.name}: {p.cost.study_games:,} games a study"
        lines.append(f"| `{p.name}` | {p.description} | {tables} | {cost} | {hidden} |")
    return "\n".join(lines) + "\n"


def parameters_table(kind: Player) -> str:
    """The docs' table of a player's parameters (docs/guide/players.md), from its layout: each parameter
    with its default at a two-player table, what it takes and a line of help; a family of weights (value_*,
    opponent_*) in one row, and the restrictions in one."""
    if not kind.settable:
        return "None.\n"
    defaults = kind.defaults()
    lines = ["| parameter | default | takes | what it does |", "| --- | --- | --- | --- |"]
    families: dict[str, list[str]] = {}
    restrictions: list[str] = []
    settable = kind.settable
    own_first = sorted(settable, key=lambda name: name in GREEDY_WEIGHTS)  # its own settings, then greedy's weights
    for name in own_first:
        p = settable[name]
        family = next((f for f in WEIGHT_FAMILIES if name.startswith(f)), None)
        if family:
            families.setdefault(family, []).append(name)
        elif p.restriction:
            restrictions.append(f"`{name}` ({', '.join(p.words)})")
        else:
            lines.append(f"| `{kind.spec_name(name)}` | {p.text(defaults[name])} | {p.allowed()} | {p.help} |")
    for family, names in families.items():
        what = {"value_": "the value's fitted weights", "opponent_": "the other teams' greedy block, its model of them"}
        lines.append(f"| `{family}*` | the table's | {len(names)} numbers | {what[family]} |")
    if restrictions:
        lines.append(f"| restrictions | none | {'; '.join(restrictions)} | a use of the cards forgone (below) |")
    return "\n".join(lines) + "\n"
