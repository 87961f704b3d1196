"""A richer fair value for the one-ply player: does knowing more about hand and board make it stronger?

    python benchmarks/rich_value.py                               # fit on 10,000 lookahead games, then a match
    python benchmarks/rich_value.py --games 20000 --match 4000 --width 4
    python benchmarks/rich_value.py --games 20000 --data /tmp/rich20k.npz --match 0 \
        --search-as quick quick:shortlist=4 --search-match 4000 --speed 300

Issue 22 item 4 asks for a player at 50% against the default lookahead at ten
times its speed. The fast policy (``kernels.fast``: greedy's shortlist, each
action judged by a linear value of what the seat sees) scores 45-47% at 164
times the speed on the 12 features per team of ``kernels.evaluation``. This
script asks whether a value that knows more of hand and board closes the gap:

1. Every seat plays the line-up `--of` (default: the lookahead); after each
   turn that does not end the game, the position is described as the seat
   that just played sees it: the fast policy's fair features of its team and
   of the other (``kernels.fast.fair_features``), and the EXTRAS below, which
   read the seat's own hand exactly and the other cards only through what
   the seat may know (RULES.md, Information: the board, the discards, the
   own hand, hand sizes). The label is whether the seat's team won.
2. Two logistic regressions on the same positions (four fifths of the
   games; the held-out fifth scores them): the fair features alone, and
   with the extras.
3. A match: a one-ply player on the richer value (greedy's best `--width`
   actions by the lookahead's own greedy weights, each played on a copy of
   the board and scored by the value) against the line-up's policy, seats
   swapped, on `--match` games; and as a control the same player on the
   fair features alone (what the fast policy is, with a value fitted here).
4. With `--search-match GAMES`: a lookahead-kind policy (`--search-as`,
   default the line-up's; e.g. quick) whose rollouts' leaves are scored by
   the richer value (the chance of the seat that played last, as it sees
   the deal) against the line-up, and as a control the same policy as the
   kernel plays it, on the same deals. `--speed GAMES`: its games/s on one
   thread against itself, and the line-up's.

Two-player games only. An experiment, not a policy: nothing here changes the
kernels or the games they play.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit
from numba.core.errors import NumbaIRAssumptionWarning
from scipy.optimize import minimize
from scipy.stats import binomtest

from simkit.cards import tables
from simkit.kernels.engine import reset
from simkit.kernels.evaluation import (
    F_FOUR_CELLS, F_FOURS, F_SEQUENCES, F_THREES, F_TWO_EYED, N_FEATURES, features,
)
from simkit.kernels.fast import copy_view, fair_features
from simkit.kernels.greedy import score_actions
from simkit.kernels.jit import COMPILE_OPTIONS
from simkit.kernels.lookahead import (
    BATCH, MAX_SHORTLIST, N_LOOKAHEAD_PARAMS, P_GREEDY, P_HORIZON, P_MARGIN, P_OPPONENT, P_RACE, P_ROLLOUTS, P_SHORTLIST,
    determinise, draws_needed, paired_mean, shortlist, wins_at_once,
)
from simkit.kernels.moves import play_card, swap_dead
from simkit.kernels.policies import GREEDY, UpToGreedy, choose_dead, workspace
from simkit.kernels.rng import next_u64, seed_stream
from simkit.kernels.state import (
    CFG_MAX_TURNS, CFG_PLAYERS, CFG_SEQUENCES_TO_WIN, PILE_N, PILE_POS, lowest_bit, may_swap_dead, new_state,
    popcount,
)
from simkit.kernels.tables import N_CODES, ONE_EYED, TWO_EYED
from simkit.kernels.turn import ASK_POLICY, PASSED, WON, next_seat, play_turn
from simkit.policies import Lineup
from simkit.rules import Rules

EXTRAS = (
    "own twos, no empty cell's card held", "own twos, one held", "own twos, two or more held",
    "own threes, none held", "own threes, one held", "own threes, two held",
    "own fork cells (on two own threes or fours)", "other's fork cells",
    "other's fours I can block now (card held)",
    "own two-eyed x own threes", "own two-eyed x (own fours > 0)",
    "own one-eyed x other's fours", "own one-eyed x (other's fours > 0)",
    "other's two-eyed (expected) x other's threes",
    "pile left (share of 104)", "pile left x own sequences", "pile left x other's sequences",
    "own cards with a cell on an own two or better", "own dead cards",
    "own two-eyed >= 2",
    "own four cells >= 2", "other's four cells >= 2",
    "own threes and fours holding two of a sequence's chips", "other's likewise",
    "own sequences x own threes", "other's sequences x other's threes",
)
N_EXTRAS = len(EXTRAS)
N_BASE = 2 * N_FEATURES  # own team's fair features, then the other's
N_RICH = N_BASE + N_EXTRAS
MAX_POSITIONS = 400  # per game (two-player games last about 50 turns)
BOTH = 2  # match_game's `mine` when the player plays both teams
# numba's inliner reports a pedantic internal check on the policies' inlined overloads when the
# lookahead's turn is compiled into a function of this script; the compiled code is not affected.
warnings.simplefilter("ignore", NumbaIRAssumptionWarning)


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def rich_features(tb, cfg, st, seat, out, copies):
    """Two-player games: out[:N_BASE] the fair features of seat's team then the other's
    (``kernels.fast.fair_features``), out[N_BASE:N_RICH] the EXTRAS, all as `seat` may know them.
    Uses st.fscores[:N_BASE] and st.scratch[:200] as work space."""
    team = seat % 2
    other = 1 - team
    fair_features(tb, cfg, st, seat, st.fscores, copies)  # both teams' 12, team 0 first
    for i in range(N_FEATURES):
        out[i] = st.fscores[team * N_FEATURES + i]
        out[N_FEATURES + i] = st.fscores[other * N_FEATURES + i]
    e = out[N_BASE:N_RICH]
    for i in range(N_EXTRAS):
        e[i] = 0.0
    held = st.held[seat]
    zero = np.uint64(0)
    one = np.uint64(1)
    own_two = 0.0
    own_one = 0.0
    for code in range(N_CODES):
        if (tb.kind_codes[TWO_EYED] >> np.uint64(code)) & one:
            own_two += st.count[seat, code]
        elif (tb.kind_codes[ONE_EYED] >> np.uint64(code)) & one:
            own_one += st.count[seat, code]
    # cells on own/other threes or fours: how many such lines pass through each empty cell
    on_own, on_other = st.scratch[:100], st.scratch[100:200]
    for cell in range(100):
        on_own[cell] = 0
        on_other[cell] = 0
    useful_lo, useful_hi = zero, zero  # empty cells on own lines covering two or more
    other_fours = 0.0
    blockable = 0.0
    for k in range(tb.line_lo.shape[0]):
        a = np.int64(st.in_line[team, k])
        b = np.int64(st.in_line[other, k])
        if a > 0 and b > 0:
            continue
        if a + b == 0:
            continue
        mine = a > 0
        covered = a + b + tb.line_corners[k]
        if covered < 2 or covered > 4:
            continue
        lo = tb.line_lo[k] & ~st.occupied[0] & ~tb.corners[0]
        hi = tb.line_hi[k] & ~st.occupied[1] & ~tb.corners[1]
        owner_chips_lo = tb.line_lo[k] & st.locked[0] & st.chips[team if mine else other, 0]
        owner_chips_hi = tb.line_hi[k] & st.locked[1] & st.chips[team if mine else other, 1]
        if covered >= 3 and popcount(owner_chips_lo) + popcount(owner_chips_hi) >= 2:
            e[22 if mine else 23] += 1.0  # cannot become a sequence: it would share two cells
            continue
        n_held = 0
        for word in range(2):
            bits = lo if word == 0 else hi
            while bits != zero:
                cell = word * 64 + lowest_bit(bits)
                bits &= bits - one
                if covered >= 3:
                    if mine:
                        on_own[cell] += 1
                    else:
                        on_other[cell] += 1
                if (held >> np.uint64(tb.card_of_cell[cell])) & one:
                    n_held += 1
        if mine:
            useful_lo |= lo
            useful_hi |= hi
            if covered == 2:
                e[min(n_held, 2)] += 1.0
            elif covered == 3:
                e[3 + min(n_held, 2)] += 1.0
        elif covered == 4:
            other_fours += 1.0
            if n_held > 0:
                blockable += 1.0
    for cell in range(100):
        if on_own[cell] >= 2:
            e[6] += 1.0
        if on_other[cell] >= 2:
            e[7] += 1.0
    e[8] = blockable
    own_threes = out[F_THREES]
    own_fours = out[F_FOURS]
    other_threes = out[N_FEATURES + F_THREES]
    e[9] = own_two * own_threes
    e[10] = own_two * (1.0 if own_fours > 0 else 0.0)
    e[11] = own_one * other_fours
    e[12] = own_one * (1.0 if other_fours > 0 else 0.0)
    e[13] = out[N_FEATURES + F_TWO_EYED] * other_threes
    left = (st.ctr[PILE_N] - st.ctr[PILE_POS]) / 104.0
    e[14] = left
    e[15] = left * out[F_SEQUENCES]
    e[16] = left * out[N_FEATURES + F_SEQUENCES]
    for code in range(N_CODES):
        if st.count[seat, code] == 0 or tb.card_cells[code, 0] < 0:
            continue
        usable = False
        dead = True
        for j in range(2):
            cell = tb.card_cells[code, j]
            word, b = cell // 64, np.uint64(cell % 64)
            if not (st.occupied[word] >> b) & one:
                dead = False
                if (((useful_lo if word == 0 else useful_hi) >> b) & one) != zero:
                    usable = True
        if usable:
            e[17] += st.count[seat, code]
        if dead:
            e[18] += st.count[seat, code]
    e[19] = 1.0 if own_two >= 2 else 0.0
    e[20] = 1.0 if out[F_FOUR_CELLS] >= 2 else 0.0
    e[21] = 1.0 if out[N_FEATURES + F_FOUR_CELLS] >= 2 else 0.0
    e[24] = out[F_SEQUENCES] * own_threes
    e[25] = out[N_FEATURES + F_SEQUENCES] * other_threes


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def record_game(policies, tb, cfg, ids, params, st, sim, seed, game, feats, seats, copies):
    """Play one game of the line-up; after each turn that does not end it, rich_features as the
    seat that just played sees them (feats (MAX_POSITIONS, N_RICH)) and that seat (seats).
    Returns (positions, winning team or -1)."""
    reset(cfg, st, seed, game)
    players = cfg[CFG_PLAYERS]
    seat, team, passes = 0, 0, 0
    n = 0
    for _ in range(cfg[CFG_MAX_TURNS]):
        result = play_turn(policies, ids[seat], params[seat], tb, cfg, st, sim, seat, team, ASK_POLICY)
        if result == WON:
            return n, team
        passes = passes + 1 if result == PASSED else 0
        if passes == players:
            return n, -1
        if n < MAX_POSITIONS:
            rich_features(tb, cfg, st, seat, feats[n], copies)
            seats[n] = seat
            n += 1
        seat, team = next_seat(seat, team, players, 2)
    return n, -1


def collect(rules: Rules, spec: str, seed: int, games: int, threads: int) -> list:
    """Per game: (features (n, N_RICH) float32, whether each position's seat's team won (n,))
    for the decided games; None for a drawn one."""
    tb, cfg = tables(), rules.cfg()
    lineup = Lineup.parse(spec, rules)
    policies, ids, params = lineup.policy_set(), lineup.ids()[0], lineup.params()[0]
    out: list = [None] * games

    def block(b: int) -> None:
        st, sim = new_state(0), workspace(policies, ids, params)
        feats = np.zeros((MAX_POSITIONS, N_RICH))
        seats = np.zeros(MAX_POSITIONS, np.int64)
        copies = np.zeros(N_CODES)
        for g in range(b, games, threads):
            n, winner = record_game(policies, tb, cfg, ids, params, st, sim, seed, g, feats, seats, copies)
            if winner >= 0:
                out[g] = (feats[:n].astype(np.float32), (seats[:n] % 2 == winner).astype(np.float64))

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
    r = minimize(binary_loss, np.zeros(x.shape[1] + 1), args=(xs, y), jac=True, method="L-BFGS-B",
                 options={"maxiter": 5000})
    w = r.x[:-1] / sd
    return np.concatenate([w, [r.x[-1] - np.dot(w, mu)]])


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def one_ply_action(tb, cfg, st, sim, seat, team, gparams, width, weights, feats, copies):
    """Greedy's best `width` actions by gparams, each played on a copy of what the seat sees and
    scored by weights @ rich_features (the first len(weights) - 1 of them) + intercept; the best
    as card * 128 + cell, or -129 to pass."""
    moves, scores = st.scratch, st.fscores
    n = score_actions(tb, cfg, st, seat, team, gparams, moves, scores)
    if n == 0:
        return -129
    k = shortlist(moves, scores, n, width)
    if k == 1:
        return moves[0]
    m = weights.shape[0] - 1
    best, best_value = moves[0], -np.inf
    for i in range(k):
        move = moves[i]
        copy_view(st, sim, seat)
        play_card(tb, sim, seat, team, move // 128, move % 128, True)
        if sim.nseq[team] >= cfg[CFG_SEQUENCES_TO_WIN]:
            return move
        rich_features(tb, cfg, sim, seat, feats, copies)
        z = weights[m]
        for j in range(m):
            z += weights[j] * feats[j]
        if z > best_value:
            best, best_value = move, z
    return best


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def rich_chance(tb, cfg, sim, seat, weights, feats, copies):
    """P(seat's team wins) by weights @ rich_features as `seat` sees sim (+ the intercept, logistic)."""
    rich_features(tb, cfg, sim, seat, feats, copies)
    m = weights.shape[0] - 1
    z = weights[m]
    for j in range(m):
        z += weights[j] * feats[j]
    return 1.0 / (1.0 + np.exp(-z))


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def rich_rollout_value(tb, cfg, st, sim, seat, team, action, params, base, r, weights, feats, copies):
    """kernels.lookahead.rollout_value with the leaf scored by rich_chance instead of the fitted value:
    determinise, play the action, `horizon` greedy plies, then the chance of the seat that played
    last, as it sees the deal (two players)."""
    seed_stream(sim.rng, base, r)
    determinise(st, sim, seat, draws_needed(cfg, params))
    gparams = params[P_GREEDY:P_OPPONENT]
    oparams = params[P_OPPONENT:N_LOOKAHEAD_PARAMS]
    if play_turn(UpToGreedy(), GREEDY, gparams, tb, cfg, sim, sim, seat, team, action) == WON:
        return 1.0
    last = seat
    s, t = next_seat(seat, team, 2, 2)
    passes = 0
    for _ in range(int(params[P_HORIZON])):
        result = play_turn(UpToGreedy(), GREEDY, gparams if t == team else oparams, tb, cfg, sim, sim, s, t,
                           ASK_POLICY)
        if result == WON:
            return 1.0 if t == team else 0.0
        if result == PASSED:
            passes += 1
            if passes == 2:
                return 0.5
        else:
            passes = 0
        last = s
        s, t = next_seat(s, t, 2, 2)
    p = rich_chance(tb, cfg, sim, last, weights, feats, copies)
    return p if last % 2 == team else 1.0 - p


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def rich_lookahead_action(tb, cfg, st, sim, seat, team, params, weights, feats, copies):
    """kernels.lookahead.lookahead_action with rich_rollout_value: the raced shortlist's choice as
    card * 128 + cell, or -129 to pass."""
    gparams = params[P_GREEDY:P_OPPONENT]
    actions, scores = st.scratch, st.fscores
    n = score_actions(tb, cfg, st, seat, team, gparams, actions, scores)
    if n == 0:
        return -129
    short = shortlist(actions, scores, n, min(max(int(params[P_SHORTLIST]), 1), MAX_SHORTLIST))
    rollouts = int(params[P_ROLLOUTS])
    if short == 1 or rollouts < 1:
        return actions[0]
    base = next_u64(st.rng)
    if wins_at_once(tb, cfg, st, sim, seat, team, actions[0], params, base):
        return actions[0]
    acc, racing = st.fscratch, st.scratch[MAX_SHORTLIST:MAX_SHORTLIST + short]
    for i in range(short):
        acc[8 + 2 * i] = 0.0
        acc[9 + 2 * i] = 0.0
        racing[i] = 1
    left = short - 1
    r = np.int64(0)
    while r < rollouts and left > 0:
        end = min(r + BATCH, rollouts)
        while r < end:
            first = rich_rollout_value(tb, cfg, st, sim, seat, team, actions[0], params, base, r, weights, feats,
                                       copies)
            for i in range(1, short):
                if racing[i] == 1:
                    d = rich_rollout_value(tb, cfg, st, sim, seat, team, actions[i], params, base, r, weights,
                                           feats, copies) - first
                    acc[8 + 2 * i] += d
                    acc[9 + 2 * i] += d * d
            r += 1
        if params[P_RACE] > 0.0:
            for i in range(1, short):
                if racing[i] == 1:
                    mean, se = paired_mean(acc, i, r)
                    if mean + params[P_RACE] * se <= 0.0:
                        racing[i] = 0
                        left -= 1
    chosen, chosen_gain = 0, 0.0
    for i in range(1, short):
        if racing[i] == 1:
            mean, se = paired_mean(acc, i, r)
            if mean > params[P_MARGIN] * se and mean > chosen_gain:
                chosen, chosen_gain = i, mean
    return actions[chosen]


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def match_game(policies, tb, cfg, ids, params, st, sim, view, seed, game, mine, gparams, width, weights, feats,
               copies, searching, aparams):
    """One game: team `mine` (BOTH: both teams; -1: neither) plays one_ply_action, or with `searching`
    rich_lookahead_action on the lookahead parameter row aparams; the other the line-up's policy.
    The winner or -1."""
    reset(cfg, st, seed, game)
    players = cfg[CFG_PLAYERS]
    seat, team, passes = 0, 0, 0
    for _ in range(cfg[CFG_MAX_TURNS]):
        action = ASK_POLICY
        if team == mine or mine == BOTH:
            if may_swap_dead(cfg, st):
                dead = choose_dead(ids[seat], params[seat], tb, cfg, st, seat, team)
                if dead >= 0:
                    swap_dead(cfg, st, seat, dead)
            if searching:
                action = rich_lookahead_action(tb, cfg, st, view, seat, team, aparams, weights, feats, copies)
            else:
                action = one_ply_action(tb, cfg, st, view, seat, team, gparams, width, weights, feats, copies)
        result = play_turn(policies, ids[seat], params[seat], tb, cfg, st, sim, seat, team, action)
        if result == WON:
            return team
        passes = passes + 1 if result == PASSED else 0
        if passes == players:
            return -1
        seat, team = next_seat(seat, team, players, 2)
    return -1


def play_match(rules: Rules, spec: str, weights: np.ndarray, width: int, games: int, seed: int,
               threads: int, searching: str | None = None, alone: int | None = None,
               control: bool = False) -> dict:
    """The one-ply player on `weights` (or the lookahead-kind policy `searching`, its rollouts'
    leaves scored by `weights`) against `spec`, seats swapped: score, 95% Wilson interval, games/s.
    With `alone` BOTH the player plays both teams, with -1 `spec` does (for their speeds). With
    `control`, `searching` plays as the kernel plays it (its own leaves), on the same deals."""
    tb, cfg = tables(), rules.cfg()
    lineup = Lineup.parse(spec, rules)
    policies, ids, params = lineup.policy_set(), lineup.ids()[0], lineup.params()[0]
    # per game g, the parameter rows of the seats: with control, team g % 2 plays `searching`
    sides = [params, params]
    if control:
        sides = [Lineup.parse(",".join(searching if t == j else spec for t in range(2)), rules).params()[0]
                 for j in range(2)]
        assert Lineup.parse(f"{searching},{spec}", rules).policy_set() == policies
    gparams = params[0, P_GREEDY:P_OPPONENT].copy()  # the lookahead's own greedy weights
    winners = np.zeros(games, np.int64)
    mine = np.arange(games) % 2 if alone is None else np.full(games, alone)
    aparams = Lineup.parse(searching or spec, rules).params()[0, 0]

    def block(b: int) -> None:
        st, sim, view = new_state(0), workspace(policies, ids, params), new_state(0)
        feats, copies = np.zeros(N_RICH), np.zeros(N_CODES)
        for g in range(b, games, threads):
            winners[g] = match_game(policies, tb, cfg, ids, sides[g % 2], st, sim, view, seed, g,
                                    -1 if control else mine[g], gparams, width, weights, feats, copies,
                                    searching is not None, aparams)

    st, sim, view = new_state(0), workspace(policies, ids, params), new_state(0)
    match_game(policies, tb, cfg, ids, params, st, sim, view, seed, 0, 0, gparams, width, weights, np.zeros(N_RICH),
               np.zeros(N_CODES), searching is not None, aparams)  # compile outside the timing
    t = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(block, range(threads)))
    seconds = time.perf_counter() - t
    score = float((winners == mine).sum() + 0.5 * (winners < 0).sum())
    ci = binomtest(round(score), games).proportion_ci(0.95, method="wilson")
    return {"share": score / games, "low": ci.low, "high": ci.high, "rate": games / seconds}


@njit(nogil=True, **COMPILE_OPTIONS)
def leaf_loop(tb, cfg, st, out, copies, n, rich):
    """Compute the leaf's features n times on st: rich_features, or kernels.evaluation.features."""
    total = 0.0
    for _ in range(n):
        if rich:
            rich_features(tb, cfg, st, 0, out, copies)
        else:
            features(tb, cfg, st, out)
        total += out[3]
    return total


def leaf_cost(rules: Rules, spec: str, seed: int, calls: int = 200_000) -> str:
    """Microseconds per call of rich_features and of the kernel's leaf features, one thread, on the
    positions after 10, 20 and 30 turns of game 0 of `spec` (its first seat's policy on every seat)."""
    tb, cfg = tables(), rules.cfg()
    lineup = Lineup.parse(spec, rules)
    policies, ids, params = lineup.policy_set(), lineup.ids()[0], lineup.params()[0]
    st, sim = new_state(0), workspace(policies, ids, params)
    out, copies = np.zeros(N_RICH + N_BASE), np.zeros(N_CODES)
    cost = {True: [], False: []}
    reset(cfg, st, seed, 0)
    seat, team = 0, 0
    for turn in range(1, 31):
        if play_turn(policies, ids[seat], params[seat], tb, cfg, st, sim, seat, team, ASK_POLICY) == WON:
            break
        seat, team = next_seat(seat, team, 2, 2)
        if turn % 10 == 0:
            for rich in (True, False):
                leaf_loop(tb, cfg, st, out, copies, 10, rich)
                t = time.perf_counter()
                leaf_loop(tb, cfg, st, out, copies, calls, rich)
                cost[rich].append((time.perf_counter() - t) / calls * 1e6)
    return (f"one thread, {calls:,} calls at turns 10, 20, 30: rich_features "
            f"{', '.join(f'{c:.2f}' for c in cost[True])} us per call, the kernel's leaf features "
            f"{', '.join(f'{c:.2f}' for c in cost[False])} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--of", default="lookahead", help="the line-up whose games are fitted and played against")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--match", type=int, default=2000, help="games of each match (0: none)")
    parser.add_argument("--match-seed", type=int, default=5151)
    parser.add_argument("--values", nargs="+", default=["fair features", "fair + extras"],
                        choices=["fair features", "fair + extras"], help="the values to match")
    parser.add_argument("--search-match", type=int, default=0, metavar="GAMES",
                        help="also match the line-up's own policy (a lookahead) with its rollouts' leaves "
                             "scored by the richer value against itself, on this many games")
    parser.add_argument("--search-as", metavar="SPEC", nargs="+",
                        help="the lookahead-kind policies (lookahead or quick, with settings) whose leaves the "
                             "richer value scores in --search-match and --speed, in turn (default: --of)")
    parser.add_argument("--speed", type=int, default=0, metavar="GAMES",
                        help="games/s on one thread of that policy against itself and of --of against itself")
    parser.add_argument("--leaf-cost", action="store_true",
                        help="time the richer value's features against the kernel's leaf features first")
    parser.add_argument("--width", type=int, default=2, help="greedy's actions the one-ply player judges")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--data", metavar="NPZ", help="keep the collected positions here: read them if the "
                        "file exists (made with the same --of, --games and --seed), else write it")
    args = parser.parse_args()
    if not 1 <= args.width <= MAX_SHORTLIST:
        parser.error(f"--width must be 1 to {MAX_SHORTLIST}")
    rules = Rules.make(2)
    searchers = args.search_as or [args.of]
    for searcher in searchers:
        try:
            policy = Lineup.parse(searcher, rules).seats()[0]
        except ValueError as e:
            parser.error(str(e))
        if (args.search_match or args.speed) and (policy.kind.name not in ("lookahead", "quick")
                                                  or policy.values[P_HORIZON] < 1):
            parser.error(f"{searcher!r}: --search-match and --speed need a lookahead or quick policy with "
                         "horizon >= 1")
    if args.leaf_cost:
        print(leaf_cost(rules, args.of, args.seed))
    t = time.perf_counter()
    key = np.array([args.of, str(args.games), str(args.seed), str(N_RICH)])
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
    print(f"{args.games:,} {args.of!r} games (seed {args.seed}): {len(y):,} positions fitted, "
          f"{len(yt):,} held out, {time.perf_counter() - t:.0f} s")
    fits = {}
    for name, cols in (("fair features", N_BASE), ("fair + extras", N_RICH)):
        w = fit_logistic(x[:, :cols], y)
        loss = binary_loss(w, xt[:, :cols], yt)[0]
        right = np.mean(((xt[:, :cols] @ w[:-1] + w[-1]) > 0) == (yt > 0.5))
        print(f"{name:14s} held-out log-loss {loss:.4f}, winner predicted {right:.3f} (a coin: 0.6931, 0.5)")
        fits[name] = (w, cols)
    w, _ = fits["fair + extras"]
    for name, v in zip(EXTRAS, w[N_BASE:-1]):
        print(f"  {v:+8.3f}  {name}")
    if args.match:
        for name in args.values:
            w, cols = fits[name]
            weights = np.concatenate([w[:-1], np.zeros(N_RICH - cols), w[-1:]])
            m = play_match(rules, args.of, weights, args.width, args.match, args.match_seed, args.threads)
            print(f"one ply on {name}, width {args.width}, against {args.of!r}: {m['share']:.1%} "
                  f"[{m['low']:.1%}, {m['high']:.1%}] of {args.match:,} games, {m['rate']:.0f} games/s")
    w, _ = fits["fair + extras"]
    for searcher in searchers:
        if args.search_match:
            for control in (True, False):
                m = play_match(rules, args.of, w, args.width, args.search_match, args.match_seed, args.threads,
                               searcher, control=control)
                leaves = "its own leaves (the kernel's)" if control else "its leaves scored by fair + extras"
                print(f"{searcher!r} with {leaves}, against {args.of!r}: {m['share']:.1%} "
                      f"[{m['low']:.1%}, {m['high']:.1%}] of {args.search_match:,} games, {m['rate']:.1f} games/s")
        if args.speed:
            a = play_match(rules, args.of, w, args.width, args.speed, args.match_seed, 1, searcher, BOTH)["rate"]
            b = play_match(rules, args.of, w, args.width, args.speed, args.match_seed, 1, searcher, -1)["rate"]
            print(f"one thread, {args.speed:,} games each: {searcher!r} with the richer leaves {a:.1f} games/s, "
                  f"{args.of!r} {b:.1f} games/s ({a / b:.1f} times)")


if __name__ == "__main__":
    main()
