"""One game of Sequence, turn by turn, as RULES.md and docs/ENGINE.md say.

``play_game`` fills ``st.stats`` (and the move log ``log`` when it has rows) for
game ``game`` of master seed ``seed``. Its inputs are records and arrays: the
tables (``kernels.core.tables.TABLES_FIELDS``), the configuration (``cfg``, see
``kernels.core.state``), the player set (``kernels.core.decide``), the player id of
each seat and their parameters, the State, and a second State ``sim`` that policies
which look ahead play on. The steps of a turn are ``kernels.core.turn``'s; this
loop adds the game's beginning and end, its statistics and its log.
"""

import numpy as np

from .core.decide import counts_lines
from .core.jit import inline_kernel, kernel
from .core.moves import count_lines, draw
from .core.rng import seed_stream, shuffle
from .core.state import (
    ACT_PASS,
    ACT_PLACE,
    ACT_REMOVE,
    DECK_SIZE,
    DISCARD_N,
    END_STALEMATE,
    END_TURN_CAP,
    END_WIN,
    L_ACTION,
    L_CARD,
    L_CELL,
    L_DEAD,
    L_DRAWN0,
    L_NDRAWN,
    L_NSEQ,
    L_RESHUFFLE,
    L_SEAT,
    L_SEQ0,
    PASS_RUN,
    PILE_N,
    PILE_POS,
    S_CHIPS,
    S_DEAD_SWAPS,
    S_END,
    S_FIRST_SEQ_TEAM,
    S_FIRST_SEQ_TURN,
    S_ONE_EYED,
    S_PASSES,
    S_RESHUFFLES,
    S_SEQUENCES,
    S_TURNS,
    S_TWO_EYED,
    S_WINNER,
    T_CARD,
    T_CELL,
    T_DEAD,
    T_DRAWN,
    T_LATE,
    T_NEW_SEQUENCES,
    T_REPLACEMENT,
    T_RESHUFFLES,
    TURNS,
    lowest_bit,
    unsigned,
)
from .core.tables import N_CODES, ONE_EYED, TWO_EYED
from .core.turn import ASK_POLICY, PASSED, WON, next_seat, play_turn


@kernel
def reset(cfg, st, seed, game):
    """Seed the game's stream, shuffle the 104-card deck and deal the hands.

    Cards are dealt one at a time, seat 0 first, round after round; a seat
    stops receiving once it holds its hand size (cfg.hand[seat]), one
    card fewer for a seat that receives a late card (cfg.late[seat] > 0).
    """
    seed_stream(st.rng, seed, game)
    for i in range(DECK_SIZE):
        st.pile[i] = i if i < N_CODES else i - N_CODES
    shuffle(st.rng, st.pile, np.int64(DECK_SIZE))  # int64: the type of every other call (one compile)
    st.ctr[PILE_POS] = 0
    st.ctr[PILE_N] = DECK_SIZE
    st.ctr[DISCARD_N] = 0
    st.ctr[TURNS] = 0
    st.ctr[PASS_RUN] = 0
    # Empty the hands. A code has copies counted only while it is in the seat's held set, so
    # clearing the counts of the held codes empties the (12, 52) counts for the cards held.
    for seat in range(st.held.shape[0]):
        held = st.held[seat]
        while held != np.uint64(0):
            st.count[seat, lowest_bit(held)] = 0
            held &= held - np.uint64(1)
        st.held[seat] = 0
        st.hand_n[seat] = 0
    st.dead[:] = 0
    st.chips[:] = 0
    st.occupied[:] = 0
    st.locked[:] = 0
    st.in_line[:, :] = 0
    st.nseq[:] = 0
    st.on_board[:] = 0
    st.stats[:] = 0
    players = cfg.players
    rounds = 0  # the largest hand dealt
    for seat in range(players):
        rounds = max(rounds, dealt_size(cfg, seat))
    for round_ in range(rounds):
        for seat in range(players):
            if round_ < dealt_size(cfg, seat):
                draw(cfg, st, seat)


@inline_kernel
def dealt_size(cfg, seat):
    """Cards the seat is dealt: its hand size, one fewer when it receives a late card."""
    if cfg.late[seat] > 0:
        return cfg.hand[seat] - 1
    return cfg.hand[seat]


@kernel
def play_game(policies, tb, cfg, seat_policies, params, st, sim, log, seed, game):
    """Play game `game` of master seed `seed` to its end; fill st.stats.

    policies: the player set; seat_policies: (players,) int64 player id per
    seat; params: (players, P) float64 policy parameters per seat. log: (T,
    LOG_WIDTH) int64, the move log (``kernels.core.state.new_log``): the first
    min(turns, T) turns are logged (T >= cfg max_turns logs the whole game, T = 0 none).
    Leaves st whole, its line counts (st.in_line) included, for callers that look at the
    final position.
    """
    play_to_end(policies, tb, cfg, seat_policies, params, st, sim, log, seed, game)
    if not counts_lines(policies):
        count_lines(tb, st)


@kernel
def play_to_end(policies, tb, cfg, seat_policies, params, st, sim, log, seed, game):
    """play_game, for the batch driver, which reads only st.stats: under random play the line
    counts st.in_line are not kept during the game (``kernels.core.decide.counts_lines``) and
    are left uncounted at its end."""
    reset(cfg, st, seed, game)
    logging = log.shape[0] > 0
    if logging:
        for seat in range(cfg.players):
            i = 0
            for code in range(N_CODES):  # the dealt hand, sorted by code, then -1
                for _ in range(st.count[seat, code]):
                    st.dealt[seat, i] = code
                    i += 1
            st.dealt[seat, i:] = -1
    players, teams = cfg.players, cfg.teams
    s = st.stats
    s[S_WINNER] = -1
    s[S_FIRST_SEQ_TURN] = -1
    s[S_FIRST_SEQ_TEAM] = -1
    t = st.turn
    # turn: turns played, as play_turn counts them in st.ctr[TURNS]. seat and team start as
    # int64, not the literal 0: numba would otherwise also compile every kernel they are passed
    # to (log_turn, swap_dead) for the type Literal[int](0) while it types the loop.
    turn, seat, team = 0, np.int64(0), np.int64(0)
    max_turns = cfg.max_turns
    while True:
        if turn == max_turns:
            s[S_END] = END_TURN_CAP
            break
        result = play_turn(policies, seat_policies[seat], params[seat], tb, cfg, st, sim, seat, team, ASK_POLICY)
        turn += 1

        # Statistics.
        s[S_DEAD_SWAPS] += t[T_DEAD] >= 0
        s[S_RESHUFFLES] += t[T_RESHUFFLES]
        if result == PASSED:
            s[S_PASSES] += 1
        else:
            kind = tb.card_kind[unsigned(t[T_CARD])]
            s[unsigned(S_ONE_EYED + team)] += kind == ONE_EYED
            s[unsigned(S_TWO_EYED + team)] += kind == TWO_EYED
            if t[T_NEW_SEQUENCES] > 0:
                if s[S_FIRST_SEQ_TURN] < 0:
                    s[S_FIRST_SEQ_TURN] = turn
                    s[S_FIRST_SEQ_TEAM] = team
        if logging:
            if turn <= log.shape[0]:
                log_turn(tb, st, log[turn - 1], seat, team, result)

        # The end of the game, or the next seat.
        if result == WON:
            s[S_WINNER] = team
            s[S_END] = END_WIN
            break
        if result == PASSED:
            if st.ctr[PASS_RUN] == players:
                s[S_END] = END_STALEMATE
                break
        seat, team = next_seat(seat, team, players, teams)

    s[S_TURNS] = turn
    for u in range(teams):
        s[S_SEQUENCES + u] = st.nseq[u]
        s[S_CHIPS + u] = st.on_board[u]


@kernel
def log_turn(tb, st, row, seat, team, result):
    """Write the turn just played (st.turn) into its move-log row."""
    t = st.turn
    before = st.nseq[team] - t[T_NEW_SEQUENCES]  # the team's sequences before the turn; the new ones follow
    row[:] = -1
    row[L_SEAT] = seat
    row[L_NDRAWN] = 0
    row[L_RESHUFFLE] = t[T_RESHUFFLES] > 0
    row[L_NSEQ] = 0
    if t[T_DEAD] >= 0:
        row[L_DEAD] = t[T_DEAD]
        row[L_DRAWN0] = t[T_REPLACEMENT]
        row[L_NDRAWN] = 1
    if result == PASSED:
        row[L_ACTION] = ACT_PASS
    else:
        row[L_CARD] = t[T_CARD]
        row[L_CELL] = t[T_CELL]
        row[L_ACTION] = ACT_REMOVE if tb.card_kind[t[T_CARD]] == ONE_EYED else ACT_PLACE
        row[L_NSEQ] = t[T_NEW_SEQUENCES]
        for j in range(t[T_NEW_SEQUENCES]):
            row[L_SEQ0 + j] = st.seqs[team, before + j]
    for card in (t[T_DRAWN], t[T_LATE]):  # the end-of-turn draw, then the late card
        if card >= 0:
            row[L_DRAWN0 + row[L_NDRAWN]] = card
            row[L_NDRAWN] += 1
