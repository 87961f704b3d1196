"""Fit the lookahead's value weights (kernels/evaluation.py) on greedy self-play.

    python benchmarks/fit_value.py                  # 20,000 games, seed 777
    python benchmarks/fit_value.py --games 50000 --seed 1

Plays two-player greedy-vs-greedy games, takes every position at the start
of a turn, and fits by maximum likelihood (logistic regression)

    P(the team to move wins) = logistic(w_move + sum_k w_k (f_k(mover) - f_k(other)))

on the features of ``team_features``. Drawn games are left out. Prints the
weights in the order of ``simkit.policies`` (``value_move``, ``value_sequences``,
...) and the log-loss on a held-out fifth of the games; the defaults in
``simkit.policies`` are this script's output with its default arguments,
rounded to three decimals.
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit
from scipy.optimize import minimize
from scipy.special import expit, log_expit

from simkit.cards import tables
from simkit.kernels.engine import reset
from simkit.kernels.evaluation import N_FEATURES, team_features
from simkit.kernels.policies import GREEDY, UpToGreedy
from simkit.kernels.state import new_state
from simkit.kernels.turn import ASK_POLICY, PASSED, WON, play_turn
from simkit.policies import POLICIES, VALUE_WEIGHTS
from simkit.rules import Rules

MAX_PLIES = 400  # greedy games last about 52 plies; longer ones are cut here


@njit(nogil=True)  # no cache: numba would not see edits to the kernels it calls
def self_play(tb, cfg, gparams, st, seed, game, features, mover):
    """Play one greedy game on `st`; features (MAX_PLIES, 2, N_FEATURES) and mover per ply.

    Returns (plies recorded, winning team or -1).
    """
    reset(cfg, st, seed, game)
    seat = 0
    passes = 0
    for ply in range(MAX_PLIES):
        for team in range(2):
            team_features(tb, cfg, st, team, features[ply, team])
        mover[ply] = seat
        result = play_turn(UpToGreedy(), GREEDY, gparams, tb, cfg, st, st, seat, seat, ASK_POLICY)
        if result == WON:
            return ply + 1, seat
        passes = passes + 1 if result == PASSED else 0
        if passes == 2:
            return ply + 1, -1  # stalemate
        seat = 1 - seat
    return MAX_PLIES, -1


def play_all(tb, cfg, gparams, seed, n_games):
    """Features (n, MAX_PLIES, 2, N_FEATURES), mover (n, MAX_PLIES), plies (n,), winner (n,)."""
    features = np.zeros((n_games, MAX_PLIES, 2, N_FEATURES))
    mover = np.zeros((n_games, MAX_PLIES), np.int64)
    plies = np.zeros(n_games, np.int64)
    winner = np.zeros(n_games, np.int64)
    st = new_state(0)
    for g in range(n_games):
        plies[g], winner[g] = self_play(tb, cfg, gparams, st, seed, g, features[g], mover[g])
    return features, mover, plies, winner


def design(features, mover, plies, winner, games):
    """Rows [1, f(mover) - f(other)] and targets (mover wins) for the decided games among `games`."""
    rows, targets = [], []
    for g in games:
        if winner[g] < 0:
            continue
        n = plies[g]
        m = mover[g, :n]
        diff = features[g, np.arange(n), m] - features[g, np.arange(n), 1 - m]
        rows.append(np.column_stack([np.ones(n), diff]))
        targets.append((m == winner[g]).astype(float))
    return np.concatenate(rows), np.concatenate(targets)


def log_loss(w, x, y):
    """Mean negative log-likelihood of the logistic model, and its gradient."""
    z = x @ w
    loss = -np.mean(y * log_expit(z) + (1 - y) * log_expit(-z))
    return loss, x.T @ (expit(z) - y) / len(y)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=777)
    args = parser.parse_args()
    rules = Rules.make(2)
    gparams = np.array(list(POLICIES["greedy"].params.values()))
    features, mover, plies, winner = play_all(tables(), rules.cfg(), gparams, args.seed, args.games)
    held_out = np.arange(args.games) % 5 == 0
    x, y = design(features, mover, plies, winner, np.flatnonzero(~held_out))
    x_test, y_test = design(features, mover, plies, winner, np.flatnonzero(held_out))
    fit = minimize(log_loss, np.zeros(x.shape[1]), args=(x, y), jac=True, method="BFGS")
    if not fit.success:
        raise SystemExit(f"the fit did not converge: {fit.message}")
    print(f"{args.games:,} greedy games (seed {args.seed}), {len(y):,} positions fitted, "
          f"{(winner < 0).sum()} drawn games left out")
    print(f"held-out log-loss {log_loss(fit.x, x_test, y_test)[0]:.4f} "
          f"(a coin: {np.log(2):.4f}); share of outcomes predicted: "
          f"{np.mean((x_test @ fit.x > 0) == (y_test > 0.5)):.3f}")
    for name, w in zip(VALUE_WEIGHTS, fit.x):
        print(f"{name} = {w:.3f}")


if __name__ == "__main__":
    main()
