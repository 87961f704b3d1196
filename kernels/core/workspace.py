"""The players' spare arrays: a State to play ahead on, and the arena of a tree search.

Every decision receives a ``Workspace`` (made in Python by ``new_workspace``, one per thread: kernels
never allocate). Players that play ahead deal and play on ``work.sim``; a tree search keeps its tree
in ``work.nodes`` (``kernels.players.search``). A line-up whose players search nothing gets an arena of
two nodes.
"""

from typing import NamedTuple

import numpy as np

from .config import MAX_TEAMS
from .record import cache_lines_apart, record_dtype
from .state import new_state

# One node of a search tree: its move (card * 128 + cell, or a pass), its first child and next sibling
# (-1: none), its visits, how often it was available, the team that made the move, and the sum of that
# team's scores over its visits.
NODE = record_dtype(
    (
        ("move", np.int64, ()),
        ("child", np.int64, ()),
        ("sibling", np.int64, ()),
        ("visits", np.int64, ()),
        ("available", np.int64, ()),
        ("team", np.int64, ()),
        ("reward", np.float64, ()),
    ),
    packed=True,
)
MAX_PATH = 50  # nodes on one walk of a search, the root included


class Workspace(NamedTuple):
    """The spare arrays of one thread's games.

    sim:   a State to play ahead on (kernels.core.state).
    nodes: (N,) NODE records, a search tree's arena (node 0 its root).
    path:  (MAX_PATH,) int64, the nodes of the walk in play.
    value: (MAX_TEAMS,) float64, each team's score of a walk's end.
    size:  (1,) int64, the nodes in use.
    """

    sim: np.record
    nodes: np.ndarray
    path: np.ndarray
    value: np.ndarray
    size: np.ndarray


def new_workspace(nodes: int) -> Workspace:
    """Fresh spare arrays with an arena of `nodes` nodes (at least 2; plain Python: kernels never allocate)."""
    return Workspace(
        new_state(),
        *cache_lines_apart(
            [
                np.zeros(max(int(nodes), 2), NODE),
                np.zeros(MAX_PATH, np.int64),
                np.zeros(MAX_TEAMS, np.float64),
                np.zeros(1, np.int64),
            ]
        ),
    )
