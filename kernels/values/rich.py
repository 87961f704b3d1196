"""A value of hand and board: the fair features and 26 more, for two-team tables.

``rich_features`` describes a position as one seat may know it (RULES.md,
Information: the board, the discards, its own hand, the sizes of the other
hands and of the pile): the fair features of its team and of the other
(``kernels.values.fair.fair_features``, 12 each, every unseen card an expectation),
then the EXTRAS, which read the seat's own hand exactly: its twos and threes
by how many of their empty cells' cards it holds, fork cells, the other
team's fours it can block now, Jacks against threats, the share of the pile
left and its products with sequences, its cards on its own lines, its dead
cards, lines that cannot become sequences because they would share two of a
sequence's chips.

With three teams, "the other team" is the two others taken together: their
fair features summed, a line holding chips of one of them counted as
theirs, and a line holding chips of both (no one's sequence) left out.

``rich_chance`` is the logistic of a linear function of them: the chance
that the seat's team wins, seen by the seat that has just played. Its
weights (N_RICH_WEIGHTS: one per feature, then the intercept) are fitted by
fitting/rich_value.py on lookahead games, one set per table shape
(``kernels.values.weights.RICH_WEIGHTS``).
"""

import numpy as np

from ..core.jit import kernel
from ..core.state import lowest_bit, popcount
from ..core.tables import N_CODES, ONE_EYED, TWO_EYED
from .evaluation import F_FOUR_CELLS, F_FOURS, F_SEQUENCES, F_THREES, F_TWO_EYED, N_FEATURES
from .fair import COPIES, fair_features
from .rich_extras import EXTRAS

N_EXTRAS = len(EXTRAS)
N_BASE = 2 * N_FEATURES  # the seat's team's fair features, then the other team's
N_RICH = N_BASE + N_EXTRAS
N_RICH_WEIGHTS = N_RICH + 1  # and the intercept
FEATURES_AT = 128  # rich_chance's features in st.fscores[FEATURES_AT:FEATURES_AT + N_RICH]
assert COPIES + N_CODES <= FEATURES_AT


@kernel
def rich_features(tb, cfg, st, seat, out):
    """out[:N_BASE]: the fair features of seat's team, then of the others (summed); out[N_BASE:N_RICH]:
    the EXTRAS; all as `seat` may know them. Uses st.fscores[:FEATURES_AT] as work space (out may be
    st.fscores[FEATURES_AT:])."""
    teams = cfg.teams
    team = seat % teams
    other = (team + 1) % teams  # the next team; with three, `third` is the one after it
    third = (team + 2) % teams if teams == 3 else -1
    work = st.fscores
    fair_features(tb, cfg, st, seat, work, work[COPIES : COPIES + N_CODES])  # every team's 12, team 0 first
    for i in range(N_FEATURES):
        out[i] = work[team * N_FEATURES + i]
        out[N_FEATURES + i] = work[other * N_FEATURES + i]
        if third >= 0:
            out[N_FEATURES + i] += work[third * N_FEATURES + i]
    e = out[N_BASE:N_RICH]
    for i in range(N_EXTRAS):
        e[i] = 0.0
    held = st.held[seat]
    zero = np.uint64(0)
    one = np.uint64(1)
    # The seat's Jacks, and the cells whose card it holds (two per card) as a bitboard.
    own_two = 0.0
    own_one = 0.0
    mine_lo, mine_hi = zero, zero
    bits = held
    while bits != zero:
        code = lowest_bit(bits)
        bits &= bits - one
        if (tb.kind_codes[TWO_EYED] >> np.uint64(code)) & one:
            own_two += st.count[seat, code]
        elif (tb.kind_codes[ONE_EYED] >> np.uint64(code)) & one:
            own_one += st.count[seat, code]
        for j in range(2):
            cell = tb.card_cells[code, j]  # -1 for a Jack
            if cell >= 64:
                mine_hi |= one << np.uint64(cell - 64)
            elif cell >= 0:
                mine_lo |= one << np.uint64(cell)
    # Empty cells on own (other's) threes and fours: once (on one or more), twice (two or more).
    own_once_lo, own_once_hi, own_twice_lo, own_twice_hi = zero, zero, zero, zero
    other_once_lo, other_once_hi, other_twice_lo, other_twice_hi = zero, zero, zero, zero
    useful_lo, useful_hi = zero, zero  # empty cells on own lines covering two or more
    other_fours = 0.0
    blockable = 0.0
    for k in range(tb.line_lo.shape[0]):
        a = np.int64(st.in_line[team, k])
        b = np.int64(st.in_line[other, k])
        owner = other
        if third >= 0 and st.in_line[third, k] > 0:
            if b > 0:
                continue  # both other teams' chips: no one's sequence
            b = np.int64(st.in_line[third, k])
            owner = third
        if (a > 0 and b > 0) or a + b == 0:
            continue
        mine = a > 0
        covered = a + b + tb.line_corners[k]
        if covered < 2 or covered > 4:
            continue
        lo = tb.line_lo[k] & ~st.occupied[0] & ~tb.corners[0]
        hi = tb.line_hi[k] & ~st.occupied[1] & ~tb.corners[1]
        if mine:
            owner = team
        if covered >= 3:
            owner_locked = popcount(tb.line_lo[k] & st.locked[0] & st.chips[owner, 0]) + popcount(
                tb.line_hi[k] & st.locked[1] & st.chips[owner, 1]
            )
            if owner_locked >= 2:
                e[22 if mine else 23] += 1.0  # cannot become a sequence: it would share two cells
                continue
            if mine:
                own_twice_lo |= own_once_lo & lo
                own_twice_hi |= own_once_hi & hi
                own_once_lo |= lo
                own_once_hi |= hi
            else:
                other_twice_lo |= other_once_lo & lo
                other_twice_hi |= other_once_hi & hi
                other_once_lo |= lo
                other_once_hi |= hi
        n_held = popcount(lo & mine_lo) + popcount(hi & mine_hi)  # empty cells whose card is held
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
    e[6] = popcount(own_twice_lo) + popcount(own_twice_hi)
    e[7] = popcount(other_twice_lo) + popcount(other_twice_hi)
    e[8] = blockable
    own_threes = out[F_THREES]
    other_threes = out[N_FEATURES + F_THREES]
    e[9] = own_two * own_threes
    e[10] = own_two if out[F_FOURS] > 0 else 0.0
    e[11] = own_one * other_fours
    e[12] = own_one if other_fours > 0 else 0.0
    e[13] = out[N_FEATURES + F_TWO_EYED] * other_threes
    left = (st.ctr.pile_n - st.ctr.pile_pos) / 104.0
    e[14] = left
    e[15] = left * out[F_SEQUENCES]
    e[16] = left * out[N_FEATURES + F_SEQUENCES]
    bits = held
    while bits != zero:
        code = lowest_bit(bits)
        bits &= bits - one
        if tb.card_cells[code, 0] < 0:
            continue  # a Jack: no cell
        usable = False
        dead = True
        for j in range(2):
            cell = tb.card_cells[code, j]
            word, b = cell // 64, np.uint64(cell % 64)
            if not (st.occupied[word] >> b) & one:
                dead = False
                if ((useful_lo if word == 0 else useful_hi) >> b) & one:
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


@kernel
def rich_chance(tb, cfg, st, seat, weights):
    """The chance (0..1) that `seat`'s team wins, by the logistic of weights @ rich_features + the
    intercept (weights: (N_RICH_WEIGHTS,) float64), as `seat` sees st. Uses st.fscores as work."""
    feats = st.fscores[FEATURES_AT : FEATURES_AT + N_RICH]
    rich_features(tb, cfg, st, seat, feats)
    z = weights[N_RICH]
    for j in range(N_RICH):
        z += weights[j] * feats[j]
    return 1.0 / (1.0 + np.exp(-z))
