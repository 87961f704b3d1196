"""The players of a line-up: every declared player, the decisions a game plays through, its spare arrays.

``PLAYERS`` are the entries (kernels.players.player.Player) of every module of this package, in id
order: a player is a module of its own, found here by reading the package. ``decisions(ids)`` gives a
line-up the tuple the turn calls its players through (kernels.core.turn.decide): entry i is player id
i's decision, random's where the line-up holds no player of that id, each compiled once as a function
of its own (``Decision``) whose type is the same for every player. The game loop is therefore compiled
once for every line-up, each decision once, and a new line-up of players already compiled compiles
nothing. ``workspace`` makes the spare arrays the line-up's players play ahead on.
"""

import functools
import importlib
import pkgutil
import warnings

import numpy as np
from numba import typeof, types
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.core.registry import CPUDispatcher

from ..core.config import new_config
from ..core.jit import kernel, twin
from ..core.params import RESTRICTIONS
from ..core.record import new_record
from ..core.state import new_state
from ..core.tables import TABLES
from ..core.turn import RANDOM
from ..core.workspace import Workspace, new_workspace
from .player import Player


def declared() -> tuple[Player, ...]:
    """Every module's PLAYERS in this package, in id order (declaration order within an id)."""
    package = importlib.import_module(__package__)
    found = []
    for module in sorted(m.name for m in pkgutil.iter_modules(package.__path__)):
        found += getattr(importlib.import_module(f"{__package__}.{module}"), "PLAYERS", ())
    return tuple(sorted(found, key=lambda p: p.id))


PLAYERS = declared()
BY_ID: dict[int, Player] = {}  # kernel id -> the first player declared with it
for _player in PLAYERS:
    BY_ID.setdefault(_player.id, _player)
assert sorted(BY_ID) == list(range(len(BY_ID))), "kernel ids run 0, 1, 2, ... (a decisions tuple is indexed by id)"
assert BY_ID[RANDOM].name == "random", "the turn plays random (kernels.core.turn.RANDOM) directly"
# The width of every parameter row: the widest layout's, and at least the restrictions every row starts with.
ROW_WIDTH = max(RESTRICTIONS.width, *(p.layout.width for p in PLAYERS))

# numba calls first-class functions experimental; the games they play are checked against those of the
# players called directly (tests/test_player_sets.py), so the warning would only alarm whoever compiles.
warnings.filterwarnings("ignore", "First-class function type feature is experimental", NumbaExperimentalFeatureWarning)


class Decision(CPUDispatcher):
    """A player's decision (``Player.action``) in a dispatcher of its own, typed as a first-class function
    of ``decision_type()``: passed to a kernel, it is the address of its machine code for that signature
    (compiled, or loaded from numba's cache, on first use)."""

    @property
    def _numba_type_(self):
        return decision_type()


@functools.cache
def decision_type() -> types.FunctionType:
    """The type of every decision: (card, cell) = action(tb, cfg, st, work, seat, team, params), where work
    is a ``Workspace`` (kernels.core.workspace) and params a C-contiguous float64 row."""
    signature = types.UniTuple(types.int64, 2)(
        typeof(new_record(TABLES)),
        typeof(new_config()),
        typeof(new_state()),
        typeof(new_workspace(2)),
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
    if isinstance(compiled, CPUDispatcher):  # with NUMBA_DISABLE_JIT, a plain function: called as it is
        compiled.__class__ = Decision  # the dispatcher `kernel` made (its options, its cache), typed as a Decision
    return compiled


def decisions(ids) -> tuple | None:
    """The decisions of a line-up of these player ids, indexed by id (random's where it holds none); None
    for a line-up of random alone, whose game loop calls no decision (kernels.core.turn.decide)."""
    held = {int(i) for i in np.ravel(ids)}
    unknown = held - set(BY_ID)
    if unknown:
        raise ValueError(f"unknown player ids {sorted(unknown)}; declared: {sorted(BY_ID)}")
    if held == {RANDOM}:
        return None
    return tuple(decision(i if i in held else RANDOM) for i in range(len(BY_ID)))


def workspace_nodes(ids, params) -> int:
    """The search nodes of the line-up's spare arrays (``workspace``): the largest search of its seats,
    0 where none searches.

    ids: (..., players) player ids; params: (..., players, P) their parameter rows."""
    ids, params = np.asarray(ids), np.asarray(params)
    return max(
        (p.arena(params[ids == p.id]) for p in PLAYERS if p.arena is not None and (ids == p.id).any()), default=0
    )


def workspace(ids, params) -> Workspace:
    """The spare arrays the players of a line-up play ahead on (made in Python: kernels never allocate),
    with an arena for the largest search of the line-up."""
    return new_workspace(workspace_nodes(ids, params))
