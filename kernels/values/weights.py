"""The fitted weights of the values, by name and by table shape (data only).

A table shape is its teams, with or without partners (``table_shape``):
each value is fitted on games of each shape it plays. The kernels read the
weights by position from a player's parameter row; these names are the
parameter names a line-up spec uses (``value_*``).
"""

from .rich_extras import EXTRAS


def table_shape(players: int, teams: int) -> str:
    """The table shape whose value weights a player uses: teams, and partners or not."""
    return f"{teams} teams" + (", partners" if players > teams else "")


# The fitted value (kernels/values/evaluation.py): the weight of being the team to move, then one
# weight per feature; order matters, the kernel reads them by position. One set per table shape,
# fitted by benchmarks/fit_value.py on greedy games of that shape.
VALUE_NAMES = (
    "value_move", "value_sequences", "value_fours", "value_held_fours", "value_threes", "value_twos",
    "value_two_eyed", "value_one_eyed", "value_held_threes", "value_completable_fours",
    "value_sequence_and_four", "value_four_cells", "value_ones",
)
VALUE_WEIGHTS: dict[str, dict[str, float]] = {
    table: dict(zip(VALUE_NAMES, weights)) for table, weights in {
        # python benchmarks/fit_value.py [--players P --teams T]: 40,000 games each, seed 777
        "2 teams": (0.165, 1.055, 0.068, 0.142, 0.054, 0.035, 0.647, 0.314, 0.192, 0.201, 0.301, 0.159, 0.013),
        "2 teams, partners": (0.190, 1.143, 0.011, 0.167, 0.040, 0.036, 0.603, 0.278, 0.187, 0.229, 0.192, 0.194,
                              0.013),  # fitted with 4 players
        "3 teams": (0.159, 0.000, 0.006, 0.909, 0.091, 0.040, 0.584, 0.273, 0.334, 1.210, 0.000, 0.516, 0.013),
        "3 teams, partners": (0.162, 0.000, -0.094, 0.708, 0.047, 0.041, 0.580, 0.189, 0.316, 0.980, 0.000, 0.420,
                              0.012),  # fitted with 6 players
    }.items()
}

# The value of hand and board (kernels/values/rich.py): a weight per feature of the seat's team, per
# feature of the other team, per extra, then the intercept; order matters, the kernel reads them by
# position. One set per two-team table shape, fitted by benchmarks/rich_value.py on 20,000 lookahead
# games of that shape (seed 2026), rounded to four decimals.
_FEATURE_NAMES = [name.removeprefix("value_") for name in VALUE_NAMES[1:]]
RICH_NAMES = (
    *(f"value_own_{n}" for n in _FEATURE_NAMES), *(f"value_other_{n}" for n in _FEATURE_NAMES),
    *(f"value_{name}" for name, _ in EXTRAS), "value_intercept",
)
RICH_WEIGHTS: dict[str, dict[str, float]] = {
    table: dict(zip(RICH_NAMES, weights, strict=True)) for table, weights in {
        # python benchmarks/rich_value.py --games 20000: held-out log-loss 0.6135 (fair features alone 0.6179)
        "2 teams": (
            1.7373, 0.0944, -0.0353, 0.3649, 0.0044, 0.5876, 0.4334, -0.2215, 0.2188, 0.3061, 0.1758, 0.0039,
            -1.3233, -0.0420, -0.6428, -0.0462, -0.0217, -1.2685, -0.7719, -0.2636, 0.3600, -0.2568, -0.2075,
            -0.0097, 0.0006, 0.0163, 0.1156, -0.3101, 0.0405, 0.4382, -0.0272, 0.0450, 0.1148, 0.0198, 0.0068,
            0.0692, -0.1345, 0.0312, 0.9376, -0.2552, 0.0983, 0.0416, 0.2027, 0.0918, 0.0220, 0.0147, -0.3500,
            0.1836, -0.0124, 0.0156, -0.4599),
        # --players 4 --games 20000: held-out log-loss 0.6225 (fair features alone 0.6266)
        "2 teams, partners": (
            1.4417, -0.0531, 0.0160, 0.3060, 0.0067, 0.4885, 0.3741, -0.0073, 0.2747, 0.2489, 0.1702, 0.0038,
            -1.6114, -0.1184, -0.3350, -0.0447, -0.0230, -1.3226, -0.4105, -0.2316, 0.2665, -0.2061, -0.2398,
            -0.0080, 0.0023, 0.0260, 0.0970, -0.2266, -0.1038, 0.0478, -0.0395, 0.0617, 0.0901, 0.0217, 0.0509,
            0.0687, -0.2406, 0.0350, -0.1713, -0.0215, 0.2861, 0.0342, -0.0633, -0.1129, 0.0283, 0.0200, -0.2969,
            0.2101, -0.0181, 0.0207, 0.5583),  # fitted with 4 players
    }.items()
}
