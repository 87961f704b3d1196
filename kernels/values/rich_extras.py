"""The 26 extras of swift's value (kernels/values/rich.py), by name: data only, so that
kernels.values.weights names the value's weights without importing a kernel.
"""

EXTRAS = (
    # (parameter name, what it counts); the kernel writes them in this order.
    ("own_twos_none_held", "own twos, no empty cell's card held"),
    ("own_twos_one_held", "own twos, one held"),
    ("own_twos_two_held", "own twos, two or more held"),
    ("own_threes_none_held", "own threes, none held"),
    ("own_threes_one_held", "own threes, one held"),
    ("own_threes_two_held", "own threes, two held"),
    ("own_forks", "own fork cells (empty, on two own threes or fours)"),
    ("other_forks", "other's fork cells"),
    ("blockable_fours", "other's fours I can block now (a card of an empty cell held)"),
    ("own_two_eyed_x_threes", "own two-eyed Jacks x own threes"),
    ("own_two_eyed_x_has_four", "own two-eyed Jacks x (own fours > 0)"),
    ("own_one_eyed_x_other_fours", "own one-eyed Jacks x other's fours"),
    ("own_one_eyed_x_other_has_four", "own one-eyed Jacks x (other's fours > 0)"),
    ("other_two_eyed_x_threes", "other's two-eyed Jacks (expected) x other's threes"),
    ("pile_left", "pile left (share of 104 cards)"),
    ("pile_left_x_own_sequences", "pile left x own sequences"),
    ("pile_left_x_other_sequences", "pile left x other's sequences"),
    ("own_useful_cards", "own cards with an empty cell on an own two or better"),
    ("own_dead_cards", "own dead cards"),
    ("own_two_eyed_pair", "own two-eyed Jacks >= 2"),
    ("own_four_cells_pair", "own four-completing cells >= 2"),
    ("other_four_cells_pair", "other's four-completing cells >= 2"),
    ("own_blocked_lines", "own threes and fours holding two of a sequence's chips"),
    ("other_blocked_lines", "other's likewise"),
    ("own_sequences_x_threes", "own sequences x own threes"),
    ("other_sequences_x_threes", "other's sequences x other's threes"),
)
