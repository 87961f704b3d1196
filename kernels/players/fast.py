"""The fast player: one ply, each candidate judged by a fair value of the position it leaves.

Greedy's best ``width`` actions (by the policy's own greedy weights) are each
played on a copy of the board (``moves.play_card``: the card leaves the hand
and acts on the board; the draw that follows is unknown and left out), and
the position is scored by the estimated chance to win of the seat's team
(the softmax of ``kernels.values.evaluation``, the next seat to move). The highest
chance wins; ties keep greedy's order. A winning action is played at once.

The value reads only what the seat may see (RULES.md, Information):
``kernels.values.fair``'s features, every card the seat cannot see replaced
by its expectation.

Parameters (a float64 row): width, then the N_VALUE_WEIGHTS value weights,
then the own N_GREEDY_PARAMS greedy weights. ``fast_action`` takes the value
as a marker, as the lookahead's leaves do: ``FittedLeaf()`` (the fast
policy: ``kernels.values.fair.fair_chance``) or ``RichLeaf()`` (``kernels.values.rich``'s value of hand
and board, N_RICH_WEIGHTS weights in place of the N_VALUE_WEIGHTS; the
one-ply player of fitting/rich_value.py).
"""

from typing import NamedTuple

from ..core.decide import state_of
from ..core.jit import inline_kernel, kernel
from ..core.moves import play_card
from ..core.state import DISCARD_N, copy_board
from ..core.tables import N_CODES
from ..values.evaluation import N_VALUE_WEIGHTS
from ..values.leaves import FittedLeaf, seen_chance, value_size
from ..values.weights import VALUE_WEIGHTS, value_weights
from .greedy import N_GREEDY_PARAMS, score_actions
from .lookahead import OWN_WEIGHTS
from .player import HEAVY, Player
from .rollouts import MAX_SHORTLIST, shortlist

P_WIDTH, P_VALUE = 0, 1
P_GREEDY = P_VALUE + N_VALUE_WEIGHTS
N_FAST_PARAMS = P_GREEDY + N_GREEDY_PARAMS
FAST = 4


@kernel
def copy_view(st, sim, seat):
    """Copy into `sim` the board, the discards, the seat's hand and the other hands' sizes (no cards)."""
    copy_board(st, sim)
    for i in range(st.ctr[DISCARD_N]):
        sim.discard[i] = st.discard[i]
    for i in range(st.ctr.shape[0]):
        sim.ctr[i] = st.ctr[i]
    for s in range(st.hand_n.shape[0]):
        sim.hand_n[s] = st.hand_n[s]
    for code in range(N_CODES):
        sim.count[seat, code] = st.count[seat, code]
    sim.held[seat] = st.held[seat]


@kernel
def fast_action(leaf, tb, cfg, st, sim, seat, team, params):
    """The shortlisted action whose position the value of `leaf` (FittedLeaf(): the fair value) likes
    best, as (card, cell); (-1, -1) to pass."""
    g = P_VALUE + value_size(leaf)
    moves, scores = st.scratch, st.fscores
    n = score_actions(tb, cfg, st, seat, team, params[g : g + N_GREEDY_PARAMS], moves, scores)
    if n == 0:
        return -1, -1
    k = shortlist(moves, scores, n, min(max(int(params[P_WIDTH]), 1), MAX_SHORTLIST))
    if k == 1:
        return moves[0] // 128, moves[0] % 128
    weights = params[P_VALUE:g]
    mover = (seat + 1) % cfg.players
    best, best_value = moves[0], -1.0
    for i in range(k):
        move = moves[i]
        copy_view(st, sim, seat)
        play_card(tb, sim, seat, team, move // 128, move % 128, True)  # the value reads the line counts
        if sim.nseq[team] >= cfg.sequences_to_win:
            return move // 128, move % 128
        value = seen_chance(leaf, tb, cfg, sim, seat, mover, weights)
        if value > best_value:
            best, best_value = move, value
    return best // 128, best % 128


class Fast(NamedTuple):
    """The fast player's mark in a player set."""


@inline_kernel
def play_fast(tb, cfg, st, sim, seat, team, params):
    """The fast player's (card, cell) on the State of the spare arrays `sim`."""
    return fast_action(FittedLeaf(), tb, cfg, st, state_of(sim), seat, team, params)


PLAYERS = (
    Player(
        "fast",
        FAST,
        Fast,
        play_fast,
        "greedy's best moves, each judged by the fitted value of what the seat sees",
        HEAVY,
        compile_seconds=12,
        ladder=2,
        params={"width": 2.0, **VALUE_WEIGHTS["2 teams"], **OWN_WEIGHTS},
        limits={"width": (1, 16, True)},
        table_defaults=value_weights,
    ),
)
