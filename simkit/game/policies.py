"""Policy names, their parameters, and who plays what at each seat.

A policy spec is ``NAME[:KEY=VALUE[:KEY=VALUE...]]``; a line-up is one spec
or several separated by commas, which cycle over the teams: ``greedy,random``
gives team 0 greedy and team 1 random (and team 2, if any, greedy again).
Seat ``s`` plays for team ``s % teams``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simkit.game.rules import Rules
from simkit.kernels.players import dispatch
from simkit.kernels.players.lookahead import OWN_WEIGHTS as LOOKAHEAD_OWN_WEIGHTS
from simkit.kernels.players.player import ALL_TABLES, RESEARCH, Player
from simkit.kernels.players.swift import SETTINGS as SWIFT_SETTINGS
from simkit.kernels.values.weights import RICH_NAMES, RICH_WEIGHTS, VALUE_NAMES, VALUE_WEIGHTS, table_shape

N_PARAMS = 80  # width of the kernel's per-seat parameter rows

PolicyKind = Player  # a player as its declaration gives it (kernels/players/<module>.py, PLAYERS)

# Every declared player by name, in kernel id order: its parameters, defaults, limits, tables and cost.
POLICIES: dict[str, Player] = {p.name: p for p in dispatch.PLAYERS}

__all__ = [
    "LOOKAHEAD_OWN_WEIGHTS",
    "N_PARAMS",
    "POLICIES",
    "RICH_NAMES",
    "RICH_WEIGHTS",
    "SWIFT_SETTINGS",
    "VALUE_NAMES",
    "VALUE_WEIGHTS",
    "Lineup",
    "Policy",
    "PolicyError",
    "PolicyKind",
    "markdown_table",
    "value_table",
]


def value_table(rules: Rules) -> str:
    """The table shape whose value weights a player uses at `rules`: teams, and partners or not."""
    return table_shape(rules.players, rules.teams)


class PolicyError(ValueError):
    """A policy spec that cannot be understood; the message says what is allowed."""


@dataclass(frozen=True)
class Policy:
    """One policy with its parameter values."""

    kind: PolicyKind
    values: tuple[float, ...]
    defaults: tuple[float, ...]  # at the table the policy was parsed for

    @property
    def spec(self) -> str:
        """Canonical text form: the name, then every parameter that differs from its table's default."""
        extra = [
            f"{self.kind.spec_name(k)}={_fmt(v)}"
            for k, v, d in zip(self.kind.params, self.values, self.defaults)
            if v != d
        ]
        return ":".join([self.kind.name, *extra])

    def resolved(self) -> dict:
        """The policy's name and every parameter's value, defaults included (for a run's identity)."""
        return {"name": self.kind.name, "params": dict(zip(self.kind.params, self.values))}

    @classmethod
    def parse(cls, text: str, rules: Rules | None = None) -> Policy:
        """Parse ``NAME[:KEY=VALUE...]`` for the table `rules` (None: a two-player table),
        whose defaults fill the parameters not given."""
        name, *assignments = text.strip().split(":")
        kind = POLICIES.get(name.strip().lower())
        if kind is None:
            raise PolicyError(f"unknown policy {name.strip()!r}; known: {', '.join(POLICIES)}")
        shape = value_table(rules if rules is not None else Rules.make(2))
        if not kind.plays(shape):
            fitted = " and ".join(f"'{t}'" for t in kind.tables)
            raise PolicyError(
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
                raise PolicyError(
                    f"{key} of {kind.name!r} is a research instrument (it sees cards the rules "
                    f"hide, never fair play): give it as {RESEARCH}{key}={raw.strip() or 'N'}"
                )
            if not sep or key not in values or named != kind.spec_name(key):
                allowed = ", ".join(map(kind.spec_name, kind.params)) or "none"
                raise PolicyError(f"bad parameter {a!r} for policy {kind.name!r}; parameters: {allowed}")
            if key in given:
                raise PolicyError(f"parameter {named} of {kind.name!r} is given twice in {text.strip()!r}")
            given.add(key)
            try:
                values[key] = float(raw)
            except ValueError:
                raise PolicyError(f"parameter {named} of {kind.name!r} must be a number, got {raw!r}") from None
            if not math.isfinite(values[key]):
                raise PolicyError(f"parameter {named} of {kind.name!r} must be finite, got {raw!r}")
            _check_limits(kind, key, values[key])
        return cls(kind, tuple(values.values()), tuple(defaults.values()))


def _check_limits(kind: PolicyKind, key: str, value: float) -> None:
    """Refuse a value outside the parameter's limits, saying what is allowed."""
    if key not in kind.limits:
        return
    low, high, whole = kind.limits[key]
    if not low <= value <= high or (whole and not value.is_integer()):
        allowed = f"a whole number from {_fmt(low)} to {_fmt(high)}" if whole else f"at least {_fmt(low)}"
        raise PolicyError(f"parameter {kind.spec_name(key)} of {kind.name!r} must be {allowed}, got {_fmt(value)}")


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(v)


@dataclass(frozen=True)
class Lineup:
    """Who plays each team, and whether the teams swap places from game to game.

    per_team: the policy of each team, team 0 first. With swap_seats, game g
    is played by rotation g % teams: team t plays per_team[(t + g) % teams],
    so each policy holds every place at the table equally often (two teams:
    seats swapped every other game).
    """

    per_team: tuple[Policy, ...]
    players: int
    swap_seats: bool = False

    @classmethod
    def parse(cls, spec: str, rules: Rules, swap_seats: bool = False) -> Lineup:
        """Policies for each team from 'NAME[,NAME...]': one per team, a shorter list cycles.

        A list longer than the teams, an empty name or a repeated parameter is refused.
        """
        parts = spec.split(",")
        if not spec.strip() or any(not p.strip() for p in parts):
            raise PolicyError(f"empty policy in {spec!r}; give NAME[,NAME...] with one of: {', '.join(POLICIES)}")
        if len(parts) > rules.teams:
            raise PolicyError(
                f"{len(parts)} policies in {spec!r} for {rules.teams} teams; the list gives one policy "
                f"per team (team t plays seats t, t+{rules.teams}, ...)"
            )
        listed = [Policy.parse(p, rules) for p in parts]
        per_team = tuple(listed[t % len(listed)] for t in range(rules.teams))
        return cls(per_team, rules.players, bool(swap_seats))

    @property
    def teams(self) -> int:
        return len(self.per_team)

    @property
    def rotations(self) -> int:
        """How many line-ups games cycle through: the teams when seats are swapped, else 1."""
        return self.teams if self.swap_seats else 1

    def seats(self, rotation: int = 0) -> tuple[Policy, ...]:
        """The policy of every seat in `rotation` (seat s plays for team s % teams)."""
        return tuple(self.per_team[(s % self.teams + rotation) % self.teams] for s in range(self.players))

    @property
    def names(self) -> list[str]:
        """Canonical spec per seat (rotation 0), seat 0 first."""
        return [p.spec for p in self.seats()]

    @property
    def spec(self) -> str:
        """Canonical text of the line-up: the shortest list of specs that cycles to every team's policy."""
        specs = [p.spec for p in self.per_team]
        for k in range(1, len(specs) + 1):
            if all(specs[t] == specs[t % k] for t in range(len(specs))):
                return ",".join(specs[:k])
        return ",".join(specs)

    def seat_texts(self) -> list[str]:
        """The `policies` value of each rotation: per-seat specs, comma-separated."""
        return [",".join(p.spec for p in self.seats(r)) for r in range(self.rotations)]

    def resolved(self) -> list[dict]:
        """Every seat's policy with all its parameters (rotation 0), for a run's identity."""
        return [p.resolved() for p in self.seats()]

    def ids(self) -> np.ndarray:
        """(rotations, players) int64 kernel policy ids."""
        return np.array([[p.kind.id for p in self.seats(r)] for r in range(self.rotations)], np.int64)

    def params(self) -> np.ndarray:
        """(rotations, players, N_PARAMS) float64 parameter rows."""
        out = np.zeros((self.rotations, self.players, N_PARAMS), np.float64)
        for r in range(self.rotations):
            for s, p in enumerate(self.seats(r)):
                out[r, s, : len(p.values)] = p.values
        return out

    def policy_set(self):
        """The kernel's policy set: the smallest that holds every policy of the line-up."""
        return dispatch.policy_set([p.kind.id for p in self.per_team])

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
        """Whether the teams play different policies."""
        return len({p.spec for p in self.per_team}) > 1


def markdown_table() -> str:
    """The docs' players table (docs/guide/players.md), from the declarations, weakest first."""
    lines = ["| player | in one line | tables | cost | hidden cards |", "| --- | --- | --- | --- | --- |"]
    for p in sorted(POLICIES.values(), key=lambda p: p.ladder):
        teams = sorted({int(shape.split()[0]) for shape in p.tables})
        tables = "any" if set(p.tables) == set(ALL_TABLES) else " or ".join(map(str, teams)) + " teams"
        hidden = " or ".join(f"with `{p.spec_name(name)}` > 0" for name in p.research) or "never"
        cost = f"{p.cost.name}: {p.cost.study_games:,} games a study"
        lines.append(f"| `{p.name}` | {p.description} | {tables} | {cost} | {hidden} |")
    return "\n".join(lines) + "\n"
