"""Decisions: every line-up plays one game loop, its players' decisions called through pointers.

A new line-up of players already compiled compiles nothing, and a game played through a pointer is the
game of the same player called directly, as the rollouts call greedy (``kernels.players.greedy.greedy_turn``).
"""

from __future__ import annotations

from numba.core import event

from simkit.game.cards import tables
from simkit.game.play import play_logged, simulate
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels.core.state import new_state
from simkit.kernels.core.turn import PASSED, WON, next_seat
from simkit.kernels.engine import reset
from simkit.kernels.players.greedy import GREEDY_ID, greedy_turn

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
        simulate(TWO, Lineup.parse("random", TWO), 5, 0, 4)
    assert compiles.names == []


def test_a_game_through_a_pointer_is_the_game_of_the_player_called_directly() -> None:
    """Greedy's games in the game loop (its decision called through a pointer) and turn by turn with
    greedy_turn (greedy called directly, as the rollouts play it): the same moves, game by game."""
    lineup = Lineup.parse("greedy", TWO)
    params, cfg, tb = lineup.params()[0], TWO.cfg(), tables()
    for game in range(3):
        _, log, stats = play_logged(TWO, lineup, 11, game)
        st = new_state()
        reset(cfg, st, 11, game)
        seat, team, moves = 0, 0, []
        while True:
            result = greedy_turn(tb, cfg, st, seat, team, params[seat], GREEDY_ID)
            moves.append((int(st.turn.card), int(st.turn.cell)))
            if result == WON or (result == PASSED and st.ctr.pass_run == TWO.players):
                break
            seat, team = next_seat(seat, team, TWO.players, TWO.teams)
        assert moves == [(int(r.card), int(r.cell)) for r in log[: stats.turns]]
