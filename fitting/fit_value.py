"""Fit the lookahead's value weights (kernels/values/evaluation.py) on greedy games of one table shape.

    python fitting/fit_value.py                          # two players, 40,000 games, seed 777
    python fitting/fit_value.py --players 3              # three teams
    python fitting/fit_value.py --players 4 --teams 2    # partners, 2 x 2
    python fitting/fit_value.py --players 6 --teams 3 --games 20000 --seed 1
    python fitting/fit_value.py --fair-of lookahead --games 10000   # the fast policy's value
    python fitting/fit_value.py --of lookahead --games 10000        # the lookahead's value, its own games

Plays games through the engine's own turn (``kernels.core.turn.play_turn``): one
team plays greedy with the lookahead's own weights, every other team the
default greedy, the first team taking each place at the table in turn (the
lookahead's rollouts play that way). Every position at the start of a turn
gives each team's features (``kernels.values.evaluation.features``), and the fit is
the maximum likelihood (multinomial logistic regression) of

    P(team t wins) = exp(z_t) / sum_u exp(z_u),  z_t = w_move [t moves next] + sum_k w_k f_k(t)

(with two teams, the logistic of the score difference). Drawn games are left
out. Prints the log-loss and the share of winners predicted on a held-out
fifth of the games (against a coin: log(teams); at other tables than two
teams, also for the two-player value, the gain of a value per table), and the weights in the order
of ``simkit.game.players.VALUE_NAMES``, as the table's row for
``simkit.game.players.VALUE_WEIGHTS`` (whose rows are this script's output with
its default arguments for each table shape, rounded to three decimals).

With ``--fair-of LINEUP`` every seat plays the line-up, and each position after
a turn gives the features the seat that just played sees
(``kernels.values.fair.fair_features``, what the fast policy scores), the seat to
move next its team's 'moves next' column; the report compares the table's
row of VALUE_WEIGHTS on the same held-out positions.

With ``--of LINEUP`` every seat plays the line-up and the features are the
lookahead's (as without it): its value refitted on stronger games than
greedy's; the report compares the table's row of VALUE_WEIGHTS too.
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

from simkit.game.cards import tables
from simkit.game.players import LOOKAHEAD_OWN_WEIGHTS, VALUE_NAMES, VALUE_WEIGHTS, Lineup, value_table
from simkit.game.rules import Rules
from simkit.kernels.core.jit import COMPILE_OPTIONS
from simkit.kernels.core.state import MAX_TEAMS, new_state
from simkit.kernels.core.tables import N_CODES
from simkit.kernels.core.turn import PASSED, WON, next_seat, play_turn
from simkit.kernels.engine import reset
from simkit.kernels.players import dispatch
from simkit.kernels.players.dispatch import workspace
from simkit.kernels.players.greedy import GREEDY, GREEDY_ID
from simkit.kernels.values.evaluation import N_FEATURES, features
from simkit.kernels.values.fair import fair_features

MAX_PLIES = 400  # greedy games last about 52 plies (2 players); longer ones are cut here


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def self_play(decisions, tb, cfg, ids, params, st, work, seed, game, feats, mover):
    """Play one game on `st` with the line-up (decisions, ids, params: its decisions, each seat's player id
    and parameter row; work its spare arrays); per ply the features of every team (feats
    (MAX_PLIES, MAX_TEAMS * N_FEATURES)) and the seat to move (mover).

    Returns (plies recorded, winning team or -1).
    """
    reset(cfg, st, seed, game)
    players, teams = cfg.players, cfg.teams
    seat, team, passes = 0, 0, 0
    for ply in range(MAX_PLIES):
        features(tb, cfg, st, feats[ply])
        mover[ply] = seat
        result = play_turn(decisions, ids[seat], params[seat], tb, cfg, st, work, seat, team, True)
        if result == WON:
            return ply + 1, team
        passes = passes + 1 if result == PASSED else 0
        if passes == players:
            return ply + 1, -1  # stalemate
        seat, team = next_seat(seat, team, players, teams)
    return MAX_PLIES, -1


def across_threads(teams: int, n_games: int, threads: int, player) -> list:
    """Per game g: (features (plies, teams, N_FEATURES) float32, team to move (plies,), winner or -1).

    The games are dealt in turn to `threads` threads; player() makes one thread's
    play(g, feats, mover) -> (plies recorded, winner), on that thread's own state arrays.
    """
    games: list = [None] * n_games

    def block(b: int) -> None:
        play = player()
        feats = np.zeros((MAX_PLIES, MAX_TEAMS * N_FEATURES))
        mover = np.zeros(MAX_PLIES, np.int64)
        for g in range(b, n_games, threads):
            plies, winner = play(g, feats, mover)
            f = feats[:plies, : teams * N_FEATURES].reshape(plies, teams, N_FEATURES).astype(np.float32)
            games[g] = (f, mover[:plies] % teams, winner)

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(block, range(threads)))
    return games


def play_all(rules: Rules, seed: int, n_games: int, threads: int) -> list:
    """across_threads' games: game g, the team g % teams plays the lookahead's own greedy weights,
    the others the default."""
    tb, cfg, teams = tables(), rules.cfg(), rules.teams
    own, default = GREEDY.row(LOOKAHEAD_OWN_WEIGHTS), GREEDY.row()
    ids = np.full(rules.players, GREEDY_ID, np.int64)

    decisions = dispatch.decisions(ids)

    def player():
        st, work = new_state(), workspace(ids, np.zeros((rules.players, 1)))

        def play(g, feats, mover):
            params = np.array([own if seat % teams == g % teams else default for seat in range(rules.players)])
            return self_play(decisions, tb, cfg, ids, params, st, work, seed, g, feats, mover)

        return play

    return across_threads(teams, n_games, threads, player)


@njit(nogil=True, **COMPILE_OPTIONS)
def fair_self_play(decisions, tb, cfg, ids, params, st, work, seed, game, feats, mover, copies):
    """Play one game with the line-up (ids, params); after each turn that does not end it, every
    team's features as the seat that just played sees them (``kernels.values.fair.fair_features``: what
    the fast policy scores) and the seat to move next.

    Returns (positions recorded, winning team or -1).
    """
    reset(cfg, st, seed, game)
    players, teams = cfg.players, cfg.teams
    seat, team, passes = 0, 0, 0
    for ply in range(MAX_PLIES):
        result = play_turn(decisions, ids[seat], params[seat], tb, cfg, st, work, seat, team, True)
        if result == WON:
            return ply, team
        passes = passes + 1 if result == PASSED else 0
        if passes == players:
            return ply, -1  # stalemate
        fair_features(tb, cfg, st, seat, feats[ply], copies)
        seat, team = next_seat(seat, team, players, teams)
        mover[ply] = seat
    return MAX_PLIES, -1


def play_lineup(rules: Rules, spec: str, seed: int, n_games: int, threads: int, fair: bool = False) -> list:
    """across_threads' games, every seat playing the line-up `spec`: with the lookahead's features
    (self_play), or with `fair` those the fast policy sees (fair_self_play)."""
    tb, cfg = tables(), rules.cfg()
    lineup = Lineup.parse(spec, rules)
    decisions, ids, params = lineup.decisions(), lineup.ids()[0], lineup.params()[0]

    def player():
        st, work = new_state(), workspace(ids, params)
        if fair:
            copies = np.zeros(N_CODES)
            return lambda g, feats, mover: fair_self_play(
                decisions, tb, cfg, ids, params, st, work, seed, g, feats, mover, copies
            )
        return lambda g, feats, mover: self_play(decisions, tb, cfg, ids, params, st, work, seed, g, feats, mover)

    return across_threads(rules.teams, n_games, threads, player)


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


def fit(
    rules: Rules, games: int, seed: int, fair_of: str | None = None, threads: int | None = None, of: str | None = None
) -> tuple[np.ndarray, str]:
    """(weights, report) of the fit for the table `rules`: on greedy games and the full features
    (the lookahead's value), or with `of` a line-up spec, on its games; or with `fair_of` a
    line-up spec, on its games and the features the fast policy sees (its value)."""
    t = time.perf_counter()
    threads = threads or os.cpu_count() or 1
    if fair_of is not None:
        played = play_lineup(rules, fair_of, seed, games, threads, fair=True)
    elif of is not None:
        played = play_lineup(rules, of, seed, games, threads)
    else:
        played = play_all(rules, seed, games, threads)
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
        f"{rules.players} players, {rules.teams} teams ({value_table(rules)}): {games:,} "
        f"{'greedy games' if fair_of is None and of is None else repr(fair_of or of) + ' games'}"
        f"{', fair features' if fair_of is not None else ''} "
        f"(seed {seed}), {len(y):,} positions fitted, {drawn} drawn games left out, "
        f"{time.perf_counter() - t:.0f} s\n"
        f"held-out log-loss {log_loss(w, x_test, y_test)[0]:.4f} (a coin: {np.log(rules.teams):.4f}); "
        f"winner predicted {np.mean(predicted):.3f} (a coin: {1 / rules.teams:.3f})"
    )
    # The gain over reusing the two-player value at this table, or over the value fast plays today
    compared = "2 teams" if fair_of is None and of is None else value_table(rules)
    if fair_of is not None or of is not None or value_table(rules) != "2 teams":
        w2 = np.array(list(VALUE_WEIGHTS[compared].values()))
        predicted2 = np.argmax(x_test @ w2, axis=1) == y_test
        report += (
            f"\nthe {compared!r} value of VALUE_WEIGHTS on the same held-out positions: "
            f"log-loss {log_loss(w2, x_test, y_test)[0]:.4f}; winner predicted {np.mean(predicted2):.3f}"
        )
    return w, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", type=int, help="default: 2, or 3 for 3 or 9 players")
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument(
        "--fair-of",
        metavar="LINEUP",
        help="fit the fast policy's value instead: on games of this line-up (e.g. lookahead), "
        "with the features the seat that just played sees",
    )
    parser.add_argument(
        "--of",
        metavar="LINEUP",
        help="fit the lookahead's value on games of this line-up (e.g. lookahead), every seat "
        "playing it, instead of greedy games",
    )
    parser.add_argument("--threads", type=int, help="default: every core")
    args = parser.parse_args()
    if args.of is not None and args.fair_of is not None:
        parser.error("--of and --fair-of fit different values: give one of them")
    try:
        rules = Rules.make(args.players, args.teams)
    except ValueError as e:
        parser.error(str(e))
    for flag, spec in (("--of", args.of), ("--fair-of", args.fair_of)):
        if spec is not None:
            try:
                Lineup.parse(spec, rules)
            except ValueError as e:
                parser.error(f"{flag}: {e}")
    w, report = fit(rules, args.games, args.seed, args.fair_of, args.threads, args.of)
    print(report)
    for name, v in zip(VALUE_NAMES, w):
        print(f"{name} = {v:.3f}")
    print(f'"{value_table(rules)}": ({", ".join(f"{v:.3f}" for v in w)}),')


if __name__ == "__main__":
    main()
