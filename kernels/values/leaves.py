"""What a position is worth, by the value a player names: its leaf, a setting of its row.

A player that scores positions holds the kind of its value in its row (``LEAF``, fixed by the player)
and the value's weights as its row's last block: ``FITTED`` scores them by
``kernels.values.evaluation``'s fitted value (``FITTED_VALUE``, N_VALUE_WEIGHTS weights; seen by the
seat: ``kernels.values.fair``), ``RICH`` by ``kernels.values.rich``'s value of hand and board
(``RICH_VALUE``, N_RICH_WEIGHTS weights). ``leaf_chance`` reads the kind when a position is scored, so a
search is compiled once for both values; ``fitted_leaf`` and ``rich_leaf`` score by one value whatever the
kind, for a race compiled for that value alone (``kernels.players.rollouts.race_by``). ``seen_chance``, and
``fitted_seen`` and ``rich_seen``, do the same for a position valued as one seat sees it (the fast player).
"""

from ..core.jit import inline_kernel
from ..core.params import Block, Param
from ..core.tables import N_CODES
from .evaluation import win_chance
from .fair import COPIES, fair_chance
from .rich import rich_chance
from .weights import RICH_WEIGHTS, VALUE_WEIGHTS

FITTED, RICH = 0, 1  # the kinds of value a player's leaves are scored by
LEAF = Block(
    "leaf", (Param("leaf", FITTED, "the value its leaves are scored by: 0 fitted, 1 of hand and board", fixed=True),)
)


def _weight_help(name: str) -> str:
    """The help line of a value weight, from its name: 'value_held_fours' -> 'weight of held fours'."""
    return "weight of " + name.removeprefix("value_").replace("_", " ")


FITTED_VALUE = Block("value", tuple(Param(name, w, _weight_help(name)) for name, w in VALUE_WEIGHTS["2 teams"].items()))
RICH_VALUE = Block("value", tuple(Param(name, w, _weight_help(name)) for name, w in RICH_WEIGHTS["2 teams"].items()))


@inline_kernel
def leaf_chance(leaf, tb, cfg, sim, mover, team, viewer, vweights):
    """What the position of `sim` is worth to `team` (0..1) by the value `leaf` (FITTED or RICH), its
    weights `vweights`; `mover` moves next. RICH scores it as `viewer` sees the deal (-1: the seat that
    played last; with three teams, if that seat is of another team, `team`'s seat that played before it);
    FITTED ignores the viewer."""
    if leaf == FITTED:
        return fitted_leaf(leaf, tb, cfg, sim, mover, team, viewer, vweights)
    return rich_leaf(leaf, tb, cfg, sim, mover, team, viewer, vweights)


@inline_kernel
def fitted_leaf(leaf, tb, cfg, sim, mover, team, viewer, vweights):
    """leaf_chance by the fitted value, whatever `leaf` says (a race compiled for that value alone)."""
    return win_chance(tb, cfg, sim, mover, team, vweights)


@inline_kernel
def rich_leaf(leaf, tb, cfg, sim, mover, team, viewer, vweights):
    """leaf_chance by the value of hand and board, whatever `leaf` says (a race compiled for it alone)."""
    players, teams = cfg.players, cfg.teams
    seen_by = (mover + players - 1) % players if viewer < 0 else viewer
    if seen_by % teams != team and teams == 2:
        return 1.0 - rich_chance(tb, cfg, sim, seen_by, vweights)
    while seen_by % teams != team:
        seen_by = (seen_by + players - 1) % players
    return rich_chance(tb, cfg, sim, seen_by, vweights)


@inline_kernel
def seen_chance(leaf, tb, cfg, sim, seat, mover, weights):
    """The chance (0..1) of `seat`'s team by the value `leaf` (FITTED or RICH), from what `seat` sees of
    sim; `mover` moves next."""
    if leaf == FITTED:
        return fitted_seen(leaf, tb, cfg, sim, seat, mover, weights)
    return rich_seen(leaf, tb, cfg, sim, seat, mover, weights)


@inline_kernel
def fitted_seen(leaf, tb, cfg, sim, seat, mover, weights):
    """seen_chance by the fitted value as the seat sees it, whatever `leaf` says (a player compiled for
    that value alone)."""
    return fair_chance(tb, cfg, sim, seat, mover, weights, sim.fscores, sim.fscores[COPIES : COPIES + N_CODES])


@inline_kernel
def rich_seen(leaf, tb, cfg, sim, seat, mover, weights):
    """seen_chance by the value of hand and board, whatever `leaf` says (a player compiled for it alone)."""
    return rich_chance(tb, cfg, sim, seat, weights)
