"""The random player: RULES.md's random policy, in every player set (kernels.core.random_move)."""

from ..core.jit import inline_kernel
from ..core.random_move import random_action
from .player import LIGHT, Player

RANDOM = 0


@inline_kernel
def play_random(tb, cfg, st, sim, seat, team, params):
    """Random's (card, cell), or (-1, -1) to pass."""
    return random_action(tb, cfg, st, seat, team)


PLAYERS = (
    Player(
        "random",
        RANDOM,
        None,
        play_random,
        "uniform over the playable cards, then the cells",
        LIGHT,
        compile_seconds=10,
        ladder=0,
    ),
)
