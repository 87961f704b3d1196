"""What a position is worth: the fitted value (evaluation), the same as one seat can know it (fair),
the value of hand and board (rich, rich_extras), the markers that pick one (leaves) and their fitted
weights (weights). Imports kernels.core only."""
