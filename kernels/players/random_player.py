"""The random player: RULES.md's random policy (kernels.core.random_move), played by the turn directly
(kernels.core.turn.decide) in every line-up."""

from ..core.jit import inline_kernel
from ..core.random_move import random_action
from ..core.turn import RANDOM
from .player import LIGHT, Player


@inline_kernel
def play_random(tb, cfg, st, work, seat, team, params):
    """Random's (card, cell), or (-1, -1) to pass."""
    return random_action(tb, cfg, st, seat, team)


PLAYERS = (Player("random", RANDOM, play_random, "uniform over the playable cards, then the cells", LIGHT),)
