"""Player sets: every line-up beyond random alone plays the one set ``Decisions``, whose game loop is
compiled once and whose players' decisions are called through pointers.

A new line-up of players already compiled compiles nothing, and a game played through a pointer is
the game played by the inlined chain of a ``PlayerSet`` (the one the rollouts play greedy in).
"""

from __future__ import annotations

import numpy as np
from numba.core import event

from simkit.game.cards import tables
from simkit.game.play import simulate
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels.batch import run_batch
from simkit.kernels.players.greedy import UP_TO_GREEDY

TWO = Rules.make(2)


class Compiles(event.Listener):
    """The names of the functions numba compiles (not those it loads from its cache) while listening."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def on_start(self, ev) -> None:
        self.names.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev) -> None:
        pass


def test_a_new_lineup_of_players_already_compiled_compiles_nothing() -> None:
    simulate(TWO, Lineup.parse("greedy", TWO), 5, 0, 4)  # the game loop, greedy's and random's decisions
    simulate(TWO, Lineup.parse("lookahead", TWO), 5, 0, 4)  # the lookahead's decision
    compiles = Compiles()
    with event.install_listener("numba:compile", compiles):
        simulate(TWO, Lineup.parse("lookahead,greedy", TWO, swap_seats=True), 5, 0, 4)
        simulate(TWO, Lineup.parse("greedy,random", TWO), 5, 0, 4)
    assert compiles.names == []


def test_a_game_through_a_pointer_is_the_game_of_the_inlined_chain() -> None:
    """Greedy's games in Decisions (its decision called through a pointer) and in UP_TO_GREEDY (the chain
    inlined into the turn): the same statistics, game by game."""
    lineup = Lineup.parse("greedy,random", TWO, swap_seats=True)
    through_pointer = simulate(TWO, lineup, 11, 0, 200)
    inlined = run_batch(UP_TO_GREEDY, tables(), TWO.cfg(), lineup.ids(), lineup.params(), 11, 0, 200, 1)
    assert np.array_equal(through_pointer, inlined)
