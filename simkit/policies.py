"""Policy names, their parameters, and who plays what at each seat.

A policy spec is ``NAME[:KEY=VALUE[:KEY=VALUE...]]``; a line-up is one spec
or several separated by commas, which cycle over the teams: ``greedy,random``
gives team 0 greedy and team 1 random (and team 2, if any, greedy again).
Seat ``s`` plays for team ``s % teams``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from simkit.kernels import policies as kp
from simkit.kernels.rich_extras import EXTRAS
from simkit.rules import Rules

N_PARAMS = 80  # width of the kernel's per-seat parameter rows


@dataclass(frozen=True)
class PolicyKind:
    """A policy the kernel knows: its id and its parameters with defaults."""

    name: str
    id: int
    params: dict[str, float] = field(default_factory=dict)
    doc: str = ""
    # Allowed values of some parameters: name -> (lowest, highest, whole numbers only).
    limits: dict[str, tuple[float, float, bool]] = field(default_factory=dict)
    # Defaults that depend on the table: Rules -> {name: value} (overriding `params`).
    table_defaults: Callable[[Rules], dict[str, float]] | None = None

    def defaults(self, rules: Rules | None = None) -> dict[str, float]:
        """Every parameter's default at the table `rules` (None: a two-player table)."""
        if self.table_defaults is None:
            return dict(self.params)
        return {**self.params, **self.table_defaults(rules if rules is not None else Rules.make(2))}


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
# team to move, then one weight per feature; order matters, the kernel reads them
# by position. One set per table shape (value_table), fitted by
# benchmarks/fit_value.py on greedy games of that shape.
VALUE_NAMES = (
    "value_move", "value_sequences", "value_fours", "value_held_fours", "value_threes", "value_twos",
    "value_two_eyed", "value_one_eyed", "value_held_threes", "value_completable_fours",
    "value_sequence_and_four", "value_four_cells", "value_ones",
)
VALUE_WEIGHTS: dict[str, dict[str, float]] = {
    table: dict(zip(VALUE_NAMES, weights)) for table, weights in {
        # python benchmarks/fit_value.py [--players P --teams T]: 40,000 games each, seed 777
        "2 teams": (0.165, 1.055, 0.068, 0.142, 0.054, 0.035, 0.647, 0.314, 0.192, 0.201, 0.301, 0.159, 0.013),
        "2 teams, partners": (0.190, 1.143, 0.011, 0.167, 0.040, 0.036, 0.603, 0.278, 0.187, 0.229, 0.192, 0.194,
                              0.013),  # fitted with 4 players
        "3 teams": (0.159, 0.000, 0.006, 0.909, 0.091, 0.040, 0.584, 0.273, 0.334, 1.210, 0.000, 0.516, 0.013),
        "3 teams, partners": (0.162, 0.000, -0.094, 0.708, 0.047, 0.041, 0.580, 0.189, 0.316, 0.980, 0.000, 0.420,
                              0.012),  # fitted with 6 players
    }.items()
}


def value_table(rules: Rules) -> str:
    """The table shape whose value weights the lookahead uses: teams, and partners or not."""
    return f"{rules.teams} teams" + (", partners" if rules.players > rules.teams else "")


# The lookahead plays (shortlist and its own rollout moves) with greedy weights
# that beat the default greedy 57.9% of 100,000 games (benchmarks/matches.md),
# and models the other teams in its rollouts as the default greedy.
LOOKAHEAD_OWN_WEIGHTS = {**POLICIES["greedy"].params, "build": 0.7, "growth": 2.0, "block": 0.6, "block4": 10.0,
                         "jack_cost": 100.0}
POLICIES["lookahead"] = PolicyKind(
    "lookahead",
    kp.LOOKAHEAD,
    # Greedy playouts cut after `horizon` plies and scored by the value weights of the
    # table; the candidates raced. Measured in benchmarks/matches.md (issue 11): as
    # strong with 32 to 128 deals, and 64 leaves room for the hard decisions.
    {"rollouts": 64.0, "shortlist": 4.0, "margin": 0.5, "playout": 0.0, "horizon": 4.0, "race": 1.0,
     **VALUE_WEIGHTS["2 teams"], **LOOKAHEAD_OWN_WEIGHTS,
     **{f"opponent_{k}": v for k, v in POLICIES["greedy"].params.items()}},
    "greedy's shortlist judged by short greedy rollouts on re-dealt hidden cards, scored by a fitted value",
    {"rollouts": (0, 100_000, True), "shortlist": (1, 16, True), "margin": (0, math.inf, False),
     "playout": (0, 1, True), "horizon": (0, 10_000, True), "race": (0, math.inf, False)},
    lambda rules: VALUE_WEIGHTS[value_table(rules)],
)
# The lookahead's kernel with cheap defaults (issue 22): two candidates, 6 deals, 2 plies, no
# race; nearly as strong as the lookahead at 18 times its speed (benchmarks/matches.md).
POLICIES["quick"] = PolicyKind(
    "quick",
    kp.LOOKAHEAD,
    {**POLICIES["lookahead"].params, "rollouts": 6.0, "shortlist": 2.0, "race": 0.0, "horizon": 2.0},
    "the lookahead with cheap defaults: greedy's best two actions, each judged on 6 re-dealt deals of 2 plies",
    POLICIES["lookahead"].limits,
    POLICIES["lookahead"].table_defaults,
)

POLICIES["ismcts"] = PolicyKind(
    "ismcts",
    kp.ISMCTS,
    # kernels/search.py reads them by position: the search's own, then the value weights,
    # its own greedy weights and its model of the other teams, laid out as the lookahead's.
    {"iterations": 1000.0, "width": 4.0, "reply": 4.0, "explore": 0.5, "horizon": 2.0, "cheat": 0.0,
     "race": 1.0, "margin": 0.5,
     **VALUE_WEIGHTS["2 teams"], **LOOKAHEAD_OWN_WEIGHTS,
     **{f"opponent_{k}": v for k, v in POLICIES["greedy"].params.items()}},
    "information-set tree search on re-dealt hidden cards, short greedy playouts scored by the fitted value "
    "(cheat=1: sees every hand and the deck, cheat=2: every hand; research instruments, never fair play)",
    {"iterations": (0, 1_000_000, True), "width": (1, 16, True), "reply": (1, 16, True),
     "explore": (0, math.inf, False), "horizon": (0, 10_000, True), "cheat": (0, 2, True),
     "race": (0, math.inf, False), "margin": (0, math.inf, False)},
    lambda rules: VALUE_WEIGHTS[value_table(rules)],
)

POLICIES["fast"] = PolicyKind(
    "fast",
    kp.FAST,
    # kernels/fast.py reads them by position.
    {"width": 2.0, **VALUE_WEIGHTS["2 teams"], **LOOKAHEAD_OWN_WEIGHTS},
    "one ply: greedy's shortlist, each action scored by a fitted value of what the seat can see",
    {"width": (1, 16, True)},
    lambda rules: VALUE_WEIGHTS[value_table(rules)],
)

# Swift's value of hand and board (kernels/rich.py): a weight per feature of the seat's team, per
# feature of the other team, per extra, then the intercept; order matters, the kernel reads them
# by position. One set per two-team table shape, fitted by benchmarks/rich_value.py on 20,000
# lookahead games of that shape (seed 2026), rounded to four decimals.
_FEATURE_NAMES = [name.removeprefix("value_") for name in VALUE_NAMES[1:]]
RICH_NAMES = (
    *(f"value_own_{n}" for n in _FEATURE_NAMES), *(f"value_other_{n}" for n in _FEATURE_NAMES),
    *(f"value_{name}" for name, _ in EXTRAS), "value_intercept",
)
RICH_WEIGHTS: dict[str, dict[str, float]] = {
    table: dict(zip(RICH_NAMES, weights, strict=True)) for table, weights in {
        # python benchmarks/rich_value.py --games 20000: held-out log-loss 0.6135 (fair features alone 0.6179)
        "2 teams": (
            1.7373, 0.0944, -0.0353, 0.3649, 0.0044, 0.5876, 0.4334, -0.2215, 0.2188, 0.3061, 0.1758, 0.0039,
            -1.3233, -0.0420, -0.6428, -0.0462, -0.0217, -1.2685, -0.7719, -0.2636, 0.3600, -0.2568, -0.2075,
            -0.0097, 0.0006, 0.0163, 0.1156, -0.3101, 0.0405, 0.4382, -0.0272, 0.0450, 0.1148, 0.0198, 0.0068,
            0.0692, -0.1345, 0.0312, 0.9376, -0.2552, 0.0983, 0.0416, 0.2027, 0.0918, 0.0220, 0.0147, -0.3500,
            0.1836, -0.0124, 0.0156, -0.4599),
        # --players 4 --games 20000: held-out log-loss 0.6225 (fair features alone 0.6266)
        "2 teams, partners": (
            1.4417, -0.0531, 0.0160, 0.3060, 0.0067, 0.4885, 0.3741, -0.0073, 0.2747, 0.2489, 0.1702, 0.0038,
            -1.6114, -0.1184, -0.3350, -0.0447, -0.0230, -1.3226, -0.4105, -0.2316, 0.2665, -0.2061, -0.2398,
            -0.0080, 0.0023, 0.0260, 0.0970, -0.2266, -0.1038, 0.0478, -0.0395, 0.0617, 0.0901, 0.0217, 0.0509,
            0.0687, -0.2406, 0.0350, -0.1713, -0.0215, 0.2861, 0.0342, -0.0633, -0.1129, 0.0283, 0.0200, -0.2969,
            0.2101, -0.0181, 0.0207, 0.5583),  # fitted with 4 players
    }.items()
}


# Swift's settings that differ by table shape (benchmarks/matches.md), over its base parameters below.
# One player per team: candidates within 16 of greedy's choice (twelfth session: as strong as every
# candidate at 12-18% more games/s) and the other team's replies played by the lookahead's own greedy
# weights, which name the lookahead's move at 61.6% of positions where the default greedy's name 37.5%
# (fourteenth session; with the race below, 49.78% [49.3, 50.2] against the lookahead over 48,000 games
# where swift's first defaults scored 49.08% on the same deals). With partners: every candidate
# searched (gap 16 lost 1.3 points at 4p/2t), the default greedy's replies (the lookahead's weights lost
# 0.4 points at 4p/2t) and the leaves scored as the searching seat sees the deal (view 1: 48.26%
# against 46.77% over 18,000 games at 4p/2t, the same at 6p/2t; sixteenth session).
SWIFT_SETTINGS: dict[str, dict[str, float]] = {
    "2 teams": {"gap": 16.0, **{f"opponent_{k}": v for k, v in LOOKAHEAD_OWN_WEIGHTS.items()}, "view": 0.0},
    "2 teams, partners": {"gap": 0.0, **{f"opponent_{k}": v for k, v in POLICIES["greedy"].params.items()},
                          "view": 1.0},
}


def rich_weights(rules: Rules, policy: str, instead: str) -> dict[str, float]:
    """The value weights of hand and board at the table `rules` for `policy`; a table of three teams is
    refused (no fit), the message naming what to play `instead`."""
    table = value_table(rules)
    if table not in RICH_WEIGHTS:
        fitted = " and ".join(f"'{t}'" for t in RICH_WEIGHTS)
        raise PolicyError(f"{policy}'s value is fitted for tables of {fitted} only, not '{table}'; at this table "
                          f"play {instead}")
    return RICH_WEIGHTS[table]


def rich_table_defaults(rules: Rules) -> dict[str, float]:
    """Swift's value weights and search settings at the table `rules`; a table of three teams is refused
    (no fit)."""
    weights = rich_weights(rules, "swift", "quick (the same search on the lookahead's value) or the lookahead")
    return {**weights, **SWIFT_SETTINGS[value_table(rules)]}


# The lookahead's race over three candidates on up to 10 deals of 2 plies, a look at the race every 2
# deals (race 0.5: thirteenth session, as strong as 6 unraced deals at a quarter more speed; with
# partners 48.77% against 48.26% on the same 18,000 4p/2t deals at 13% more speed, sixteenth session),
# its leaves scored by the richer value (issue 22's fast strong player; benchmarks/matches.md); the
# settings that differ by table shape in SWIFT_SETTINGS. gap: a candidate more than gap behind greedy's
# choice by the own greedy weights (a four made or blocked is worth 10-20) is not searched. batch: with
# race > 0, challengers are dropped after every batch deals. view: 1 scores the leaves as the searching
# seat sees the deal, 0 as the seat that played last (the value's fit); with two players and an even
# horizon the two are one seat. removals: a decision whose greedy best four hold a one-eyed Jack searches
# all four (all the shortlist if it is longer), whatever the gap (seventeenth session: 50.32% [49.9,
# 50.8] against the lookahead over 48,000 two-player games where removals=0 scores 49.78% on the same
# deals, ahead on all 12 seeds, and 50.07% over 48,000 fresh games; 48.99% against 48.77% over 18,000
# at 4p/2t; 3% fewer games/s or none within the noise).
_TWO = SWIFT_SETTINGS["2 teams"]
POLICIES["swift"] = PolicyKind(
    "swift",
    kp.SWIFT,
    # kernels/lookahead.py reads them by position (RichLeaf's layout): the search's own, the value
    # weights, its own greedy weights and its model of the other teams; SWIFT_SETTINGS fill their places.
    {"rollouts": 10.0, "shortlist": 3.0, "margin": 0.5, "playout": 0.0, "horizon": 2.0, "race": 0.5,
     **RICH_WEIGHTS["2 teams"], **LOOKAHEAD_OWN_WEIGHTS,
     **{f"opponent_{k}": _TWO[f"opponent_{k}"] for k in POLICIES["greedy"].params},
     "gap": _TWO["gap"], "batch": 2.0, "view": _TWO["view"], "removals": 4.0},
    "the lookahead's race over greedy's best three (those within `gap` of greedy's choice by its own greedy "
    "score; all of its best four when they hold a one-eyed Jack) on a few re-dealt deals of 2 plies, its "
    "leaves scored by a fitted value of hand and board (two-team tables)",
    {**POLICIES["lookahead"].limits, "gap": (0, math.inf, False), "batch": (1, 1_000_000, True),
     "view": (0, 1, True), "removals": (0, 16, True)},
    rich_table_defaults,
)

# ismcts with its playouts' ends scored by swift's value of hand and board (kernels/search.py's RichLeaf):
# 52.90% [52.0, 53.8] against the lookahead over 12,000 two-player games where ismcts scores 51.46% on the
# same deals, +1.44 points [0.84, 2.04] (benchmarks/matches.md, nineteenth session). Its search settings are
# ismcts's; its value weights those of the table shape, refused at three teams as swift's are.
POLICIES["ismcts-rich"] = PolicyKind(
    "ismcts-rich",
    kp.ISMCTS_RICH,
    # kernels/search.py reads them by position (RichLeaf's layout): ismcts's own, then the value
    # weights of hand and board, its own greedy weights and its model of the other teams.
    {**{k: POLICIES["ismcts"].params[k] for k in ("iterations", "width", "reply", "explore", "horizon", "cheat",
                                                   "race", "margin")},
     **RICH_WEIGHTS["2 teams"], **LOOKAHEAD_OWN_WEIGHTS,
     **{f"opponent_{k}": v for k, v in POLICIES["greedy"].params.items()}},
    "ismcts with its short playouts scored by swift's value of hand and board (two-team tables)",
    POLICIES["ismcts"].limits,
    lambda rules: rich_weights(rules, "ismcts-rich", "ismcts (the same search on the lookahead's value)"),
)


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
            f"{k}={_fmt(v)}"
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
        defaults = kind.defaults(rules)
        values = dict(defaults)
        given: set[str] = set()
        for a in assignments:
            key, sep, raw = a.partition("=")
            key = key.strip()
            if not sep or key not in values:
                allowed = ", ".join(kind.params) or "none"
                raise PolicyError(f"bad parameter {a!r} for policy {kind.name!r}; parameters: {allowed}")
            if key in given:
                raise PolicyError(f"parameter {key} of {kind.name!r} is given twice in {text.strip()!r}")
            given.add(key)
            try:
                values[key] = float(raw)
            except ValueError:
                raise PolicyError(f"parameter {key} of {kind.name!r} must be a number, got {raw!r}") from None
            if not math.isfinite(values[key]):
                raise PolicyError(f"parameter {key} of {kind.name!r} must be finite, got {raw!r}")
            _check_limits(kind, key, values[key])
        return cls(kind, tuple(values.values()), tuple(defaults.values()))


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
        return kp.policy_set([p.kind.id for p in self.per_team])

    @property
    def mixed(self) -> bool:
        """Whether the teams play different policies."""
        return len({p.spec for p in self.per_team}) > 1
