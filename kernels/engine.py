"""One game of Sequence, turn by turn, as RULES.md and docs/ENGINE.md say.

``play_game`` fills ``st.stats`` (and ``st.log`` when it has rows) for game
``game`` of master seed ``seed``. Its inputs are arrays only: the tables
(``kernels.tables.Tables``), the configuration (``cfg``, see
``kernels.state``), the policy id of each seat and their parameters.
"""

import numpy as np
from .jit import kernel

from .policies import choose_action, choose_dead
from .rng import seed_stream, shuffle
from .state import (
    ACT_PASS, ACT_PLACE, ACT_REMOVE, CFG_HAND_SIZE, CFG_MAX_TURNS, CFG_PLAYERS,
    CFG_SEQUENCES_TO_WIN, CFG_TEAMS, DECK_SIZE, DISCARD_N, END_STALEMATE,
    END_TURN_CAP, END_WIN, L_ACTION, L_CARD, L_CELL, L_DEAD, L_DRAWN0,
    L_NDRAWN, L_NSEQ, L_RESHUFFLE, L_SEAT, L_SEQ0, MAX_TEAMS, PILE_N, PILE_POS,
    S_CHIPS, S_DEAD_SWAPS, S_END, S_FIRST_SEQ_TEAM, S_FIRST_SEQ_TURN,
    S_ONE_EYED, S_PASSES, S_RESHUFFLES, S_SEQUENCES, S_TURNS, S_TWO_EYED,
    S_WINNER, bit, has,
)
from .tables import N_CODES, ONE_EYED, TWO_EYED


# --- cards -------------------------------------------------------------------

@kernel
def add_to_hand(st, seat, code):
    """Insert `code` into the seat's sorted hand."""
    i = st.hand_n[seat]
    while i > 0:
        if st.hands[seat, i - 1] <= code:
            break
        st.hands[seat, i] = st.hands[seat, i - 1]
        i -= 1
    st.hands[seat, i] = code
    st.hand_n[seat] += 1


@kernel
def take_from_hand(st, seat, code):
    """Remove one copy of `code` from the seat's hand and put it on the discards."""
    n = st.hand_n[seat]
    i = 0
    while st.hands[seat, i] != code:
        i += 1
    for j in range(i, n - 1):
        st.hands[seat, j] = st.hands[seat, j + 1]
    st.hand_n[seat] = n - 1
    st.discard[st.ctr[DISCARD_N]] = code
    st.ctr[DISCARD_N] += 1


@kernel
def draw(st, seat):
    """Draw the front card of the pile into the seat's hand.

    An empty pile is first replaced by the shuffled discards. Returns
    (card, 1 if the discards were reshuffled else 0).
    """
    reshuffled = 0
    if st.ctr[PILE_POS] == st.ctr[PILE_N]:
        n = st.ctr[DISCARD_N]
        for i in range(n):
            st.pile[i] = st.discard[i]
        st.ctr[DISCARD_N] = 0
        st.ctr[PILE_POS] = 0
        st.ctr[PILE_N] = n
        shuffle(st.rng, st.pile, n)
        reshuffled = 1
    card = st.pile[st.ctr[PILE_POS]]
    st.ctr[PILE_POS] += 1
    add_to_hand(st, seat, card)
    return card, reshuffled


# --- chips and sequences -----------------------------------------------------

@kernel
def shares_at_most_one_cell(tb, a, b):
    """Whether lines a and b share at most one cell (RULES.md, "Sequences")."""
    if tb.line_dir[a] != tb.line_dir[b]:
        return True  # different straight lines meet in at most one cell
    if tb.line_key[a] != tb.line_key[b]:
        return True
    return abs(tb.line_pos[a] - tb.line_pos[b]) >= 4


@kernel
def declare_sequences(tb, st, team, cell):
    """Declare the team's new sequences through `cell`; return how many.

    Tests only the lines through `cell`, in line-number order, and keeps each
    covered line that shares at most one cell with every sequence the team
    holds (those just declared included). Declared chips become locked.
    """
    w0 = st.chips[team, 0] | tb.corners[0]
    w1 = st.chips[team, 1] | tb.corners[1]
    new = 0
    for i in range(tb.cell_nlines[cell]):
        k = tb.cell_lines[cell, i]
        lo, hi = tb.line_lo[k], tb.line_hi[k]
        if (w0 & lo) != lo:
            continue
        if (w1 & hi) != hi:
            continue
        n = st.nseq[team]
        ok = True
        for j in range(n):
            if not shares_at_most_one_cell(tb, k, st.seqs[team, j]):
                ok = False
                break
        if ok:
            st.seqs[team, n] = k
            st.nseq[team] = n + 1
            st.locked[0] |= lo
            st.locked[1] |= hi
            new += 1
    return new


@kernel
def place_chip(st, team, cell):
    """Put a chip of `team` on the empty `cell`."""
    w, m = bit(cell)
    st.chips[team, w] |= m
    st.occupied[w] |= m
    st.on_board[team] += 1


@kernel
def remove_chip(st, cell):
    """Take the (unlocked) chip off `cell`, whoever owns it."""
    w, m = bit(cell)
    for t in range(MAX_TEAMS):
        if has(st.chips[t], cell):
            st.chips[t, w] &= ~m
            st.on_board[t] -= 1
    st.occupied[w] &= ~m


# --- a game ------------------------------------------------------------------

@kernel
def reset(cfg, st, seed, game):
    """Seed the game's stream, shuffle the 104-card deck and deal the hands."""
    seed_stream(st.rng, seed, game)
    for i in range(DECK_SIZE):
        st.pile[i] = i % N_CODES
    shuffle(st.rng, st.pile, DECK_SIZE)
    st.ctr[PILE_POS] = 0
    st.ctr[PILE_N] = DECK_SIZE
    st.ctr[DISCARD_N] = 0
    st.hand_n[:] = 0
    st.chips[:] = 0
    st.occupied[:] = 0
    st.locked[:] = 0
    st.nseq[:] = 0
    st.on_board[:] = 0
    st.stats[:] = 0
    for _ in range(cfg[CFG_HAND_SIZE]):
        for seat in range(cfg[CFG_PLAYERS]):
            draw(st, seat)


@kernel
def play_game(tb, cfg, policies, params, st, seed, game):
    """Play game `game` of master seed `seed` to its end; fill st.stats.

    policies: (players,) int64 policy id per seat; params: (players, P)
    float64 policy parameters per seat. With st.log of T rows, the first
    min(turns, T) turns are logged (T >= cfg max_turns logs the whole game).
    """
    reset(cfg, st, seed, game)
    logging = st.log.shape[0] > 0
    if logging:
        for seat in range(cfg[CFG_PLAYERS]):
            for i in range(st.hand_n[seat]):
                st.dealt[seat, i] = st.hands[seat, i]
    players, teams = cfg[CFG_PLAYERS], cfg[CFG_TEAMS]
    s = st.stats
    s[S_WINNER] = -1
    s[S_FIRST_SEQ_TURN] = -1
    s[S_FIRST_SEQ_TEAM] = -1
    turn, seat, passes_in_row = 0, 0, 0
    while True:
        if turn == cfg[CFG_MAX_TURNS]:
            s[S_END] = END_TURN_CAP
            break
        team = seat % teams
        log = logging & (turn < st.log.shape[0])
        if log:
            row = st.log[turn]
            row[:] = -1
            row[L_SEAT] = seat
            row[L_NDRAWN] = 0
            row[L_RESHUFFLE] = 0
            row[L_NSEQ] = 0
        turn += 1

        # 1. Optional dead-card swap.
        dead = choose_dead(policies[seat], params[seat], tb, cfg, st, seat, team)
        if dead >= 0:
            take_from_hand(st, seat, dead)
            card, reshuffled = draw(st, seat)
            s[S_DEAD_SWAPS] += 1
            s[S_RESHUFFLES] += reshuffled
            if log:
                row[L_DEAD] = dead
                row[L_DRAWN0] = card
                row[L_NDRAWN] = 1
                row[L_RESHUFFLE] = reshuffled

        # 2. Play one card, or pass.
        code, cell = choose_action(policies[seat], params[seat], tb, cfg, st, seat, team)
        if code < 0:
            s[S_PASSES] += 1
            passes_in_row += 1
            if log:
                row[L_ACTION] = ACT_PASS
            if passes_in_row == players:
                s[S_END] = END_STALEMATE
                break
            seat = (seat + 1) % players
            continue
        passes_in_row = 0
        take_from_hand(st, seat, code)
        if tb.card_kind[code] == ONE_EYED:
            remove_chip(st, cell)
            s[S_ONE_EYED + team] += 1
            action = ACT_REMOVE
        else:
            if tb.card_kind[code] == TWO_EYED:
                s[S_TWO_EYED + team] += 1
            place_chip(st, team, cell)
            before = st.nseq[team]
            if declare_sequences(tb, st, team, cell) > 0:
                if s[S_FIRST_SEQ_TURN] < 0:
                    s[S_FIRST_SEQ_TURN] = turn
                    s[S_FIRST_SEQ_TEAM] = team
                if log:
                    row[L_NSEQ] = st.nseq[team] - before
                    for j in range(before, st.nseq[team]):
                        row[L_SEQ0 + j - before] = st.seqs[team, j]
            action = ACT_PLACE
        if log:
            row[L_CARD] = code
            row[L_ACTION] = action
            row[L_CELL] = cell

        # 3. A team with enough sequences wins at once, drawing nothing.
        if st.nseq[team] >= cfg[CFG_SEQUENCES_TO_WIN]:
            s[S_WINNER] = team
            s[S_END] = END_WIN
            break

        # 4. Draw.
        card, reshuffled = draw(st, seat)
        s[S_RESHUFFLES] += reshuffled
        if log:
            row[L_DRAWN0 + row[L_NDRAWN]] = card
            row[L_NDRAWN] += 1
            row[L_RESHUFFLE] |= reshuffled
        seat = (seat + 1) % players

    s[S_TURNS] = turn
    for t in range(teams):
        s[S_SEQUENCES + t] = st.nseq[t]
        s[S_CHIPS + t] = st.on_board[t]
