"""The ismcts and ismcts-rich policies: information-set Monte Carlo tree search over the seat's view.

One tree over the seat's information set (Cowling, Powley and Whitehouse,
2012, "single observer" ISMCTS): its nodes are sequences of moves from the
position the seat sees, every seat's moves included. Each iteration deals
the cards the seat cannot see afresh (``kernels.players.rollouts.determinise``: the
other hands and the draw pile, from the cards it has not seen), then walks
down the tree playing real turns (``kernels.core.turn.play_turn``) in that deal:

- at each node the seat to move swaps a dead card (as every policy does) and
  lists its moves in this deal, ranked by greedy weights: the searching
  team's own weights for its seats, the ``opponent_*`` weights (the model of
  the other teams) for the others; only the best ``width`` (own team) or
  ``reply`` (other teams) are candidates;
- a candidate not yet in the tree is added (the best-ranked first) and the
  walk stops there; otherwise the child maximising UCB1 with availability
  counts, ``mean + explore * sqrt(ln(available) / visits)``, is taken (a
  child's mean is the chance to win of the team whose move it is; a child is
  *available* in an iteration whose deal allows its move);
- from the new node, ``horizon`` plies of greedy play, then the position is
  scored for every team by the value of the search's ``leaf``, a marker type
  chosen when the caller is compiled (``kernels.values.leaves``):
  ``FittedLeaf()`` (ismcts) by the fitted value of ``kernels.values.evaluation`` (a
  softmax of the teams' weighted features), ``RichLeaf()`` (ismcts-rich,
  two-team tables) by ``kernels.values.rich``'s value of hand and board as the seat
  that played last sees the deal; a game that ends sooner scores 1 for the
  winner (a draw: 1/teams each), and every node on the path adds the score
  of its mover's team.

With ``race=0`` the walks choose among the root's candidates too, and after
``iterations`` iterations the most visited move at the root is played. With
``race`` > 0 (the default) the root's candidates are compared as the
lookahead compares them (``raced``): each deal is searched once below every
candidate still in the race, so the candidates meet the same deals (common
random numbers), a challenger whose mean gain over greedy's first choice is
``race`` standard errors or more below zero after a multiple of 16 deals is
dropped, and greedy's choice is left only for a challenger better by more
than ``margin`` standard errors; ``iterations`` counts the walks. A greedy
first choice that wins at once is played without a search, and so is a
single candidate. The real game's generator is advanced once per decision;
deal i comes from a stream of that number and i, so the decision depends on
what the seat sees and on the game's stream alone.

``cheat`` is a research instrument, never fair play, named in a spec only
in the research group (``ismcts:research.cheat=1``). With 1 the deal is not
re-dealt but copied whole from the real game (every hand and the order of the
draw pile), so the search sees what RULES.md's Information forbids; 2
splits what that is worth: every hand is copied, the draw pile's
cards are shuffled afresh per deal (the search sees the hands, not the order
of the deck).

Memory: the tree lives in a ``SearchWork`` arena made in Python
(``new_work``), one per thread, handed to the game loop as its ``sim``
argument (kernels never allocate). An iteration adds at most one node; when
the arena is full the walk stops adding and scores the move it would have
added.

Parameters (a float64 row): iterations, width, reply, explore, horizon,
cheat, race, margin, the leaf's value weights (N_VALUE_WEIGHTS for
FittedLeaf, N_RICH_WEIGHTS for RichLeaf), the own N_GREEDY_PARAMS greedy
weights, then the opponents' N_GREEDY_PARAMS; ``greedy_at(leaf)`` is where
the greedy weights start (P_GREEDY for FittedLeaf).
"""

import math
from typing import NamedTuple

import numpy as np
from numba.extending import overload

from ..core.decide import choose_dead
from ..core.jit import INLINE_OPTIONS, inline_kernel, kernel
from ..core.moves import swap_dead
from ..core.record import cache_lines_apart
from ..core.rng import next_u64, seed_stream, shuffle_front
from ..core.state import DISCARD_N, MAX_TEAMS, PASS_RUN, PILE_N, PILE_POS, TURNS, copy_board, may_swap_dead, new_state
from ..core.tables import N_CODES
from ..core.turn import ASK_POLICY, PASSED, WON, next_seat, rollout_turn
from ..values.evaluation import N_VALUE_WEIGHTS, features, team_score
from ..values.leaves import FittedLeaf, RichLeaf, leaf_chance, value_size
from ..values.weights import RICH_WEIGHTS, VALUE_WEIGHTS, rich_weights, value_weights
from .greedy import GREEDY, N_GREEDY_PARAMS, UP_TO_GREEDY, score_actions
from .lookahead import OPPONENT_DEFAULTS, OWN_WEIGHTS
from .player import SEARCHING, TWO_TEAM_TABLES, Player
from .rollouts import BATCH, MAX_SHORTLIST, determinise, race_add, race_drop, race_start, race_winner, shortlist

P_ITERATIONS, P_WIDTH, P_REPLY, P_EXPLORE, P_HORIZON, P_CHEAT, P_RACE, P_MARGIN, P_VALUE = range(9)
CHEAT_HANDS = 2.0  # cheat=2: the hands seen, not the deck's order (cheat=1: both)
P_GREEDY = P_VALUE + N_VALUE_WEIGHTS  # P_GREEDY, P_OPPONENT, N_SEARCH_PARAMS: FittedLeaf's layout (ismcts)
P_OPPONENT = P_GREEDY + N_GREEDY_PARAMS
N_SEARCH_PARAMS = P_OPPONENT + N_GREEDY_PARAMS
MAX_WIDTH = MAX_SHORTLIST
MAX_ITERATIONS = 1_000_000
MAX_DEPTH = 48  # plies below the root; a walk stops adding nodes there


def greedy_at(leaf):
    """Where the own greedy weights start in the row of a search whose leaves are `leaf`'s (after its
    value weights); the opponents' follow them, and the row ends N_GREEDY_PARAMS later."""
    return P_VALUE + value_size(leaf)


@overload(greedy_at, jit_options=INLINE_OPTIONS)
def _greedy_at(leaf):
    at = greedy_at(leaf.instance_class())
    return lambda leaf: at


def search_params(leaf) -> int:
    """The length of the parameter row of a search whose leaves are `leaf`'s (Python)."""
    return greedy_at(leaf) + 2 * N_GREEDY_PARAMS


# One row of SearchWork.nodes per node; node 0 is the root.
N_MOVE, N_CHILD, N_SIBLING, N_VISITS, N_AVAILABLE, N_TEAM = range(6)
N_NODE_FIELDS = 6
NO_NODE = -1
PASS_MOVE = -128  # play_turn's action for a pass: card -1 (-128 // 128), no policy asked


class SearchWork(NamedTuple):
    """The ismcts policy's arrays, made in Python (``new_work``), one per thread.

    sim:    a State to play the deals on (the game loop's spare State).
    nodes:  (N, N_NODE_FIELDS) int64, the tree: each node's move (card * 128 + cell, or
            PASS_MOVE), first child, next sibling, visits, availability count, and the team
            that made the move.
    reward: (N,) float64, per node the sum of its mover's team's scores.
    path:   (MAX_DEPTH + 2,) int64, the nodes of the walk in play.
    value:  (MAX_TEAMS,) float64, each team's score of the iteration's end position.
    size:   (1,) int64, nodes in use.
    """

    sim: np.record
    nodes: np.ndarray
    reward: np.ndarray
    path: np.ndarray
    value: np.ndarray
    size: np.ndarray


def new_work(nodes: int) -> SearchWork:
    """Fresh arrays for a search of up to nodes - 1 iterations (plain Python: kernels never allocate)."""
    nodes = max(int(nodes), 2)
    return SearchWork(
        new_state(),
        *cache_lines_apart(
            [
                np.zeros((nodes, N_NODE_FIELDS), np.int64),
                np.zeros(nodes, np.float64),
                np.zeros(MAX_DEPTH + 2, np.int64),
                np.zeros(MAX_TEAMS, np.float64),
                np.zeros(1, np.int64),
            ]
        ),
    )


@kernel
def reveal(st, sim):
    """Copy the whole game into `sim`: every hand and the draw pile in order (cheat=1 or 2 only).

    Unlike determinise this reads what the seat may not see (RULES.md, Information).
    """
    copy_board(st, sim)
    for s in range(st.hand_n.shape[0]):
        sim.held[s] = st.held[s]
        sim.hand_n[s] = st.hand_n[s]
        for code in range(N_CODES):
            sim.count[s, code] = st.count[s, code]
    for i in range(st.ctr[PILE_N]):
        sim.pile[i] = st.pile[i]
    for i in range(st.ctr[DISCARD_N]):
        sim.discard[i] = st.discard[i]
    for i in range(st.ctr.shape[0]):
        sim.ctr[i] = st.ctr[i]


@kernel
def shuffle_pile(sim):
    """Deal the cards left in sim's draw pile afresh (cheat=2: the hands seen, the deck's order not).

    The cards are first put in code order, so the result depends on which cards are left,
    never on their order. Uses and advances sim.rng; sim.scratch[:N_CODES] as work space."""
    pos, n = sim.ctr[PILE_POS], sim.ctr[PILE_N]
    count = sim.scratch
    for code in range(N_CODES):
        count[code] = 0
    for i in range(pos, n):
        count[sim.pile[i]] += 1
    i = pos
    for code in range(N_CODES):
        for _ in range(count[code]):
            sim.pile[i] = code
            i += 1
    shuffle_front(sim.rng, sim.pile, pos, n, n - pos - 1)


@kernel
def end_value(tb, cfg, sim, mover, vweights, value):
    """Every team's estimated chance to win (kernels.values.evaluation) into value; mover moves next."""
    feats = sim.fscores
    features(tb, cfg, sim, feats)
    teams = cfg.teams
    mover_team = mover % teams
    top = -np.inf
    for u in range(teams):
        value[u] = team_score(feats, u, mover_team, vweights)
        top = max(top, value[u])
    total = 0.0
    for u in range(teams):
        value[u] = np.exp(value[u] - top)
        total += value[u]
    for u in range(teams):
        value[u] /= total


def leaf_values(leaf, tb, cfg, sim, mover, vweights, value):
    """Every team's chance to win by the value of `leaf` into value; `mover` moves next (kernel code)."""
    raise NotImplementedError("kernel code only")


@overload(leaf_values, jit_options=INLINE_OPTIONS)
def _leaf_values(leaf, tb, cfg, sim, mover, vweights, value):
    if leaf.instance_class is FittedLeaf:

        def fitted(leaf, tb, cfg, sim, mover, vweights, value):
            end_value(tb, cfg, sim, mover, vweights, value)

        return fitted

    def rich(leaf, tb, cfg, sim, mover, vweights, value):
        # Two teams (its declaration refuses three): the chance of the team of the seat that
        # played last, as that seat sees the deal (leaf_chance's view -1), and its complement.
        players = cfg.players
        t = ((mover + players - 1) % players) % 2
        p = leaf_chance(leaf, tb, cfg, sim, mover, t, -1, vweights)
        value[t] = p
        value[1 - t] = 1.0 - p

    return rich


@inline_kernel
def score_result(cfg, value, winner):
    """value: 1 for the winning team, 0 for the others; winner -1 (a draw): 1/teams each."""
    teams = cfg.teams
    for u in range(teams):
        if winner < 0:
            value[u] = 1.0 / teams
        else:
            value[u] = 1.0 if u == winner else 0.0


@kernel
def playout(leaf, tb, cfg, sim, seat, team, gparams, oparams, horizon, vweights, value):
    """From `seat`'s turn, `horizon` plies of greedy play (`team` with gparams, the others
    with oparams), then every team's value into `value`; a game that ends sooner: its result."""
    players, teams = cfg.players, cfg.teams
    seat_team = seat % teams
    for _ in range(horizon):
        if sim.ctr[TURNS] >= cfg.max_turns:
            score_result(cfg, value, -1)
            return
        weights = gparams if seat_team == team else oparams
        result = rollout_turn(UP_TO_GREEDY, GREEDY, weights, tb, cfg, sim, sim, seat, seat_team, ASK_POLICY)
        if result == WON:
            score_result(cfg, value, seat_team)
            return
        if result == PASSED:
            if sim.ctr[PASS_RUN] == players:
                score_result(cfg, value, -1)
                return
        seat, seat_team = next_seat(seat, seat_team, players, teams)
    leaf_values(leaf, tb, cfg, sim, seat, vweights, value)


@inline_kernel
def find_child(nodes, node, move):
    """The child of `node` reached by `move`, or NO_NODE."""
    child = nodes[node, N_CHILD]
    while child != NO_NODE:
        if nodes[child, N_MOVE] == move:
            return child
        child = nodes[child, N_SIBLING]
    return NO_NODE


@inline_kernel
def add_child(work, node, move, team):
    """A new child of `node` for `move` by `team`; NO_NODE when the arena is full."""
    n = work.size[0]
    if n >= work.nodes.shape[0]:
        return NO_NODE
    nodes = work.nodes
    nodes[n, N_MOVE] = move
    nodes[n, N_CHILD] = NO_NODE
    nodes[n, N_SIBLING] = nodes[node, N_CHILD]
    nodes[n, N_VISITS] = 0
    nodes[n, N_AVAILABLE] = 1
    nodes[n, N_TEAM] = team
    work.reward[n] = 0.0
    nodes[node, N_CHILD] = n
    work.size[0] = n + 1
    return n


@inline_kernel
def select(work, node, moves, k, explore):
    """(child, index) of the walk's next step among the k candidate moves at `node`.

    Every existing child among the candidates counts one more availability. The first
    candidate without a child comes first: (NO_NODE, its index). Otherwise the child of
    the largest UCB1 score, (child, -1).
    """
    nodes, reward = work.nodes, work.reward
    new = -1
    best, best_score = NO_NODE, -np.inf
    for i in range(k):
        child = find_child(nodes, node, moves[i])
        if child == NO_NODE:
            if new < 0:
                new = i
            continue
        nodes[child, N_AVAILABLE] += 1
        visits = nodes[child, N_VISITS]
        if visits == 0:
            score = np.inf
        else:
            score = reward[child] / visits + explore * np.sqrt(np.log(nodes[child, N_AVAILABLE]) / visits)
        if score > best_score:
            best, best_score = child, score
    if new >= 0:
        return NO_NODE, new
    return best, -1


@kernel
def iterate(leaf, tb, cfg, st, work, seat, team, params, base, i, forced):
    """One iteration: deal, walk down (adding at most one node), play out, score, back up.

    forced: the root child the walk starts with (NO_NODE: chosen as at any node). Returns
    the score of the searching team."""
    sim = work.sim
    seed_stream(sim.rng, base, i)
    if params[P_CHEAT] != 0.0:
        reveal(st, sim)
        if params[P_CHEAT] == CHEAT_HANDS:
            shuffle_pile(sim)
    else:
        determinise(st, sim, seat, np.int64(-1))  # int64: one compile of determinise
    players, teams = cfg.players, cfg.teams
    g = greedy_at(leaf)
    gparams = params[g : g + N_GREEDY_PARAMS]
    oparams = params[g + N_GREEDY_PARAMS : g + 2 * N_GREEDY_PARAMS]
    vweights = params[P_VALUE:g]
    width = min(max(int(params[P_WIDTH]), 1), MAX_WIDTH)
    reply = min(max(int(params[P_REPLY]), 1), MAX_WIDTH)
    explore = params[P_EXPLORE]
    nodes, path = work.nodes, work.path
    node, depth = 0, 0
    path[0] = 0
    s, t = seat, team
    winner = -2  # -2: the game goes on; -1: a draw; else the winning team
    while True:
        if sim.ctr[TURNS] >= cfg.max_turns:
            winner = -1
            break
        if depth >= MAX_DEPTH:
            break
        if depth > 0:
            if may_swap_dead(cfg, sim):
                dead = choose_dead(GREEDY, gparams, tb, cfg, sim, s, t)
                if dead >= 0:
                    swap_dead(cfg, sim, s, dead)
        weights = gparams if t == team else oparams
        moves = sim.scratch
        n = score_actions(tb, cfg, sim, s, t, weights, moves, sim.fscores)
        if n == 0:
            moves[0] = PASS_MOVE
            k = 1
        else:
            k = shortlist(moves, sim.fscores, n, width if t == team else reply)
        if depth == 0 and forced != NO_NODE:
            child, index = forced, -1
        else:
            child, index = select(work, node, moves, k, explore)
        added = child == NO_NODE
        if added:
            move = moves[index]
            child = add_child(work, node, move, t)
        else:
            move = nodes[child, N_MOVE]
        result = rollout_turn(UP_TO_GREEDY, GREEDY, weights, tb, cfg, sim, sim, s, t, move)
        if child != NO_NODE:
            depth += 1
            path[depth] = child
            node = child
        if result == WON:
            winner = t
            break
        if result == PASSED:
            if sim.ctr[PASS_RUN] == players:
                winner = -1
                break
        s, t = next_seat(s, t, players, teams)
        if added:
            break
    value = work.value
    if winner == -2:
        playout(leaf, tb, cfg, sim, s, team, gparams, oparams, int(params[P_HORIZON]), vweights, value)
    else:
        score_result(cfg, value, winner)
    nodes[0, N_VISITS] += 1
    for d in range(1, depth + 1):
        c = path[d]
        nodes[c, N_VISITS] += 1
        work.reward[c] += value[nodes[c, N_TEAM]]
    return value[team]


@kernel
def wins_now(tb, cfg, st, work, seat, team, move, gparams):
    """Whether `move` wins the game at once (a win depends on the board alone)."""
    sim = work.sim
    determinise(st, sim, seat, np.int64(1))
    return rollout_turn(UP_TO_GREEDY, GREEDY, gparams, tb, cfg, sim, sim, seat, team, move) == WON


@kernel
def search_action(leaf, tb, cfg, st, work, seat, team, params):
    """The most visited root move after the search (see the module doc) as (card, cell); (-1, -1) to pass.
    leaf: FittedLeaf() (ismcts) or RichLeaf() (ismcts-rich), the value at the playouts' ends."""
    g = greedy_at(leaf)
    gparams = params[g : g + N_GREEDY_PARAMS]
    moves, scores = st.scratch, st.fscores
    n = score_actions(tb, cfg, st, seat, team, gparams, moves, scores)
    if n == 0:
        return -1, -1
    width = min(max(int(params[P_WIDTH]), 1), MAX_WIDTH)
    k = shortlist(moves, scores, n, width)
    iterations = min(int(params[P_ITERATIONS]), MAX_ITERATIONS)
    first = moves[0]
    if k == 1 or iterations < 1:
        return first // 128, first % 128
    base = next_u64(st.rng)
    work.sim.rng[0] = base
    if wins_now(tb, cfg, st, work, seat, team, first, gparams):
        return first // 128, first % 128
    nodes = work.nodes
    nodes[0, N_MOVE] = PASS_MOVE
    nodes[0, N_CHILD] = NO_NODE
    nodes[0, N_SIBLING] = NO_NODE
    nodes[0, N_VISITS] = 0
    nodes[0, N_AVAILABLE] = 0
    nodes[0, N_TEAM] = team
    work.size[0] = 1
    if params[P_RACE] > 0.0:
        return raced(leaf, tb, cfg, st, work, seat, team, params, base, moves, k, iterations)
    for i in range(iterations):
        iterate(leaf, tb, cfg, st, work, seat, team, params, base, i, NO_NODE)
    best, best_visits, best_mean = first, -1, 0.0
    child = nodes[0, N_CHILD]
    while child != NO_NODE:
        visits = nodes[child, N_VISITS]
        mean = work.reward[child] / max(visits, 1)
        if visits > best_visits or (visits == best_visits and mean > best_mean):
            best, best_visits, best_mean = nodes[child, N_MOVE], visits, mean
        child = nodes[child, N_SIBLING]
    return best // 128, best % 128


@kernel
def raced(leaf, tb, cfg, st, work, seat, team, params, base, moves, k, iterations):
    """race > 0: the root candidates compared on the same deals, as the lookahead does.

    Deal i is searched once below every candidate still in the race (each walk one of the
    `iterations`); the score differences from greedy's first choice on the same deal are
    summed; after every BATCH deals a challenger whose mean difference is `race` standard
    errors or more below zero is dropped. The first choice is left only for the challenger
    with the largest mean gain, and only when that gain exceeds `margin` standard errors.
    """
    acc = st.fscratch  # the race's sums (rollouts.race_start)
    racing = st.scratch[MAX_WIDTH : 2 * MAX_WIDTH]
    children = st.scratch[2 * MAX_WIDTH : 3 * MAX_WIDTH]
    race_start(acc, racing, k)
    for j in range(k):
        children[j] = add_child(work, 0, moves[j], team)
    left = k - 1
    race, margin = params[P_RACE], params[P_MARGIN]
    walks, deals = 0, 0
    while walks < iterations and left > 0:
        first = iterate(leaf, tb, cfg, st, work, seat, team, params, base, deals, children[0])
        walks += 1
        for j in range(1, k):
            if racing[j] == 1:
                race_add(acc, j, iterate(leaf, tb, cfg, st, work, seat, team, params, base, deals, children[j]) - first)
                walks += 1
        deals += 1
        if deals % BATCH == 0:
            left -= race_drop(acc, racing, k, deals, race)
    chosen = race_winner(acc, racing, k, deals, margin)
    return moves[chosen] // 128, moves[chosen] % 128


ISMCTS, ISMCTS_RICH = 3, 6


class Ismcts(NamedTuple):
    """ismcts's mark in a player set."""


class IsmctsRich(NamedTuple):
    """ismcts-rich's mark in a player set."""


@inline_kernel
def play_ismcts(tb, cfg, st, sim, seat, team, params):
    """ismcts's (card, cell); sim: the SearchWork of the line-up."""
    return search_action(FittedLeaf(), tb, cfg, st, sim, seat, team, params)


@inline_kernel
def play_ismcts_rich(tb, cfg, st, sim, seat, team, params):
    """ismcts-rich's (card, cell); sim: the SearchWork of the line-up."""
    return search_action(RichLeaf(), tb, cfg, st, sim, seat, team, params)


def arena(rows) -> int:
    """The search nodes of the spare arrays of seats with these parameter rows: a node per walk, the root
    and its children."""
    return int(np.asarray(rows)[..., P_ITERATIONS].max(initial=0)) + 2 + MAX_WIDTH


SEARCH_DEFAULTS = {
    "iterations": 1000.0,
    "width": 4.0,
    "reply": 4.0,
    "explore": 0.5,
    "horizon": 2.0,
    "cheat": 0.0,
    "race": 1.0,
    "margin": 0.5,
}  # in the order of P_ITERATIONS..P_MARGIN
SEARCH_LIMITS = {
    "iterations": (0, MAX_ITERATIONS, True),
    "width": (1, MAX_WIDTH, True),
    "reply": (1, MAX_WIDTH, True),
    "explore": (0, math.inf, False),
    "horizon": (0, 10_000, True),
    "cheat": (0, 2, True),
    "race": (0, math.inf, False),
    "margin": (0, math.inf, False),
}

PLAYERS = (
    Player(
        "ismcts",
        ISMCTS,
        Ismcts,
        play_ismcts,
        "information-set Monte Carlo tree search",
        SEARCHING,
        compile_seconds=36,
        ladder=5,
        params={**SEARCH_DEFAULTS, **VALUE_WEIGHTS["2 teams"], **OWN_WEIGHTS, **OPPONENT_DEFAULTS},
        limits=SEARCH_LIMITS,
        table_defaults=value_weights,
        research=("cheat",),
        arena=arena,
    ),
    Player(
        "ismcts-rich",
        ISMCTS_RICH,
        IsmctsRich,
        play_ismcts_rich,
        "the tree search with swift's value at its leaves (two teams); the highest skill rating, ismcts "
        "within its interval",
        SEARCHING,
        compile_seconds=38,
        ladder=6,
        params={**SEARCH_DEFAULTS, **RICH_WEIGHTS["2 teams"], **OWN_WEIGHTS, **OPPONENT_DEFAULTS},
        limits=SEARCH_LIMITS,
        table_defaults=rich_weights,
        tables=TWO_TEAM_TABLES,
        instead="ismcts (the same search on the lookahead's value)",
        research=("cheat",),
        arena=arena,
    ),
)
