"""One turn of Sequence (RULES.md, "A turn"): the only place its steps are written.

``play_turn`` is a turn of the game: its seat's player chooses with ``decide``. Players that play ahead
(the rollouts, the tree search, the value fit) compose their turns from the same steps with the move
they choose themselves: ``begin_turn`` (the dead-card swap), then ``end_turn`` (the card played, a win,
the draw, the late card). A turn returns what it came to; the details (cards swapped, played and drawn,
sequences completed, reshuffles) are left in ``st.turn`` for callers that keep statistics or a log.

Who decides: the seat's player id ``policy``. Random (id ``RANDOM``) is called directly; every other
player through its decision, a first-class function in the line-up's tuple ``decisions`` indexed by id
(``kernels.players.dispatch.decisions``), so the turn and the game loop are compiled once for every
line-up, and each player's decision once, as a function of its own. A line-up of random alone passes
None for ``decisions`` and plays a game loop of its own, with no pointer (``decide`` says what it gains).
"""

from .jit import inline_kernel
from .moves import draw, play_card, swap_dead
from .params import SEAT
from .random_move import random_action, random_dead
from .state import may_swap_dead, unsigned

PASSED, PLAYED, WON = 0, 1, 2
RANDOM = 0  # the random player's id: played directly, never through its pointer


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
def decide(decisions, policy, params, tb, cfg, st, work, seat, team):
    """The (card, cell) the seat's player plays, or (-1, -1) to pass: random's move directly, any other
    player's through its decision ``decisions[policy]`` (its parameter row `params`, its spare arrays
    `work`: kernels.core.workspace). `decisions` None: a line-up of random alone, whose game loop numba
    compiles apart (the branch on None is pruned while typing)."""
    if decisions is None:  # random alone: a game loop without pointers, 1.12-1.20x the games/s of the shared one
        return random_action(tb, cfg, st, seat, team)
    if policy == RANDOM:
        return random_action(tb, cfg, st, seat, team)
    return decisions[policy](tb, cfg, st, work, seat, team, params)


@inline_kernel
def play_turn(decisions, policy, params, tb, cfg, st, work, seat, team, counted):
    """Seat `seat` (of team `team`) takes its turn, its player `policy` deciding; returns PASSED, PLAYED or
    WON. counted: whether the line counts st.in_line are kept (kernels.core.moves.play_card)."""
    begin_turn(tb, cfg, st, seat, params[SEAT.dead_swap] == 0.0)  # a restriction may keep the dead cards
    code, cell = decide(decisions, policy, params, tb, cfg, st, work, seat, team)
    return end_turn(tb, cfg, st, seat, team, code, cell, counted)


@inline_kernel
def begin_turn(tb, cfg, st, seat, swaps):
    """A turn's start: st.turn cleared, then step 1, the optional dead-card swap (dead_swap on, a
    replacement to draw, and `swaps`: the player swaps), of one dead card uniformly among the distinct
    dead codes held."""
    t = st.turn
    t.reshuffles = 0
    t.dead = -1
    t.drawn = -1
    t.late = -1
    t.new_sequences = 0
    if swaps:
        if may_swap_dead(cfg, st):
            dead = random_dead(tb, st, seat)
            if dead >= 0:
                t.dead = dead
                card, reshuffled = swap_dead(cfg, st, seat, dead)
                t.replacement = card
                t.reshuffles += reshuffled


@inline_kernel
def end_turn(tb, cfg, st, seat, team, code, cell, counted):
    """The rest of the turn begun by ``begin_turn``: the seat plays `code` on `cell` (-1: a pass); returns
    PASSED, PLAYED or WON.

    2. Play the card, or pass when no card can be played: nothing is played, nothing drawn. 3. A team
    holding enough sequences wins at once, drawing nothing. 4. Draw one card (none when none can be
    drawn). 5. The late card (late_card): at the end of the seat's own K-th turn, unless the game ends
    with this turn. Counts the turn in st.ctr.turns and the passes in a row in st.ctr.pass_run.
    """
    t = st.turn
    t.card = code
    t.cell = cell
    st.ctr.turns += 1
    if code < 0:
        st.ctr.pass_run += 1
        if st.ctr.pass_run < cfg.players:  # else the round of passes ends the game
            late_card(cfg, st, seat)
        return PASSED
    st.ctr.pass_run = 0
    t.new_sequences = play_card(tb, st, seat, team, code, cell, counted)
    if st.nseq[unsigned(team)] >= cfg.sequences_to_win:
        return WON
    card, reshuffled = draw(cfg, st, seat)
    t.drawn = card
    t.reshuffles += reshuffled
    late_card(cfg, st, seat)
    return PLAYED


@inline_kernel
def play_move(tb, cfg, st, seat, team, move):
    """A turn whose move is given (card * 128 + cell; a pass: -128), any dead card already swapped: a
    candidate played ahead by a player that searches (the line counts kept)."""
    begin_turn(tb, cfg, st, seat, False)
    return end_turn(tb, cfg, st, seat, team, move // 128, move % 128, True)


@inline_kernel
def late_card(cfg, st, seat):
    """The late card (RULES.md, "Rule variants"): a seat dealt one card short draws it at
    the end of its own K-th turn (passes included), unless the turn cap ends the game now."""
    k = cfg.late[unsigned(seat)]
    if k > 0:
        turns = st.ctr.turns
        if (turns - 1) // cfg.players == k - 1:  # the seat's own turns: seat, seat + players, ...
            if turns < cfg.max_turns:
                card, reshuffled = draw(cfg, st, seat)
                st.turn.late = card
                st.turn.reshuffles += reshuffled
