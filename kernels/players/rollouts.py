"""The race of the lookahead and swift: greedy's shortlist, judged by short rollouts.

For each of the ``shortlist`` best actions by the policy's own greedy
weights, games are played on from the position after the action. In them
every seat plays greedy (``playout`` 0; ``playout`` 1: random): the
policy's own team with its own greedy weights, the other teams with the
``opponent_*`` weights, its model of how they play. Before each rollout the
cards the seat cannot see (every other hand and the draw pile) are dealt
again at random from the cards it has not seen: 104 minus its own hand minus
the discards (determinisation), so the decision depends only on what the
seat sees.

A rollout stops after ``horizon`` plies (0: at the end of the game) and is
worth the estimated chance to win of the position it reached
(``kernels.values.evaluation``, weighted by the value weights); a game that ends
sooner is worth 1 (win), 1/2 (draw) or 0 (loss). Stopping early trades a
little bias for much less noise (docs/research.md).

Every candidate is played on the same deals (common random numbers) and
compared with the greedy choice (the first candidate) deal by deal. The
candidates are *raced*: after every ``batch`` deals (BATCH for the
lookahead; swift declares it), a challenger whose mean
gain over the greedy choice is below ``race`` standard errors of the paired
differences (mean + race * se <= 0) is dropped; the race ends when no
challenger is left or after ``rollouts`` deals (``race`` 0: no dropping,
every candidate gets ``rollouts`` deals). The policy then leaves the greedy
choice only for the remaining challenger with the largest mean gain, and
only when that gain exceeds ``margin`` standard errors, so rollout noise
rarely makes it play worse than greedy would. A greedy choice that wins the
game at once is played without rollouts. With ``gap`` > 0 a candidate whose
greedy score trails the greedy choice's by more than ``gap`` is not searched,
and a decision left with one candidate takes it without rollouts (most turns
have one action far ahead of the rest: a four made or blocked). With
``removals`` k > 0, a decision whose greedy best k hold a one-eyed Jack
searches all k (all ``shortlist`` if that is more), whatever ``gap`` says: a
removal is the kind of move the rollouts find and greedy's order hides
(docs/research.md). The real game's generator is
advanced once per searched decision.

The leaves' value is the player's (``kernels.values.leaves``): ``FITTED`` scores them by
``kernels.values.evaluation`` (the lookahead), ``RICH`` by ``kernels.values.rich``'s value of hand and
board, as the seat that played last sees the deal (with three teams, if that seat is of another team,
the searching team's seat that played before it), or with ``view`` the searching seat (swift).

The row of a player that races (``race_layout``): its own greedy block, ``RACE`` (rollouts, shortlist,
margin, playout, horizon, race), the opponents' greedy block (``opponent_*``), ``SETTINGS`` (``gap``,
``batch``, ``view`` and ``removals``: swift's to set, fixed for the lookahead at 0, BATCH, 0 and 0: every
candidate searched, a look at the race every BATCH deals, no view, no decision widened for a removal),
its leaf, then its value weights. The kernels read it by name through ``RACE_ROW``.
"""

import numpy as np

from ..core.jit import inline_kernel, kernel, twin
from ..core.moves import add_to_hand
from ..core.params import Block, Layout, Param
from ..core.rng import next_u64, seed_stream, shuffle, shuffle_front
from ..core.state import copy_board, lowest_bit
from ..core.tables import N_CODES, ONE_EYED
from ..core.turn import PASSED, RANDOM, WON, next_seat, play_move
from ..values.leaves import LEAF, fitted_leaf, leaf_chance, rich_leaf
from .greedy import GREEDY, GREEDY_ID, greedy_turn, score_actions

PLAYOUT_GREEDY, PLAYOUT_RANDOM = 0, 1
MAX_SHORTLIST = 16
BATCH = 16  # deals between two looks at the race (the lookahead's; swift's `batch`)

RACE = Block(
    "race",
    (
        Param("rollouts", 10.0, "deals each candidate is played on, at most", 0, 100_000, whole=True),
        Param("shortlist", 3.0, "candidates: greedy's best this many", 1, MAX_SHORTLIST, whole=True),
        Param("margin", 0.5, "standard errors by which a challenger must beat greedy's choice", 0),
        Param("playout", 0.0, "how the rollouts play: 0 greedy, 1 random", 0, 1, whole=True),
        Param("horizon", 2.0, "plies of a rollout before its position is scored; 0: to the end", 0, 10_000, whole=True),
        Param("race", 0.5, "standard errors below greedy's choice that drop a challenger; 0: none dropped", 0),
    ),
)
SETTINGS = Block(
    "settings",
    (
        Param("gap", 16.0, "a candidate more than this behind greedy's choice is not searched; 0: all are", 0),
        Param("batch", 2.0, "deals between two looks at the race", 1, 1_000_000, whole=True),
        Param(
            "view",
            0.0,
            "1: leaves scored as the searching seat sees the deal; 0: as the seat that played last",
            0,
            1,
            whole=True,
        ),
        Param(
            "removals",
            4.0,
            "a decision whose greedy best this many hold a one-eyed Jack searches them all; 0: off",
            0,
            MAX_SHORTLIST,
            whole=True,
        ),
    ),
)


def race_layout(
    own: Block, race: Block, settings: Block, leaf: Block, value: Block, opponent: Block = GREEDY
) -> Layout:
    """The row of a player that races: `own` (its greedy weights), `race`, `opponent` (the other teams' greedy
    weights, its model of them), `settings`, `leaf` (the value it scores leaves by) and that value's weights,
    last."""
    return Layout.of(
        ("own", own),
        ("race", race),
        ("opponent", opponent, "opponent_"),
        ("settings", settings),
        ("leaf", leaf),
        ("value", value),
    )


# The row's offsets by name, the same whatever the value (its weights come last).
RACE_ROW = race_layout(GREEDY, RACE, SETTINGS, LEAF, Block("value", ())).at
VIEW_AT = RACE_ROW.view  # as a constant of its own: numba takes `.view` in a kernel for an array's method


@kernel
def determinise(st, sim, seat, draws):
    """Copy into `sim` what `seat` sees of `st`, and deal the unseen cards afresh.

    Reads of st: the board (with its dead cards), the discards, the seat's own hand, the sizes of
    the other hands and of the draw pile, the turns played and the passes in a row. Nothing else
    (RULES.md, Information). The other hands keep their sizes, so a seat still owed its late card
    holds a card short, and the pile keeps its size, so it runs out when the real one would.
    Uses and advances sim.rng. draws: how many cards the game played on `sim` may draw at
    most (-1: any number); only the other hands and that many cards of the pile are shuffled
    into place (a uniformly random prefix, Fisher-Yates from the front), the rest is left
    in order, never to be drawn.
    """
    copy_board(st, sim)
    # Unseen cards: two of each code, less the seat's hand and the discards.
    count = sim.scratch
    for code in range(N_CODES):
        count[code] = 2
    for i in range(st.ctr.discard_n):
        sim.discard[i] = st.discard[i]
        count[st.discard[i]] -= 1
    sim.ctr.discard_n = st.ctr.discard_n
    sim.ctr.turns = st.ctr.turns
    sim.ctr.pass_run = st.ctr.pass_run
    for code in range(N_CODES):
        sim.count[seat, code] = st.count[seat, code]
        count[code] -= st.count[seat, code]
    sim.held[seat] = st.held[seat]
    sim.hand_n[seat] = st.hand_n[seat]
    n = np.int64(0)  # int64: one compile of shuffle
    for code in range(N_CODES):
        for _ in range(count[code]):
            sim.pile[n] = code
            n += 1
    needed = draws
    for s in range(st.hand_n.shape[0]):
        if s != seat:
            needed += st.hand_n[s]
    if draws < 0 or needed >= n:
        shuffle(sim.rng, sim.pile, n)
    else:
        shuffle_front(sim.rng, sim.pile, 0, n, needed)
    # Deal the other hands from the front; the rest is the draw pile.
    sim.ctr.pile_pos = 0
    sim.ctr.pile_n = n
    for s in range(st.hand_n.shape[0]):
        if s != seat:
            held = sim.held[s]  # empty the hand: the codes held are those counted
            while held != np.uint64(0):
                sim.count[s, lowest_bit(held)] = 0
                held &= held - np.uint64(1)
            sim.hand_n[s] = 0
            sim.held[s] = 0
            for _ in range(st.hand_n[s]):
                add_to_hand(sim, s, sim.pile[sim.ctr.pile_pos])
                sim.ctr.pile_pos += 1


@kernel
def shortlist(actions, scores, n, k):
    """Move the best min(k, n) of the n listed actions by score to the front, best first; how many.

    A partial selection sort: ties keep the earlier-listed action first.
    """
    short = min(k, n)
    for i in range(short):
        best = i
        for j in range(i + 1, n):
            if scores[j] > scores[best]:
                best = j
        actions[i], actions[best] = actions[best], actions[i]
        scores[i], scores[best] = scores[best], scores[i]
    return short


@kernel
def raced_action(tb, cfg, st, work, seat, team, params):
    """The raced shortlist's choice (see the module doc), as (card, cell); (-1, -1) to pass. params: the
    player's row (``race_layout``); the deals are played on work.sim. Called only through its twins
    (``race_by``), which are the lookahead's and swift's actions."""
    sim = work.sim
    gparams = params[RACE_ROW.own : RACE_ROW.race]
    actions, scores = st.scratch, st.fscores
    n = score_actions(tb, cfg, st, seat, team, gparams, actions, scores)
    if n == 0:
        return -1, -1
    short = min(max(int(params[RACE_ROW.shortlist]), 1), MAX_SHORTLIST)
    removals = min(int(params[RACE_ROW.removals]), MAX_SHORTLIST)
    # One partial sort for both: its first k actions are those a sort of k alone would give, in order.
    ranked = shortlist(actions, scores, n, max(short, removals))
    if removals > 0 and holds_removal(tb, actions, min(removals, ranked)):
        short = ranked  # every ranked one searched (the k and the shortlist), whatever the gap
    else:
        short = min(short, ranked)
        gap = params[RACE_ROW.gap]  # 0: every candidate is searched
        if gap > 0.0:
            while short > 1 and scores[0] - scores[short - 1] > gap:
                short -= 1
    rollouts = int(params[RACE_ROW.rollouts])
    if short == 1 or rollouts < 1:
        return actions[0] // 128, actions[0] % 128
    base = next_u64(st.rng)
    if wins_at_once(tb, cfg, st, sim, seat, team, actions[0], gparams, base):
        return actions[0] // 128, actions[0] % 128
    # Challenger i's result minus the greedy choice's on the same deal r: sums and
    # sums of squares in st.fscratch[8 + 2i], [9 + 2i]; st.scratch[MAX_SHORTLIST + i]
    # is 1 while i is in the race. (st.scratch past the shortlist is free now.)
    acc, racing = st.fscratch, st.scratch[MAX_SHORTLIST : MAX_SHORTLIST + short]
    race_start(acc, racing, short)
    left = short - 1
    race = params[RACE_ROW.race]
    batch = int(params[RACE_ROW.batch])
    r = np.int64(0)  # int64, not the literal 0: one compile of rollout_value (see engine.play_to_end)
    while r < rollouts and left > 0:
        end = min(r + batch, rollouts)
        while r < end:
            first = rollout_value(tb, cfg, st, sim, seat, team, actions[0], params, base, r)
            for i in range(1, short):
                if racing[i] == 1:
                    race_add(acc, i, rollout_value(tb, cfg, st, sim, seat, team, actions[i], params, base, r) - first)
            r += 1
        if race > 0.0:
            left -= race_drop(acc, racing, short, r, race)
    chosen = race_winner(acc, racing, short, r, params[RACE_ROW.margin])
    return actions[chosen] // 128, actions[chosen] % 128


# The race's bookkeeping (the lookahead's and swift's, and the tree search's with race > 0): candidate 0
# is greedy's choice; challenger i's differences from it on the same deals are summed in acc[8 + 2i] and
# their squares in acc[9 + 2i]; racing[i] is 1 while i is in the race.


@inline_kernel
def race_start(acc, racing, n):
    """Every one of the n candidates in the race, with no differences yet."""
    for i in range(n):
        acc[8 + 2 * i] = 0.0
        acc[9 + 2 * i] = 0.0
        racing[i] = 1


@inline_kernel
def race_add(acc, i, d):
    """Challenger i's difference d from the first candidate on one more deal."""
    acc[8 + 2 * i] += d
    acc[9 + 2 * i] += d * d


@inline_kernel
def race_drop(acc, racing, n, deals, race):
    """Drop every challenger whose mean difference over `deals` deals is `race` standard errors or more
    below zero; how many were dropped."""
    dropped = 0
    for i in range(1, n):
        if racing[i] == 1:
            mean, se = paired_mean(acc, i, deals)
            if mean + race * se <= 0.0:
                racing[i] = 0
                dropped += 1
    return dropped


@inline_kernel
def race_winner(acc, racing, n, deals, margin):
    """The candidate chosen: the challenger still racing with the largest mean gain over `deals` deals,
    when that gain exceeds `margin` standard errors; else 0, the first (greedy's choice)."""
    chosen, chosen_gain = 0, 0.0
    for i in range(1, n):
        if racing[i] == 1:
            mean, se = paired_mean(acc, i, deals)
            if mean > margin * se and mean > chosen_gain:
                chosen, chosen_gain = i, mean
    return chosen


@inline_kernel
def holds_removal(tb, actions, k):
    """Whether the first k listed actions hold a one-eyed Jack."""
    for i in range(k):
        if tb.card_kind[actions[i] // 128] == ONE_EYED:
            return True
    return False


@inline_kernel
def paired_mean(acc, i, r):
    """Mean and standard error of challenger i's r paired differences (sums in acc)."""
    mean = acc[8 + 2 * i] / r
    var = (acc[9 + 2 * i] - mean * mean * r) / max(r - 1, 1)
    return mean, np.sqrt(max(var, 0.0) / r)


@inline_kernel
def draws_needed(cfg, params):
    """The most cards a rollout can draw: one after the action, then a dead card's
    replacement and a draw per ply, and every late card still owed (-1: no limit,
    for rollouts to the end)."""
    horizon = int(params[RACE_ROW.horizon])
    if horizon == 0:
        return -1
    late = 0
    for seat in range(cfg.players):
        if cfg.late[seat] > 0:
            late += 1
    return 1 + 2 * horizon + late


@kernel
def wins_at_once(tb, cfg, st, sim, seat, team, action, gparams, base):
    """Whether `action` wins the game at once (on any deal: a win depends on the board alone)."""
    seed_stream(sim.rng, base, np.int64(0))  # int64 arguments: the types of the other calls (one compile)
    determinise(st, sim, seat, np.int64(1))
    return play_move(tb, cfg, sim, seat, team, action) == WON


@kernel
def rollout_value(tb, cfg, st, sim, seat, team, action, params, base, r):
    """What `action` is worth to `team` on deal r (0..1): determinise, play it, then play on from the next
    seat's turn.

    Everyone plays greedy (playout PLAYOUT_GREEDY: `team` with the player's own greedy block, the others
    with the opponents') or random (PLAYOUT_RANDOM), turn by turn as the game does (kernels.core.turn).
    After `horizon` plies (0: no limit but the turn cap) the position is scored by the player's value
    (``leaf_chance``: its row's leaf and value weights, as the viewer sees it: the searching seat with
    `view`, else the seat that played last); a finished game by its result (1, 1/2 draw, 0). One kernel
    for the deal and its playout: numba compiles a kernel with the machine code of every kernel it calls,
    so a kernel of its own for the playout would compile it once more.
    """
    gparams = params[RACE_ROW.own : RACE_ROW.race]
    oparams = params[RACE_ROW.opponent : RACE_ROW.settings]
    viewer = seat if params[VIEW_AT] > 0.0 else -1
    seed_stream(sim.rng, base, r)
    determinise(st, sim, seat, draws_needed(cfg, params))
    if play_move(tb, cfg, sim, seat, team, action) == WON:
        return 1.0
    players, teams = cfg.players, cfg.teams
    horizon = int(params[RACE_ROW.horizon])
    plies = cfg.max_turns if horizon == 0 else horizon
    policy = GREEDY_ID if int(params[RACE_ROW.playout]) == PLAYOUT_GREEDY else RANDOM
    mover = (seat + 1) % players  # the seat whose turn it is in the playout
    mover_team = mover % teams
    passes = 0
    for _ in range(plies):
        weights = gparams if mover_team == team else oparams
        result = greedy_turn(tb, cfg, sim, mover, mover_team, weights, policy)
        if result == WON:
            return 1.0 if mover_team == team else 0.0
        if result == PASSED:
            passes += 1
            if passes == players:
                return 0.5  # stalemate: a draw
        else:
            passes = 0
        mover, mover_team = next_seat(mover, mover_team, players, teams)
    if horizon == 0:
        return 0.5  # the turn cap: a draw
    return leaf_chance(int(params[RACE_ROW.leaf]), tb, cfg, sim, mover, team, viewer, params[RACE_ROW.value :])


def race_by(value, name: str):
    """raced_action whose leaves are scored by `value` alone (fitted_leaf or rich_leaf), whatever the row's
    leaf says: twins of raced_action and rollout_value, the first calling the second, so that a player's
    first run compiles its own value only (raced_action itself, reading the row's leaf, would compile both).
    The twin of raced_action is a player's action, with the decision's arguments."""
    valued = kernel(twin(rollout_value, f"rollout_value_{name}", leaf_chance=value))
    return kernel(twin(raced_action, f"raced_action_{name}", rollout_value=valued))


FITTED_RACE = race_by(fitted_leaf, "fitted")  # the lookahead's
RICH_RACE = race_by(rich_leaf, "rich")  # swift's
