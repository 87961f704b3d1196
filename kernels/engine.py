"""One game of Sequence, turn by turn, as RULES.md and docs/ENGINE.md say.

``play_game`` fills the game's statistics ``stats`` (and the move log ``log`` when it has rows) for
game ``game`` of master seed ``seed``. Its inputs are records and arrays: the tables
(``kernels.core.tables.TABLES_FIELDS``), the configuration (``kernels.core.config``), the line-up's
decisions (``kernels.core.turn.decide``), the player id of each seat and their parameters, the State,
and the spare arrays of the players that play ahead (``kernels.core.workspace``). The steps of a turn
are ``kernels.core.turn``'s; this loop adds the game's beginning and end, its statistics and its log.
"""

import numpy as np

from .core.jit import inline_kernel, kernel
from .core.moves import count_lines, draw
from .core.rng import seed_stream, shuffle
from .core.state import ACT_PASS, ACT_PLACE, ACT_REMOVE, DECK_SIZE, lowest_bit, unsigned
from .core.stats import END_STALEMATE, END_TURN_CAP, END_WIN
from .core.tables import N_CODES, ONE_EYED, TWO_EYED
from .core.turn import PASSED, RANDOM, WON, next_seat, play_turn


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
    st.ctr.pile_pos = 0
    st.ctr.pile_n = DECK_SIZE
    st.ctr.discard_n = 0
    st.ctr.turns = 0
    st.ctr.pass_run = 0
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
def play_game(decisions, tb, cfg, seat_policies, params, st, work, log, seed, game, stats):
    """Play game `game` of master seed `seed` to its end; fill `stats`, a zeroed GAME_STATS record
    (kernels.core.stats).

    decisions: the line-up's decisions (kernels.core.turn.decide); seat_policies: (players,) int64 player
    id per seat; params: (players, P) float64 parameter rows per seat; work: the players' spare arrays.
    log: (T,) LOG records, the move log (``kernels.core.state.new_log``): the first min(turns, T) turns
    are logged (T >= cfg.max_turns logs the whole game, T = 0 none). Leaves st whole, its line counts
    (st.in_line) included, for callers that look at the final position.
    """
    if not play_to_end(decisions, tb, cfg, seat_policies, params, st, work, log, seed, game, stats):
        count_lines(tb, st)


@inline_kernel
def counts_lines(seat_policies, players):
    """Whether a game of these seats keeps the line counts st.in_line: every player reads them but random,
    whose games skip keeping them."""
    for seat in range(players):
        if seat_policies[seat] != RANDOM:
            return True
    return False


@kernel
def play_to_end(decisions, tb, cfg, seat_policies, params, st, work, log, seed, game, stats):
    """play_game, for the batch driver, which reads only `stats`; returns whether the line counts
    st.in_line were kept (``counts_lines``: under random play they are not, and are left uncounted at the
    game's end)."""
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
    counted = counts_lines(seat_policies, players)
    s = stats
    s.winner_team = -1
    s.first_sequence_turn = -1
    s.first_sequence_team = -1
    t = st.turn
    # turn: turns played, as play_turn counts them in st.ctr.turns. seat and team start as
    # int64, not the literal 0: numba would otherwise also compile every kernel they are passed
    # to (log_turn, swap_dead) for the type Literal[int](0) while it types the loop.
    turn, seat, team = 0, np.int64(0), np.int64(0)
    leader = -1  # the team leading the sequences now, or the last to lead (-1: none yet)
    max_turns = cfg.max_turns
    while True:
        if turn == max_turns:
            s.end = END_TURN_CAP
            break
        result = play_turn(decisions, seat_policies[seat], params[seat], tb, cfg, st, work, seat, team, counted)
        turn += 1

        # Statistics.
        s.dead_swaps += t.dead >= 0
        s.reshuffles += t.reshuffles
        if result == PASSED:
            s.passes += 1
        else:
            kind = tb.card_kind[unsigned(t.card)]
            s.one_eyed[unsigned(team)] += kind == ONE_EYED
            s.two_eyed[unsigned(team)] += kind == TWO_EYED
            if t.new_sequences > 0:
                if s.first_sequence_turn < 0:
                    s.first_sequence_turn = turn
                    s.first_sequence_team = team
                if leads(st, team, teams) and team != leader:
                    s.lead_changes += leader >= 0
                    leader = team
        if logging:
            if turn <= log.shape[0]:
                log_turn(tb, st, log[turn - 1], seat, team, result)

        # The end of the game, or the next seat.
        if result == WON:
            s.winner_team = team
            s.end = END_WIN
            break
        if result == PASSED:
            if st.ctr.pass_run == players:
                s.end = END_STALEMATE
                break
        seat, team = next_seat(seat, team, players, teams)

    s.turns = turn
    for u in range(teams):
        s.sequences[u] = st.nseq[u]
        s.chips[u] = st.on_board[u]
    return counted


@inline_kernel
def leads(st, team, teams):
    """Whether `team` holds strictly more sequences than every other team."""
    for u in range(teams):
        if u != team:
            if st.nseq[u] >= st.nseq[team]:
                return False
    return True


@kernel
def log_turn(tb, st, row, seat, team, result):
    """Write the turn just played (st.turn) into its move-log row (a LOG record)."""
    t = st.turn
    before = st.nseq[team] - t.new_sequences  # the team's sequences before the turn; the new ones follow
    row.seat = seat
    row.dead = -1
    row.card = -1
    row.cell = -1
    row.drawn[:] = -1
    row.seqs[:] = -1
    row.ndrawn = 0
    row.reshuffle = t.reshuffles > 0
    row.nseq = 0
    if t.dead >= 0:
        row.dead = t.dead
        row.drawn[0] = t.replacement
        row.ndrawn = 1
    if result == PASSED:
        row.action = ACT_PASS
    else:
        row.card = t.card
        row.cell = t.cell
        row.action = ACT_REMOVE if tb.card_kind[t.card] == ONE_EYED else ACT_PLACE
        row.nseq = t.new_sequences
        for j in range(t.new_sequences):
            row.seqs[j] = st.seqs[team, before + j]
    for card in (t.drawn, t.late):  # the end-of-turn draw, then the late card
        if card >= 0:
            row.drawn[row.ndrawn] = card
            row.ndrawn += 1
