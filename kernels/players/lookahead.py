"""The lookahead: the race of kernels.players.rollouts, its leaves scored by the fitted value.

The lookahead is the reference strong player. Its parameters are laid out as
``kernels.players.rollouts`` reads them (FittedLeaf's layout).
"""

from ..values.leaves import FITTED, FITTED_VALUE, LEAF
from ..values.weights import value_weights
from .greedy import GREEDY
from .player import HEAVY, Player
from .rollouts import BATCH, FITTED_RACE, RACE, SETTINGS, race_layout

LOOKAHEAD = 2

# The lookahead's own greedy weights (its shortlist and its team's rollout moves): they beat the
# default greedy (docs/research.md). Its rollouts model the other teams as the default greedy.
OWN_WEIGHTS = {"build": 0.7, "growth": 2.0, "block": 0.6, "block4": 10.0, "jack_cost": 100.0}
OWN = GREEDY.with_defaults(**OWN_WEIGHTS)  # the own greedy block of the strong players


# Greedy playouts cut after `horizon` plies, scored by the value weights of the table; the candidates
# raced. As strong with 32 to 128 deals (docs/research.md); 64 leaves room for the hard decisions. Every
# candidate is searched (gap 0), a look at the race every BATCH deals, no view, no widening for removals.
LAYOUT = race_layout(
    OWN,
    RACE.with_defaults(rollouts=64, shortlist=4, horizon=4, race=1),
    SETTINGS.fixed(gap=0, batch=BATCH, view=0, removals=0),
    LEAF.fixed(leaf=FITTED),
    FITTED_VALUE,
)

PLAYERS = (
    Player(
        "lookahead",
        LOOKAHEAD,
        FITTED_RACE,  # the race, its leaves scored by the fitted value
        "greedy's best four, each judged by short games on re-dealt hidden cards",
        HEAVY,
        LAYOUT,
        table_defaults=value_weights,
    ),
)
