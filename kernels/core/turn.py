"""One turn of Sequence (RULES.md, "A turn"): the only place its steps are written.

The game loop (``kernels.engine``), the lookahead's rollouts and the value
fit (``fitting/fit_value.py``) all play their turns through ``play_turn``
(the rollouts and tree searches through ``rollout_turn``, its twin: the same
code in a dispatcher of its own).
It returns what the turn came to; the details (cards swapped, played and
drawn, sequences completed, reshuffles) are left in ``st.turn`` for callers
that keep statistics or a log, at the cost of a few stores for those that
do not.
"""

from .decide import choose_action, choose_dead, counts_lines
from .jit import inline_kernel, twin
from .moves import draw, play_card, swap_dead
from .state import (
    PASS_RUN,
    T_CARD,
    T_CELL,
    T_DEAD,
    T_DRAWN,
    T_LATE,
    T_NEW_SEQUENCES,
    T_REPLACEMENT,
    T_RESHUFFLES,
    TURNS,
    may_swap_dead,
    unsigned,
)

PASSED, PLAYED, WON = 0, 1, 2
ASK_POLICY = -1  # play_turn's `action` when the policy chooses


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


@inline_kernel
def play_turn(policies, policy, params, tb, cfg, st, sim, seat, team, action):
    """Seat `seat` (of team `team`) takes its turn; returns PASSED, PLAYED or WON.

    policies: the player set (``kernels.core.decide``); policy: the seat's policy
    id, params its (P,) float64 parameter row; sim: a spare State for
    policies that play ahead. action: ASK_POLICY, or a move card * 128 + cell
    to play instead of asking the policy (the lookahead's candidate, whose
    dead card was already swapped).

    1. The optional dead-card swap (dead_swap on, and a replacement to draw).
    2. Play one card, or pass when no card can be played: nothing is played,
    nothing drawn. 3. A team holding enough sequences wins at once, drawing
    nothing. 4. Draw one card (none when none can be drawn). 5. The late card
    (late_card): at the end of the seat's own K-th turn, unless the game ends
    with this turn. Counts the turn in st.ctr[TURNS] and the passes in a row
    in st.ctr[PASS_RUN].
    """
    t = st.turn
    t[T_RESHUFFLES] = 0
    t[T_DEAD] = -1
    t[T_DRAWN] = -1
    t[T_LATE] = -1
    t[T_NEW_SEQUENCES] = 0
    if action == ASK_POLICY:
        if may_swap_dead(cfg, st):
            dead = choose_dead(policy, params, tb, cfg, st, seat, team)
            if dead >= 0:
                t[T_DEAD] = dead
                card, reshuffled = swap_dead(cfg, st, seat, dead)
                t[T_REPLACEMENT] = card
                t[T_RESHUFFLES] += reshuffled
        code, cell = choose_action(policies, policy, params, tb, cfg, st, sim, seat, team)
    else:
        code, cell = action // 128, action % 128
    t[T_CARD] = code
    t[T_CELL] = cell
    st.ctr[TURNS] += 1
    if code < 0:
        st.ctr[PASS_RUN] += 1
        if st.ctr[PASS_RUN] < cfg.players:  # else the round of passes ends the game
            late_card(cfg, st, seat)
        return PASSED
    st.ctr[PASS_RUN] = 0
    t[T_NEW_SEQUENCES] = play_card(tb, st, seat, team, code, cell, counts_lines(policies))
    if st.nseq[unsigned(team)] >= cfg.sequences_to_win:
        return WON
    card, reshuffled = draw(cfg, st, seat)
    t[T_DRAWN] = card
    t[T_RESHUFFLES] += reshuffled
    late_card(cfg, st, seat)
    return PLAYED


# play_turn for the players that play ahead (their rollouts and searches): the same code in a dispatcher of
# its own. The game's play_turn is still compiling when its player's rollouts are (they are compiled inside
# its choose_action); were they to call play_turn, numba would take the call for recursion (jit.twin).
rollout_turn = inline_kernel(twin(play_turn, "rollout_turn"))


@inline_kernel
def late_card(cfg, st, seat):
    """The late card (RULES.md, "Rule variants"): a seat dealt one card short draws it at
    the end of its own K-th turn (passes included), unless the turn cap ends the game now."""
    k = cfg.late[unsigned(seat)]
    if k > 0:
        turns = st.ctr[TURNS]
        if (turns - 1) // cfg.players == k - 1:  # the seat's own turns: seat, seat + players, ...
            if turns < cfg.max_turns:
                card, reshuffled = draw(cfg, st, seat)
                st.turn[T_LATE] = card
                st.turn[T_RESHUFFLES] += reshuffled
