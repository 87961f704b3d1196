"""Fit the lookahead's value weights (kernels/evaluation.py) on greedy games of one table shape.

    python benchmarks/fit_value.py                          # two players, 40,000 games, seed 777
    python benchmarks/fit_value.py --players 3              # three teams
    python benchmarks/fit_value.py --players 4 --teams 2    # partners, 2 x 2
    python benchmarks/fit_value.py --players 6 --teams 3 --games 20000 --seed 1

Plays games through the engine's own turn (``kernels.turn.play_turn``): one
team plays greedy with the lookahead's own weights, every other team the
default greedy, the first team taking each place at the table in turn (the
lookahead's rollouts play that way). Every position at the start of a turn
gives each team's features (``kernels.evaluation.features``), and the fit is
the maximum likelihood (multinomial logistic regression) of

    P(team t wins) = exp(z_t) / sum_u exp(z_u),  z_t = w_move [t moves next] + sum_k w_k f_k(t)

(with two teams, the logistic of the score difference). Drawn games are left
out. Prints the log-loss and the share of winners predicted on a held-out
fifth of the games (against a coin: log(teams); at other tables than two
teams, also for the two-player value, the gain of a value per table), and the weights in the order
of ``simkit.policies.VALUE_NAMES``, as the table's row for
``simkit.policies.VALUE_WEIGHTS`` (whose rows are this script's output with
its default arguments for each table shape, rounded to three decimals).
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit
from scipy.optimize import minimize
from scipy.special import logsumexp, softmax

from simkit.cards import tables
from simkit.kernels.engine import reset
from simkit.kernels.evaluation import N_FEATURES, features
from simkit.kernels.jit import COMPILE_OPTIONS
from simkit.kernels.policies import GREEDY, UpToGreedy
from simkit.kernels.state import CFG_PLAYERS, CFG_TEAMS, MAX_TEAMS, new_state
from simkit.kernels.turn import ASK_POLICY, PASSED, WON, next_seat, play_turn
from simkit.policies import LOOKAHEAD_OWN_WEIGHTS, POLICIES, VALUE_NAMES, VALUE_WEIGHTS, value_table
from simkit.rules import Rules

MAX_PLIES = 400  # greedy games last about 52 plies (2 players); longer ones are cut here


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def self_play(tb, cfg, weights, st, seed, game, feats, mover):
    """Play one game on `st`, team t with greedy weights[t]; per ply the features of every
    team (feats (MAX_PLIES, MAX_TEAMS * N_FEATURES)) and the seat to move (mover).

    Returns (plies recorded, winning team or -1).
    """
    reset(cfg, st, seed, game)
    players, teams = cfg[CFG_PLAYERS], cfg[CFG_TEAMS]
    seat, team, passes = 0, 0, 0
    for ply in range(MAX_PLIES):
        features(tb, cfg, st, feats[ply])
        mover[ply] = seat
        result = play_turn(UpToGreedy(), GREEDY, weights[team], tb, cfg, st, st, seat, team, ASK_POLICY)
        if result == WON:
            return ply + 1, team
        passes = passes + 1 if result == PASSED else 0
        if passes == players:
            return ply + 1, -1  # stalemate
        seat, team = next_seat(seat, team, players, teams)
    return MAX_PLIES, -1


def play_all(rules: Rules, seed: int, n_games: int) -> list:
    """Per game: (features (plies, teams, N_FEATURES), team to move (plies,), winner or -1).

    Game g: the team g % teams plays the lookahead's own greedy weights, the others the default.
    """
    tb, cfg, teams = tables(), rules.cfg(), rules.teams
    own = np.array(list(LOOKAHEAD_OWN_WEIGHTS.values()))
    default = np.array(list(POLICIES["greedy"].params.values()))
    games: list = [None] * n_games

    def block(b: int, blocks: int) -> None:
        st = new_state(0)
        feats = np.zeros((MAX_PLIES, MAX_TEAMS * N_FEATURES))
        mover = np.zeros(MAX_PLIES, np.int64)
        for g in range(b, n_games, blocks):
            weights = np.array([own if t == g % teams else default for t in range(teams)])
            plies, winner = self_play(tb, cfg, weights, st, seed, g, feats, mover)
            f = feats[:plies, : teams * N_FEATURES].reshape(plies, teams, N_FEATURES).astype(np.float32)
            games[g] = (f, mover[:plies] % teams, winner)

    blocks = os.cpu_count() or 1
    with ThreadPoolExecutor(blocks) as pool:
        list(pool.map(block, range(blocks), [blocks] * blocks))
    return games


def design(games: list, which) -> tuple[np.ndarray, np.ndarray]:
    """Per position of the decided games among `which`: every team's features after a
    'moves next' column (n, teams, 1 + N_FEATURES), and the winning team (n,)."""
    rows, targets = [], []
    for g in which:
        f, mover, winner = games[g]
        if winner < 0:
            continue
        moves = (np.arange(f.shape[1])[None, :] == mover[:, None]).astype(np.float32)
        rows.append(np.concatenate([moves[:, :, None], f], axis=2))
        targets.append(np.full(len(f), winner))
    return np.concatenate(rows).astype(np.float64), np.concatenate(targets)


def log_loss(w, x, y):
    """Mean negative log-likelihood of the softmax model, and its gradient."""
    z = x @ w  # (n, teams)
    lse = logsumexp(z, axis=1)
    loss = np.mean(lse - z[np.arange(len(y)), y])
    p = softmax(z, axis=1)
    p[np.arange(len(y)), y] -= 1.0
    return loss, np.einsum("nt,ntk->k", p, x) / len(y)


def fit(rules: Rules, games: int, seed: int) -> tuple[np.ndarray, str]:
    """(weights, report) of the fit for the table `rules`."""
    t = time.perf_counter()
    played = play_all(rules, seed, games)
    held_out = np.arange(games) % 5 == 0
    x, y = design(played, np.flatnonzero(~held_out))
    x_test, y_test = design(played, np.flatnonzero(held_out))
    drawn = sum(winner < 0 for _, _, winner in played)
    result = minimize(log_loss, np.zeros(x.shape[2]), args=(x, y), jac=True, method="BFGS")
    if not result.success:
        raise SystemExit(f"the fit did not converge: {result.message}")
    w = result.x
    predicted = np.argmax(x_test @ w, axis=1) == y_test
    report = (
        f"{rules.players} players, {rules.teams} teams ({value_table(rules)}): {games:,} greedy games "
        f"(seed {seed}), {len(y):,} positions fitted, {drawn} drawn games left out, "
        f"{time.perf_counter() - t:.0f} s\n"
        f"held-out log-loss {log_loss(w, x_test, y_test)[0]:.4f} (a coin: {np.log(rules.teams):.4f}); "
        f"winner predicted {np.mean(predicted):.3f} (a coin: {1 / rules.teams:.3f})"
    )
    if value_table(rules) != "2 teams":  # the gain over reusing the two-player value at this table
        w2 = np.array(list(VALUE_WEIGHTS["2 teams"].values()))
        predicted2 = np.argmax(x_test @ w2, axis=1) == y_test
        report += (
            f"\nthe two-player value on the same held-out games: log-loss {log_loss(w2, x_test, y_test)[0]:.4f}; "
            f"winner predicted {np.mean(predicted2):.3f}"
        )
    return w, report
    return w, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", type=int, help="default: 2, or 3 for 3 or 9 players")
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=777)
    args = parser.parse_args()
    try:
        rules = Rules.make(args.players, args.teams)
    except ValueError as e:
        parser.error(str(e))
    w, report = fit(rules, args.games, args.seed)
    print(report)
    for name, v in zip(VALUE_NAMES, w):
        print(f"{name} = {v:.3f}")
    print(f'"{value_table(rules)}": ({", ".join(f"{v:.3f}" for v in w)}),')


if __name__ == "__main__":
    main()
