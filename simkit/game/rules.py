"""Game configurations: ``Rules``, one value of every option of ``simkit.game.options.OPTIONS``.

Its fields are the table's options, in the table's order; it is checked
however it is built (``Rules.make`` fills in the defaults of the RULES.md
tables first; ``Rules(...)`` with every field given is checked the same way).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, make_dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from simkit.game.options import (  # noqa: F401  (re-exported: the RULES.md tables)
    CHIP_SUPPLY,
    DEFAULT_MAX_TURNS,
    HAND_SIZE,
    LEGAL_TEAMS,
    MAX_HAND_SIZE,
    MAX_MAX_TURNS,
    MAX_SEQUENCES_TO_WIN,
    OPTIONS,
    SEQUENCES_TO_WIN,
    TEAM_COLOURS,
    RulesError,
    late_turns,
    legal_configurations,
    per_seat,
    resolve,
    shown,
    sizes_text,
)
from simkit.kernels.core.config import new_config

if TYPE_CHECKING:
    # Rules' fields as the type checker sees them: OPTIONS' names in table order, each typed by its kind as
    # _TYPES says (tests/test_options.py checks the two agree). At run time OPTIONS makes them (make_dataclass).
    @dataclass(frozen=True)
    class _RulesFields:
        players: int
        teams: int
        hand_size: int | tuple[int, ...]
        sequences_to_win: int
        max_turns: int
        chip_limit: bool
        reshuffle: bool
        dead_swap: bool
        late_card: int
        handicap: int | tuple[int, ...]
        layout: str

else:
    _RulesFields = object


class _RulesMethods(_RulesFields):
    """What every Rules can do; the fields come from OPTIONS (see ``Rules``)."""

    def __post_init__(self) -> None:
        values = resolve({f.name: getattr(self, f.name) for f in fields(self)})
        for name, value in values.items():  # normalised: a hand size of equal sizes is one int
            object.__setattr__(self, name, value)

    @classmethod
    def make(cls, *args: Any, **options: Any) -> Rules:
        """Rules from options given by position (in OPTIONS order: players, teams, hand_size, ...) or by
        name; an option left out or None takes its default from the RULES.md tables.

        hand_size: one size for every seat, or a list ('7,6') that cycles over
        the seats as a line-up cycles over the teams.
        """
        names = list(OPTIONS)
        if len(args) > len(names):
            raise TypeError(f"Rules.make takes at most {len(names)} options by position")
        for name, value in zip(names, args):
            if name in options:
                raise TypeError(f"Rules.make got {name} twice")
            options[name] = value
        return cls(**resolve(options))

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards dealt to each seat, seat 0 first (before a late card is held back)."""
        return per_seat(self.hand_size, self.players)

    @property
    def hand_size_text(self) -> str:
        """The hand size as written in the dataset: '7', or '7,6' per seat."""
        return sizes_text(self.hand_size)

    def values(self) -> dict[str, Any]:
        """Every option's value, by name, in OPTIONS order."""
        return {name: getattr(self, name) for name in OPTIONS}

    def as_dict(self) -> dict:
        """Every option as a plain value (for identities and metadata); hand_size an int or a list."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.values().items()}

    def record_rules(self) -> dict:
        """A game record's ``rules`` object: the required options, and every other one not at its default."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in shown(self.values()).items()}

    def describe(self) -> str:
        """'2 players, 2 teams, hand 7, 2 sequences to win, turn cap 1,000, no reshuffle' for messages."""
        return ", ".join(OPTIONS[k].words(v) for k, v in shown(self.values()).items())

    @property
    def late_turns(self) -> tuple[int, ...]:
        """Each seat's late card, seat 0 first: the seat's own turn at whose end it draws the card it was
        dealt short; 0: dealt in full (the late card and the handicap)."""
        return late_turns(self)

    def cfg(self) -> np.record:
        """The kernel's configuration record (``kernels.core.config``): every option writes its fields."""
        v = new_config()
        for option in OPTIONS.values():
            option.kernel(self, v)
        return v

    def plays_as(self, other: Rules) -> bool:
        """Whether the kernel plays `other`'s games under these rules: the same configuration record (a
        handicap that deals as a late card does plays as it)."""
        return self.cfg().tobytes() == other.cfg().tobytes()

    def changed(self) -> dict[str, Any]:
        """The rule options that differ from the standard game at this table (hand size, late card, ...)."""
        standard = Rules.make(self.players, self.teams).values()
        return {k: v for k, v in self.values().items() if k not in ("players", "teams") and v != standard[k]}

    def replace(self, **options: Any) -> Rules:
        """These rules with some options changed (None: back to the default)."""
        return Rules.make(**{**self.values(), **options})


_TYPES = {"int": int, "bool": bool, "sizes": "int | tuple[int, ...]", "counts": "int | tuple[int, ...]", "text": str}

if TYPE_CHECKING:
    Rules = _RulesMethods
else:
    Rules = make_dataclass(
        "Rules", [(name, _TYPES[o.kind]) for name, o in OPTIONS.items()], bases=(_RulesMethods,), frozen=True
    )
Rules.__module__ = __name__  # pickled by name (Dask sends Rules to its workers)
Rules.__doc__ = (
    "One game configuration: a value of every rule option (simkit.game.options.OPTIONS), checked. "
    "hand_size is one integer when every seat holds the same number of cards, else a tuple "
    "with one size per seat, seat 0 first."
)
