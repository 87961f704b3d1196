"""Swift: the race of kernels.players.rollouts over a short shortlist, its leaves scored by the value of
hand and board (kernels.values.rich), fitted for each table shape (and for each table of 8 or more
players: kernels.values.weights.rich_weights).

Its row is the race's (kernels.players.rollouts.race_layout, whose module doc says what each parameter
does) with the value of hand and board's weights. Some settings differ by table shape (BY_SHAPE below,
each the best measured in docs/research.md):
with one player per team and at every three-team table, candidates within 16 of greedy's choice are
searched and the other teams' replies are played by the lookahead's own greedy weights; with partners
at two teams, every candidate is searched and the default greedy's replies are played. The leaves are
scored as the searching seat sees the deal, except with one player per team at two teams (there the
same games either way). At 12p/3t swift searches longer and wider (BY_TABLE).
"""

from ..values.leaves import LEAF, RICH, RICH_VALUE
from ..values.weights import rich_weights, table_shape
from .greedy import GREEDY
from .lookahead import OWN, OWN_WEIGHTS
from .player import HEAVY, Player
from .rollouts import RACE, RICH_RACE, SETTINGS, race_layout

SWIFT = 5


# The opponents as the lookahead's own greedy weights, and as the default greedy's.
_AS_OWN = {f"opponent_{k}": v for k, v in OWN_WEIGHTS.items()}
_AS_GREEDY = {f"opponent_{p.name}": p.default for p in GREEDY.params if p.name in OWN_WEIGHTS}

# The settings that differ by table shape, over the layout's defaults.
BY_SHAPE: dict[str, dict[str, float]] = {
    "2 teams": {"gap": 16.0, **_AS_OWN, "view": 0.0},
    "2 teams, partners": {"gap": 0.0, **_AS_GREEDY, "view": 1.0},
    "3 teams": {"gap": 16.0, **_AS_OWN, "view": 1.0},
    "3 teams, partners": {"gap": 16.0, **_AS_OWN, "view": 1.0},
}


# The settings of a table of its own, over its shape's: at 12p/3t a longer, wider search (4 plies, 20
# deals, a look at the race every 4) takes swift from 29.9% to 32.8% of an even 33.3% against the
# lookahead (docs/research.md).
BY_TABLE: dict[tuple[int, int], dict[str, float]] = {(12, 3): {"horizon": 4.0, "rollouts": 20.0, "batch": 4.0}}


def table_defaults(players: int, teams: int) -> dict[str, float]:
    """Swift's value weights and settings at a table of `players` in `teams`."""
    return {
        **rich_weights(players, teams),
        **BY_SHAPE[table_shape(players, teams)],
        **BY_TABLE.get((players, teams), {}),
    }


# The race over three candidates on up to 10 deals of 2 plies, a look at the race every 2 deals; a
# decision whose greedy best four hold a one-eyed Jack searches all four (removals).
PLAYERS = (
    Player(
        "swift",
        SWIFT,
        RICH_RACE,  # the race, its leaves scored by the value of hand and board
        "the fast strong player: a short race over greedy's best three, on a value of hand and board",
        HEAVY,
        race_layout(OWN, RACE, SETTINGS, LEAF.fixed(leaf=RICH), RICH_VALUE, opponent=OWN),  # the 2p table's
        table_defaults=table_defaults,
        tables=tuple(BY_SHAPE),
        instead="the lookahead",
    ),
)
