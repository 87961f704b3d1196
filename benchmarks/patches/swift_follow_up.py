"""An experiment, not kept: swift whose own last rollout ply is chosen by the one-ply value (fifteenth session).

    python benchmarks/patches/swift_follow_up.py --seeds 7373 8484 9595 --width 2 3
    python benchmarks/patches/swift_follow_up.py --seeds 1111 2222 3333 --width 3
    python benchmarks/patches/swift_follow_up.py --speed 400 --width 2 3       # one thread, self-play

swift's rollouts (horizon 2) play the other seat's reply, then the searching
seat's own next move by greedy, and score the leaf by the richer value. Here
that own move is instead the one-ply player's (``kernels.fast.fast_action``
with ``RichLeaf()``: greedy's best `width` actions, each scored by the same
value) when ``--follow 1``; ``--follow 0`` is swift's rollout in this
script's copy of the race (``kernels.lookahead.raced_action``), so the two
are compared on the same deals. The player plays the default lookahead, seats
swapped by game (the team of game g's first seat: g % 2), by the rule's
default spec below; benchmarks/matches.md (fifteenth session) has the figures.
A third State holds the one-ply player's copies (the kernel's swift has two).
"""
import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import numpy as np
from numba import njit
from scipy.stats import binomtest
from simkit.cards import tables
from simkit.kernels.engine import reset
from simkit.kernels.fast import fast_action
from simkit.kernels.jit import COMPILE_OPTIONS
from simkit.kernels.lookahead import (RichLeaf, P_VALUE, P_HORIZON, P_SHORTLIST, P_ROLLOUTS, P_RACE, P_MARGIN,
    MAX_SHORTLIST, BATCH, value_size, gap_at, leaf_chance, determinise, draws_needed, wins_at_once,
    paired_mean, shortlist)
from simkit.kernels.greedy import N_GREEDY_PARAMS, score_actions
from simkit.kernels.moves import swap_dead
from simkit.kernels.policies import choose_dead, workspace, GREEDY, UpToGreedy
from simkit.kernels.rng import next_u64, seed_stream
from simkit.kernels.state import CFG_MAX_TURNS, CFG_PLAYERS, CFG_TEAMS, may_swap_dead, new_state
from simkit.kernels.turn import ASK_POLICY, PASSED, WON, next_seat, play_turn
from simkit.policies import Lineup, RICH_WEIGHTS, LOOKAHEAD_OWN_WEIGHTS
from simkit.rules import Rules

NG = N_GREEDY_PARAMS


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def follow_value(tb, cfg, st, sim, view, seat, team, action, params, frow, follow, base, r):
    """kernels.lookahead.rollout_value for swift's leaves, the own last ply by fast_action (width frow[0])
    when follow > 0; view: a third State for its copies."""
    leaf = RichLeaf()
    g = P_VALUE + value_size(leaf)
    gparams, oparams = params[g:g + NG], params[g + NG:g + 2 * NG]
    seed_stream(sim.rng, base, r)
    determinise(st, sim, seat, draws_needed(cfg, params))
    if play_turn(UpToGreedy(), GREEDY, gparams, tb, cfg, sim, sim, seat, team, action) == WON:
        return 1.0
    players, teams = cfg[CFG_PLAYERS], cfg[CFG_TEAMS]
    horizon = int(params[P_HORIZON])
    s = (seat + 1) % players
    s_team = s % teams
    passes = 0
    for ply in range(horizon):
        a = ASK_POLICY
        own = s_team == team
        w = gparams if own else oparams
        if follow > 0 and own and ply == horizon - 1:
            if may_swap_dead(cfg, sim):
                dead = choose_dead(GREEDY, gparams, tb, cfg, sim, s, s_team)
                if dead >= 0:
                    swap_dead(cfg, sim, s, dead)
            code, cell = fast_action(leaf, tb, cfg, sim, view, s, s_team, frow)
            a = code * 128 + cell if code >= 0 else -129
        result = play_turn(UpToGreedy(), GREEDY, w, tb, cfg, sim, sim, s, s_team, a)
        if result == WON:
            return 1.0 if own else 0.0
        if result == PASSED:
            passes += 1
            if passes == players:
                return 0.5
        else:
            passes = 0
        s, s_team = next_seat(s, s_team, players, teams)
    return leaf_chance(leaf, tb, cfg, sim, s, team, -1, params[P_VALUE:g])


@njit(nogil=True, **COMPILE_OPTIONS)
def follow_action(tb, cfg, st, sim, view, seat, team, params, frow, follow):
    """kernels.lookahead.raced_action with RichLeaf() and follow_value's rollouts, as (card, cell)."""
    leaf = RichLeaf()
    g = P_VALUE + value_size(leaf)
    gparams = params[g:g + NG]
    actions, scores = st.scratch, st.fscores
    n = score_actions(tb, cfg, st, seat, team, gparams, actions, scores)
    if n == 0:
        return -1, -1
    short = shortlist(actions, scores, n, min(max(int(params[P_SHORTLIST]), 1), MAX_SHORTLIST))
    gap = params[gap_at(leaf)]
    if gap > 0.0:
        while short > 1 and scores[0] - scores[short - 1] > gap:
            short -= 1
    rollouts = int(params[P_ROLLOUTS])
    if short == 1 or rollouts < 1:
        return actions[0] // 128, actions[0] % 128
    base = next_u64(st.rng)
    if wins_at_once(tb, cfg, st, sim, seat, team, actions[0], gparams, base):
        return actions[0] // 128, actions[0] % 128
    acc, racing = st.fscratch, st.scratch[MAX_SHORTLIST:MAX_SHORTLIST + short]
    for i in range(short):
        acc[8 + 2 * i] = 0.0
        acc[9 + 2 * i] = 0.0
        racing[i] = 1
    left = short - 1
    race = params[P_RACE]
    batch = int(params[gap_at(leaf) + 1])
    if batch < 1:
        batch = BATCH
    r = np.int64(0)
    while r < rollouts and left > 0:
        end = min(r + batch, rollouts)
        while r < end:
            first = follow_value(tb, cfg, st, sim, view, seat, team, actions[0], params, frow, follow, base, r)
            for i in range(1, short):
                if racing[i] == 1:
                    d = follow_value(tb, cfg, st, sim, view, seat, team, actions[i], params, frow, follow, base,
                                     r) - first
                    acc[8 + 2 * i] += d
                    acc[9 + 2 * i] += d * d
            r += 1
        if race > 0.0:
            for i in range(1, short):
                if racing[i] == 1:
                    mean, se = paired_mean(acc, i, r)
                    if mean + race * se <= 0.0:
                        racing[i] = 0
                        left -= 1
    chosen, chosen_gain = 0, 0.0
    for i in range(1, short):
        if racing[i] == 1:
            mean, se = paired_mean(acc, i, r)
            if mean > params[P_MARGIN] * se and mean > chosen_gain:
                chosen, chosen_gain = i, mean
    return actions[chosen] // 128, actions[chosen] % 128


@njit(nogil=True, **COMPILE_OPTIONS)
def match_game(policies, tb, cfg, ids, params, st, sim, sim2, view, seed, game, mine, row, frow, follow, both):
    """One game: team `mine` (both: every team) plays follow_action, the other the line-up's policy.
    The winning team or -1."""
    reset(cfg, st, seed, game)
    players = cfg[CFG_PLAYERS]
    seat, team, passes = 0, 0, 0
    for _ in range(cfg[CFG_MAX_TURNS]):
        action = ASK_POLICY
        if team == mine or both:
            if may_swap_dead(cfg, st):
                dead = choose_dead(ids[seat], params[seat], tb, cfg, st, seat, team)
                if dead >= 0:
                    swap_dead(cfg, st, seat, dead)
            code, cell = follow_action(tb, cfg, st, sim2, view, seat, team, row, frow, follow)
            action = code * 128 + cell if code >= 0 else -129
        result = play_turn(policies, ids[seat], params[seat], tb, cfg, st, sim, seat, team, action)
        if result == WON:
            return team
        passes = passes + 1 if result == PASSED else 0
        if passes == players:
            return -1
        seat, team = next_seat(seat, team, players, 2)
    return -1


# The fourteenth session's best fast player: the lookahead's own greedy weights as its model of the other seat.
OWN = "opponent_build=0.7:opponent_growth=2:opponent_block=0.6:opponent_block4=10:opponent_jack_cost=100"



def run(spec, follow, width, games, seed, threads, against="lookahead", both=False):
    """`spec` with follow/width against `against`, seats swapped by game: (points, Wilson 95% CI, seconds)."""
    rules = Rules.make(2)
    tb, cfg = tables(), rules.cfg()
    lineup = Lineup.parse(against, rules)
    policies, ids, params = lineup.policy_set(), lineup.ids()[0], lineup.params()[0]
    row = Lineup.parse(spec, rules).params()[0][0].copy()
    frow = np.array([width] + list(RICH_WEIGHTS["2 teams"].values()) + list(LOOKAHEAD_OWN_WEIGHTS.values()))
    winners = np.zeros(games, np.int64)
    mine = np.arange(games) % 2

    def block(b):
        st, sim, sim2, view = new_state(0), workspace(policies, ids, params), new_state(0), new_state(0)
        for g in range(b, games, threads):
            winners[g] = match_game(policies, tb, cfg, ids, params, st, sim, sim2, view, seed, g, mine[g],
                                    row, frow, follow, both)
    t = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(block, range(threads)))
    dt = time.perf_counter() - t
    score = float((winners == mine).sum() + 0.5 * (winners < 0).sum())
    ci = binomtest(round(score), games).proportion_ci(0.95, method="wilson")
    return score, ci, dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default=f"swift:rollouts=10:race=0.5:batch=2:{OWN}")
    ap.add_argument("--follow", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--width", type=int, nargs="+", default=[2])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seeds", type=int, nargs="+", default=[7373])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--speed", type=int, default=0, help="self-play games on one thread, no match")
    a = ap.parse_args()
    if a.speed:
        run(a.spec, 1, 2, 4, 1, 1, both=True)  # compile
        run(a.spec, 0, 2, 4, 1, 1, both=True)
        for f, wd in [(f, wd) for f in a.follow for wd in (a.width if f else a.width[:1])]:
            _, _, dt = run(a.spec, f, wd, a.speed, 5, 1, both=True)
            print(f"follow={f} width={wd}: {a.speed / dt:.1f} games/s self-play, 1 thread", flush=True)
        return
    for f, wd in [(f, wd) for f in a.follow for wd in (a.width if f else a.width[:1])]:
        tot = 0.0
        for s in a.seeds:
            score, ci, dt = run(a.spec, f, wd, a.games, s, a.threads)
            tot += score
            print(f"follow={f} width={wd} seed {s}: {score / a.games:.4f} [{ci.low:.3f}, {ci.high:.3f}] "
                  f"({dt:.0f} s)", flush=True)
        n = a.games * len(a.seeds)
        ci = binomtest(round(tot), n).proportion_ci(0.95, method="wilson")
        print(f"follow={f} width={wd} all {n}: {tot / n:.4f} [{ci.low:.4f}, {ci.high:.4f}]", flush=True)


if __name__ == "__main__":
    main()
