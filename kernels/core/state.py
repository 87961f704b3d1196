"""The state of one game as one record of arrays (``STATE_FIELDS``), and the rule queries on it.

Everything here is pure: functions read and write only the State and arrays
they are given. (Kernel code avoids ``a and b`` / ``a or b`` on array reads: numba
compiles those short-circuits into slow code, ~100 ns each; use ``if``.) The
game configuration is a record (``kernels.core.config``), and so are the counters,
the last turn and the per-game statistics (``kernels.core.stats``) within the State.
"""

import llvmlite.binding as ll
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic, overload

from .config import MAX_PLAYERS, MAX_TEAMS
from .jit import INLINE_OPTIONS, inline_kernel
from .record import new_record, record_dtype
from .stats import GAME_STATS
from .tables import N_CODES, N_LINES, ONE_EYED

MAX_HAND = 16  # room for hands of up to 15 plus the card drawn before one leaves
DECK_SIZE = 104
MAX_SEQUENCES = 16  # per team: sequences_to_win <= 8 keeps a team below this
MAX_NEW_SEQUENCES = 8  # two per direction through one cell


# What the last turn did, in st.turn (kernels.core.turn): the dead card swapped (-1: none) and its
# replacement, the card played (-1: a pass) and its cell, the sequences it completed, the card drawn at
# the end (-1: none), the late card drawn after it (-1: none) and how many times the discards were
# reshuffled into a new pile.
TURN = record_dtype(
    (
        (name, np.int64, ())
        for name in ("dead", "replacement", "card", "cell", "new_sequences", "drawn", "late", "reshuffles")
    ),
    packed=True,
)

# The counters, in st.ctr: the draw pile is pile[pile_pos:pile_n], the discards discard[:discard_n]; the
# turns played so far and the passes in a row (kept by kernels.core.turn.play_turn).
COUNTERS = record_dtype(
    ((name, np.int64, ()) for name in ("pile_pos", "pile_n", "discard_n", "turns", "pass_run")), packed=True
)

# One row of the move log per turn (kernels.engine.play_game, when given a log with rows): the seat, the
# dead card it swapped (-1: none), the card it played and what it did with it (ACT_*; card and cell -1 for a
# pass), the cards it drew (the dead card's replacement, the draw, the late card: ndrawn of them), whether
# the discards were reshuffled, and the lines of the sequences it completed (nseq of them).
LOG = record_dtype(
    (
        ("seat", np.int64, ()),
        ("dead", np.int64, ()),
        ("card", np.int64, ()),
        ("action", np.int64, ()),
        ("cell", np.int64, ()),
        ("ndrawn", np.int64, ()),
        ("drawn", np.int64, (3,)),
        ("reshuffle", np.int64, ()),
        ("nseq", np.int64, ()),
        ("seqs", np.int64, (MAX_NEW_SEQUENCES,)),
    ),
    packed=True,
)
ACT_PLACE, ACT_REMOVE, ACT_PASS = 0, 1, 2
ACTION_NAMES = ("place", "remove", "pass")


# The State: one game's mutable data, one record (kernels.core.record); see docs/ENGINE.md.
STATE_FIELDS = (
    ("rng", np.uint64, (1,)),  # the game's splitmix64 state
    ("pile", np.int64, (DECK_SIZE,)),  # the draw pile: cards pile[ctr.pile_pos:ctr.pile_n]
    ("discard", np.int64, (DECK_SIZE,)),  # discards in the order discarded: discard[:ctr.discard_n]
    ("held", np.uint64, (MAX_PLAYERS,)),  # the set of card codes in each seat's hand (bit = code)
    ("count", np.int64, (MAX_PLAYERS, N_CODES)),  # copies of each code in each hand (0, 1 or 2)
    ("hand_n", np.int64, (MAX_PLAYERS,)),  # cards in each hand
    ("dead", np.uint64, (1,)),  # the set of dead card codes: both cells hold chips
    ("dealt", np.int64, (MAX_PLAYERS, MAX_HAND)),  # the hands right after the deal (filled when logging)
    ("chips", np.uint64, (MAX_TEAMS, 2)),  # each team's chips as a bitboard
    ("occupied", np.uint64, (2,)),  # all chips
    ("locked", np.uint64, (2,)),  # chips of completed sequences
    # chips of each team on each line (greedy's counts; under random play the batch driver does not
    # keep them: kernels.engine.play_to_end)
    ("in_line", np.int16, (MAX_TEAMS, N_LINES)),
    ("seqs", np.int64, (MAX_TEAMS, MAX_SEQUENCES)),  # each team's sequences as line numbers: seqs[t, :nseq[t]]
    ("nseq", np.int64, (MAX_TEAMS,)),
    ("on_board", np.int64, (MAX_TEAMS,)),  # chips per team on the board
    ("ctr", COUNTERS, ()),  # pile and discard counters, turns played, passes in a row
    ("stats", GAME_STATS, ()),  # this game's statistics (kernels.core.stats)
    ("turn", TURN, ()),  # what the last turn did
    ("scratch", np.int64, (512,)),  # work space for policies
    # work space for policies (greedy: [0, 8); lookahead: [8, 40); evaluation: [40, 51))
    ("fscratch", np.float64, (64,)),
    ("fscores", np.float64, (512,)),  # scores of the actions listed in scratch
)
STATE = record_dtype(STATE_FIELDS)


def new_state() -> np.record:
    """A fresh State: zeroed, in a buffer of its own (``kernels.core.record.new_record``)."""
    return new_record(STATE)


def new_log(turns: int) -> np.recarray:
    """A move log of `turns` rows, LOG records (``kernels.engine.play_game``)."""
    return np.zeros(turns, LOG).view(np.recarray)


# --- indices -----------------------------------------------------------------


@inline_kernel
def copy_board(st, sim):
    """Copy the board of State `st` into the spare State `sim`: each team's chips, sequences, chips on
    the board and line counts, the occupied and locked cells, the dead cards. Hands, pile, discards and
    counters are the caller's (each copies what its seat may see)."""
    for t in range(MAX_TEAMS):
        sim.chips[t, 0] = st.chips[t, 0]
        sim.chips[t, 1] = st.chips[t, 1]
        sim.nseq[t] = st.nseq[t]
        sim.on_board[t] = st.on_board[t]
        for j in range(st.nseq[t]):
            sim.seqs[t, j] = st.seqs[t, j]
        for k in range(st.in_line.shape[1]):
            sim.in_line[t, k] = st.in_line[t, k]
    for w in range(2):
        sim.occupied[w] = st.occupied[w]
        sim.locked[w] = st.locked[w]
    sim.dead[0] = st.dead[0]


@inline_kernel
def copy_counters(st, sim):
    """Copy the counters of State `st` (the pile's and the discards', turns, passes in a row) into `sim`."""
    sim.ctr.pile_pos = st.ctr.pile_pos
    sim.ctr.pile_n = st.ctr.pile_n
    sim.ctr.discard_n = st.ctr.discard_n
    sim.ctr.turns = st.ctr.turns
    sim.ctr.pass_run = st.ctr.pass_run


@inline_kernel
def unsigned(i):
    """The index i (>= 0) as an unsigned integer. Numba fixes up a negative signed index
    (a shift, a mask and an add on every access, and a shape to keep at hand); an unsigned
    one it uses as it is. Index with the result only: arithmetic mixing uint64 and int64
    gives float64."""
    return np.uint64(i)


# --- bitboards ---------------------------------------------------------------


@inline_kernel
def bit(c):
    """The word index (unsigned) and mask of cell c."""
    return unsigned(c) >> np.uint64(6), np.uint64(1) << np.uint64(c & 63)


@inline_kernel
def bit_of(words, c):
    """Cell c of the bitboard `words` as a uint64 0 or 1."""
    return (words[unsigned(c) >> np.uint64(6)] >> np.uint64(c & 63)) & np.uint64(1)


@inline_kernel
def has(words, c):
    """Whether cell c is in the bitboard `words`."""
    w, m = bit(c)
    return (words[w] & m) != np.uint64(0)


@inline_kernel
def popcount(x):
    """Number of set bits of a uint64 (SWAR)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@inline_kernel
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return popcount((x & (~x + np.uint64(1))) - np.uint64(1))


@inline_kernel
def code_bit(code):
    """The bit of card `code` in a set of codes."""
    return np.uint64(1) << np.uint64(code)


def _fast_pdep() -> bool:
    """Whether the CPU numba compiles for has a fast PDEP (BMI2; microcoded and slow on AMD
    before Zen 3). Numba keys its cache on that CPU's name and features, so code built with
    PDEP is only ever loaded where it runs."""
    name = config.CPU_NAME or ll.get_host_cpu_name()
    features = config.CPU_FEATURES if config.CPU_FEATURES is not None else ll.get_host_cpu_features().flatten()
    return "+bmi2" in features.split(",") and name not in ("znver1", "znver2")


FAST_PDEP = _fast_pdep()  # a constant of the compiled code, like the tables' sizes


def pdep(src, mask):
    """x86 PDEP: the low bits of src deposited, in order, on the set bits of mask (uint64s). In Python, bit
    by bit; compiled, the instruction (``_pdep``, BMI2 only)."""
    out, m, s = 0, int(mask), int(src)
    while m:
        low = m & -m  # the lowest set bit of what is left of the mask
        if s & 1:
            out |= low
        m ^= low
        s >>= 1
    return np.uint64(out)


@overload(pdep, jit_options=INLINE_OPTIONS)
def _pdep_overload(src, mask):
    if src == types.uint64 and mask == types.uint64:
        return lambda src, mask: _pdep(src, mask)


@intrinsic
def _pdep(typingctx, src, mask):
    """x86 PDEP in compiled code: the instruction llvm.x86.bmi.pdep.64 (BMI2 only)."""
    if src != types.uint64 or mask != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


@inline_kernel
def nth_bit(x, k):
    """Index of the k-th (0-based, ascending) set bit of x (k < popcount(x)).

    With a fast PDEP one instruction deposits bit k onto x's set bits, without the loop, whose
    exit at a random k is a branch the CPU cannot predict.
    """
    if FAST_PDEP:
        return lowest_bit(pdep(np.uint64(1) << np.uint64(k), x))
    for _ in range(k):
        x &= x - np.uint64(1)
    return lowest_bit(x)


@inline_kernel
def nth_cell(lo, hi, k):
    """The k-th (0-based, ascending) cell of the bitboard (lo, hi)."""
    n_lo = popcount(lo)
    word, base = lo, 0
    if k >= n_lo:
        word, base, k = hi, 64, k - n_lo
    return base + nth_bit(word, k)


# --- rule queries ------------------------------------------------------------


@inline_kernel
def is_dead(tb, st, code):
    """A non-Jack card both of whose cells hold chips (RULES.md, "A turn" 1)."""
    return (st.dead[0] & code_bit(code)) != np.uint64(0)


@inline_kernel
def may_place(cfg, st, team):
    """Whether the team has a chip to place (always, unless the chip limit is on)."""
    if cfg.chip_limit == 0:
        return True
    return st.on_board[team] < cfg.supply[team]


@inline_kernel
def can_draw(cfg, st):
    """Whether a card can be drawn: the pile holds one, or the discards can be reshuffled into a new one."""
    if st.ctr.pile_pos < st.ctr.pile_n:
        return True
    if cfg.reshuffle == 0:
        return False
    return st.ctr.discard_n > 0


@inline_kernel
def may_swap_dead(cfg, st):
    """Whether the seat may swap a dead card this turn: dead_swap is on and a replacement
    can be drawn (with reshuffle on the swapped card itself refills an empty pile)."""
    if cfg.dead_swap == 0:
        return False
    if cfg.reshuffle != 0:
        return True
    return st.ctr.pile_pos < st.ctr.pile_n


@inline_kernel
def removable(st, team):
    """The bitboard (lo, hi) of opponent chips not in a completed sequence."""
    t = unsigned(team)
    return (st.occupied[0] & ~st.chips[t, 0] & ~st.locked[0], st.occupied[1] & ~st.chips[t, 1] & ~st.locked[1])


@inline_kernel
def targets(tb, cfg, st, team, code):
    """The bitboard (lo, hi) of cells card `code` can act on for `team`.

    Ordinary card: its empty cells; two-eyed Jack: every empty non-corner cell
    (both are card_lo/card_hi less the occupied cells); one-eyed Jack: every
    opponent chip not in a completed sequence.
    """
    if tb.card_kind[code] == ONE_EYED:
        return removable(st, team)
    if not may_place(cfg, st, team):
        return np.uint64(0), np.uint64(0)
    return tb.card_lo[code] & ~st.occupied[0], tb.card_hi[code] & ~st.occupied[1]


@inline_kernel
def shares_at_most_one_cell(tb, a, b):
    """Whether lines a and b share at most one cell (RULES.md, "Sequences")."""
    if tb.line_dir[a] != tb.line_dir[b]:
        return True  # different straight lines meet in at most one cell
    if tb.line_key[a] != tb.line_key[b]:
        return True
    return abs(tb.line_pos[a] - tb.line_pos[b]) >= 4


@inline_kernel
def may_declare(tb, st, team, k):
    """Whether line k shares at most one cell with every sequence `team` holds."""
    t = unsigned(team)
    for j in range(st.nseq[t]):
        if not shares_at_most_one_cell(tb, k, unsigned(st.seqs[t, j])):
            return False
    return True
