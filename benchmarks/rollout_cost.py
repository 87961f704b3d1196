"""What one of the lookahead's rollouts costs, piece by piece (issue 22 item 4).

    python benchmarks/rollout_cost.py

On 300 two-player positions (greedy self-play with the lookahead's own
weights, stopped at random turns, as benchmarks/decisions.py makes them),
times per call, one thread, best of 3 rounds of 200 calls per position:

- ``determinise``: the seat's view copied and the unseen cards dealt again;
- the same plus the fitted value of the position (``evaluation.win_chance``);
- ``rollout_value`` at horizons 1, 2 and 4: determinise, play greedy's first
  action, that many greedy plies, the value.

The position's own set-up (replaying its game) is timed apart and taken off.
The differences give the cost of a greedy ply, the floor of any rollout that
plays greedy. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from decisions import SHORTLIST, listed, position, position_players
from simkit.cards import tables
from simkit.kernels.evaluation import N_VALUE_WEIGHTS, win_chance
from simkit.kernels.lookahead import P_GREEDY, P_OPPONENT, P_VALUE, FittedLeaf, determinise, draws_needed, rollout_value
from simkit.kernels.rng import seed_stream
from simkit.kernels.state import new_state
from simkit.policies import Lineup
from simkit.rules import Rules

DETERMINISE, WITH_VALUE, ROLLOUT = 0, 1, 2
POSITIONS, CALLS, ROUNDS = 300, 200, 3


@njit(nogil=True)  # no cache: numba would not see edits to the kernels it calls
def calls_at(tb, cfg, ids, seat_params, params, game, turns, st, sim, actions, calls, what):
    """`calls` calls of `what` at one position: (how many were made, 0 if the game ended sooner;
    the sum of the values, returned so that the compiler keeps every call it times)."""
    seat = position(tb, cfg, ids, seat_params, st, sim, game, turns)
    if seat < 0 or listed(tb, cfg, st, seat, params[P_GREEDY:P_OPPONENT], actions) < 1:
        return 0, 0.0
    team = seat % 2
    total = 0.0
    for r in range(calls):
        if what == ROLLOUT:
            total += rollout_value(FittedLeaf(), tb, cfg, st, sim, seat, team, actions[0], params, np.uint64(5), np.int64(r))
        else:
            seed_stream(sim.rng, np.uint64(5), np.int64(r))
            determinise(st, sim, seat, draws_needed(cfg, params))
            if what == WITH_VALUE:
                total += win_chance(tb, cfg, sim, seat, team, params[P_VALUE:P_VALUE + N_VALUE_WEIGHTS])
    return calls, total


def main() -> None:
    rules = Rules.make(2)
    tb, cfg = tables(), rules.cfg()
    ids, seat_params = position_players(2, Lineup.parse("lookahead", rules).params()[0, 0])
    st, sim, actions = new_state(0), new_state(0), np.zeros(SHORTLIST, np.int64)
    games = np.arange(POSITIONS) + 7000
    turns = np.random.default_rng(3).integers(2, 45, POSITIONS)
    for label, horizon, what in (("determinise", 2, DETERMINISE), ("determinise + the value", 2, WITH_VALUE),
                                 ("rollout, horizon 1", 1, ROLLOUT), ("rollout, horizon 2", 2, ROLLOUT),
                                 ("rollout, horizon 4 (the default)", 4, ROLLOUT)):
        params = Lineup.parse(f"lookahead:horizon={horizon}", rules).params()[0, 0]
        calls_at(tb, cfg, ids, seat_params, params, 1, 10, st, sim, actions, 2, what)  # compile
        best = np.inf
        for _ in range(ROUNDS):
            t = time.perf_counter()
            n = sum(calls_at(tb, cfg, ids, seat_params, params, g, k, st, sim, actions, CALLS, what)[0]
                    for g, k in zip(games, turns))
            played = time.perf_counter() - t
            t = time.perf_counter()
            for g, k in zip(games, turns):
                calls_at(tb, cfg, ids, seat_params, params, g, k, st, sim, actions, 0, what)
            setup = time.perf_counter() - t
            best = min(best, (played - setup) / n * 1e6)
        print(f"{label}: {best:.2f} µs per call")


if __name__ == "__main__":
    main()
