"""Fit swift's value of hand and board (kernels/values/rich.py) on lookahead games; and a one-ply player on it.

    python fitting/rich_value.py --games 20000 --match 0               # the "2 teams" row of RICH_WEIGHTS
    python fitting/rich_value.py --players 4 --games 20000 --match 0   # the "2 teams, partners" row
    python fitting/rich_value.py --players 12 --games 20000 --match 0  # the "12 players, 2 teams" row
    python fitting/rich_value.py --players 3 --games 20000 --match 0   # the "3 teams" row
    python fitting/rich_value.py --players 6 --teams 3 --games 20000 --match 0   # "3 teams, partners"
    python fitting/rich_value.py --games 20000 --match 4000 --match-seed 4242 --width 2
    python fitting/rich_value.py --leaf-cost --games 0 --match 0       # what a leaf costs

The goal was a player at 50% against the default lookahead at ten
times its speed. The fast policy (``kernels.players.fast``: greedy's shortlist, each
action judged by a linear value of what the seat sees) scores 45-47% at 164
times the speed on the 12 features per team of ``kernels.values.evaluation``; swift
(the lookahead's race on a small budget, its leaves scored by a richer
value) is the answer. This script fits that value:

1. Every seat plays the line-up `--of` (default: the lookahead) at the table
   of `--players` and `--teams`; after each turn that does not end the game,
   the position is described as the seat that just played sees it
   (``kernels.values.rich.rich_features``: the fair features of its team and of the
   others, and the 26 EXTRAS, reading only what RULES.md's Information lets the
   seat see). The label is whether the seat's team won.
2. Two logistic regressions on the same positions (four fifths of the
   games; the held-out fifth scores them): the fair features alone, and with
   the extras. The second's weights, rounded to four decimals, are the table's
   row of ``kernels.values.weights.RICH_WEIGHTS`` (printed last): its shape's,
   fitted with 2, 3, 4 or 6 players, or with 8 or more a row of its own.
3. With `--match GAMES` (two players): a one-ply player on each value
   (greedy's best `--width` actions by the lookahead's own greedy weights,
   each played on a copy of the board and scored by the value) against the
   line-up's policy, seats swapped; on the fair features alone it is what the
   fast policy is, with a value fitted here.

Swift itself is matched by benchmarks/matches.py and timed by benchmarks/compare.py.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit
from scipy.optimize import minimize
from scipy.stats import binomtest

from simkit.game.cards import tables
from simkit.game.players import RICH_NAMES, Lineup, value_table
from simkit.game.rules import Rules
from simkit.kernels.core.jit import COMPILE_OPTIONS
from simkit.kernels.core.state import new_state
from simkit.kernels.core.turn import PASSED, WON, begin_turn, end_turn, next_seat, play_turn
from simkit.kernels.core.workspace import new_workspace
from simkit.kernels.engine import reset
from simkit.kernels.players.dispatch import workspace
from simkit.kernels.players.fast import fast_action, fast_layout
from simkit.kernels.players.rollouts import MAX_SHORTLIST, RACE_ROW
from simkit.kernels.values.evaluation import features
from simkit.kernels.values.leaves import RICH, RICH_VALUE
from simkit.kernels.values.rich import EXTRAS, N_BASE, N_RICH, rich_features

MAX_POSITIONS = 800  # per game (two-player lookahead games last about 50 turns, four-player about 100)


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def record_game(decisions, tb, cfg, ids, params, st, work, seed, game, feats, seats):
    """Play one game of the line-up; after each turn that does not end it, rich_features as the
    seat that just played sees them (feats (MAX_POSITIONS, N_RICH)) and that seat (seats).
    Returns (positions, winning team or -1)."""
    reset(cfg, st, seed, game)
    players = cfg.players
    seat, team, passes = 0, 0, 0
    n = 0
    for _ in range(cfg.max_turns):
        result = play_turn(decisions, ids[seat], params[seat], tb, cfg, st, work, seat, team, True)
        if result == WON:
            return n, team
        passes = passes + 1 if result == PASSED else 0
        if passes == players:
            return n, -1
        if n < MAX_POSITIONS:
            rich_features(tb, cfg, st, seat, feats[n])
            seats[n] = seat
            n += 1
        seat, team = next_seat(seat, team, players, cfg.teams)
    return n, -1


def collect(rules: Rules, spec: str, seed: int, games: int, threads: int) -> list:
    """Per game: (features (n, N_RICH) float32, whether each position's seat's team won (n,))
    for the decided games; None for a drawn one."""
    tb, cfg = tables(), rules.cfg()
    lineup = Lineup.parse(spec, rules)
    decisions, ids, params = lineup.decisions(), lineup.ids()[0], lineup.params()[0]
    out: list = [None] * games

    def block(b: int) -> None:
        st, work = new_state(), workspace(ids, params)
        feats = np.zeros((MAX_POSITIONS, N_RICH))
        seats = np.zeros(MAX_POSITIONS, np.int64)
        for g in range(b, games, threads):
            n, winner = record_game(decisions, tb, cfg, ids, params, st, work, seed, g, feats, seats)
            if winner >= 0:
                out[g] = (feats[:n].astype(np.float32), (seats[:n] % rules.teams == winner).astype(np.float64))

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(block, range(threads)))
    return out


def stack(played: list, which) -> tuple[np.ndarray, np.ndarray]:
    rows = [played[g] for g in which if played[g] is not None]
    return np.concatenate([r[0] for r in rows]).astype(np.float64), np.concatenate([r[1] for r in rows])


def binary_loss(w, x, y):
    """Mean log-loss of P(win) = logistic(x @ w[:-1] + w[-1]), and its gradient."""
    z = x @ w[:-1] + w[-1]
    loss = np.mean(np.logaddexp(0.0, z) - y * z)
    p = 1.0 / (1.0 + np.exp(-z)) - y
    return loss, np.concatenate([x.T @ p, [p.sum()]]) / len(y)


def fit_logistic(x, y):
    """Weights (k + 1,) in the features' own units (the last: the intercept)."""
    mu, sd = x.mean(0), x.std(0)
    sd[sd == 0] = 1.0
    xs = (x - mu) / sd
    r = minimize(
        binary_loss, np.zeros(x.shape[1] + 1), args=(xs, y), jac=True, method="L-BFGS-B", options={"maxiter": 5000}
    )
    w = r.x[:-1] / sd
    return np.concatenate([w, [r.x[-1] - np.dot(w, mu)]])


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def match_game(decisions, tb, cfg, ids, params, st, work, fast_work, seed, game, mine, row):
    """One game: team `mine` plays the one-ply player (``kernels.players.fast.fast_action`` on the richer
    value, its parameter row `row`), the other the line-up's policy. The winner or -1."""
    reset(cfg, st, seed, game)
    players = cfg.players
    seat, team, passes = 0, 0, 0
    for _ in range(cfg.max_turns):
        if team == mine:
            begin_turn(tb, cfg, st, seat, True)
            code, cell = fast_action(tb, cfg, st, fast_work, seat, team, row)
            result = end_turn(tb, cfg, st, seat, team, code, cell, True)
        else:
            result = play_turn(decisions, ids[seat], params[seat], tb, cfg, st, work, seat, team, True)
        if result == WON:
            return team
        passes = passes + 1 if result == PASSED else 0
        if passes == players:
            return -1
        seat, team = next_seat(seat, team, players, 2)
    return -1


def play_match(rules: Rules, spec: str, weights: np.ndarray, width: int, games: int, seed: int, threads: int) -> dict:
    """The one-ply player on `weights` against `spec`, seats swapped: score, 95% Wilson interval."""
    tb, cfg = tables(), rules.cfg()
    lineup = Lineup.parse(spec, rules)
    decisions, ids, params = lineup.decisions(), lineup.ids()[0], lineup.params()[0]
    own = params[0, RACE_ROW.own : RACE_ROW.race]  # the line-up's own greedy block (a race player's)
    layout = fast_layout(RICH, RICH_VALUE)  # the fast player's row, scoring by the value of hand and board
    row = np.concatenate([own, [width], [RICH], weights])
    assert len(row) == layout.width and layout.at.value == len(row) - len(weights)
    winners = np.zeros(games, np.int64)
    mine = np.arange(games) % 2

    def block(b: int) -> None:
        st, work, fast_work = new_state(), workspace(ids, params), new_workspace(0)  # the one-ply player's own
        for g in range(b, games, threads):
            winners[g] = match_game(decisions, tb, cfg, ids, params, st, work, fast_work, seed, g, mine[g], row)

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(block, range(threads)))
    score = float((winners == mine).sum() + 0.5 * (winners < 0).sum())
    ci = binomtest(round(score), games).proportion_ci(0.95, method="wilson")
    return {"share": score / games, "low": ci.low, "high": ci.high}


@njit(nogil=True, **COMPILE_OPTIONS)
def leaf_loop(tb, cfg, st, out, n, rich):
    """Compute a leaf's features n times on st: kernels.values.rich's, or kernels.values.evaluation's (the
    lookahead's)."""
    total = 0.0
    for _ in range(n):
        if rich:
            rich_features(tb, cfg, st, 0, out)
        else:
            features(tb, cfg, st, out)
        total += out[3]
    return total


def leaf_cost(rules: Rules, spec: str, seed: int, calls: int = 200_000) -> str:
    """Microseconds per call of swift's leaf features and of the lookahead's, one thread, on the
    positions after 10, 20 and 30 turns of game 0 of `spec` (its first seat's policy on every seat)."""
    tb, cfg = tables(), rules.cfg()
    lineup = Lineup.parse(spec, rules)
    decisions, ids, params = lineup.decisions(), lineup.ids()[0], lineup.params()[0]
    st, work = new_state(), workspace(ids, params)
    out = np.zeros(max(N_RICH, 3 * N_BASE))
    cost = {True: [], False: []}
    reset(cfg, st, seed, 0)
    seat, team = 0, 0
    for turn in range(1, 31):
        if play_turn(decisions, ids[seat], params[seat], tb, cfg, st, work, seat, team, True) == WON:
            break
        seat, team = next_seat(seat, team, rules.players, rules.teams)
        if turn % 10 == 0:
            for rich in (True, False):
                leaf_loop(tb, cfg, st, out, 10, rich)
                t = time.perf_counter()
                leaf_loop(tb, cfg, st, out, calls, rich)
                cost[rich].append((time.perf_counter() - t) / calls * 1e6)
    return (
        f"one thread, {calls:,} calls at turns 10, 20, 30: kernels.values.rich.rich_features "
        f"{', '.join(f'{c:.2f}' for c in cost[True])} us per call, the lookahead's leaf features "
        f"{', '.join(f'{c:.2f}' for c in cost[False])} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--of", default="lookahead", help="the line-up whose games are fitted and played against")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", type=int, help="default: 2, or 3 for 3 or 9 players")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--match", type=int, default=0, help="games of each one-ply match (two players; 0: none)")
    parser.add_argument("--match-seed", type=int, default=5151)
    parser.add_argument(
        "--values",
        nargs="+",
        default=["fair features", "fair + extras"],
        choices=["fair features", "fair + extras"],
        help="the values to match",
    )
    parser.add_argument(
        "--leaf-cost", action="store_true", help="time swift's leaf features against the lookahead's first"
    )
    parser.add_argument("--width", type=int, default=2, help="greedy's actions the one-ply player judges")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--data",
        metavar="NPZ",
        help="keep the collected positions here: read them if the "
        "file exists (made with the same --of, --players, --games and --seed), else write it",
    )
    args = parser.parse_args()
    if not 1 <= args.width <= MAX_SHORTLIST:
        parser.error(f"--width must be 1 to {MAX_SHORTLIST}")
    if args.match and (args.players != 2 or args.teams not in (None, 2)):
        parser.error("--match plays two-player games only: give --players 2 or --match 0")
    try:
        rules = Rules.make(args.players, args.teams)
        Lineup.parse(args.of, rules)
    except ValueError as e:
        parser.error(str(e))
    if args.leaf_cost:
        print(leaf_cost(rules, args.of, args.seed))
    if args.games == 0:
        return
    t = time.perf_counter()
    key = np.array([args.of, str(args.games), str(args.seed), str(N_RICH), str(args.players), str(rules.teams)])
    if args.data and os.path.exists(args.data):
        saved = np.load(args.data)
        if not np.array_equal(saved["key"], key):
            parser.error(f"{args.data} holds positions of {list(saved['key'])}, not of {list(key)}")
        x, y, xt, yt = (saved[k] for k in ("x", "y", "xt", "yt"))
    else:
        played = collect(rules, args.of, args.seed, args.games, args.threads)
        held_out = np.arange(args.games) % 5 == 0
        x, y = stack(played, np.flatnonzero(~held_out))
        xt, yt = stack(played, np.flatnonzero(held_out))
        if args.data:
            np.savez(args.data + ".tmp.npz", key=key, x=x, y=y, xt=xt, yt=yt)
            os.replace(args.data + ".tmp.npz", args.data)
    print(
        f"{args.games:,} {args.of!r} games at {args.players} players, {rules.teams} teams (seed {args.seed}): "
        f"{len(y):,} positions fitted, {len(yt):,} held out, {time.perf_counter() - t:.0f} s"
    )
    fits = {}
    for name, cols in (("fair features", N_BASE), ("fair + extras", N_RICH)):
        w = fit_logistic(x[:, :cols], y)
        loss = binary_loss(w, xt[:, :cols], yt)[0]
        right = np.mean(((xt[:, :cols] @ w[:-1] + w[-1]) > 0) == (yt > 0.5))
        print(f"{name:14s} held-out log-loss {loss:.4f}, winner predicted {right:.3f} (a coin: 0.6931, 0.5)")
        fits[name] = (w, cols)
    if args.match:
        for name in args.values:
            w, cols = fits[name]
            weights = np.concatenate([w[:-1], np.zeros(N_RICH - cols), w[-1:]])
            m = play_match(rules, args.of, weights, args.width, args.match, args.match_seed, args.threads)
            print(
                f"one ply on {name}, width {args.width}, against {args.of!r}: {m['share']:.1%} "
                f"[{m['low']:.1%}, {m['high']:.1%}] of {args.match:,} games"
            )
    w, _ = fits["fair + extras"]
    assert len(RICH_NAMES) == len(w) == N_RICH + 1
    width = max(len(n) for n in RICH_NAMES)
    for (name, v), (_, what) in zip(zip(RICH_NAMES[N_BASE:], w[N_BASE:]), [*EXTRAS, ("", "the intercept")]):
        print(f"  {name:{width}s} {v:+8.4f}  {what}")
    print(
        f'"{rules.players} players, {rules.teams} teams" (shape "{value_table(rules)}"): '
        f"({', '.join(f'{v:.4f}' for v in w)}),"
    )


if __name__ == "__main__":
    main()
