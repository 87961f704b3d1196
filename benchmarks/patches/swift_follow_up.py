"""Experiments, not kept: swift's rollouts with the own next move by the one-ply value, or the other seat's
reply drawn as the lookahead's moves spread (fifteenth session).

    python benchmarks/patches/swift_follow_up.py --seeds 7373 8484 9595 --width 2 3
    python benchmarks/patches/swift_follow_up.py --seeds 1111 2222 3333 --width 3
    python benchmarks/patches/swift_follow_up.py --speed 400 --width 2 3       # one thread, self-play
    python benchmarks/patches/swift_follow_up.py --soft 4 --follow 0 --seeds 7373 8484 9595 1111 2222 3333

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

With ``--soft K`` the other seat's reply in the rollouts is not greedy's
first action (by the spec's ``opponent_*`` weights, the lookahead's own in
the default spec) but one of greedy's best K, the i-th (from 0) drawn with
weight exp(-a log(1 + best score - its score) - c i), a and c fitted first by
maximum likelihood to the default lookahead's moves on opponent_model.py's
positions (``--positions``; a softmax of the scores themselves fits badly:
the lookahead leaves greedy's first at 16.8% of positions where it leads by
16 or more, and at 63.5% where the first two tie): the
lookahead does not always play its likeliest move (opponent_model.py
--repeats), and a rollout that always assumes it may judge an action by a
reply that often does not come.
"""
import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import numpy as np
from numba import njit
from scipy.stats import binomtest
from simkit.cards import tables
from simkit.kernels.engine import reset
from simkit.kernels.fast import fast_action
from simkit.kernels.jit import COMPILE_OPTIONS
from decisions import position  # noqa: E402 (benchmarks/decisions.py)
from opponent_model import lookahead_moves, on_all_cores  # noqa: E402
from simkit.kernels.lookahead import (
    BATCH, MAX_SHORTLIST, P_GREEDY, P_HORIZON, P_MARGIN, P_OPPONENT, P_RACE, P_ROLLOUTS, P_SHORTLIST, P_VALUE,
    RichLeaf, determinise, draws_needed, gap_at, leaf_chance, paired_mean, shortlist, value_size, wins_at_once,
)
from simkit.kernels.greedy import N_GREEDY_PARAMS, score_actions
from simkit.kernels.moves import swap_dead
from simkit.kernels.policies import choose_dead, workspace, GREEDY, UpToGreedy
from simkit.kernels.rng import next_u64, seed_stream
from simkit.kernels.state import CFG_MAX_TURNS, CFG_PLAYERS, CFG_TEAMS, may_swap_dead, new_state
from simkit.kernels.turn import ASK_POLICY, PASSED, WON, next_seat, play_turn
from simkit.policies import Lineup, RICH_WEIGHTS, LOOKAHEAD_OWN_WEIGHTS
from simkit.rules import Rules

NG = N_GREEDY_PARAMS


@njit(nogil=True, **COMPILE_OPTIONS)
def soft_reply(tb, cfg, sim, seat, team, oparams, soft):
    """A move (card * 128 + cell; -129: pass) drawn from greedy's best soft[2] actions by oparams, the
    i-th (from 0) with weight exp(-soft[0] * log(1 + best score - its score) - soft[1] * i); draws one
    number from sim.rng."""
    actions, scores = sim.scratch, sim.fscores
    n = score_actions(tb, cfg, sim, seat, team, oparams, actions, scores)
    if n == 0:
        return -129
    k = shortlist(actions, scores, n, int(soft[2]))
    total = 0.0
    for i in range(k):
        total += np.exp(-soft[0] * np.log1p(scores[0] - scores[i]) - soft[1] * i)
    u = (next_u64(sim.rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
    for i in range(k):
        u -= np.exp(-soft[0] * np.log1p(scores[0] - scores[i]) - soft[1] * i)
        if u < 0.0:
            return actions[i]
    return actions[k - 1]


@njit(nogil=True, **COMPILE_OPTIONS)
def top_scores(tb, cfg, ids, seat_params, params, k, game, turns, chosen, out, st, sim):
    """Greedy's best k scores by the lookahead's own greedy weights (`params`: its row) at one position
    (decisions.position) into out[:k] (-1e9 past the legal actions); the index among them of the move
    `chosen` (-1: not among them)."""
    seat = position(tb, cfg, ids, seat_params, st, sim, game, turns)
    n = score_actions(tb, cfg, st, seat, seat % cfg[CFG_TEAMS], params[P_GREEDY:P_OPPONENT], st.scratch,
                      st.fscores)
    m = shortlist(st.scratch, st.fscores, n, k)
    hit = -1
    for i in range(m):
        out[i] = st.fscores[i]
        if st.scratch[i] == chosen and hit < 0:
            hit = i
    for i in range(m, k):
        out[i] = -1e9
    return hit


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def follow_value(tb, cfg, st, sim, view, seat, team, action, params, frow, follow, soft, base, r):
    """kernels.lookahead.rollout_value for swift's leaves, the own last ply by fast_action (width frow[0])
    when follow > 0 (view: a third State for its copies); with soft[2] > 0 the other seat's reply is
    drawn from greedy's best soft[2] by soft_reply."""
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
        elif soft[2] > 0.0 and not own:
            if may_swap_dead(cfg, sim):
                dead = choose_dead(GREEDY, oparams, tb, cfg, sim, s, s_team)
                if dead >= 0:
                    swap_dead(cfg, sim, s, dead)
            a = soft_reply(tb, cfg, sim, s, s_team, oparams, soft)
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
def follow_action(tb, cfg, st, sim, view, seat, team, params, frow, follow, soft):
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
            first = follow_value(tb, cfg, st, sim, view, seat, team, actions[0], params, frow, follow, soft, base, r)
            for i in range(1, short):
                if racing[i] == 1:
                    d = follow_value(tb, cfg, st, sim, view, seat, team, actions[i], params, frow, follow, soft,
                                     base, r) - first
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
def match_game(policies, tb, cfg, ids, params, st, sim, sim2, view, seed, game, mine, row, frow, follow, soft, both):
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
            code, cell = follow_action(tb, cfg, st, sim2, view, seat, team, row, frow, follow, soft)
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



def run(spec, follow, width, games, seed, threads, against="lookahead", both=False, soft=(0.0, 0.0, 0.0)):
    """`spec` with follow/width against `against`, seats swapped by game: (points, Wilson 95% CI, seconds)."""
    rules = Rules.make(2)
    tb, cfg = tables(), rules.cfg()
    lineup = Lineup.parse(against, rules)
    policies, ids, params = lineup.policy_set(), lineup.ids()[0], lineup.params()[0]
    row = Lineup.parse(spec, rules).params()[0][0].copy()
    frow = np.array([width] + list(RICH_WEIGHTS["2 teams"].values()) + list(LOOKAHEAD_OWN_WEIGHTS.values()))
    soft = np.array(soft, dtype=np.float64)
    winners = np.zeros(games, np.int64)
    mine = np.arange(games) % 2

    def block(b):
        st, sim, sim2, view = new_state(0), workspace(policies, ids, params), new_state(0), new_state(0)
        for g in range(b, games, threads):
            winners[g] = match_game(policies, tb, cfg, ids, params, st, sim, sim2, view, seed, g, mine[g],
                                    row, frow, follow, soft, both)
    t = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(block, range(threads)))
    dt = time.perf_counter() - t
    score = float((winners == mine).sum() + 0.5 * (winners < 0).sum())
    ci = binomtest(round(score), games).proportion_ci(0.95, method="wilson")
    return score, ci, dt


def fit_spread(positions: int, k: int, seed: int = 31) -> tuple[float, float]:
    """(a, c) of soft_reply's weights over greedy's best k (the lookahead's own greedy weights) that best
    predict the default lookahead's moves: maximum likelihood on the first half of opponent_model.py's
    positions, the log-loss printed for the second half too."""
    from scipy.optimize import minimize

    fixed, games, turns, chosen = lookahead_moves(positions, seed)
    scores = np.zeros((len(games), k))
    hits = on_all_cores(top_scores, (*fixed, k), (games, turns, chosen, scores))
    inside = hits >= 0
    s, h = scores[inside], hits[inside]
    legal = s > -1e8
    gap = np.where(legal, np.log1p(np.maximum(s[:, :1] - s, 0.0)), 0.0)
    rank = np.broadcast_to(np.arange(k), s.shape)
    half = len(h) // 2

    def loss(w, rows):
        z = np.where(legal[rows], -w[0] * gap[rows] - w[1] * rank[rows], -np.inf)
        z = z - z.max(1, keepdims=True)
        z = z - np.log(np.exp(z).sum(1, keepdims=True))
        return -z[np.arange(len(h[rows])), h[rows]].mean()

    fit, held = slice(0, half), slice(half, None)
    a, c = minimize(loss, [1.0, 0.3], args=(fit,), method="Nelder-Mead").x
    print(f"{len(games):,} positions: the lookahead's move is greedy's first at {np.mean(h == 0):.4f}, among its "
          f"best {k} at {inside.mean():.4f}; weights exp(-{a:.3f} log(1 + gap) - {c:.3f} rank): held-out "
          f"log-loss {loss((a, c), held):.4f} (a uniform choice {np.log(k):.4f})", flush=True)
    return float(a), float(c)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default=f"swift:rollouts=10:race=0.5:batch=2:{OWN}")
    ap.add_argument("--follow", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--width", type=int, nargs="+", default=[2])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seeds", type=int, nargs="+", default=[7373])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--speed", type=int, default=0, help="self-play games on one thread, no match")
    ap.add_argument("--soft", type=int, default=0, help="the other seat's reply drawn from greedy's best SOFT "
                    "by a softmax fitted to the lookahead's moves (0: greedy's first, swift's)")
    ap.add_argument("--positions", type=int, default=12_000, help="positions the softmax is fitted on")
    a = ap.parse_args()
    soft = (*fit_spread(a.positions, a.soft), float(a.soft)) if a.soft else (0.0, 0.0, 0.0)
    settings = [(f, wd) for f in a.follow for wd in (a.width if f else a.width[:1])]  # width: follow > 0 only
    if a.speed:
        run(a.spec, 1, 2, 4, 1, 1, both=True)  # compile
        run(a.spec, 0, 2, 4, 1, 1, both=True)
        for f, wd in settings:
            _, _, dt = run(a.spec, f, wd, a.speed, 5, 1, both=True, soft=soft)
            print(f"follow={f} width={wd}: {a.speed / dt:.1f} games/s self-play, 1 thread", flush=True)
        return
    for f, wd in settings:
        tot = 0.0
        for s in a.seeds:
            score, ci, dt = run(a.spec, f, wd, a.games, s, a.threads, soft=soft)
            tot += score
            print(f"follow={f} width={wd} seed {s}: {score / a.games:.4f} [{ci.low:.3f}, {ci.high:.3f}] "
                  f"({dt:.0f} s)", flush=True)
        n = a.games * len(a.seeds)
        ci = binomtest(round(tot), n).proportion_ci(0.95, method="wilson")
        print(f"follow={f} width={wd} all {n}: {tot / n:.4f} [{ci.low:.4f}, {ci.high:.4f}]", flush=True)


if __name__ == "__main__":
    main()
