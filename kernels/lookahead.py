"""The lookahead policy: greedy's shortlist, judged by rollouts from each action.

For each of the ``shortlist`` best actions by the policy's own greedy
weights, ``rollouts`` games are played on from the position after the
action. In them every seat plays greedy (``playout`` 0; ``playout`` 1:
random): the policy's own team with its own greedy weights, the other teams
with the ``opponent_*`` weights, its model of how they play. Before each
rollout the cards the seat cannot see (every other hand and the draw pile)
are dealt again at random from the cards it has not seen: 104 minus its own
hand minus the discards (determinisation), so the decision depends only on
what the seat sees.

A rollout stops after ``horizon`` plies (0: at the end of the game) and is
worth the estimated chance to win of the position it reached
(``kernels.evaluation``, weighted by the value weights); a game that ends
sooner is worth 1 (win), 1/2 (draw) or 0 (loss). Stopping early trades a
little bias for much less noise (benchmarks/matches.md).

Every candidate is played on the same ``rollouts`` deals (common random
numbers), and is compared with the greedy choice deal by deal: the policy
leaves the greedy choice only for the candidate with the largest mean gain,
and only when that gain exceeds ``margin`` standard errors of the paired
differences, so rollout noise rarely makes it play worse than greedy would.
The real game's generator is advanced once per decision.

Parameters (a float64 row): rollouts, shortlist, margin, playout, horizon,
the N_VALUE_WEIGHTS value weights, the policy's own N_GREEDY_PARAMS greedy
weights, then the opponents' N_GREEDY_PARAMS greedy weights.
"""

import numpy as np

from .evaluation import N_VALUE_WEIGHTS, win_chance
from .greedy import N_GREEDY_PARAMS, score_actions
from .jit import kernel
from .moves import add_to_hand
from .policies import GREEDY, RANDOM, UpToGreedy
from .rng import next_u64, seed_stream, shuffle
from .turn import ASK_POLICY, PASSED, WON, next_seat, play_turn
from .state import (
    CFG_MAX_TURNS, CFG_PLAYERS, CFG_TEAMS, DISCARD_N, MAX_TEAMS, PILE_N, PILE_POS,
)
from .tables import N_CODES

P_ROLLOUTS, P_SHORTLIST, P_MARGIN, P_PLAYOUT, P_HORIZON, P_VALUE = 0, 1, 2, 3, 4, 5
P_GREEDY = P_VALUE + N_VALUE_WEIGHTS
P_OPPONENT = P_GREEDY + N_GREEDY_PARAMS
PLAYOUT_GREEDY, PLAYOUT_RANDOM = 0, 1
MAX_SHORTLIST = 16
N_LOOKAHEAD_PARAMS = P_OPPONENT + N_GREEDY_PARAMS


@kernel
def determinise(st, sim, seat):
    """Copy into `sim` what `seat` sees of `st`, and deal the unseen cards afresh.

    Reads of st: the board (with its dead cards), the discards, the seat's own hand, the sizes of
    the other hands and of the draw pile. Nothing else (RULES.md, Information).
    Uses and advances sim.rng.
    """
    for t in range(MAX_TEAMS):
        sim.chips[t, 0] = st.chips[t, 0]
        sim.chips[t, 1] = st.chips[t, 1]
        sim.nseq[t] = st.nseq[t]
        sim.on_board[t] = st.on_board[t]
        for j in range(st.nseq[t]):
            sim.seqs[t, j] = st.seqs[t, j]
    for w in range(2):
        sim.occupied[w] = st.occupied[w]
        sim.locked[w] = st.locked[w]
    sim.dead[0] = st.dead[0]
    for t in range(MAX_TEAMS):
        for k in range(st.in_line.shape[1]):
            sim.in_line[t, k] = st.in_line[t, k]
    # Unseen cards: two of each code, less the seat's hand and the discards.
    count = sim.scratch
    for code in range(N_CODES):
        count[code] = 2
    for i in range(st.ctr[DISCARD_N]):
        sim.discard[i] = st.discard[i]
        count[st.discard[i]] -= 1
    sim.ctr[DISCARD_N] = st.ctr[DISCARD_N]
    for code in range(N_CODES):
        sim.count[seat, code] = st.count[seat, code]
        count[code] -= st.count[seat, code]
    sim.held[seat] = st.held[seat]
    sim.hand_n[seat] = st.hand_n[seat]
    n = 0
    for code in range(N_CODES):
        for _ in range(count[code]):
            sim.pile[n] = code
            n += 1
    shuffle(sim.rng, sim.pile, n)
    # Deal the other hands from the front; the rest is the draw pile.
    sim.ctr[PILE_POS] = 0
    sim.ctr[PILE_N] = n
    for s in range(st.hand_n.shape[0]):
        if s != seat:
            sim.hand_n[s] = 0
            sim.held[s] = 0
            for code in range(N_CODES):
                sim.count[s, code] = 0
            for _ in range(st.hand_n[s]):
                add_to_hand(sim, s, sim.pile[sim.ctr[PILE_POS]])
                sim.ctr[PILE_POS] += 1


@kernel
def rollout(tb, cfg, sim, seat, team, gparams, oparams, playout, horizon, vweights):
    """Play `sim` on from `seat`'s turn; what it is worth to `team` (0..1).

    Everyone plays greedy (playout PLAYOUT_GREEDY: `team` with gparams, the
    others with oparams) or random (PLAYOUT_RANDOM), turn by turn as the
    game does (kernels.turn). After `horizon` plies (0: no limit but the
    turn cap) the position is scored by win_chance; a finished game by its
    result (1, 1/2 draw, 0).
    """
    players, teams = cfg[CFG_PLAYERS], cfg[CFG_TEAMS]
    plies = cfg[CFG_MAX_TURNS] if horizon == 0 else horizon
    policy = GREEDY if playout == PLAYOUT_GREEDY else RANDOM
    seat_team = seat % teams
    passes = 0
    for _ in range(plies):
        weights = gparams if seat_team == team else oparams
        result = play_turn(UpToGreedy(), policy, weights, tb, cfg, sim, sim, seat, seat_team, ASK_POLICY)
        if result == WON:
            return 1.0 if seat_team == team else 0.0
        if result == PASSED:
            passes += 1
            if passes == players:
                return 0.5  # stalemate: a draw
        else:
            passes = 0
        seat, seat_team = next_seat(seat, seat_team, players, teams)
    if horizon == 0:
        return 0.5  # the turn cap: a draw
    return win_chance(tb, cfg, sim, seat, team, vweights)


@kernel
def shortlist(actions, scores, n, k):
    """Move the best min(k, n) of the n listed actions by score to the front, best first; how many.

    A partial selection sort: ties keep the earlier-listed action first.
    """
    short = min(k, n)
    for i in range(short):
        best = i
        for j in range(i + 1, n):
            if scores[j] > scores[best]:
                best = j
        actions[i], actions[best] = actions[best], actions[i]
        scores[i], scores[best] = scores[best], scores[i]
    return short


@kernel
def lookahead_action(tb, cfg, st, sim, seat, team, params):
    """The shortlisted (card, cell) with the best mean rollout result; (-1, -1) to pass."""
    gparams = params[P_GREEDY:P_OPPONENT]
    actions, scores = st.scratch, st.fscores
    n = score_actions(tb, cfg, st, seat, team, gparams, actions, scores)
    if n == 0:
        return -1, -1
    short = shortlist(actions, scores, n, min(max(int(params[P_SHORTLIST]), 1), MAX_SHORTLIST))
    rollouts = int(params[P_ROLLOUTS])
    if short == 1 or rollouts < 1:
        return actions[0] // 128, actions[0] % 128
    # Candidate i's result minus the greedy choice's on the same deal r:
    # sums and sums of squares in st.fscratch[8 + 2i], [9 + 2i].
    acc = st.fscratch
    for i in range(2 * short):
        acc[8 + i] = 0.0
    base = next_u64(st.rng)
    for r in range(rollouts):
        first = 0.0
        for i in range(short):
            value = rollout_value(tb, cfg, st, sim, seat, team, actions[i], params, base, r)
            if i == 0:
                first = value
            else:
                d = value - first
                acc[8 + 2 * i] += d
                acc[9 + 2 * i] += d * d
    # Leave greedy's choice only for a candidate clearly better on the same deals.
    chosen, chosen_gain = 0, 0.0
    for i in range(1, short):
        mean = acc[8 + 2 * i] / rollouts
        var = (acc[9 + 2 * i] - mean * mean * rollouts) / max(rollouts - 1, 1)
        se = np.sqrt(max(var, 0.0) / rollouts)
        if mean > params[P_MARGIN] * se and mean > chosen_gain:
            chosen, chosen_gain = i, mean
    return actions[chosen] // 128, actions[chosen] % 128


@kernel
def rollout_value(tb, cfg, st, sim, seat, team, action, params, base, r):
    """What `action` is worth to `team` on deal r (0..1): determinise, play it, roll out."""
    seed_stream(sim.rng, base, r)
    determinise(st, sim, seat)
    if play_turn(UpToGreedy(), GREEDY, params[P_GREEDY:P_OPPONENT], tb, cfg, sim, sim, seat, team, action) == WON:
        return 1.0
    return rollout(tb, cfg, sim, (seat + 1) % cfg[CFG_PLAYERS], team,
                   params[P_GREEDY:P_OPPONENT], params[P_OPPONENT:N_LOOKAHEAD_PARAMS],
                   int(params[P_PLAYOUT]), int(params[P_HORIZON]),
                   params[P_VALUE:P_VALUE + N_VALUE_WEIGHTS])
