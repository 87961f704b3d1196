"""A position's value: each team's chance to win, estimated from what is on the board.

The lookahead policy stops its rollouts after a few plies and scores the
position reached with this estimate instead of playing on to the end.

A team's *features* (``features``), counted over the 192 lines of five; a
line *belongs* to a team when every chip on it is the team's (an empty line
belongs to every team), and *covered* counts its chips and corners:

0. sequences it has completed;
1. open fours: its lines with four cells covered, the fifth empty;
2. open fours whose empty cell's card is in one of the team's hands;
3. open threes (three covered);
4. open twos;
5. two-eyed Jacks in the team's hands;
6. one-eyed Jacks in the team's hands;
7. open threes with the card of at least one of their two empty cells in hand;
8. open fours the team can complete now: the card in hand, or a two-eyed Jack;
9. sequences times (8 > 0): one sequence and a four to complete;
10. distinct empty cells that would complete an open four;
11. open ones (one cell covered: a chip, or a corner on an empty line).

Team ``t``'s score is ``z_t = sum_k w_k * f_k(t)``, plus ``w_move`` for the
team whose seat moves next; its chance to win is ``exp(z_t) / sum_u exp(z_u)``
(with two teams, the logistic of the score difference). The weights are a
row ``(w_move, w_0, ..., w_11)``, fitted by logistic regression on greedy
games of each table shape (``fitting/fit_value.py``); defaults per table
in ``kernels.values.weights``.
"""

import numpy as np

from ..core.jit import inline_kernel, kernel
from ..core.state import lowest_bit, popcount
from ..core.tables import ONE_EYED, TWO_EYED

N_FEATURES = 12
N_VALUE_WEIGHTS = 1 + N_FEATURES  # w_move, then one weight per feature
(
    F_SEQUENCES,
    F_FOURS,
    F_HELD_FOURS,
    F_THREES,
    F_TWOS,
    F_TWO_EYED,
    F_ONE_EYED,
    F_HELD_THREES,
    F_COMPLETABLE,
    F_SEQUENCE_AND_FOUR,
    F_FOUR_CELLS,
    F_ONES,
) = range(N_FEATURES)
EMPTY, MIXED = -1, -2  # line_owner's owner of a line without chips, and of one with two teams' chips


@kernel
def features(tb, cfg, st, out):
    """Every team's N_FEATURES features (see the module doc), in one pass over the lines.

    Team t's are written to out[t * N_FEATURES:(t + 1) * N_FEATURES], for t < teams.
    """
    players, teams = cfg.players, cfg.teams
    for i in range(teams * N_FEATURES):
        out[i] = 0.0
    zero = np.uint64(0)
    held0, held1, held2 = zero, zero, zero  # the card codes in each team's hands
    for seat in range(players):
        t = seat % teams
        h = st.held[seat]
        if t == 0:
            held0 |= h
        elif t == 1:
            held1 |= h
        else:
            held2 |= h
        out[t * N_FEATURES + F_TWO_EYED] += copies(st, seat, h & tb.kind_codes[TWO_EYED])
        out[t * N_FEATURES + F_ONE_EYED] += copies(st, seat, h & tb.kind_codes[ONE_EYED])
    for t in range(teams):
        out[t * N_FEATURES + F_SEQUENCES] = st.nseq[t]
    fours = (zero, zero, zero, zero, zero, zero)  # (lo, hi) of the cells completing each team's fours
    for k in range(tb.line_lo.shape[0]):
        owner, covered = line_owner(tb, st, k)
        if count_short_line(out, teams, owner, covered):
            continue
        f = owner * N_FEATURES
        held = held0 if owner == 0 else (held1 if owner == 1 else held2)
        lo, hi = empty_cells(tb, st, k)
        in_hand = cards_held(tb, held, lo, hi)
        if covered == 3:
            out[f + F_THREES] += 1.0
            if in_hand > 0:
                out[f + F_HELD_THREES] += 1.0
        else:
            out[f + F_FOURS] += 1.0
            fours = with_four(fours, owner, lo, hi)
            if in_hand > 0:
                out[f + F_HELD_FOURS] += 1.0
                out[f + F_COMPLETABLE] += 1.0
            elif out[f + F_TWO_EYED] > 0:  # a two-eyed Jack completes it
                out[f + F_COMPLETABLE] += 1.0
    close_features(out, teams, fours)


@inline_kernel
def line_owner(tb, st, k):
    """Line k's owner and covered cells: (team, chips + corners) when only that team has chips on it;
    (EMPTY, corners) when no one has; (MIXED, 0) when two teams have."""
    a = np.int64(st.in_line[0, k])
    b = np.int64(st.in_line[1, k])
    c = np.int64(st.in_line[2, k])
    total = a + b + c
    corners = tb.line_corners[k]
    if total == 0:
        return EMPTY, corners
    if a == total:
        return 0, total + corners
    if b == total:
        return 1, total + corners
    if c == total:
        return 2, total + corners
    return MIXED, 0


@inline_kernel
def count_short_line(out, teams, owner, covered):
    """Count a line that is no open three or four (an open one or two, an empty line with a corner: every
    team's open one); True when it is such a line (or of no use to anyone)."""
    if owner == MIXED:
        return True
    if owner == EMPTY:
        if covered == 1:
            for t in range(teams):
                out[t * N_FEATURES + F_ONES] += 1.0
        return True
    if covered == 1:
        out[owner * N_FEATURES + F_ONES] += 1.0
        return True
    if covered == 2:
        out[owner * N_FEATURES + F_TWOS] += 1.0
        return True
    return covered != 3 and covered != 4


@inline_kernel
def empty_cells(tb, st, k):
    """Line k's empty cells, as (lo, hi) bit words."""
    return tb.line_lo[k] & ~st.occupied[0] & ~tb.corners[0], tb.line_hi[k] & ~st.occupied[1] & ~tb.corners[1]


@inline_kernel
def with_four(fours, owner, lo, hi):
    """The cells completing each team's fours (lo0, hi0, lo1, hi1, lo2, hi2), with the owner's (lo, hi) added."""
    lo0, hi0, lo1, hi1, lo2, hi2 = fours
    if owner == 0:
        return lo0 | lo, hi0 | hi, lo1, hi1, lo2, hi2
    if owner == 1:
        return lo0, hi0, lo1 | lo, hi1 | hi, lo2, hi2
    return lo0, hi0, lo1, hi1, lo2 | lo, hi2 | hi


@inline_kernel
def close_features(out, teams, fours):
    """The features read off the others: a sequence with a four to complete, and the cells completing a four."""
    for t in range(teams):
        f = t * N_FEATURES
        out[f + F_SEQUENCE_AND_FOUR] = out[f + F_SEQUENCES] * min(out[f + F_COMPLETABLE], 1.0)
    lo0, hi0, lo1, hi1, lo2, hi2 = fours
    out[F_FOUR_CELLS] = popcount(lo0) + popcount(hi0)
    out[N_FEATURES + F_FOUR_CELLS] = popcount(lo1) + popcount(hi1)
    if teams == 3:
        out[2 * N_FEATURES + F_FOUR_CELLS] = popcount(lo2) + popcount(hi2)


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

    weights: (N_VALUE_WEIGHTS,) float64. Uses st.fscores[:3 * N_FEATURES] as work
    space (the scores of greedy's listed actions, free between turns).
    """
    feats = st.fscores
    features(tb, cfg, st, feats)
    return chance(feats, cfg.teams, team, mover % cfg.teams, weights)


@inline_kernel
def chance(feats, teams, team, mover_team, weights):
    """The team's chance to win from every team's features: exp(z_team) / sum_u exp(z_u), computed as
    1 / sum_u exp(z_u - z_team), which cannot overflow for the team ahead."""
    own = team_score(feats, team, mover_team, weights)
    total = 1.0
    for u in range(teams):
        if u != team:
            total += np.exp(team_score(feats, u, mover_team, weights) - own)
    return 1.0 / total


@inline_kernel
def team_score(feats, team, mover_team, weights):
    """z_team: the team's weighted features, plus the mover's weight for the team to move."""
    z = weights[0] if team == mover_team else 0.0
    f = team * N_FEATURES
    for i in range(N_FEATURES):
        z += weights[1 + i] * feats[f + i]
    return z
