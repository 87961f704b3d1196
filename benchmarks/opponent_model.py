"""How well greedy's weights predict the default lookahead's moves: swift's model of the other seat.

    python benchmarks/opponent_model.py                       # 20,000 positions, a coordinate search
    python benchmarks/opponent_model.py --positions 40000 --passes 3
    python benchmarks/opponent_model.py --positions 12000 --passes 0 --repeats 6   # the floor and the mode

swift's rollouts play the other team by greedy with the ``opponent_*`` weights
(the default greedy's: complete 1000, build 1, growth 4, block 1, block4 500,
break4 400, jack_cost 20), while the lookahead it meets picks among greedy's
best four by its *own* weights (build 0.7, growth 2, block 0.6, block4 10,
jack_cost 100). This measures, on positions of greedy self-play with the
lookahead's own weights (benchmarks/decisions.py's, stopped at a random turn
2-44, two players), how often greedy's first choice under a set of weights is
the move the default lookahead makes there (ties share the credit), and
searches the weights (each halved and doubled in turn, ``--passes`` times,
``complete`` fixed) for the best agreement on the first half of the
positions, scored on the second half. Prints each weight set as a swift spec.
The lookahead's move is found on ``--repeats`` streams of deals: it repeats
a move it makes with chance p with chance p squared, so how often two
streams agree (the sum of p squared) is a floor for the best model of its
moves, one that names its likeliest move (the largest p); with three or
more, the likeliest move of the other streams is such a model, estimated.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from decisions import position, position_players
from simkit.cards import tables
from simkit.kernels.greedy import N_GREEDY_PARAMS, score_actions
from simkit.kernels.lookahead import P_GREEDY, P_OPPONENT, lookahead_action
from simkit.kernels.state import CFG_TEAMS, new_state
from simkit.policies import POLICIES, Lineup
from simkit.rules import Rules

NAMES = tuple(POLICIES["greedy"].params)  # complete, build, growth, block, block4, break4, jack_cost


@njit(nogil=True)
def lookahead_choice(tb, cfg, ids, seat_params, params, game, turns, deals, st, sim):
    """The default lookahead's move (card * 128 + cell) at one position, its deals drawn from
    stream `deals`; -1 when the game ended sooner, -2 a pass."""
    seat = position(tb, cfg, ids, seat_params, st, sim, game, turns)
    if seat < 0:
        return -1
    st.rng[0] = np.uint64(7919 * game + turns + 104729 * deals)
    code, cell = lookahead_action(tb, cfg, st, sim, seat, seat % cfg[CFG_TEAMS], params)
    return code * 128 + cell if code >= 0 else -2


@njit(nogil=True)
def agreement(tb, cfg, ids, seat_params, weights, game, turns, chosen, st, sim):
    """Greedy's credit at one position under `weights`: 1 / (ties at the top) when the lookahead's move
    is among greedy's best, else 0."""
    seat = position(tb, cfg, ids, seat_params, st, sim, game, turns)
    n = score_actions(tb, cfg, st, seat, seat % cfg[CFG_TEAMS], weights, st.scratch, st.fscores)
    best = st.fscores[0]
    for i in range(1, n):
        best = max(best, st.fscores[i])
    ties, hit = 0, False
    for i in range(n):
        if st.fscores[i] == best:
            ties += 1
            if st.scratch[i] == chosen:
                hit = True
    return 1.0 / ties if hit else 0.0


def on_all_cores(fn, fixed, columns):
    """[fn(*fixed, *(c[p] for c in columns), st, sim) for every position p], on all cores (each call its own states)."""
    def one(p):
        return fn(*fixed, *(c[p] for c in columns), new_state(0), new_state(0))

    with ThreadPoolExecutor(os.cpu_count()) as pool:
        return np.array(list(pool.map(one, range(len(columns[0])))))


def score(tb, cfg, ids, seat_params, weights, positions) -> float:
    """Mean agreement of greedy under `weights` with the lookahead's moves at `positions` (games, turns, chosen)."""
    return float(np.mean(on_all_cores(agreement, (tb, cfg, ids, seat_params, weights), positions)))


def lookahead_moves(positions: int, seed: int):
    """(fixed, games, turns, chosen): `positions` positions of two-player greedy self-play on the lookahead's
    own weights (game, turn; those of games that ended sooner left out) and the default lookahead's move at
    each on deal stream 0; fixed = (tables, configuration, ids, seat parameters, the lookahead's row), the
    leading arguments of lookahead_choice and agreement."""
    rules = Rules.make(2)
    lookahead = Lineup.parse("lookahead", rules).params()[0][0]
    ids, seat_params = position_players(2, lookahead)
    fixed = (tables(), rules.cfg(), ids, seat_params, lookahead)
    rng = np.random.default_rng(seed)
    games = rng.permutation(10 * positions)[:positions].astype(np.int64)
    turns = rng.integers(2, 45, positions).astype(np.int64)
    chosen = on_all_cores(lookahead_choice, fixed, (games, turns, np.zeros_like(games)))
    keep = chosen >= 0
    return fixed, games[keep], turns[keep], chosen[keep]


def spec(weights) -> str:
    return "swift:" + ":".join(f"opponent_{k}={v:g}" for k, v in zip(NAMES, weights))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--repeats", type=int, default=2, help="streams of deals the lookahead decides on (>= 2)")
    args = parser.parse_args()
    if args.repeats < 2:
        parser.error(f"--repeats must be at least 2, not {args.repeats}")
    start = time.perf_counter()
    fixed, games, turns, chosen = lookahead_moves(args.positions, args.seed)
    tb, cfg, ids, seat_params, lookahead = fixed
    half = len(games) // 2
    # The same decisions on other deals: the lookahead repeats its move with chance sum(p_move ** 2), so the
    # move it is likeliest to make, max(p_move), is its move at least that often.
    again = np.array([on_all_cores(lookahead_choice, fixed, (games, turns, np.full_like(games, k)))
                      for k in range(1, args.repeats)])
    fit = (games[:half], turns[:half], chosen[:half])
    held = (games[half:], turns[half:], chosen[half:])
    print(f"{len(games):,} positions (the lookahead's moves on {args.repeats} streams of deals in "
          f"{time.perf_counter() - start:.0f} s); fitted on {half:,}, scored on {len(games) - half:,}")
    print(f"the lookahead again, on other deals: {np.mean(again[:, half:] == chosen[half:]):.4f} held out "
          "(a model naming its likeliest move agrees at least as often)")
    if args.repeats > 2:
        likeliest = np.array([Counter(moves).most_common(1)[0][0] for moves in again[:, half:].T])
        print(f"its likeliest move on {args.repeats - 1} other streams of deals: "
              f"{np.mean(likeliest == chosen[half:]):.4f} held out")
    default = np.array([POLICIES["greedy"].params[k] for k in NAMES])
    own = lookahead[P_GREEDY:P_OPPONENT].copy()
    for label, w in (("the default greedy's (swift's model)", default), ("the lookahead's own", own)):
        print(f"{label}: {score(tb, cfg, ids, seat_params, w, held):.4f} held out  {spec(w)}")
    best = own.copy()
    best_fit = score(tb, cfg, ids, seat_params, best, fit)
    for _ in range(args.passes):
        for j in range(1, N_GREEDY_PARAMS):  # complete stays 1000
            for factor in (0.5, 2.0):
                trial = best.copy()
                trial[j] *= factor
                s = score(tb, cfg, ids, seat_params, trial, fit)
                if s > best_fit:
                    best, best_fit = trial, s
        print(f"after a pass: {best_fit:.4f} fitted  {spec(best)}", flush=True)
    print(f"searched: {score(tb, cfg, ids, seat_params, best, held):.4f} held out  {spec(best)}  "
          f"({time.perf_counter() - start:.0f} s in all)")


if __name__ == "__main__":
    main()
