"""Policy names, their parameters, and who plays what at each seat.

A policy spec is ``NAME[:KEY=VALUE[:KEY=VALUE...]]``; a line-up is one spec
or several separated by commas, which cycle over the teams: ``greedy,random``
gives team 0 greedy and team 1 random (and team 2, if any, greedy again).
Seat ``s`` plays for team ``s % teams``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from simkit.kernels import policies as kp
from simkit.rules import Rules

N_PARAMS = 32  # width of the kernel's per-seat parameter rows


@dataclass(frozen=True)
class PolicyKind:
    """A policy the kernel knows: its id and its parameters with defaults."""

    name: str
    id: int
    params: dict[str, float] = field(default_factory=dict)
    doc: str = ""
    # Allowed values of some parameters: name -> (lowest, highest, whole numbers only).
    limits: dict[str, tuple[float, float, bool]] = field(default_factory=dict)


POLICIES: dict[str, PolicyKind] = {
    "random": PolicyKind("random", kp.RANDOM, {}, "uniform over distinct playable cards, then cells"),
    "greedy": PolicyKind(
        "greedy",
        kp.GREEDY,
        # Order matters: kernels/greedy.py reads them by position.
        {"complete": 1000.0, "build": 1.0, "growth": 4.0, "block": 1.0, "block4": 500.0,
         "break4": 400.0, "jack_cost": 20.0},
        "one-ply line heuristic: build own lines, block threats, spend Jacks with care",
    ),
}
# The lookahead's position value (kernels/evaluation.py): the weight of being the
# team to move, then one weight per feature. Fitted by benchmarks/fit_value.py
# (20,000 greedy games, seed 777); order matters, the kernel reads them by position.
VALUE_WEIGHTS = {
    "value_move": 0.140, "value_sequences": 1.019, "value_fours": 0.106, "value_held_fours": 0.188,
    "value_threes": 0.055, "value_twos": 0.028, "value_two_eyed": 0.375, "value_one_eyed": 0.337,
    "value_held_threes": 0.175, "value_completable_fours": 0.197, "value_sequence_and_four": 0.279,
    "value_four_cells": 0.178,
}
# The lookahead plays (shortlist and its own rollout moves) with greedy weights
# that beat the default greedy 53.0% of 100,000 games (benchmarks/matches.md),
# and models the other teams in its rollouts as the default greedy.
LOOKAHEAD_OWN_WEIGHTS = {**POLICIES["greedy"].params, "growth": 2.5, "block4": 50.0, "jack_cost": 60.0}
POLICIES["lookahead"] = PolicyKind(
    "lookahead",
    kp.LOOKAHEAD,
    # Greedy playouts cut after 8 plies and scored by the value weights: measured
    # stronger and as fast as random playouts to the end (benchmarks/matches.md).
    {"rollouts": 128.0, "shortlist": 4.0, "margin": 0.5, "playout": 0.0, "horizon": 8.0,
     **VALUE_WEIGHTS, **LOOKAHEAD_OWN_WEIGHTS,
     **{f"opponent_{k}": v for k, v in POLICIES["greedy"].params.items()}},
    "greedy's shortlist judged by short greedy rollouts on re-dealt hidden cards, scored by a fitted value",
    {"rollouts": (0, 100_000, True), "shortlist": (1, 16, True), "margin": (0, math.inf, False),
     "playout": (0, 1, True), "horizon": (0, 10_000, True)},
)


class PolicyError(ValueError):
    """A policy spec that cannot be understood; the message says what is allowed."""


@dataclass(frozen=True)
class Policy:
    """One policy with its parameter values."""

    kind: PolicyKind
    values: tuple[float, ...]

    @property
    def spec(self) -> str:
        """Canonical text form: the name, then every parameter that differs from its default."""
        extra = [
            f"{k}={_fmt(v)}"
            for (k, d), v in zip(self.kind.params.items(), self.values)
            if v != d
        ]
        return ":".join([self.kind.name, *extra])

    @classmethod
    def parse(cls, text: str) -> Policy:
        """Parse ``NAME[:KEY=VALUE...]``."""
        name, *assignments = text.strip().split(":")
        kind = POLICIES.get(name.strip().lower())
        if kind is None:
            raise PolicyError(f"unknown policy {name!r}; known: {', '.join(POLICIES)}")
        values = dict(kind.params)
        for a in assignments:
            key, sep, raw = a.partition("=")
            key = key.strip()
            if not sep or key not in values:
                allowed = ", ".join(kind.params) or "none"
                raise PolicyError(f"bad parameter {a!r} for policy {kind.name!r}; parameters: {allowed}")
            try:
                values[key] = float(raw)
            except ValueError:
                raise PolicyError(f"parameter {key} of {kind.name!r} must be a number, got {raw!r}") from None
            if not math.isfinite(values[key]):
                raise PolicyError(f"parameter {key} of {kind.name!r} must be finite, got {raw!r}")
            _check_limits(kind, key, values[key])
        return cls(kind, tuple(values.values()))


def _check_limits(kind: PolicyKind, key: str, value: float) -> None:
    """Refuse a value outside the parameter's limits, saying what is allowed."""
    if key not in kind.limits:
        return
    low, high, whole = kind.limits[key]
    if not low <= value <= high or (whole and not value.is_integer()):
        allowed = f"a whole number from {_fmt(low)} to {_fmt(high)}" if whole else f"at least {_fmt(low)}"
        raise PolicyError(f"parameter {key} of {kind.name!r} must be {allowed}, got {_fmt(value)}")


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(v)


@dataclass(frozen=True)
class Lineup:
    """The policy of every seat of a game."""

    seats: tuple[Policy, ...]

    @classmethod
    def parse(cls, spec: str, rules: Rules) -> Lineup:
        """Policies for each seat from 'NAME[,NAME...]', cycling over the teams."""
        parts = [p for p in spec.split(",")]
        if not spec.strip() or any(not p.strip() for p in parts):
            raise PolicyError(f"empty policy in {spec!r}; known: {', '.join(POLICIES)}")
        per_team = [Policy.parse(p) for p in parts]
        return cls(tuple(per_team[(s % rules.teams) % len(per_team)] for s in range(rules.players)))

    @property
    def names(self) -> list[str]:
        """Canonical spec per seat, seat 0 first."""
        return [p.spec for p in self.seats]

    def ids(self) -> np.ndarray:
        """(players,) int64 kernel policy ids."""
        return np.array([p.kind.id for p in self.seats], np.int64)

    def params(self) -> np.ndarray:
        """(players, N_PARAMS) float64 parameter rows."""
        out = np.zeros((len(self.seats), N_PARAMS), np.float64)
        for s, p in enumerate(self.seats):
            out[s, : len(p.values)] = p.values
        return out
