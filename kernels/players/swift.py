"""Swift: the race of kernels.players.rollouts over a short shortlist, its leaves scored by the value of
hand and board (kernels.values.rich), fitted for each table shape (and for each table of 8 or more
players: kernels.values.weights.rich_weights).

Its parameters are laid out as the rollouts read them with RichLeaf's value weights, then ``gap``,
``batch``, ``view`` and ``removals`` (kernels.players.rollouts's module doc says what each does).
Some settings differ by table shape (SETTINGS below, each the best measured in docs/research.md):
with one player per team and at every three-team table, candidates within 16 of greedy's choice are
searched and the other teams' replies are played by the lookahead's own greedy weights; with partners
at two teams, every candidate is searched and the default greedy's replies are played. The leaves are
scored as the searching seat sees the deal, except with one player per team at two teams (there the
same games either way). At 12p/3t swift searches longer and wider (OWN_SETTINGS).
"""

import math
from typing import NamedTuple

from ..core.decide import state_of
from ..core.jit import inline_kernel
from ..values.leaves import RichLeaf
from ..values.weights import RICH_WEIGHTS, rich_weights, table_shape
from .greedy import DEFAULTS as GREEDY_DEFAULTS
from .lookahead import OPPONENT_DEFAULTS, OWN_WEIGHTS, RACE_LIMITS
from .player import HEAVY, Player
from .rollouts import raced_action

SWIFT = 5


class Swift(NamedTuple):
    """Swift's mark in a player set."""


@inline_kernel
def play_swift(tb, cfg, st, sim, seat, team, params):
    """Swift's (card, cell) on the State of the spare arrays `sim`."""
    return raced_action(RichLeaf(), tb, cfg, st, state_of(sim), seat, team, params)


# The settings that differ by table shape, over the base parameters below.
SETTINGS: dict[str, dict[str, float]] = {
    "2 teams": {"gap": 16.0, **{f"opponent_{k}": v for k, v in OWN_WEIGHTS.items()}, "view": 0.0},
    "2 teams, partners": {"gap": 0.0, **OPPONENT_DEFAULTS, "view": 1.0},
    "3 teams": {"gap": 16.0, **{f"opponent_{k}": v for k, v in OWN_WEIGHTS.items()}, "view": 1.0},
    "3 teams, partners": {"gap": 16.0, **{f"opponent_{k}": v for k, v in OWN_WEIGHTS.items()}, "view": 1.0},
}


# The settings of a table of its own, over its shape's: at 12p/3t a longer, wider search (4 plies, 20
# deals, a look at the race every 4) takes swift from 29.9% to 32.8% of an even 33.3% against the
# lookahead (docs/research.md).
OWN_SETTINGS: dict[tuple[int, int], dict[str, float]] = {(12, 3): {"horizon": 4.0, "rollouts": 20.0, "batch": 4.0}}


def table_defaults(players: int, teams: int) -> dict[str, float]:
    """Swift's value weights and settings at a table of `players` in `teams`."""
    return {
        **rich_weights(players, teams),
        **SETTINGS[table_shape(players, teams)],
        **OWN_SETTINGS.get((players, teams), {}),
    }


# The race over three candidates on up to 10 deals of 2 plies, a look at the race every 2 deals; a
# decision whose greedy best four hold a one-eyed Jack searches all four (removals).
_TWO = SETTINGS["2 teams"]
PLAYERS = (
    Player(
        "swift",
        SWIFT,
        Swift,
        play_swift,
        "the fast strong player: a short race over greedy's best three, on a value of hand and board",
        HEAVY,
        compile_seconds=29,
        ladder=3,
        params={
            "rollouts": 10.0,
            "shortlist": 3.0,
            "margin": 0.5,
            "playout": 0.0,
            "horizon": 2.0,
            "race": 0.5,
            **RICH_WEIGHTS["2 teams"],
            **OWN_WEIGHTS,
            **{f"opponent_{k}": _TWO[f"opponent_{k}"] for k in GREEDY_DEFAULTS},
            "gap": _TWO["gap"],
            "batch": 2.0,
            "view": _TWO["view"],
            "removals": 4.0,
        },
        limits={
            **RACE_LIMITS,
            "gap": (0, math.inf, False),
            "batch": (1, 1_000_000, True),
            "view": (0, 1, True),
            "removals": (0, 16, True),
        },
        table_defaults=table_defaults,
        tables=tuple(SETTINGS),
        instead="the lookahead",
    ),
)
