"""What a position is worth, by the value a player's marker names (kernel code and Python).

A player that scores positions takes its value as a marker type, chosen when
the caller is compiled (as the player set is): ``FittedLeaf()`` scores them by
``kernels.values.evaluation``'s fitted value (N_VALUE_WEIGHTS weights; seen by
the seat: ``kernels.values.fair``), ``RichLeaf()`` by ``kernels.values.rich``'s
value of hand and board (N_RICH_WEIGHTS weights).
"""

from typing import NamedTuple

from numba.extending import overload

from ..core.jit import INLINE_OPTIONS
from ..core.tables import N_CODES
from .evaluation import N_VALUE_WEIGHTS, win_chance
from .fair import COPIES, fair_chance
from .rich import N_RICH_WEIGHTS, rich_chance


class FittedLeaf(NamedTuple):
    """Positions scored by kernels.values.evaluation's fitted value (N_VALUE_WEIGHTS weights)."""


class RichLeaf(NamedTuple):
    """Positions scored by kernels.values.rich's value of hand and board (N_RICH_WEIGHTS weights)."""


def value_size(leaf):
    """How many value weights `leaf` reads from a parameter row (kernel code and Python)."""
    if isinstance(leaf, RichLeaf):
        return N_RICH_WEIGHTS
    return N_VALUE_WEIGHTS


@overload(value_size, jit_options=INLINE_OPTIONS)
def _value_size(leaf):
    size = value_size(leaf.instance_class())
    return lambda leaf: size


def leaf_chance(leaf, tb, cfg, sim, mover, team, viewer, vweights):
    """What the position of `sim` is worth to `team` (0..1) by the value of `leaf`; `mover` moves next.
    RichLeaf scores it as `viewer` sees the deal (-1: the seat that played last); FittedLeaf ignores it."""
    raise NotImplementedError("kernel code only")


@overload(leaf_chance, jit_options=INLINE_OPTIONS)
def _leaf_chance(leaf, tb, cfg, sim, mover, team, viewer, vweights):
    if leaf.instance_class is FittedLeaf:

        def fitted(leaf, tb, cfg, sim, mover, team, viewer, vweights):
            return win_chance(tb, cfg, sim, mover, team, vweights)

        return fitted

    def rich(leaf, tb, cfg, sim, mover, team, viewer, vweights):
        # The chance of the viewing seat's team, as it sees the deal, made `team`'s: with two teams its
        # complement; with three, the chance of `team` as its seat that played last before sees the deal.
        players, teams = cfg.players, cfg.teams
        seen_by = (mover + players - 1) % players if viewer < 0 else viewer
        if seen_by % teams != team and teams == 2:
            return 1.0 - rich_chance(tb, cfg, sim, seen_by, vweights)
        while seen_by % teams != team:
            seen_by = (seen_by + players - 1) % players
        return rich_chance(tb, cfg, sim, seen_by, vweights)

    return rich


def seen_chance(leaf, tb, cfg, sim, seat, mover, weights):
    """The chance (0..1) of `seat`'s team by the value of `leaf`, from what `seat` sees of sim."""
    raise NotImplementedError("kernel code only")


@overload(seen_chance, jit_options=INLINE_OPTIONS)
def _seen_chance(leaf, tb, cfg, sim, seat, mover, weights):
    if leaf.instance_class is FittedLeaf:

        def fitted(leaf, tb, cfg, sim, seat, mover, weights):
            return fair_chance(tb, cfg, sim, seat, mover, weights, sim.fscores, sim.fscores[COPIES : COPIES + N_CODES])

        return fitted

    def rich(leaf, tb, cfg, sim, seat, mover, weights):
        return rich_chance(tb, cfg, sim, seat, weights)

    return rich
