"""One game of Sequence, turn by turn, as RULES.md and docs/ENGINE.md say.

``play_game`` fills ``st.stats`` (and ``st.log`` when it has rows) for game
``game`` of master seed ``seed``. Its inputs are arrays only: the tables
(``kernels.tables.Tables``), the configuration (``cfg``, see
``kernels.state``), the policy id of each seat and their parameters, and a
second State ``sim`` that policies which look ahead play on.
"""

from .jit import inline_kernel, kernel
from .moves import draw, play_card, swap_dead
from .policies import choose_action, choose_dead
from .rng import seed_stream, shuffle
from .state import (
    ACT_PASS, ACT_PLACE, ACT_REMOVE, CFG_HAND_SIZE, CFG_MAX_TURNS, CFG_PLAYERS,
    CFG_SEQUENCES_TO_WIN, CFG_TEAMS, DECK_SIZE, DISCARD_N, END_STALEMATE,
    END_TURN_CAP, END_WIN, L_ACTION, L_CARD, L_CELL, L_DEAD, L_DRAWN0,
    L_NDRAWN, L_NSEQ, L_RESHUFFLE, L_SEAT, L_SEQ0, PILE_N, PILE_POS, S_CHIPS,
    S_DEAD_SWAPS, S_END, S_FIRST_SEQ_TEAM, S_FIRST_SEQ_TURN, S_ONE_EYED,
    S_PASSES, S_RESHUFFLES, S_SEQUENCES, S_TURNS, S_TWO_EYED, S_WINNER,
)
from .tables import N_CODES, ONE_EYED, TWO_EYED


# --- a game ------------------------------------------------------------------

@inline_kernel
def next_seat(seat, team, players, teams):
    """The next seat clockwise and its team (team = seat % teams, without dividing)."""
    seat += 1
    team += 1
    if team == teams:
        team = 0
    if seat == players:
        seat = 0  # players is a multiple of teams, so team is 0 here too
    return seat, team


@kernel
def reset(cfg, st, seed, game):
    """Seed the game's stream, shuffle the 104-card deck and deal the hands."""
    seed_stream(st.rng, seed, game)
    for i in range(DECK_SIZE):
        st.pile[i] = i if i < N_CODES else i - N_CODES
    shuffle(st.rng, st.pile, DECK_SIZE)
    st.ctr[PILE_POS] = 0
    st.ctr[PILE_N] = DECK_SIZE
    st.ctr[DISCARD_N] = 0
    st.hand_n[:] = 0
    st.held[:] = 0
    st.count[:, :] = 0
    st.dead[:] = 0
    st.chips[:] = 0
    st.occupied[:] = 0
    st.locked[:] = 0
    st.in_line[:, :] = 0
    st.nseq[:] = 0
    st.on_board[:] = 0
    st.stats[:] = 0
    for _ in range(cfg[CFG_HAND_SIZE]):
        for seat in range(cfg[CFG_PLAYERS]):
            draw(st, seat)


@kernel
def play_game(tb, cfg, policies, params, st, sim, seed, game):
    """Play game `game` of master seed `seed` to its end; fill st.stats.

    policies: (players,) int64 policy id per seat; params: (players, P)
    float64 policy parameters per seat. With st.log of T rows, the first
    min(turns, T) turns are logged (T >= cfg max_turns logs the whole game).
    """
    reset(cfg, st, seed, game)
    logging = st.log.shape[0] > 0
    if logging:
        for seat in range(cfg[CFG_PLAYERS]):
            i = 0
            for code in range(N_CODES):  # the dealt hand, sorted by code
                for _ in range(st.count[seat, code]):
                    st.dealt[seat, i] = code
                    i += 1
    players, teams = cfg[CFG_PLAYERS], cfg[CFG_TEAMS]
    s = st.stats
    s[S_WINNER] = -1
    s[S_FIRST_SEQ_TURN] = -1
    s[S_FIRST_SEQ_TEAM] = -1
    turn, seat, team, passes_in_row = 0, 0, 0, 0
    while True:
        if turn == cfg[CFG_MAX_TURNS]:
            s[S_END] = END_TURN_CAP
            break
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
            card, reshuffled = swap_dead(st, seat, dead)
            s[S_DEAD_SWAPS] += 1
            s[S_RESHUFFLES] += reshuffled
            if log:
                row[L_DEAD] = dead
                row[L_DRAWN0] = card
                row[L_NDRAWN] = 1
                row[L_RESHUFFLE] = reshuffled

        # 2. Play one card, or pass.
        code, cell = choose_action(policies[seat], params[seat], tb, cfg, st, sim, seat, team)
        if code < 0:
            s[S_PASSES] += 1
            passes_in_row += 1
            if log:
                row[L_ACTION] = ACT_PASS
            if passes_in_row == players:
                s[S_END] = END_STALEMATE
                break
            seat, team = next_seat(seat, team, players, teams)
            continue
        passes_in_row = 0
        kind = tb.card_kind[code]
        s[S_ONE_EYED + team] += kind == ONE_EYED
        s[S_TWO_EYED + team] += kind == TWO_EYED
        before = st.nseq[team]
        new = play_card(tb, st, seat, team, code, cell)
        if new > 0:
            if s[S_FIRST_SEQ_TURN] < 0:
                s[S_FIRST_SEQ_TURN] = turn
                s[S_FIRST_SEQ_TEAM] = team
            if log:
                row[L_NSEQ] = new
                for j in range(new):
                    row[L_SEQ0 + j] = st.seqs[team, before + j]
        action = ACT_REMOVE if kind == ONE_EYED else ACT_PLACE
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
        seat, team = next_seat(seat, team, players, teams)

    s[S_TURNS] = turn
    for t in range(teams):
        s[S_SEQUENCES + t] = st.nseq[t]
        s[S_CHIPS + t] = st.on_board[t]
