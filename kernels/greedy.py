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
game's generator. Dead cards are always swapped (as the random policy does).

Parameters (a float64 row, in this order; defaults in ``simkit.policies``):
complete, build, growth, block, block4, break4, jack_cost.
"""

import numpy as np

from .jit import inline_kernel, kernel
from .rng import below
from .state import (
    CFG_TEAMS, count_in_line, has, lowest_bit, may_declare, popcount, targets,
)
from .tables import ONE_EYED, TWO_EYED

P_COMPLETE, P_BUILD, P_GROWTH, P_BLOCK, P_BLOCK4, P_BREAK4, P_JACK_COST = range(7)
N_GREEDY_PARAMS = 7
CARELESS = -1.0e12  # added to a Jack move that breaks the care rule


@inline_kernel
def place_score(tb, cfg, st, team, cell, params, powers):
    """(score, is_strong) of placing team's chip on the empty `cell`.

    is_strong: the move makes a four or a sequence, or blocks a four (the
    condition for spending a two-eyed Jack). powers[i] = growth**i, i = 0..5.
    """
    score = 0.0
    strong = False
    teams = cfg[CFG_TEAMS]
    for i in range(tb.cell_nlines[cell]):
        k = tb.cell_lines[cell, i]
        own = count_in_line(st.chips[team], tb, k)
        corners = count_in_line(tb.corners, tb, k)
        theirs = count_in_line(st.occupied, tb, k) - own
        if theirs == 0:
            n = own + corners + 1
            if n == 5:
                if may_declare(tb, st, team, k):
                    score += params[P_COMPLETE]
                    strong = True
            else:
                score += params[P_BUILD] * powers[n]
                if n == 4:
                    strong = True
        elif own == 0:
            for u in range(teams):
                if u != team:
                    if count_in_line(st.chips[u], tb, k) == theirs:
                        m = theirs + corners
                        score += params[P_BLOCK] * powers[m]
                        if m >= 4:
                            score += params[P_BLOCK4]
                            strong = True
    return score, strong


@inline_kernel
def remove_score(tb, st, cell, params):
    """Score of removing the chip on `cell`: break4 per open four it breaks."""
    owner = 0
    while not has(st.chips[owner], cell):
        owner += 1
    score = 0.0
    for i in range(tb.cell_nlines[cell]):
        k = tb.cell_lines[cell, i]
        covered = count_in_line(st.chips[owner], tb, k) + count_in_line(tb.corners, tb, k)
        if covered == 4 and count_in_line(st.occupied, tb, k) == count_in_line(st.chips[owner], tb, k):
            score += params[P_BREAK4]  # four of the owner's and one empty cell
    return score


@kernel
def score_actions(tb, cfg, st, seat, team, params, actions, scores):
    """Score every legal action of the seat; return how many there are.

    Writes actions[i] = card * 128 + cell and scores[i]. Jack moves that fail
    the care rule score CARELESS lower, so they rank below every other move.
    """
    powers = st.fscratch
    powers[0] = 1.0
    for i in range(1, 6):
        powers[i] = powers[i - 1] * params[P_GROWTH]
    n = 0
    codes = st.held[seat]
    while codes != np.uint64(0):
        code = lowest_bit(codes)  # distinct codes, ascending
        codes &= codes - np.uint64(1)
        kind = tb.card_kind[code]
        lo, hi = targets(tb, cfg, st, team, code)
        for word in range(2):
            bits = lo if word == 0 else hi
            while bits != np.uint64(0):
                cell = word * 64 + lowest_bit(bits)
                bits &= bits - np.uint64(1)
                if kind == ONE_EYED:
                    score = remove_score(tb, st, cell, params)
                    careful = score > 0.0
                    score -= params[P_JACK_COST]
                else:
                    score, careful = place_score(tb, cfg, st, team, cell, params, powers)
                    if kind == TWO_EYED:
                        score -= params[P_JACK_COST]
                    else:
                        careful = True
                actions[n] = code * 128 + cell
                scores[n] = score if careful else score + CARELESS
                n += 1
    return n


@kernel
def greedy_action(tb, cfg, st, seat, team, params):
    """The best-scoring (card, cell), ties broken by the generator; (-1, -1) to pass."""
    n = score_actions(tb, cfg, st, seat, team, params, st.scratch, st.fscores)
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
