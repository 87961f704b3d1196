"""The one dispatcher: every declared player, the player sets, and the overloads of kernels.core.decide.

``PLAYERS`` are the entries (kernels.players.player.Player) of every module
of this package, in id order; ``player_set`` gives a line-up its set, and
``workspace`` makes the spare arrays its players play ahead on.

Two kinds of player set (``kernels.core.decide``):

- ``Decisions``, the set of every line-up beyond random alone: one tuple, indexed by kernel id, of
  each player's decision compiled once as a function of its own (``Decision``). The turn calls
  random directly and the others through their pointer, so the game loop is compiled once for
  every such line-up, and a new line-up of players already compiled compiles nothing.
- ``PlayerSet(held)``, a tuple of marks: ``choose_action`` is the chain
  ``if policy == id: return action(...)`` over the players it holds, written from their entries
  when a caller is compiled (``chain_of``), then random's move, all inlined by LLVM. Random alone
  plays in ``PlayerSet(())``; the rollouts play greedy in ``UP_TO_GREEDY``.

``counts_lines`` is whether the set holds a player other than random.

This module is imported by ``simkit.kernels`` itself, so the overloads are
registered before anything compiles, whichever kernel a caller imports.
"""

import functools
import importlib
import pkgutil
import warnings
from typing import NamedTuple

import numpy as np
from numba import typeof, types
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.core.registry import CPUDispatcher
from numba.extending import overload

from ..core.config import new_config
from ..core.decide import PlayerSet, choose_action, counts_lines
from ..core.jit import INLINE_OPTIONS, kernel, twin
from ..core.record import new_record
from ..core.state import new_state
from ..core.tables import TABLES
from .player import Player
from .random_player import RANDOM
from .search import new_work


def declared() -> tuple[Player, ...]:
    """Every module's PLAYERS in this package, in id order (declaration order within an id)."""
    package = importlib.import_module(__package__)
    found = []
    for module in sorted(m.name for m in pkgutil.iter_modules(package.__path__)):
        found += getattr(importlib.import_module(f"{__package__}.{module}"), "PLAYERS", ())
    return tuple(sorted(found, key=lambda p: p.id))


PLAYERS = declared()
BY_MARK: dict[type, Player] = {}  # a mark -> the first player declared with it (players sharing a kernel share it)
for _player in PLAYERS:
    if _player.mark is not None:
        BY_MARK.setdefault(_player.mark, _player)
BY_ID: dict[int, Player] = {}  # kernel id -> the first player declared with it
for _player in PLAYERS:
    BY_ID.setdefault(_player.id, _player)
FALLBACK = BY_ID[RANDOM]  # random, in every set
assert sorted(BY_ID) == list(range(len(BY_ID))), "kernel ids run 0, 1, 2, ... (a Decisions tuple is indexed by id)"


# numba calls first-class functions experimental; the games they play are checked against the inlined
# chain (tests/test_player_sets.py), so the warning would only alarm whoever compiles.
warnings.filterwarnings("ignore", "First-class function type feature is experimental", NumbaExperimentalFeatureWarning)

# The rough first compile of the Decisions game loop on two cores, with random's decision (each other
# player's decision: its Player.compile_seconds), for the compile notice (docs/research.md).
DECISIONS_LOOP_SECONDS = 8


class Decisions(NamedTuple):
    """The player set of every line-up beyond random alone: by_id[i] is kernel id i's decision as a
    first-class function (``Decision``), random's where the line-up holds no player of that id.

    Its type is the same for every line-up, so the game loop is compiled once for them all, and each
    player's decision once, as a function of its own that the turn calls through a pointer: a new
    line-up of players already compiled compiles nothing."""

    by_id: tuple


class Decision(CPUDispatcher):
    """A player's decision (``Player.action``) in a dispatcher of its own, typed as a first-class function
    of ``decision_type()``: passed to a kernel, it is the address of its machine code for that signature
    (compiled, or loaded from numba's cache, on first use)."""

    @property
    def _numba_type_(self):
        return decision_type()


@functools.cache
def decision_type() -> types.FunctionType:
    """The type of a decision in a ``Decisions`` tuple: (card, cell) = action(tb, cfg, st, sim, seat, team,
    params), where sim is a ``SearchWork`` (every line-up of a ``Decisions`` set has one) and params
    is a C-contiguous row."""
    signature = types.UniTuple(types.int64, 2)(
        typeof(new_record(TABLES)),
        typeof(new_config()),
        typeof(new_state()),
        typeof(new_work(2)),
        types.int64,
        types.int64,
        types.float64[::1],
    )
    return types.FunctionType(signature)


@functools.cache
def decision(kernel_id: int) -> Decision:
    """The decision of kernel id `kernel_id` as a first-class function: its player's action compiled once,
    as a function of its own (a twin of ``Player.action``, cached under the name decide_<player>)."""
    player = BY_ID[kernel_id]
    compiled = kernel(twin(player.action, f"decide_{player.name.replace('-', '_')}"))
    compiled.__class__ = Decision  # the dispatcher `kernel` made (its options, its cache), typed as a Decision
    return compiled


def player_set(ids) -> PlayerSet | Decisions:
    """The player set of a line-up of these player ids: random's own set when every id is random's, else
    ``Decisions``, the one set of every other line-up."""
    held = {int(i) for i in ids}
    unknown = held - set(BY_ID)
    if unknown:
        raise ValueError(f"unknown player ids {sorted(unknown)}; declared: {sorted(BY_ID)}")
    if held <= {FALLBACK.id}:
        return PlayerSet(())
    return Decisions(tuple(decision(i if i in held else RANDOM) for i in range(len(BY_ID))))


def workspace_nodes(ids, params) -> int:
    """The search nodes of the line-up's spare arrays (``workspace``): the largest search of its seats,
    0 where none searches.

    ids: (..., players) player ids; params: (..., players, P) their parameter rows."""
    ids, params = np.asarray(ids), np.asarray(params)
    return max(
        (p.arena(params[ids == p.id]) for p in PLAYERS if p.arena is not None and (ids == p.id).any()), default=0
    )


def workspace(policies, ids, params):
    """The spare arrays the players of a line-up play ahead on (made in Python: kernels never allocate):
    for a ``Decisions`` set a ``kernels.players.search.SearchWork`` whose arena holds the largest search
    of the line-up, for random alone a State (``kernels.core.state.new_state``)."""
    if isinstance(policies, Decisions):
        return new_work(workspace_nodes(ids, params))
    return new_state()


@functools.cache
def chain_of(marks: tuple[type, ...]):
    """The flat chain of a set holding the players of `marks`: ``if policy == id: return action(...)``
    per player, in id order, then random's move. Written out as source, as one function: compiled once
    per set and inlined by LLVM into the turn (an overload calling itself once per player would nest as
    many functions)."""
    players = [BY_MARK[mark] for mark in marks]
    scope = {f"play_{p.id}": p.action for p in players} | {"play_random": FALLBACK.action}
    lines = ["def chain(policies, policy, params, tb, cfg, st, sim, seat, team):"]
    for p in players:
        lines += [
            f"    if policy == {p.id}:  # {p.name}",
            f"        return play_{p.id}(tb, cfg, st, sim, seat, team, params)",
        ]
    lines.append("    return play_random(tb, cfg, st, sim, seat, team, params)")
    exec(
        compile("\n".join(lines), f"<choose_action of {', '.join(p.name for p in players) or 'random'}>", "exec"), scope
    )
    return scope["chain"]


@overload(choose_action, jit_options=INLINE_OPTIONS)
def _choose_action(policies, policy, params, tb, cfg, st, sim, seat, team):
    """Typing of choose_action: for ``Decisions``, random's move or the decision of the policy's id through
    its pointer; for a ``PlayerSet``, the branches of the players it holds, no others."""
    if policies.instance_class is Decisions:
        play_random = FALLBACK.action

        def through_pointer(policies, policy, params, tb, cfg, st, sim, seat, team):
            if policy == RANDOM:
                return play_random(tb, cfg, st, sim, seat, team, params)
            return policies.by_id[policy](tb, cfg, st, sim, seat, team, params)

        return through_pointer
    held = policies.types[policies.fields.index("held")]  # the type of the set's `held`: a tuple of marks
    return chain_of(tuple(mark.instance_class for mark in held))


@overload(counts_lines, jit_options=INLINE_OPTIONS)
def _counts_lines(policies):
    """A constant of the compiled code: False for a set of random alone, True for the others.

    Not inline="always": inlined at numba's IR level, numba 0.68 silently dropped the
    placement's effects under random play (no chip reached the board); inlined by LLVM,
    the constant is folded and the branch not taken pruned.
    """
    counted = policies.instance_class is Decisions or len(policies.types[policies.fields.index("held")]) > 0

    def impl(policies):
        return counted

    return impl


@kernel
def decide(policies, policy, params, tb, cfg, st, sim, seat, team):
    """choose_action, callable from Python (tests, benchmarks)."""
    return choose_action(policies, policy, params, tb, cfg, st, sim, seat, team)
