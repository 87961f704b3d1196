"""A position's value: each team's chance to win, estimated from what is on the board.

The lookahead policy stops its rollouts after a few plies and scores the
position reached with this estimate instead of playing on to the end.

A team's *features* (``team_features``), counted over the 192 lines of five:

0. sequences it has completed;
1. open fours: lines with four of its cells covered (chips and corners), no
   opponent chip, the fifth cell empty;
2. open fours whose empty cell's card is in one of the team's hands;
3. open threes (three covered, no opponent chip);
4. open twos;
5. two-eyed Jacks in the team's hands;
6. one-eyed Jacks in the team's hands;
7. open threes with the card of at least one of their two empty cells in hand;
8. open fours the team can complete now: the card in hand, or a two-eyed Jack;
9. sequences times (8 > 0): one sequence and a four to complete;
10. distinct empty cells that would complete an open four.

Team ``t``'s score is ``z_t = sum_k w_k * f_k(t)``, plus ``w_move`` for the
team whose seat moves next; its chance to win is ``exp(z_t) / sum_u exp(z_u)``
(with two teams, the logistic of the score difference). The weights are a
row ``(w_move, w_0, ..., w_10)``, fitted by logistic regression on greedy
self-play (``benchmarks/fit_value.py``); defaults in ``simkit.policies``.
"""

import numpy as np

from .greedy import chips_in_line
from .jit import inline_kernel, kernel
from .state import CFG_PLAYERS, CFG_TEAMS, lowest_bit, popcount
from .tables import ONE_EYED, TWO_EYED

N_FEATURES = 11
N_VALUE_WEIGHTS = 1 + N_FEATURES  # w_move, then one weight per feature


@kernel
def team_features(tb, cfg, st, team, out):
    """Write the team's N_FEATURES features (see the module doc) into out[:N_FEATURES]."""
    for i in range(N_FEATURES):
        out[i] = 0.0
    players, teams = cfg[CFG_PLAYERS], cfg[CFG_TEAMS]
    held = np.uint64(0)
    for seat in range(team, players, teams):
        held |= st.held[seat]
        out[5] += copies(st, seat, st.held[seat] & tb.kind_codes[TWO_EYED])
        out[6] += copies(st, seat, st.held[seat] & tb.kind_codes[ONE_EYED])
    out[0] = st.nseq[team]
    completing_lo, completing_hi = np.uint64(0), np.uint64(0)
    for k in range(tb.line_lo.shape[0]):
        own = st.in_line[team, k]
        if chips_in_line(st, k) != own:
            continue  # an opponent's chip: the line is no use to this team
        covered = own + tb.line_corners[k]
        if covered == 2:
            out[4] += 1.0
        elif covered == 3 or covered == 4:
            lo = tb.line_lo[k] & ~st.occupied[0] & ~tb.corners[0]
            hi = tb.line_hi[k] & ~st.occupied[1] & ~tb.corners[1]
            in_hand = cards_held(tb, held, lo, hi)
            if covered == 3:
                out[3] += 1.0
                if in_hand > 0:
                    out[7] += 1.0
            else:
                out[1] += 1.0
                completing_lo |= lo
                completing_hi |= hi
                if in_hand > 0:
                    out[2] += 1.0
                    out[8] += 1.0
                elif out[5] > 0:  # a two-eyed Jack completes it
                    out[8] += 1.0
    out[9] = out[0] * min(out[8], 1.0)
    out[10] = popcount(completing_lo) + popcount(completing_hi)


@inline_kernel
def copies(st, seat, codes):
    """How many cards of the set of codes `codes` the seat holds, copies counted."""
    n = 0
    while codes != np.uint64(0):
        n += st.count[seat, lowest_bit(codes)]
        codes &= codes - np.uint64(1)
    return n


@inline_kernel
def cards_held(tb, held, lo, hi):
    """How many of the cells (lo, hi) show a card in the set `held`."""
    n = 0
    for word in range(2):
        bits = lo if word == 0 else hi
        while bits != np.uint64(0):
            cell = word * 64 + lowest_bit(bits)
            bits &= bits - np.uint64(1)
            if (held >> np.uint64(tb.card_of_cell[cell])) & np.uint64(1):
                n += 1
    return n


@kernel
def win_chance(tb, cfg, st, mover, team, weights):
    """Estimated chance (0..1) that `team` wins; `mover` is the seat to move next.

    weights: (N_VALUE_WEIGHTS,) float64. Uses st.fscratch[40:51] as work space.
    Computed as 1 / sum_u exp(z_u - z_team), which cannot overflow for the team ahead.
    """
    features = st.fscratch[40:40 + N_FEATURES]
    teams = cfg[CFG_TEAMS]
    mover_team = mover % teams
    own = team_score(tb, cfg, st, team, mover_team, weights, features)
    total = 1.0
    for u in range(teams):
        if u != team:
            total += np.exp(team_score(tb, cfg, st, u, mover_team, weights, features) - own)
    return 1.0 / total


@inline_kernel
def team_score(tb, cfg, st, team, mover_team, weights, features):
    """z_team: the weighted features, plus the mover's weight for the team to move."""
    team_features(tb, cfg, st, team, features)
    z = weights[0] if team == mover_team else 0.0
    for i in range(N_FEATURES):
        z += weights[1 + i] * features[i]
    return z
