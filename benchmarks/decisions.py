"""How well a lookahead variant chooses, measured on fixed positions in seconds, not hours.

    python benchmarks/decisions.py lookahead lookahead:horizon=0:playout=1:margin=1
    python benchmarks/decisions.py --players 3 lookahead lookahead:value_move=0.2   # other tables

A match of 10,000 games takes minutes per variant and still has a 95% interval
of +-1 point; this measures the decisions themselves. Positions: 480 greedy
self-play games (seed 99), each stopped at a random turn (2-44), the seat to
move having swapped its dead cards. For each position the greedy shortlist
(the default lookahead's own weights, 4 actions) is valued once and for all by
`--truth` full-length greedy rollouts per action (a lookahead with
``horizon=0``): an estimate of each action's chance to win when every later
move is greedy's. A variant then decides each position `--repeats` times
with different generators, and scores the mean gain of its choice over the
first-listed action, in points of that chance.

By the performance difference lemma, a policy that plays like greedy except
at its own decisions beats greedy by about the sum of these gains over a
game's decisions. Only shortlist choices count: a variant whose choice is not
on the 4-action shortlist is charged nothing (it would show as a bad match
result instead). Caveat: the truth is itself an estimate (its standard
error per action is about 0.005), which inflates the printed oracle (the
best action by the truth) but not the variants' gains.

`--players`/`--teams` take the positions and the truth from games of another
table (in them the seat to move plays for team seat % teams; the truth's
rollouts play the lookahead's own weights for that team and the default greedy
for the others). The truth is cached per table in benchmarks/.decisions-truth.npz,
keyed on the positions and the greedy weights: delete it after changing how
turns or rollouts are played.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from numba import njit

from simkit.cards import tables
from simkit.kernels.engine import play_game
from simkit.kernels.greedy import N_GREEDY_PARAMS, score_actions
from simkit.kernels.lookahead import (
    N_LOOKAHEAD_PARAMS, P_GREEDY, P_OPPONENT, FittedLeaf, lookahead_action, rollout_value, shortlist,
)
from simkit.kernels.moves import swap_dead
from simkit.kernels.policies import GREEDY, UpToGreedy, choose_dead
from simkit.kernels.state import CFG_MAX_TURNS, CFG_PLAYERS, CFG_TEAMS, END_TURN_CAP, S_END, new_state
from simkit.policies import N_PARAMS, Lineup
from simkit.rules import Rules

SHORTLIST = 4
CACHE = Path(__file__).resolve().parent / ".decisions-truth.npz"


@njit  # no cache: numba would not see edits to the kernels it calls
def position(tb, cfg, ids, seat_params, st, sim, game, turns):
    """Game `game` (seed 99) stopped by a turn cap before turn `turns`, the seat to move
    having swapped its dead card; that seat, or -1 if the game ended sooner."""
    capped = cfg.copy()
    capped[CFG_MAX_TURNS] = turns
    play_game(UpToGreedy(), tb, capped, ids, seat_params, st, sim, 99, game)
    if st.stats[S_END] != END_TURN_CAP:
        return -1
    seat = turns % cfg[CFG_PLAYERS]
    dead = choose_dead(ids[seat], seat_params[seat], tb, cfg, st, seat, seat % cfg[CFG_TEAMS])
    if dead >= 0:
        swap_dead(cfg, st, seat, dead)
    return seat


@njit
def listed(tb, cfg, st, seat, gparams, out):
    """The SHORTLIST best actions by greedy score into out; how many there are."""
    n = score_actions(tb, cfg, st, seat, seat % cfg[CFG_TEAMS], gparams, st.scratch, st.fscores)
    k = shortlist(st.scratch, st.fscores, n, SHORTLIST)
    out[:k] = st.scratch[:k]
    return k


@njit(nogil=True)
def truth_of(tb, cfg, ids, seat_params, params, game, turns, rollouts, st, sim, actions, q):
    """q[i]: chance to win of shortlisted action i of one position; NaN where there is none."""
    seat = position(tb, cfg, ids, seat_params, st, sim, game, turns)
    if seat < 0:
        return
    k = listed(tb, cfg, st, seat, params[P_GREEDY:P_OPPONENT], actions)
    if k < 2:
        return
    for i in range(k):
        total = 0.0
        for r in range(rollouts):
            total += rollout_value(FittedLeaf(), tb, cfg, st, sim, seat, seat % cfg[CFG_TEAMS], actions[i], params,
                                   np.uint64(424242), r)
        q[i] = total / rollouts


@njit(nogil=True)
def choices_of(tb, cfg, ids, seat_params, params, game, turns, st, sim, actions, out):
    """out[rep]: index in the shortlist of the variant's choice at one position, -1 if off it."""
    for rep in range(out.shape[0]):
        seat = position(tb, cfg, ids, seat_params, st, sim, game, turns)
        if seat < 0:
            break
        k = listed(tb, cfg, st, seat, seat_params[seat], actions)
        st.rng[0] = np.uint64(1000 + 7919 * rep)
        code, cell = lookahead_action(tb, cfg, st, sim, seat, seat % cfg[CFG_TEAMS], params)
        for i in range(k):
            if actions[i] == code * 128 + cell:
                out[rep] = i


def position_players(players: int, lookahead_params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ids, seat_params) of the self-play that makes the positions: every seat greedy with the
    lookahead's own weights (read from a lookahead parameter row)."""
    ids = np.full(players, GREEDY, np.int64)
    seat_params = np.zeros((players, N_PARAMS))
    seat_params[:, :N_GREEDY_PARAMS] = lookahead_params[P_GREEDY:P_OPPONENT]
    return ids, seat_params


def per_position(kernel, out, games, turns, *args):
    """kernel(..., game, turns, ..., st, sim, actions, out[p]) for every position, on all cores."""
    def one(p):
        kernel(*args[:5], games[p], turns[p], *args[5:], new_state(0), new_state(0),
               np.zeros(SHORTLIST, np.int64), out[p])

    with ThreadPoolExecutor(os.cpu_count()) as pool:
        list(pool.map(one, range(len(games))))
    return out


def truth(tb, cfg, ids, seat_params, params, games, turns, rollouts):
    """(P, SHORTLIST) chance to win of each shortlisted action; NaN where there is none."""
    q = np.full((len(games), SHORTLIST), np.nan)
    return per_position(truth_of, q, games, turns, tb, cfg, ids, seat_params, params, rollouts)


def choices(tb, cfg, ids, seat_params, params, games, turns, repeats):
    """(P, repeats) index in the shortlist of the variant's choice, -1 if off it."""
    out = np.full((len(games), repeats), -1, np.int64)
    return per_position(choices_of, out, games, turns, tb, cfg, ids, seat_params, params)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", help="lookahead specs, e.g. lookahead:rollouts=64")
    parser.add_argument("--positions", type=int, default=480)
    parser.add_argument("--truth", type=int, default=4000, help="rollouts per action for the truth")
    parser.add_argument("--repeats", type=int, default=8)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", type=int, help="default: 2, or 3 for 3 or 9 players")
    args = parser.parse_args()
    try:
        rules = Rules.make(args.players, args.teams)
    except ValueError as e:
        parser.error(str(e))
    tb, cfg = tables(), rules.cfg()
    reference = Lineup.parse("lookahead:horizon=0:playout=0", rules).params()[0, 0]
    # Positions come from self-play of greedy with the lookahead's own weights.
    ids, seat_params = position_players(rules.players, reference)
    games = np.arange(args.positions, dtype=np.int64) + 5000
    turns = np.random.default_rng(1).integers(2, 45, args.positions).astype(np.int64)
    key = f"engine-{args.positions}-{args.truth}-{reference[P_GREEDY:N_LOOKAHEAD_PARAMS].tobytes().hex()}"
    table = "" if rules.players == 2 else f"-p{rules.players}t{rules.teams}"  # one entry per table
    cached = dict(np.load(CACHE)) if CACHE.exists() else {}
    if str(cached.get(f"key{table}")) == key:
        q = cached[f"q{table}"]
    else:
        t = time.perf_counter()
        q = truth(tb, cfg, ids, seat_params, reference, games, turns, args.truth)
        np.savez(CACHE, **{**cached, f"q{table}": q, f"key{table}": key})
        print(f"truth: {args.truth} greedy rollouts per action, {time.perf_counter() - t:.0f} s")
    valued = ~np.isnan(q[:, 1])
    oracle = np.nanmax(q[valued], axis=1) - q[valued, 0]
    print(f"{valued.sum()} positions with 2+ actions; oracle gain {oracle.mean():.4f} per decision")
    for spec in args.variants:
        params = Lineup.parse(spec, rules).params()[0, 0]
        t = time.perf_counter()
        chosen = choices(tb, cfg, ids, seat_params, params, games, turns, args.repeats)
        seconds = time.perf_counter() - t
        gains = np.array([q[p, c] - q[p, 0] for p in np.flatnonzero(valued) for c in chosen[p] if c >= 0])
        print(f"{spec}: gain {gains.mean():.4f} +- {gains.std() / np.sqrt(len(gains)):.4f} per decision, "
              f"leaves the first action {np.mean(gains != 0):.0%} of the time, {seconds:.1f} s")


if __name__ == "__main__":
    main()
