"""The greedy policy: a one-ply heuristic over the lines of five through a cell.

Placing a chip of team ``t`` on cell ``c`` is scored line by line over the
(up to 20) lines through ``c``:

- a line with no opponent chip is *open* for ``t``: with ``n`` cells covered
  after the move (own chips and corners), it adds ``build * growth**n``, or
  ``complete`` when ``n == 5`` and the line may be declared a sequence;
- a line with no chip of ``t`` whose chips all belong to one opponent ``u``
  is *blocked* by the move: with ``m`` cells covered for ``u`` it adds
  ``block * growth**m``, plus ``block4`` when ``m == 4``.

Removing opponent ``u``'s chip from ``c`` with a one-eyed Jack adds
``break4`` for each line through ``c`` where ``u`` covers four cells and the
fifth is empty (an open four).

Jacks are spent with care: a two-eyed Jack only on a cell where the move
makes a four or a sequence, or blocks a four; a one-eyed Jack only to break
an open four; a Jack move also costs ``jack_cost``. When nothing else is
legal, Jack moves are taken anyway. The best score wins; ties go to the
game's generator. Dead cards are swapped (as the random policy does).

Its parameters are ``GREEDY``: the restrictions (``kernels.core.params.RESTRICTIONS``), then its
weights. A restriction forgoes a use of the cards: no one-eyed Jack, a two-eyed Jack only to complete
a sequence or never, no weight on blocking (no chip placed for it, no Jack spent on it), corners not
counted towards a line, dead cards kept. A restriction gives way only where it would leave no legal
move (then every Jack move is listed, as unrestricted), so a restricted player still plays by the
rules.

``greedy_turn`` is a turn of greedy play, the turns of the lookahead's and the tree search's rollouts.
"""

import numpy as np

from ..core.jit import inline_kernel, kernel
from ..core.params import RESTRICTIONS, SEAT, TWO_EYED_NEVER, Block, Layout, Param
from ..core.random_move import random_action
from ..core.rng import below
from ..core.state import has, lowest_bit, may_declare, targets
from ..core.tables import ONE_EYED, TWO_EYED
from ..core.turn import RANDOM, begin_turn, end_turn
from .player import LIGHT, Player

GREEDY = Block(
    "greedy",
    RESTRICTIONS.params
    + (
        Param("complete", 1000.0, "a move that completes a sequence that may be declared"),
        Param("build", 1.0, "a line open for the team, times growth to the power of its covered cells"),
        Param("growth", 4.0, "what each covered cell multiplies a line's term by"),
        Param("block", 1.0, "a line the move blocks, times growth to the power of the opponent's covered cells"),
        Param("block4", 500.0, "added for a blocked four"),
        Param("break4", 400.0, "each open four of the owner a one-eyed Jack's removal breaks"),
        Param("jack_cost", 20.0, "taken off a Jack move"),
    ),
)
G = GREEDY.at  # offsets in a block of greedy weights (the restrictions first)
GREEDY_ID = 1
CARELESS = -1.0e12  # added to a Jack move that breaks the care rule


@inline_kernel
def place_score(tb, cfg, st, team, cell, params, powers):
    """(score, is_strong, completes) of placing team's chip on the empty `cell`.

    is_strong: the move makes a four or a sequence, or blocks a four (the condition for spending a
    two-eyed Jack); completes: it makes a sequence. powers[i] = growth**i, i = 0..5. Two and three teams
    have their own loops (the other teams' counts read directly); both add a line's term with the same
    functions, in the same order. The restrictions: `corners` ignore counts no corner, `blocking` never
    adds no blocked line.
    """
    score = 0.0
    strong = False
    completes = False
    counted = 1 - np.int64(params[G.corners])  # 1: the corners count towards a line
    blocks = params[G.blocking] == 0.0
    if cfg.teams == 2:
        opp = 1 - team
        for i in range(tb.cell_nlines[cell]):
            k = tb.cell_lines[cell, i]
            own = st.in_line[team, k]
            theirs = st.in_line[opp, k]
            corners = tb.line_corners[k] * counted
            if theirs == 0:
                score, made, done = add_open_line(score, tb, st, team, k, own + corners + 1, params, powers)
                strong |= made
                completes |= done
            elif own == 0:
                if blocks:
                    score, made = add_block(score, theirs + corners, params, powers)
                    strong |= made
        return score, strong, completes
    u1, u2 = other_teams(team)
    for i in range(tb.cell_nlines[cell]):
        k = tb.cell_lines[cell, i]
        own = st.in_line[team, k]
        a = st.in_line[u1, k]
        b = st.in_line[u2, k]
        corners = tb.line_corners[k] * counted
        if a + b == 0:
            score, made, done = add_open_line(score, tb, st, team, k, own + corners + 1, params, powers)
            strong |= made
            completes |= done
        elif own == 0 and ((a == 0) | (b == 0)):  # the line's chips all belong to one opponent
            if blocks:
                score, made = add_block(score, a + b + corners, params, powers)
                strong |= made
    return score, strong, completes


@inline_kernel
def add_open_line(score, tb, st, team, k, n, params, powers):
    """(score plus line k's term, is_strong, completes) for a line open for `team`, n cells covered after
    the move: complete when it makes a sequence that may be declared, else build * growth**n; strong from
    a four."""
    if n == 5:
        if may_declare(tb, st, team, k):
            return score + params[G.complete], True, True
        return score, False, False
    return score + params[G.build] * powers[n], n == 4, False


@inline_kernel
def add_block(score, m, params, powers):
    """(score plus the term of blocking a line where one opponent covers m cells, is_strong):
    block * growth**m, then block4 and strong for a four."""
    score += params[G.block] * powers[m]
    if m >= 4:
        return score + params[G.block4], True
    return score, False


@inline_kernel
def other_teams(team):
    """The two other teams of a three-team game, in turn order after `team`."""
    u1 = team + 1 if team < 2 else 0
    return u1, 3 - team - u1


@inline_kernel
def chips_in_line(st, k):
    """Chips of any team on line k."""
    return np.int64(st.in_line[0, k]) + st.in_line[1, k] + st.in_line[2, k]


@inline_kernel
def remove_score(tb, st, cell, params):
    """(score, fours) of removing the chip on `cell`: the open fours of its owner it
    breaks, and break4 for each (corners counted unless `corners` is ignore)."""
    counted = 1 - np.int64(params[G.corners])
    owner = 0
    while not has(st.chips[owner], cell):
        owner += 1
    fours = 0
    for i in range(tb.cell_nlines[cell]):
        k = tb.cell_lines[cell, i]
        chips = st.in_line[owner, k]
        if chips + tb.line_corners[k] * counted == 4:
            if chips_in_line(st, k) == chips:
                fours += 1  # four of the owner's and one empty cell
    score = 0.0
    for _ in range(fours):
        score += params[G.break4]
    return score, fours


@inline_kernel
def jack_cells(tb, cfg, st, team, params):
    """Where a Jack move can be careful: (place_lo, place_hi, remove_lo, remove_hi).

    A two-eyed Jack is careful only on a line it brings to four or five (own
    chips and corners >= 3, no opponent chip) or on which it blocks an
    opponent's four; a one-eyed Jack only on a chip of an opponent's open
    four. Every cell where a Jack move is careful lies on such a line, so
    scoring only these cells (a superset) loses no careful move.

    One pass over the 192 lines without branches: each line's test is a
    mask (all ones or zero) ANDed with its cells. The restrictions: `corners` ignore counts no corner,
    `blocking` never spends no two-eyed Jack to block.
    """
    counted = 1 - np.int64(params[G.corners])
    blocking = params[G.blocking] == 0.0
    zero = np.uint64(0)
    place_lo, place_hi = zero, zero
    if cfg.teams == 2:
        opp = 1 - team
        four_lo, four_hi = zero, zero
        for k in range(tb.line_lo.shape[0]):
            own = np.int64(st.in_line[team, k])
            theirs = np.int64(st.in_line[opp, k])
            corners = tb.line_corners[k] * counted
            mine = (theirs == 0) & (own + corners >= 3)
            blocks = blocking & (own == 0) & (theirs + corners >= 4)
            place = zero - np.uint64(mine | blocks)
            four = zero - np.uint64((own == 0) & (theirs + corners == 4))
            place_lo |= tb.line_lo[k] & place
            place_hi |= tb.line_hi[k] & place
            four_lo |= tb.line_lo[k] & four
            four_hi |= tb.line_hi[k] & four
        return place_lo, place_hi, four_lo & st.chips[opp, 0], four_hi & st.chips[opp, 1]
    u1, u2 = other_teams(team)
    lo1, hi1, lo2, hi2 = zero, zero, zero, zero  # lines of an open four of u1, of u2
    for k in range(tb.line_lo.shape[0]):
        own = np.int64(st.in_line[team, k])
        a = np.int64(st.in_line[u1, k])
        b = np.int64(st.in_line[u2, k])
        corners = tb.line_corners[k] * counted
        only1 = (own == 0) & (b == 0)  # every chip on the line is u1's (or none)
        only2 = (own == 0) & (a == 0)
        mine = (a + b == 0) & (own + corners >= 3)
        blocks = blocking & ((only1 & (a + corners >= 4)) | (only2 & (b + corners >= 4)))
        place = zero - np.uint64(mine | blocks)
        four1 = zero - np.uint64(only1 & (a + corners == 4))
        four2 = zero - np.uint64(only2 & (b + corners == 4))
        place_lo |= tb.line_lo[k] & place
        place_hi |= tb.line_hi[k] & place
        lo1 |= tb.line_lo[k] & four1
        hi1 |= tb.line_hi[k] & four1
        lo2 |= tb.line_lo[k] & four2
        hi2 |= tb.line_hi[k] & four2
    return (
        place_lo,
        place_hi,
        (lo1 & st.chips[u1, 0]) | (lo2 & st.chips[u2, 0]),
        (hi1 & st.chips[u1, 1]) | (hi2 & st.chips[u2, 1]),
    )


@inline_kernel
def score_cells(tb, cfg, st, team, params, powers, code, lo, hi, careless_too, actions, scores, n):
    """Append card `code`'s moves on the cells (lo, hi) with their scores; return the new n.

    Careless Jack moves (see the module doc) are appended, CARELESS lower, only when careless_too. With
    `two_eyed` complete, a two-eyed Jack's move is careful only when it completes a sequence.
    """
    only_completing = params[G.two_eyed] == 1.0
    kind = tb.card_kind[code]
    for word in range(2):
        bits = lo if word == 0 else hi
        while bits != np.uint64(0):
            cell = word * 64 + lowest_bit(bits)
            bits &= bits - np.uint64(1)
            if kind == ONE_EYED:
                score, fours = remove_score(tb, st, cell, params)
                careful = fours > 0  # the care rule, whatever break4 is
                score -= params[G.jack_cost]
            else:
                score, careful, completes = place_score(tb, cfg, st, team, cell, params, powers)
                if kind == TWO_EYED:
                    score -= params[G.jack_cost]
                    if only_completing:
                        careful = completes
                else:
                    careful = True
            if careful:
                actions[n] = code * 128 + cell
                scores[n] = score
                n += 1
            elif careless_too:
                actions[n] = code * 128 + cell
                scores[n] = score + CARELESS
                n += 1
    return n


@kernel
def score_actions(tb, cfg, st, seat, team, params, actions, scores):
    """Score the seat's legal actions; return how many are listed.

    Writes actions[i] = card * 128 + cell and scores[i], codes ascending,
    then cells ascending. Jack moves that fail the care rule are listed only
    when no move passes it, scored CARELESS lower. The Jacks a restriction forgoes
    (`one_eyed` never, `two_eyed` never) are listed only when nothing else is.
    """
    powers = st.fscratch
    powers[0] = 1.0
    for i in range(1, 6):
        powers[i] = powers[i - 1] * params[G.growth]
    zero = np.uint64(0)
    held = st.held[seat]
    forgone = zero
    if params[G.one_eyed] != 0.0:
        forgone |= tb.kind_codes[ONE_EYED]
    if params[G.two_eyed] == TWO_EYED_NEVER:
        forgone |= tb.kind_codes[TWO_EYED]
    codes = held & ~forgone
    jacks = codes & (tb.kind_codes[TWO_EYED] | tb.kind_codes[ONE_EYED])
    place_lo, place_hi, remove_lo, remove_hi = zero, zero, zero, zero
    if jacks != zero:
        place_lo, place_hi, remove_lo, remove_hi = jack_cells(tb, cfg, st, team, params)
    n = 0
    while codes != zero:
        code = lowest_bit(codes)  # distinct codes, ascending
        codes &= codes - np.uint64(1)
        lo, hi = targets(tb, cfg, st, team, code)
        kind = tb.card_kind[code]
        if kind == TWO_EYED:
            lo, hi = lo & place_lo, hi & place_hi
        elif kind == ONE_EYED:
            lo, hi = lo & remove_lo, hi & remove_hi
        n = score_cells(tb, cfg, st, team, params, powers, code, lo, hi, False, actions, scores, n)
    if n == 0:  # nothing careful: every Jack move, careless ones too
        n = careless_jacks(tb, cfg, st, team, params, powers, jacks, actions, scores)
    if n == 0:  # a restriction would leave no legal move: it gives way
        n = careless_jacks(tb, cfg, st, team, params, powers, held & forgone, actions, scores)
    return n


@inline_kernel
def careless_jacks(tb, cfg, st, team, params, powers, jacks, actions, scores):
    """List every move of the Jack codes `jacks`, careless ones CARELESS lower; return how many."""
    n = 0
    while jacks != np.uint64(0):
        code = lowest_bit(jacks)
        jacks &= jacks - np.uint64(1)
        lo, hi = targets(tb, cfg, st, team, code)
        n = score_cells(tb, cfg, st, team, params, powers, code, lo, hi, True, actions, scores, n)
    return n


@kernel
def greedy_action(tb, cfg, st, work, seat, team, params):
    """Greedy's action: the best-scoring (card, cell), ties broken by the generator; (-1, -1) to pass."""
    return best_action(st, score_actions(tb, cfg, st, seat, team, params, st.scratch, st.fscores))


@inline_kernel
def best_action(st, n):
    """The best-scoring of the n actions listed in st.scratch (scores in st.fscores), ties broken by the
    generator, as (card, cell); (-1, -1) when n is 0."""
    if n == 0:
        return -1, -1
    best = st.fscores[0]
    for i in range(1, n):
        if st.fscores[i] > best:
            best = st.fscores[i]
    ties = 0
    for i in range(n):
        if st.fscores[i] == best:
            st.scratch[ties] = st.scratch[i]  # ties <= i: overwrites only what was read
            ties += 1
    action = st.scratch[below(st.rng, ties)]
    return action // 128, action % 128


@inline_kernel
def greedy_turn(tb, cfg, st, seat, team, weights, policy):
    """A turn of greedy play with greedy weights `weights` (random play when `policy` is RANDOM): the turns
    of the players' rollouts, the line counts kept (kernels.core.turn's steps). greedy_action's body
    rather than a call to it: numba compiles a kernel with the machine code of every kernel it calls, so
    a kernel between the two would compile the scorer once more."""
    begin_turn(tb, cfg, st, seat, weights[SEAT.dead_swap] == 0.0)
    if policy == RANDOM:
        code, cell = random_action(tb, cfg, st, seat, team)
    else:
        code, cell = best_action(st, score_actions(tb, cfg, st, seat, team, weights, st.scratch, st.fscores))
    return end_turn(tb, cfg, st, seat, team, code, cell, True)


PLAYERS = (
    Player(
        "greedy",
        GREEDY_ID,
        greedy_action,
        "a one-ply line heuristic: build, complete, block",
        LIGHT,
        Layout.of(("own", GREEDY)),
    ),
)
