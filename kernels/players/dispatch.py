"""The one dispatcher: every declared player, the player sets, and the overloads of kernels.core.decide.

``PLAYERS`` are the entries (kernels.players.player.Player) of every module
of this package, in id order; ``player_set`` picks the smallest set holding
a line-up's ids, and ``workspace`` makes the spare arrays its players play
ahead on. The overloads below implement core's stubs for a set's type:
``choose_action`` is the chain ``if policy == id: return action(...)`` over
the players the set holds, written from their entries when a caller is
compiled (``chain_of``), and random's move when no id matches (random is
in every set);
``counts_lines`` is whether the set holds a player other than random.

This module is imported by ``simkit.kernels`` itself, so the overloads are
registered before anything compiles, whichever kernel a caller imports.
"""

import functools
import importlib
import os
import pkgutil

import numpy as np
from numba.extending import overload

from ..core.decide import PlayerSet, choose_action, counts_lines
from ..core.jit import INLINE_OPTIONS, kernel
from ..core.state import new_state
from .greedy import GREEDY
from .player import Player
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
MARKS = {p.id: p.mark for p in PLAYERS}  # kernel id -> its mark (None: random)
FALLBACK = next(p for p in PLAYERS if p.mark is None)  # random, in every set


# The kernels of the reference players (random, greedy, the lookahead): their line-ups always get their
# own small sets. With SIMKIT_ONE_STRONG_SET=1 in the environment (the test suite, tests/conftest.py),
# every other line-up gets the one set holding every player: one compile instead of one per combination
# of players (a game does not depend on the set it was compiled in: tests/test_player_sets.py).
REFERENCE_IDS = {p.id for p in PLAYERS if p.name in ("random", "greedy", "lookahead")}
ONE_STRONG_SET = "SIMKIT_ONE_STRONG_SET"


def player_set(ids) -> PlayerSet:
    """The smallest player set holding every player id in `ids`: the marks of its players, in id order.

    Every set beyond random's holds greedy, the rollouts' player that every stronger player compiles
    anyway: "lookahead" and "lookahead,greedy" share one compiled set. Under SIMKIT_ONE_STRONG_SET=1,
    a line-up with a player beyond the reference players gets the set holding every player."""
    held = {int(i) for i in ids}
    unknown = held - set(MARKS)
    if unknown:
        raise ValueError(f"unknown player ids {sorted(unknown)}; declared: {sorted(MARKS)}")
    if held - REFERENCE_IDS and os.environ.get(ONE_STRONG_SET) == "1":
        held = set(MARKS)
    if held - {FALLBACK.id}:
        held.add(GREEDY)
    return PlayerSet(tuple(MARKS[i]() for i in sorted(held) if MARKS[i] is not None))


def holds(policies: PlayerSet):
    """The entries of the players a player set holds besides random (one per kernel id)."""
    return [BY_MARK[type(mark)] for mark in policies.held]


def workspace_nodes(policies, ids, params) -> int:
    """The search nodes of the line-up's spare arrays (``workspace``): 0 where they are a State.

    ids: (..., players) player ids; params: (..., players, P) their parameter rows."""
    ids, params = np.asarray(ids), np.asarray(params)
    sizes = [p.arena(params[ids == p.id]) for p in holds(policies) if p.arena is not None]
    return max(sizes, default=0)


def workspace(policies, ids, params):
    """The spare arrays the players of a line-up play ahead on (made in Python: kernels never allocate):
    a State (``kernels.core.state.new_state``), or with a tree search in the set a
    ``kernels.players.search.SearchWork`` whose arena holds the largest search of the line-up."""
    nodes = workspace_nodes(policies, ids, params)
    if nodes == 0:
        return new_state()
    return new_work(nodes)


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
    """Typing of choose_action: the branches of the players the set `policies` holds, no others."""
    held = policies.types[policies.fields.index("held")]  # the type of the set's `held`: a tuple of marks
    return chain_of(tuple(mark.instance_class for mark in held))


@overload(counts_lines, jit_options=INLINE_OPTIONS)
def _counts_lines(policies):
    """A constant of the compiled code: False for a set of random alone, True for the others.

    Not inline="always": inlined at numba's IR level, numba 0.68 silently dropped the
    placement's effects under random play (no chip reached the board); inlined by LLVM,
    the constant is folded and the branch not taken pruned.
    """
    counted = len(policies.types[policies.fields.index("held")]) > 0  # the type of the set's `held`

    def impl(policies):
        return counted

    return impl


@kernel
def decide(policies, policy, params, tb, cfg, st, sim, seat, team):
    """choose_action, callable from Python (tests, benchmarks)."""
    return choose_action(policies, policy, params, tb, cfg, st, sim, seat, team)
