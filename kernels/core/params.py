"""A player's parameters, declared once: blocks of named parameters laid out in a float64 row.

A ``Param`` is one parameter: its name, default, limits, a line of help, and what kind it is (a
number, a whole number, one of a few words, a research instrument, or a fixed setting of the row that
no spec names). A ``Block`` is an ordered group of them that several players share (greedy's weights,
the race's settings, the value weights). A player's ``Layout`` is its blocks in row order, each under
a label and with a prefix for its parameters' names (``opponent_`` for the model of the other teams).

From a layout come the row's width, the defaults and limits the line-up parser checks, the docs'
table, and the kernel's offsets: ``layout.at`` (and ``block.at`` inside one block) is a NamedTuple of
whole numbers, one per parameter and one per label (where its block starts), which a kernel reads as
a global: numba freezes it into the machine code, so ``params[SWIFT.rollouts]`` is a load at a fixed
offset. Kernels never name a position.

Every player's row starts with the restrictions (``RESTRICTIONS``), so the turn reads a seat's
``dead_swap`` where every row holds it; greedy's block starts with them too, so a block of greedy
weights handed to the rollouts carries the restrictions of the team it plays for.
"""

from __future__ import annotations

import math
from collections import namedtuple
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

# A research parameter's name in a spec: research.NAME.
RESEARCH = "research."


@dataclass(frozen=True)
class Param:
    """One parameter of a row.

    low, high: its limits; whole: whole numbers only; words: the names of its values 0, 1, 2, ... (a
    spec may give the word or the number; it is written as the word); research: it lets a player see
    cards RULES.md hides, named ``research.NAME`` in a spec and 0 by default; fixed: a setting of the row
    that no spec names (the player's, not the user's); restriction: a use of the cards the player
    forgoes, left out of a run's identity while it forgoes nothing (its default, 0).
    """

    name: str
    default: float
    help: str
    low: float = -math.inf
    high: float = math.inf
    whole: bool = False
    words: tuple[str, ...] = ()
    research: bool = False
    fixed: bool = False
    restriction: bool = False

    @property
    def kind(self) -> str:
        """'word', 'whole' or 'number': how a spec writes it."""
        return "word" if self.words else "whole" if self.whole else "number"

    def allowed(self) -> str:
        """What it takes, in words: 'any, never', 'a whole number from 1 to 16', 'at least 0'."""
        if self.words:
            return ", ".join(self.words)
        if self.whole:
            return f"a whole number from {_number(self.low)} to {_number(self.high)}"
        if math.isfinite(self.low) and math.isfinite(self.high):
            return f"from {_number(self.low)} to {_number(self.high)}"
        if math.isfinite(self.low):
            return f"at least {_number(self.low)}"
        return "any number"

    def text(self, value: float) -> str:
        """The value as a spec writes it: its word, or the number ('20', '0.5')."""
        if self.words and float(value).is_integer() and 0 <= value < len(self.words):
            return self.words[int(value)]
        return _number(value)


def _number(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def _offsets(name: str, fields: dict[str, int]):
    """A NamedTuple instance of `fields` (name -> offset), its class named `name`."""
    return namedtuple(name, list(fields))(**fields)


@dataclass(frozen=True)
class Block:
    """An ordered group of parameters that several layouts share; ``at``: each one's offset in the block."""

    name: str
    params: tuple[Param, ...]

    def __post_init__(self) -> None:
        names = [p.name for p in self.params]
        assert len(set(names)) == len(names), f"a parameter named twice in block {self.name}"

    @property
    def width(self) -> int:
        return len(self.params)

    @property
    def at(self):
        return _offsets(f"{self.name.title().replace('_', '')}At", {p.name: i for i, p in enumerate(self.params)})

    def __add__(self, other: Block) -> Block:
        return Block(self.name, self.params + other.params)

    def with_defaults(self, **defaults: float) -> Block:
        """The block with other defaults for some of its parameters, by name."""
        unknown = set(defaults) - {p.name for p in self.params}
        assert not unknown, f"not parameters of block {self.name}: {sorted(unknown)}"
        return Block(self.name, tuple(replace(p, default=float(defaults.get(p.name, p.default))) for p in self.params))

    def row(self, values: dict[str, float] | None = None) -> np.ndarray:
        """The block as a row of its own, (width,) float64: `values` by name, the defaults elsewhere."""
        values = values or {}
        return np.array([values.get(p.name, p.default) for p in self.params], np.float64)

    def fixed(self, **values: float) -> Block:
        """The block with every parameter fixed: a setting of the row no spec names (`values` by name)."""
        return Block(self.name, tuple(replace(p, fixed=True) for p in self.with_defaults(**values).params))


@dataclass(frozen=True)
class Layout:
    """A player's row: its blocks in order, each as (label, block, prefix of its parameters' names)."""

    parts: tuple[tuple[str, Block, str], ...]

    @classmethod
    def of(cls, *parts: tuple[str, Block] | tuple[str, Block, str]) -> Layout:
        """A layout of (label, block) or (label, block, prefix) parts, in row order."""
        return cls(tuple((p[0], p[1], p[2] if len(p) > 2 else "") for p in parts))

    def __post_init__(self) -> None:
        names = [p.name for p in self.params]
        assert len(set(names)) == len(names), "a parameter named twice in a layout"

    @cached_property
    def params(self) -> tuple[Param, ...]:
        """Every parameter of the row in row order, named with its block's prefix."""
        return tuple(replace(p, name=prefix + p.name) for _, block, prefix in self.parts for p in block.params)

    @property
    def width(self) -> int:
        return sum(block.width for _, block, _ in self.parts)

    @cached_property
    def at(self):
        """Each label's start and each parameter's offset in the row, by name (a NamedTuple)."""
        fields, start = {}, 0
        for label, block, _ in self.parts:
            fields[label] = start
            start += block.width
        fields.update({p.name: i for i, p in enumerate(self.params)})
        return _offsets("At", fields)

    def start(self, label: str) -> int:
        """Where the block of `label` starts."""
        return getattr(self.at, label)

    def prefix(self, labels: tuple[str, ...]) -> Layout:
        """The layout of the first parts, up to and including those labelled `labels` (their common start)."""
        return Layout(self.parts[: len(labels)])


# The restrictions: how a player forgoes a use of its cards (the restricted-play study). 0, the default,
# forgoes nothing. Every row starts with them (the turn reads dead_swap there), and so does greedy's block.
RESTRICTIONS = Block(
    "restrictions",
    (
        Param(
            "dead_swap",
            0,
            "never: keep every dead card instead of swapping it",
            words=("any", "never"),
            restriction=True,
        ),
        Param(
            "one_eyed",
            0,
            "never: never play a one-eyed Jack (it stays in the hand)",
            words=("any", "never"),
            restriction=True,
        ),
        Param(
            "two_eyed",
            0,
            "complete: play a two-eyed Jack only to complete a sequence; never: never play one",
            words=("any", "complete", "never"),
            restriction=True,
        ),
        Param(
            "blocking",
            0,
            "never: place no chip to block, value no line for the opponents' chips on it",
            words=("any", "never"),
            restriction=True,
        ),
        Param(
            "corners",
            0,
            "ignore: count no corner towards a line (the rules still do)",
            words=("use", "ignore"),
            restriction=True,
        ),
    ),
)
SEAT = RESTRICTIONS.at  # the restrictions' offsets, at the start of every row and of every greedy block
# The start of the row of a player not built on greedy: dead_swap, which the turn applies to every player, and
# the others fixed at 0 (a spec naming one is refused), since only greedy's scorer reads them.
TURN_RESTRICTIONS = Block(
    "restrictions", (RESTRICTIONS.params[0], *(replace(p, fixed=True) for p in RESTRICTIONS.params[1:]))
)
NEVER, COMPLETE = 1, 1  # the values of one_eyed, dead_swap, blocking = never; two_eyed = complete
TWO_EYED_NEVER = 2
