"""Policies: who decides what, chosen per seat by an integer policy id.

A policy answers two questions on its seat's turn, reading only what the
seat may see (RULES.md, "Simulation conventions", Information): its own
hand, the board, the discards and the size of the draw pile.

- ``choose_dead`` -> the dead card code to discard, or -1 to keep the hand;
- ``choose_action`` -> (card code, cell), or (-1, -1) to pass when the hand
  has no legal play.

A new policy gets a module, an id here, a branch in the dispatchers, and a
name with its parameters in ``simkit.policies``. Per-seat parameters arrive
as a float64 row ``params``; ``sim`` is a spare State to play ahead on.
"""

from .greedy import greedy_action
from .jit import inline_kernel
from .lookahead import lookahead_action
from .random_policy import random_action, random_dead

RANDOM, GREEDY, LOOKAHEAD = 0, 1, 2


@inline_kernel
def choose_dead(policy, params, tb, cfg, st, seat, team):
    """The dead card `policy` discards before its play, or -1.

    Every policy so far swaps a dead card whenever it holds one, uniformly
    among the distinct dead codes.
    """
    return random_dead(tb, st, seat)


@inline_kernel
def choose_action(policy, params, tb, cfg, st, sim, seat, team):
    """The (card, cell) `policy` plays, or (-1, -1) to pass."""
    if policy == GREEDY:
        return greedy_action(tb, cfg, st, seat, team, params)
    if policy == LOOKAHEAD:
        return lookahead_action(tb, cfg, st, sim, seat, team, params)
    return random_action(tb, cfg, st, seat, team)
