"""The fair value: the fitted value's features as one seat can know them.

``fair_features`` are the features of ``kernels.values.evaluation`` with
every card the seat cannot see replaced by its expectation. The seat's own
hand is known; every other card not in the discards is *unseen* (``U`` of
them: the other hands and the draw pile, whose order the seat never learns),
and a team whose other seats hold ``H`` cards holds one of ``c`` given unseen
cards with probability ``1 - C(U - c, H) / C(U, H)`` (all deals of the unseen
cards being equally likely). So a four whose card the seat holds counts 1,
one whose card an opponent may hold counts that probability, and a team's
two-eyed Jacks are its known ones plus ``H`` times the unseen share of them.
Nothing here reads another seat's cards or the pile: only hand sizes.
``fair_chance`` is the softmax of ``kernels.values.evaluation`` over them:
the fast player's value, and the first features of ``kernels.values.rich``.
"""

import numpy as np

from ..core.jit import inline_kernel, kernel
from ..core.state import lowest_bit
from ..core.tables import N_CODES, ONE_EYED, TWO_EYED
from .evaluation import (
    F_COMPLETABLE,
    F_FOURS,
    F_HELD_FOURS,
    F_HELD_THREES,
    F_ONE_EYED,
    F_SEQUENCES,
    F_THREES,
    F_TWO_EYED,
    N_FEATURES,
    chance,
    close_features,
    count_short_line,
    empty_cells,
    line_owner,
    with_four,
)

COPIES = 64  # st.fscores[COPIES:COPIES + N_CODES]: the unseen copies of each code (the features before it)


@inline_kernel
def holds_one(unseen, hidden, c):
    """Probability that `hidden` cards dealt from `unseen` include one of c given cards."""
    if c <= 0 or hidden <= 0.0:
        return 0.0
    if hidden > unseen - c:
        return 1.0
    p = 1.0
    for i in range(int(c)):
        p *= (unseen - hidden - i) / (unseen - i)
    return 1.0 - p


@kernel
def fair_features(tb, cfg, st, seat, out, copies):
    """Every team's N_FEATURES features as `seat` can know them (see the module doc) into out.

    copies: (N_CODES,) float64 work space, the unseen copies of each card code. Reads the
    board, the discards, the seat's own hand and the sizes of the other hands; nothing else.
    """
    players, teams = cfg.players, cfg.teams
    for i in range(teams * N_FEATURES):
        out[i] = 0.0
    own_team = seat % teams
    for code in range(N_CODES):
        copies[code] = 2.0 - st.count[seat, code]
    for i in range(st.ctr.discard_n):
        copies[st.discard[i]] -= 1.0
    unseen = 0.0
    for code in range(N_CODES):
        unseen += copies[code]
    hidden0, hidden1, hidden2 = 0.0, 0.0, 0.0
    for s in range(players):
        if s != seat:
            t = s % teams
            if t == 0:
                hidden0 += st.hand_n[s]
            elif t == 1:
                hidden1 += st.hand_n[s]
            else:
                hidden2 += st.hand_n[s]
    held = st.held[seat]
    zero = np.uint64(0)
    two_codes = tb.kind_codes[TWO_EYED]
    one_codes = tb.kind_codes[ONE_EYED]
    unseen_two = 0.0
    unseen_one = 0.0
    own_two = 0.0
    own_one = 0.0
    for code in range(N_CODES):
        if (two_codes >> np.uint64(code)) & np.uint64(1):
            unseen_two += copies[code]
            own_two += st.count[seat, code]
        elif (one_codes >> np.uint64(code)) & np.uint64(1):
            unseen_one += copies[code]
            own_one += st.count[seat, code]
    share = 1.0 / unseen if unseen > 0.0 else 0.0
    for t in range(teams):
        hidden = hidden0 if t == 0 else (hidden1 if t == 1 else hidden2)
        f = t * N_FEATURES
        out[f + F_SEQUENCES] = st.nseq[t]
        out[f + F_TWO_EYED] = hidden * unseen_two * share
        out[f + F_ONE_EYED] = hidden * unseen_one * share
        if t == own_team:
            out[f + F_TWO_EYED] += own_two
            out[f + F_ONE_EYED] += own_one
    fours = (zero, zero, zero, zero, zero, zero)  # (lo, hi) of the cells completing each team's fours
    for k in range(tb.line_lo.shape[0]):
        owner, covered = line_owner(tb, st, k)
        if count_short_line(out, teams, owner, covered):
            continue
        f = owner * N_FEATURES
        hidden = hidden0 if owner == 0 else (hidden1 if owner == 1 else hidden2)
        mine = owner == own_team
        lo, hi = empty_cells(tb, st, k)
        # The empty cells' cards: known in the seat's hand, else unseen copies.
        known = False
        c_cards = 0.0
        first_card = -1
        for word in range(2):
            bits = lo if word == 0 else hi
            while bits != zero:
                cell = word * 64 + lowest_bit(bits)
                bits &= bits - np.uint64(1)
                card = tb.card_of_cell[cell]
                if mine and (held >> np.uint64(card)) & np.uint64(1):
                    known = True
                if card != first_card:  # two empty cells of one card count its copies once
                    c_cards += copies[card]
                    first_card = card
        if covered == 3:
            out[f + F_THREES] += 1.0
            out[f + F_HELD_THREES] += 1.0 if known else holds_one(unseen, hidden, c_cards)
        else:
            out[f + F_FOURS] += 1.0
            fours = with_four(fours, owner, lo, hi)
            if known:
                out[f + F_HELD_FOURS] += 1.0
                out[f + F_COMPLETABLE] += 1.0
            elif mine and own_two > 0.0:
                out[f + F_HELD_FOURS] += holds_one(unseen, hidden, c_cards)
                out[f + F_COMPLETABLE] += 1.0
            else:
                out[f + F_HELD_FOURS] += holds_one(unseen, hidden, c_cards)
                out[f + F_COMPLETABLE] += holds_one(unseen, hidden, c_cards + unseen_two)
    close_features(out, teams, fours)


@kernel
def fair_chance(tb, cfg, st, seat, mover, weights, feats, copies):
    """The estimated chance (0..1) that `seat`'s team wins, from what `seat` sees; `mover` moves next."""
    fair_features(tb, cfg, st, seat, feats, copies)
    teams = cfg.teams
    return chance(feats, teams, seat % teams, mover % teams, weights)
