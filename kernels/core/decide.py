"""Who decides: the player set of a game, and the questions a turn asks its seat's player.

A player answers two questions on its seat's turn, reading only what the
seat may see (RULES.md, "Simulation conventions", Information): its own
hand, the board, the discards and the size of the draw pile.

- ``choose_dead`` -> the dead card code to discard, or -1 to keep the hand;
- ``choose_action`` -> (card code, cell), or (-1, -1) to pass when the hand
  has no legal play.

**Compile only what is played.** The game loop is compiled once per *policy
set*, a marker argument whose type says which players a line-up may use:
``PlayerSet(held)``, where ``held`` is a tuple of the marks of the players
it holds besides random (each player's kernel module declares its mark, an
empty NamedTuple; random is in every set). ``choose_action`` and
``counts_lines`` are stubs here: their implementations are numba overloads in
``kernels.players.dispatch``, resolved from the set's type when a caller is
compiled, so the turn asks "the player of this id" without importing any
player, and a random-only run never compiles greedy, a greedy run never
compiles the lookahead, and a lookahead run compiles none of the players
beyond it. ``kernels.players.dispatch.player_set`` picks the smallest set
that holds a line-up's ids; each set is compiled (and cached) on first use.

Per-seat parameters arrive as a float64 row ``params``; ``sim`` is the
players' spare arrays (``kernels.players.dispatch.workspace``): a State to
play ahead on, or, when a tree search may play, a
``kernels.players.search.SearchWork`` holding that State and the search
tree's arena (``state_of`` finds the State in either).
"""

from typing import NamedTuple

from numba import types
from numba.extending import overload

from .jit import INLINE_OPTIONS, inline_kernel
from .random_move import random_dead


class PlayerSet(NamedTuple):
    """A player set: random, and each player whose mark is in `held` (a tuple, in id order)."""

    held: tuple


@inline_kernel
def choose_dead(policy, params, tb, cfg, st, seat, team):
    """The dead card `policy` discards before its play, or -1.

    Every player so far swaps a dead card whenever it holds one, uniformly
    among the distinct dead codes.
    """
    return random_dead(tb, st, seat)


def choose_action(policies, policy, params, tb, cfg, st, sim, seat, team):
    """The (card, cell) `policy` plays, or (-1, -1) to pass (kernel code only; kernels.players.dispatch)."""
    raise NotImplementedError("choose_action is compiled into kernels; call it from jitted code")


def counts_lines(policies):
    """Whether the player set's players read the line counts st.in_line (every player but random
    does; random play skips keeping them). Kernel code only (kernels.players.dispatch)."""
    raise NotImplementedError("counts_lines is compiled into kernels; call it from jitted code")


def state_of(sim):
    """The State to play ahead on in the spare arrays `sim` (a State, or a SearchWork's)."""
    raise NotImplementedError("kernel code only")


@overload(state_of, jit_options=INLINE_OPTIONS)
def _state_of(sim):
    if isinstance(sim, types.Record):
        return lambda sim: sim
    return lambda sim: sim.sim
