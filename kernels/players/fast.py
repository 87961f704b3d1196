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

Its row (``fast_layout``): its own greedy block, ``width``, its leaf (the value it scores positions
by: ``FITTED``, the fast policy's ``kernels.values.fair.fair_chance``, or ``RICH``,
``kernels.values.rich``'s value of hand and board: the one-ply player of fitting/rich_value.py) and that
value's weights, last; the kernel reads it by name through ``FAST_ROW``.
"""

from ..core.jit import kernel, twin
from ..core.moves import play_card
from ..core.params import Block, Layout, Param
from ..core.state import copy_board, copy_counters
from ..core.tables import N_CODES
from ..values.leaves import FITTED, FITTED_VALUE, LEAF, fitted_seen, seen_chance
from ..values.weights import value_weights
from .greedy import score_actions
from .lookahead import OWN
from .player import HEAVY, Player
from .rollouts import MAX_SHORTLIST, shortlist

FAST = 4
WIDTH = Block("fast", (Param("width", 2.0, "candidates: greedy's best this many", 1, MAX_SHORTLIST, whole=True),))


def fast_layout(leaf: int, value: Block) -> Layout:
    """The row of the one-ply player scoring positions by the value `leaf` (its weights `value`)."""
    return Layout.of(("own", OWN), ("fast", WIDTH), ("leaf", LEAF.fixed(leaf=leaf)), ("value", value))


FAST_ROW = fast_layout(FITTED, Block("value", ())).at  # its offsets by name, the same for any value


@kernel
def copy_view(st, sim, seat):
    """Copy into `sim` the board, the discards, the seat's hand and the other hands' sizes (no cards)."""
    copy_board(st, sim)
    for i in range(st.ctr.discard_n):
        sim.discard[i] = st.discard[i]
    copy_counters(st, sim)
    for s in range(st.hand_n.shape[0]):
        sim.hand_n[s] = st.hand_n[s]
    for code in range(N_CODES):
        sim.count[seat, code] = st.count[seat, code]
    sim.held[seat] = st.held[seat]


@kernel
def fast_action(tb, cfg, st, work, seat, team, params):
    """The shortlisted action whose position the player's value (its row's leaf and weights) likes best,
    as (card, cell); (-1, -1) to pass. Each candidate is played on work.sim."""
    sim = work.sim
    moves, scores = st.scratch, st.fscores
    n = score_actions(tb, cfg, st, seat, team, params[FAST_ROW.own : FAST_ROW.fast], moves, scores)
    if n == 0:
        return -1, -1
    k = shortlist(moves, scores, n, min(max(int(params[FAST_ROW.width]), 1), MAX_SHORTLIST))
    if k == 1:
        return moves[0] // 128, moves[0] % 128
    leaf, weights = int(params[FAST_ROW.leaf]), params[FAST_ROW.value :]
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


# The fast player's action: fast_action scoring by the fitted value alone, whatever its row's leaf says, so
# that its first run compiles that value only.
FITTED_FAST = kernel(twin(fast_action, "fast_action_fitted", seen_chance=fitted_seen))


PLAYERS = (
    Player(
        "fast",
        FAST,
        FITTED_FAST,
        "greedy's best moves, each judged by the fitted value of what the seat sees",
        HEAVY,
        fast_layout(FITTED, FITTED_VALUE),
        table_defaults=value_weights,
    ),
)
