"""The lookahead: the race of kernels.players.rollouts, its leaves scored by the fitted value.

The lookahead is the reference strong player. Its parameters are laid out as
``kernels.players.rollouts`` reads them (FittedLeaf's layout).
"""

import math
from typing import NamedTuple

from ..core.decide import state_of
from ..core.jit import inline_kernel, kernel
from ..values.leaves import FittedLeaf
from ..values.weights import VALUE_WEIGHTS, value_weights
from .greedy import DEFAULTS as GREEDY_DEFAULTS
from .player import HEAVY, Player
from .rollouts import raced_action

LOOKAHEAD = 2

# The lookahead's own greedy weights (its shortlist and its team's rollout moves): they beat the
# default greedy (docs/research.md). Its rollouts model the other teams as the default greedy.
OWN_WEIGHTS = {**GREEDY_DEFAULTS, "build": 0.7, "growth": 2.0, "block": 0.6, "block4": 10.0, "jack_cost": 100.0}
OPPONENT_DEFAULTS = {f"opponent_{k}": v for k, v in GREEDY_DEFAULTS.items()}
RACE_LIMITS = {
    "rollouts": (0, 100_000, True),
    "shortlist": (1, 16, True),
    "margin": (0, math.inf, False),
    "playout": (0, 1, True),
    "horizon": (0, 10_000, True),
    "race": (0, math.inf, False),
}


class Lookahead(NamedTuple):
    """The lookahead's mark in a player set."""


@kernel
def lookahead_action(tb, cfg, st, sim, seat, team, params):
    """The lookahead's choice as (card, cell); (-1, -1) to pass."""
    return raced_action(FittedLeaf(), tb, cfg, st, sim, seat, team, params)


@inline_kernel
def play_lookahead(tb, cfg, st, sim, seat, team, params):
    """The lookahead's (card, cell) on the State of the spare arrays `sim`."""
    return lookahead_action(tb, cfg, st, state_of(sim), seat, team, params)


# Greedy playouts cut after `horizon` plies, scored by the value weights of the table; the candidates
# raced. As strong with 32 to 128 deals (docs/research.md); 64 leaves room for the hard decisions.
PARAMS = {
    "rollouts": 64.0,
    "shortlist": 4.0,
    "margin": 0.5,
    "playout": 0.0,
    "horizon": 4.0,
    "race": 1.0,
    **VALUE_WEIGHTS["2 teams"],
    **OWN_WEIGHTS,
    **OPPONENT_DEFAULTS,
}

PLAYERS = (
    Player(
        "lookahead",
        LOOKAHEAD,
        Lookahead,
        play_lookahead,
        "greedy's best four, each judged by short games on re-dealt hidden cards",
        HEAVY,
        compile_seconds=31,
        ladder=4,
        params=PARAMS,
        limits=RACE_LIMITS,
        table_defaults=value_weights,
    ),
)
