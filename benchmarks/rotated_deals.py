"""Rotated deals for the lookahead's rollouts, scored offline against independent deals (issue 22 item 4).

    python benchmarks/rotated_deals.py --positions 10000 --deals 12 --seed 10

The lookahead re-deals the unseen cards independently for each rollout. Here
every deal of one decision is instead a single random order of the unseen
cards rotated by r * step (step: the other hands' cards plus the draws a
rollout may make), so the other hands of consecutive deals are disjoint
(sampling without replacement across the deals) while each deal alone is
still a uniform deal. On the positions of benchmarks/decision_values.py
(greedy's 4-action shortlist, two players) it prints, per horizon and number
of deals, the gain per decision of the lookahead's rule (leave greedy's first
only for a gain above 0.5 standard errors) over greedy's first action, scored
by an independent 12-deal truth at horizon 4, and the mean squared error of
the challengers' estimated gains, for independent and for rotated deals.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from decision_values import best_of, lookahead_rule, paired
from decisions import SHORTLIST, listed, position, position_players
from simkit.cards import tables
from simkit.kernels.evaluation import N_VALUE_WEIGHTS
from simkit.kernels.lookahead import (
    N_LOOKAHEAD_PARAMS, P_GREEDY, P_HORIZON, P_OPPONENT, P_PLAYOUT, P_VALUE, FittedLeaf, determinise, draws_needed,
    rollout,
    rollout_value,
)
from simkit.kernels.moves import add_to_hand
from simkit.kernels.policies import GREEDY, UpToGreedy
from simkit.kernels.rng import seed_stream
from simkit.kernels.state import CFG_PLAYERS, PILE_N, PILE_POS, lowest_bit, new_state
from simkit.kernels.turn import WON, play_turn
from simkit.policies import Lineup
from simkit.rules import Rules


@njit(nogil=True)  # no cache: numba would not see edits to the kernels it calls
def rotated_value(tb, cfg, st, sim, seat, team, action, params, base, r, perm, n, step):
    """rollout_value on deal r of the rotated order `perm` (n unseen cards): the other hands dealt
    from perm[r * step:], then the pile in that order."""
    seed_stream(sim.rng, base, r)
    determinise(st, sim, seat, np.int64(0))  # copies what the seat sees; the hidden part is redone below
    for i in range(n):
        sim.pile[i] = perm[(r * step + i) % n]
    # determinise's last step and rollout_value's (kernels/lookahead.py), copied: split out there as
    # kernel functions of their own, the lookahead read 30.3-35.3 games/s per core against 39.0-39.4
    # (strong_play.py, two rounds each, a noisy spell), so they stay where they are.
    sim.ctr[PILE_POS] = 0
    sim.ctr[PILE_N] = n
    for s in range(st.hand_n.shape[0]):
        if s != seat:
            held = sim.held[s]
            while held != np.uint64(0):
                sim.count[s, lowest_bit(held)] = 0
                held &= held - np.uint64(1)
            sim.hand_n[s] = 0
            sim.held[s] = 0
            for _ in range(st.hand_n[s]):
                add_to_hand(sim, s, sim.pile[sim.ctr[PILE_POS]])
                sim.ctr[PILE_POS] += 1
    if play_turn(UpToGreedy(), GREEDY, params[P_GREEDY:P_OPPONENT], tb, cfg, sim, sim, seat, team, action) == WON:
        return 1.0
    return rollout(FittedLeaf(), tb, cfg, sim, (seat + 1) % cfg[CFG_PLAYERS], team,
                   params[P_GREEDY:P_OPPONENT], params[P_OPPONENT:N_LOOKAHEAD_PARAMS],
                   int(params[P_PLAYOUT]), int(params[P_HORIZON]),
                   params[P_VALUE:P_VALUE + N_VALUE_WEIGHTS], -1)


@njit(nogil=True)
def values_of(tb, cfg, ids, seat_params, params4, by_horizon, game, turns, deals, base, st, sim, actions, perm,
              indep, rot, truth):
    """One position: per shortlisted action, values on independent and on rotated deals at each
    horizon (indep, rot: [action, horizon, deal]) and the truth; how many actions."""
    seat = position(tb, cfg, ids, seat_params, st, sim, game, turns)
    if seat < 0:
        return 0
    team = seat % 2
    k = listed(tb, cfg, st, seat, params4[P_GREEDY:P_OPPONENT], actions)
    if k < 2:
        return k
    # one random order of the unseen cards for the decision
    seed_stream(sim.rng, base + np.uint64(5), np.int64(0))
    determinise(st, sim, seat, np.int64(-1))
    n = sim.ctr[PILE_N]
    for i in range(n):
        perm[i] = sim.pile[i]
    hidden = 0
    for s in range(st.hand_n.shape[0]):
        if s != seat:
            hidden += st.hand_n[s]
    for i in range(k):
        total = 0.0
        for r in range(deals):
            for h in range(by_horizon.shape[0]):
                step = hidden + draws_needed(cfg, by_horizon[h])
                indep[i, h, r] = rollout_value(FittedLeaf(), tb, cfg, st, sim, seat, team, actions[i], by_horizon[h], base, np.int64(r))
                rot[i, h, r] = rotated_value(tb, cfg, st, sim, seat, team, actions[i], by_horizon[h], base,
                                             np.int64(r), perm, n, step)
            total += rollout_value(FittedLeaf(), tb, cfg, st, sim, seat, team, actions[i], params4, base + np.uint64(1), np.int64(r))
        truth[i] = total / deals
    return k


def measure(n_positions: int, deals: int, seed: int):
    """(k, independent values, rotated values, truth) of the positions with two or more actions."""
    rules = Rules.make(2)
    tb, cfg = tables(), rules.cfg()
    params4 = Lineup.parse("lookahead", rules).params()[0, 0]
    by_horizon = np.array([Lineup.parse(f"lookahead:horizon={h}", rules).params()[0, 0] for h in (2, 4)])
    ids, seat_params = position_players(2, params4)
    games = np.arange(n_positions, dtype=np.int64) + 100_000 * seed
    turns = np.random.default_rng(seed).integers(2, 45, n_positions).astype(np.int64)
    k = np.zeros(n_positions, np.int64)
    indep = np.zeros((n_positions, SHORTLIST, 2, deals))
    rot = np.zeros_like(indep)
    truth = np.zeros((n_positions, SHORTLIST))
    threads = os.cpu_count() or 1

    def block(b: int) -> None:
        st, sim, actions, perm = new_state(0), new_state(0), np.zeros(SHORTLIST, np.int64), np.zeros(128, np.int64)
        for p in range(b, n_positions, threads):
            k[p] = values_of(tb, cfg, ids, seat_params, params4, by_horizon, games[p], turns[p], deals,
                             np.uint64(10_007 * seed + 2 * p), st, sim, actions, perm, indep[p], rot[p], truth[p])
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(block, range(threads)))
    keep = k >= 2
    return k[keep], indep[keep], rot[keep], truth[keep]


def analyse(k, indep, rot, truth) -> None:
    n, S = len(k), SHORTLIST
    listed_ = np.arange(S)[None, :] < k[:, None]
    def gain(scores):
        g = truth[np.arange(n), best_of(scores, k, S)] - truth[:, 0]
        return f"{g.mean():.4f} +- {g.std() / np.sqrt(n):.4f}"
    def rule(v, deals):
        return lookahead_rule(*paired(v, deals))
    def err(v, deals):
        """mean squared error of each challenger's mean paired gain on `deals` deals against the truth's gain"""
        d = (v[:, 1:, :deals] - v[:, :1, :deals]).mean(2)
        t = truth[:, 1:] - truth[:, :1]
        m = listed_[:, 1:]
        return np.mean((d - t)[m] ** 2)
    print(f"{n} positions")
    for j, h in enumerate((2, 4)):
        for deals in (2, 4, 6, 8, 12):
            print(f"horizon {h}, 4 actions x {deals:2d} deals: independent {gain(rule(indep[:, :, j], deals))} "
                  f"(mse {err(indep[:, :, j], deals):.5f}), rotated {gain(rule(rot[:, :, j], deals))} "
                  f"(mse {err(rot[:, :, j], deals):.5f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--deals", type=int, default=12, help="deals per action (at least 12)")
    parser.add_argument("--seed", type=int, default=10)
    args = parser.parse_args()
    if args.positions < 100 or args.deals < 12:
        parser.error("--positions must be at least 100 and --deals at least 12")
    t = time.perf_counter()
    analyse(*measure(args.positions, args.deals, args.seed))
    print(f"{time.perf_counter() - t:.0f} s (seed {args.seed})")


if __name__ == "__main__":
    main()
