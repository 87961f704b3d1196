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
  scored for every team by the value of the search's ``leaf`` (``kernels.values.leaves``):
  ``FITTED`` (ismcts) by the fitted value of ``kernels.values.evaluation`` (a
  softmax of the teams' weighted features), ``RICH`` (ismcts-rich,
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

Memory: the tree lives in the arena of the spare arrays (``kernels.core.workspace``),
made in Python, one per thread (kernels never allocate). An iteration adds at most one node; when
the arena is full the walk stops adding and scores the move it would have
added.

Its row (``search_layout``): its own greedy block, ``SEARCH`` (iterations, width, reply, explore,
horizon, cheat, race, margin), the opponents' greedy block (``opponent_*``), its leaf (the value its
playouts' ends are scored by: ``kernels.values.leaves``) and that value's weights, last; the kernels
read it by name through ``SEARCH_ROW``.
"""

import numpy as np

from ..core.jit import inline_kernel, kernel
from ..core.params import SEAT, Block, Layout, Param
from ..core.rng import next_u64, seed_stream, shuffle_front
from ..core.state import copy_board, copy_counters
from ..core.tables import N_CODES
from ..core.turn import PASSED, WON, begin_turn, next_seat, play_move
from ..core.workspace import MAX_PATH
from ..values.evaluation import features, team_score
from ..values.leaves import FITTED, FITTED_VALUE, LEAF, RICH, RICH_VALUE, leaf_chance
from ..values.weights import rich_weights, value_weights
from .greedy import GREEDY, GREEDY_ID, greedy_turn, score_actions
from .lookahead import OWN
from .player import SEARCHING, TWO_TEAM_TABLES, Player
from .rollouts import BATCH, MAX_SHORTLIST, determinise, race_add, race_drop, race_start, race_winner, shortlist

CHEAT_HANDS = 2.0  # cheat=2: the hands seen, not the deck's order (cheat=1: both)
MAX_WIDTH = MAX_SHORTLIST
MAX_ITERATIONS = 1_000_000
MAX_DEPTH = MAX_PATH - 2  # plies below the root; a walk stops adding nodes there

SEARCH = Block(
    "search",
    (
        Param("iterations", 1000.0, "walks of the tree", 0, MAX_ITERATIONS, whole=True),
        Param(
            "width",
            4.0,
            "the searching team's candidates at a node: its greedy best this many",
            1,
            MAX_WIDTH,
            whole=True,
        ),
        Param("reply", 4.0, "the other teams' candidates at a node", 1, MAX_WIDTH, whole=True),
        Param("explore", 0.5, "UCB1's weight of exploring", 0),
        Param("horizon", 2.0, "plies of greedy play after a walk before its position is scored", 0, 10_000, whole=True),
        Param(
            "cheat",
            0.0,
            "1: every deal copied from the real game (hands and pile seen); 2: the hands seen, the pile re-dealt",
            0,
            2,
            whole=True,
            research=True,
        ),
        Param("race", 1.0, "standard errors below greedy's choice that drop a root candidate; 0: no race", 0),
        Param("margin", 0.5, "standard errors by which a challenger must beat greedy's choice", 0),
    ),
)


def search_layout(leaf: int, value: Block) -> Layout:
    """The row of a tree search whose playouts' ends are scored by the value `leaf` (its weights `value`)."""
    return Layout.of(
        ("own", OWN),
        ("search", SEARCH),
        ("opponent", GREEDY, "opponent_"),
        ("leaf", LEAF.fixed(leaf=leaf)),
        ("value", value),
    )


SEARCH_ROW = search_layout(FITTED, Block("value", ())).at  # its offsets by name, the same for either value


NO_NODE = -1
PASS_MOVE = -128  # a pass, as play_move takes it: card -1 (-128 // 128)


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
    for i in range(st.ctr.pile_n):
        sim.pile[i] = st.pile[i]
    for i in range(st.ctr.discard_n):
        sim.discard[i] = st.discard[i]
    copy_counters(st, sim)


@kernel
def shuffle_pile(sim):
    """Deal the cards left in sim's draw pile afresh (cheat=2: the hands seen, the deck's order not).

    The cards are first put in code order, so the result depends on which cards are left,
    never on their order. Uses and advances sim.rng; sim.scratch[:N_CODES] as work space."""
    pos, n = sim.ctr.pile_pos, sim.ctr.pile_n
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


@inline_kernel
def leaf_values(leaf, tb, cfg, sim, mover, vweights, value):
    """Every team's chance to win by the value `leaf` (FITTED or RICH) into value; `mover` moves next.
    RICH (two teams: its player refuses three) scores the chance of the team of the seat that played last,
    as that seat sees the deal, and its complement."""
    if leaf == FITTED:
        end_value(tb, cfg, sim, mover, vweights, value)
        return
    players = cfg.players
    t = ((mover + players - 1) % players) % 2
    p = leaf_chance(leaf, tb, cfg, sim, mover, t, -1, vweights)
    value[t] = p
    value[1 - t] = 1.0 - p


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
        if sim.ctr.turns >= cfg.max_turns:
            score_result(cfg, value, -1)
            return
        weights = gparams if seat_team == team else oparams
        result = greedy_turn(tb, cfg, sim, seat, seat_team, weights, GREEDY_ID)
        if result == WON:
            score_result(cfg, value, seat_team)
            return
        if result == PASSED:
            if sim.ctr.pass_run == players:
                score_result(cfg, value, -1)
                return
        seat, seat_team = next_seat(seat, seat_team, players, teams)
    leaf_values(leaf, tb, cfg, sim, seat, vweights, value)


@inline_kernel
def find_child(nodes, node, move):
    """The child of `node` reached by `move`, or NO_NODE."""
    child = nodes[node].child
    while child != NO_NODE:
        if nodes[child].move == move:
            return child
        child = nodes[child].sibling
    return NO_NODE


@inline_kernel
def add_child(work, node, move, team):
    """A new child of `node` for `move` by `team`; NO_NODE when the arena is full."""
    n = work.size[0]
    if n >= work.nodes.shape[0]:
        return NO_NODE
    nodes = work.nodes
    nodes[n].move = move
    nodes[n].child = NO_NODE
    nodes[n].sibling = nodes[node].child
    nodes[n].visits = 0
    nodes[n].available = 1
    nodes[n].team = team
    work.nodes[n].reward = 0.0
    nodes[node].child = n
    work.size[0] = n + 1
    return n


@inline_kernel
def select(work, node, moves, k, explore):
    """(child, index) of the walk's next step among the k candidate moves at `node`.

    Every existing child among the candidates counts one more availability. The first
    candidate without a child comes first: (NO_NODE, its index). Otherwise the child of
    the largest UCB1 score, (child, -1).
    """
    nodes = work.nodes
    new = -1
    best, best_score = NO_NODE, -np.inf
    for i in range(k):
        child = find_child(nodes, node, moves[i])
        if child == NO_NODE:
            if new < 0:
                new = i
            continue
        nodes[child].available += 1
        visits = nodes[child].visits
        if visits == 0:
            score = np.inf
        else:
            score = nodes[child].reward / visits + explore * np.sqrt(np.log(nodes[child].available) / visits)
        if score > best_score:
            best, best_score = child, score
    if new >= 0:
        return NO_NODE, new
    return best, -1


@kernel
def iterate(tb, cfg, st, work, seat, team, params, base, i, forced):
    """One iteration: deal, walk down (adding at most one node), play out, score, back up.

    forced: the root child the walk starts with (NO_NODE: chosen as at any node). Returns
    the score of the searching team."""
    sim = work.sim
    seed_stream(sim.rng, base, i)
    if params[SEARCH_ROW.cheat] != 0.0:
        reveal(st, sim)
        if params[SEARCH_ROW.cheat] == CHEAT_HANDS:
            shuffle_pile(sim)
    else:
        determinise(st, sim, seat, np.int64(-1))  # int64: one compile of determinise
    players, teams = cfg.players, cfg.teams
    gparams = params[SEARCH_ROW.own : SEARCH_ROW.search]
    oparams = params[SEARCH_ROW.opponent : SEARCH_ROW.leaf]
    leaf, vweights = int(params[SEARCH_ROW.leaf]), params[SEARCH_ROW.value :]
    width = min(max(int(params[SEARCH_ROW.width]), 1), MAX_WIDTH)
    reply = min(max(int(params[SEARCH_ROW.reply]), 1), MAX_WIDTH)
    explore = params[SEARCH_ROW.explore]
    nodes, path = work.nodes, work.path
    node, depth = 0, 0
    path[0] = 0
    s, t = seat, team
    winner = -2  # -2: the game goes on; -1: a draw; else the winning team
    while True:
        if sim.ctr.turns >= cfg.max_turns:
            winner = -1
            break
        if depth >= MAX_DEPTH:
            break
        weights = gparams if t == team else oparams
        # the dead-card swap, as the seat's restrictions allow (the root's: the real turn's)
        begin_turn(tb, cfg, sim, s, (depth > 0) & (weights[SEAT.dead_swap] == 0.0))
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
            move = nodes[child].move
        result = play_move(tb, cfg, sim, s, t, move)
        if child != NO_NODE:
            depth += 1
            path[depth] = child
            node = child
        if result == WON:
            winner = t
            break
        if result == PASSED:
            if sim.ctr.pass_run == players:
                winner = -1
                break
        s, t = next_seat(s, t, players, teams)
        if added:
            break
    value = work.value
    if winner == -2:
        playout(leaf, tb, cfg, sim, s, team, gparams, oparams, int(params[SEARCH_ROW.horizon]), vweights, value)
    else:
        score_result(cfg, value, winner)
    nodes[0].visits += 1
    for d in range(1, depth + 1):
        c = path[d]
        nodes[c].visits += 1
        nodes[c].reward += value[nodes[c].team]
    return value[team]


@kernel
def wins_now(tb, cfg, st, work, seat, team, move, gparams):
    """Whether `move` wins the game at once (a win depends on the board alone)."""
    sim = work.sim
    determinise(st, sim, seat, np.int64(1))
    return play_move(tb, cfg, sim, seat, team, move) == WON


@kernel
def search_action(tb, cfg, st, work, seat, team, params):
    """The most visited root move after the search (see the module doc) as (card, cell); (-1, -1) to pass.
    params: the player's row (``search_layout``)."""
    gparams = params[SEARCH_ROW.own : SEARCH_ROW.search]
    moves, scores = st.scratch, st.fscores
    n = score_actions(tb, cfg, st, seat, team, gparams, moves, scores)
    if n == 0:
        return -1, -1
    width = min(max(int(params[SEARCH_ROW.width]), 1), MAX_WIDTH)
    k = shortlist(moves, scores, n, width)
    iterations = min(int(params[SEARCH_ROW.iterations]), MAX_ITERATIONS)
    first = moves[0]
    if k == 1 or iterations < 1:
        return first // 128, first % 128
    base = next_u64(st.rng)
    work.sim.rng[0] = base
    if wins_now(tb, cfg, st, work, seat, team, first, gparams):
        return first // 128, first % 128
    nodes = work.nodes
    nodes[0].move = PASS_MOVE
    nodes[0].child = NO_NODE
    nodes[0].sibling = NO_NODE
    nodes[0].visits = 0
    nodes[0].available = 0
    nodes[0].team = team
    work.size[0] = 1
    if params[SEARCH_ROW.race] > 0.0:
        return raced(tb, cfg, st, work, seat, team, params, base, moves, k, iterations)
    for i in range(iterations):
        iterate(tb, cfg, st, work, seat, team, params, base, i, NO_NODE)
    best, best_visits, best_mean = first, -1, 0.0
    child = nodes[0].child
    while child != NO_NODE:
        visits = nodes[child].visits
        mean = work.nodes[child].reward / max(visits, 1)
        if visits > best_visits or (visits == best_visits and mean > best_mean):
            best, best_visits, best_mean = nodes[child].move, visits, mean
        child = nodes[child].sibling
    return best // 128, best % 128


@kernel
def raced(tb, cfg, st, work, seat, team, params, base, moves, k, iterations):
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
    race, margin = params[SEARCH_ROW.race], params[SEARCH_ROW.margin]
    walks, deals = 0, 0
    while walks < iterations and left > 0:
        first = iterate(tb, cfg, st, work, seat, team, params, base, deals, children[0])
        walks += 1
        for j in range(1, k):
            if racing[j] == 1:
                race_add(acc, j, iterate(tb, cfg, st, work, seat, team, params, base, deals, children[j]) - first)
                walks += 1
        deals += 1
        if deals % BATCH == 0:
            left -= race_drop(acc, racing, k, deals, race)
    chosen = race_winner(acc, racing, k, deals, margin)
    return moves[chosen] // 128, moves[chosen] % 128


ISMCTS, ISMCTS_RICH = 3, 6


def arena(rows) -> int:
    """The search nodes of the spare arrays of seats with these parameter rows: a node per walk, the root
    and its children."""
    return int(np.asarray(rows)[..., SEARCH_ROW.iterations].max(initial=0)) + 2 + MAX_WIDTH


PLAYERS = (
    Player(
        "ismcts",
        ISMCTS,
        search_action,
        "information-set Monte Carlo tree search",
        SEARCHING,
        search_layout(FITTED, FITTED_VALUE),
        table_defaults=value_weights,
        arena=arena,
    ),
    Player(
        "ismcts-rich",
        ISMCTS_RICH,
        search_action,
        "the tree search with swift's value at its leaves (two teams); the highest skill rating, ismcts "
        "within its interval",
        SEARCHING,
        search_layout(RICH, RICH_VALUE),
        table_defaults=rich_weights,
        tables=TWO_TEAM_TABLES,
        instead="ismcts (the same search on the lookahead's value)",
        arena=arena,
    ),
)
