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
# position. One set per table shape, fitted by benchmarks/rich_value.py on 20,000 lookahead games of
# that shape (seed 2026), rounded to four decimals; with three teams "the other" is the two others. A
# table of 8 or more players has a set of its own, fitted on its own games ("12 players, 2 teams"):
# there the shape's set, fitted with 4 or 6 players, scores 2 to 4 points less (benchmarks/matches.md).
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
        # --players 8 --games 20000: held-out log-loss 0.6319 (fair features alone 0.6346)
        "8 players, 2 teams": (
            1.5981, 0.1445, 0.1145, 0.1723, 0.0092, 0.4527, 0.2977, 0.0734, 0.0018, 0.1448, 0.0887, 0.0046,
            -1.7435, -0.2687, -0.3973, -0.0412, -0.0247, -1.0723, -0.2995, -0.2028, 0.3007, -0.1555, -0.1301, -0.0066,
            0.0072, 0.0300, 0.0598, -0.1259, -0.0793, -0.0272, -0.0294, 0.0394, 0.0276, 0.0219, 0.1413, 0.0948,
            -0.3116, 0.0601, -0.1392, -0.4093, 0.5492, 0.0238, 0.1623, -0.1251, 0.0582, -0.0341, -0.2665, 0.2473,
            -0.0090, 0.0140, 0.4683),
        # --players 12 --games 20000: held-out log-loss 0.6263 (fair features alone 0.6298)
        "12 players, 2 teams": (
            1.3326, 0.1262, 0.1088, 0.1830, 0.0099, 0.5301, 0.2563, 0.0793, -0.0652, 0.2529, 0.1641, 0.0040,
            -1.3357, -0.0999, -0.2524, -0.0280, -0.0249, -0.6223, -0.2817, -0.1451, 0.0855, -0.2841, -0.2060,
            -0.0058, 0.0092, 0.0269, 0.0343, -0.1328, -0.1205, -0.1050, -0.0508, 0.0612, 0.0618, 0.0120, 0.0852,
            0.0265, -0.1908, 0.0052, 0.0356, 0.0268, -0.0668, 0.0156, 0.0205, -0.0706, 0.0456, -0.0214, -0.2854,
            0.2731, -0.0076, 0.0028, 0.0446),
        # --players 9 --games 20000: held-out log-loss 0.6054 (fair features alone 0.6068)
        "9 players, 3 teams": (
            0.0000, -0.0187, 0.1404, 0.0322, 0.0070, 0.6831, 0.2029, 0.1155, 0.1926, 0.0000, 0.6473, 0.0067,
            0.0000, 0.1068, 0.0343, -0.0519, -0.0125, -0.4537, -0.1121, -0.1233, -0.2994, 0.0000, -0.4693, -0.0035,
            0.0057, 0.0176, 0.0627, 0.0292, 0.0880, 0.1825, -0.0736, 0.0477, 0.0639, 0.0349, -0.2190, -0.0568,
            0.0467, 0.0218, 0.0047, 0.0000, 0.0000, 0.0724, -0.0272, -0.4654, -0.5884, 0.2302, 0.0000, 0.0000,
            0.0000, 0.0000, -0.6701),
        # --players 10 --games 20000: held-out log-loss 0.6302 (fair features alone 0.6325)
        "10 players, 2 teams": (
            1.2767, 0.0786, 0.1485, 0.1845, 0.0089, 0.5451, 0.2948, 0.0684, -0.0393, 0.2694, 0.1779, 0.0061,
            -1.2998, -0.0577, -0.3385, -0.0308, -0.0234, -0.7089, -0.3293, -0.1405, 0.1113, -0.2868, -0.2339, -0.0078,
            0.0076, 0.0294, 0.0474, -0.1346, -0.1057, -0.0829, -0.0398, 0.0496, 0.0610, 0.0167, 0.1467, 0.0620,
            -0.2294, 0.0075, 0.0089, -0.1668, 0.1393, 0.0252, 0.0452, -0.1423, 0.0351, -0.0179, -0.2412, 0.2223,
            -0.0033, 0.0009, 0.0798),
        # --players 12 --teams 3 --games 20000: held-out log-loss 0.6107 (fair features alone 0.6116)
        "12 players, 3 teams": (
            0.0000, -0.0809, 0.1378, 0.0225, 0.0050, 0.7467, 0.1612, 0.1121, 0.0936, 0.0000, 0.6657, 0.0055,
            0.0000, 0.1055, -0.1554, -0.0278, -0.0090, -0.4502, -0.0934, -0.0994, -0.1401, 0.0000, -0.4313, -0.0027,
            0.0043, 0.0138, 0.0541, 0.0212, 0.0600, 0.0715, -0.0638, 0.0396, 0.1107, 0.0290, -0.1512, 0.0338,
            -0.0960, 0.0085, 0.0137, 0.0000, 0.0000, 0.0731, 0.0002, -0.4965, -0.4701, 0.1957, 0.0000, 0.0000,
            0.0000, 0.0000, -0.7037),
        # --players 3 --games 20000: held-out log-loss 0.5752 (fair features alone 0.5819)
        "3 teams": (
            0.0000, -0.1702, 0.5367, 0.0580, 0.0053, 0.8801, 0.4851, 0.1453, 0.3250, 0.0000, 0.8934, 0.0055,
            0.0000, 0.0883, -0.1996, -0.0492, -0.0160, 0.0317, -0.6876, -0.1280, -0.2744, 0.0000, -0.7191,
            -0.0040, 0.0072, -0.0107, 0.1245, 0.0465, 0.1316, 0.4634, -0.1591, 0.0800, 0.0466, 0.0654, 0.0734,
            -0.0122, -0.1985, -0.0437, 1.0586, 0.0000, 0.0000, 0.1143, -0.2957, -0.6424, -0.6680, 0.6204, 0.0000,
            0.0000, 0.0000, 0.0000, -1.6739),
        # --players 6 --teams 3 --games 20000: held-out log-loss 0.5974 (fair features alone 0.6000)
        "3 teams, partners": (
            0.0000, -0.1153, 0.2265, 0.0578, 0.0044, 0.7151, 0.2575, 0.0027, 0.3216, 0.0000, 0.7379, 0.0077,
            0.0000, 0.1233, 0.0206, -0.0382, -0.0103, -0.3062, -0.1730, -0.1780, -0.3587, 0.0000, -0.5075,
            -0.0044, 0.0027, 0.0099, 0.1063, 0.0408, 0.2491, 0.3640, -0.0941, 0.0555, 0.1241, 0.0428, -0.1200,
            -0.0439, -0.0272, 0.0139, 0.2971, 0.0000, 0.0000, 0.0863, -0.0408, -0.4721, -0.6586, 0.2867, 0.0000,
            0.0000, 0.0000, 0.0000, -1.0037),  # fitted with 6 players
    }.items()
}


def rich_table(players: int, teams: int) -> str:
    """The key of RICH_WEIGHTS a table reads: its own set if it has one, else its shape's."""
    own = f"{players} players, {teams} teams"
    return own if own in RICH_WEIGHTS else table_shape(players, teams)


def rich_weights(players: int, teams: int) -> dict[str, float]:
    """The value of hand and board's weights at a table of `players` in `teams`."""
    return RICH_WEIGHTS[rich_table(players, teams)]


def value_weights(players: int, teams: int) -> dict[str, float]:
    """The fitted value's weights at a table of `players` in `teams` (its shape's)."""
    return VALUE_WEIGHTS[table_shape(players, teams)]
