"""The rules core: compile options (jit), tables, the random streams (rng), a game's arrays (state),
the moves, the random draw of a move (random_move), the questions a turn asks its player (decide)
and the turn itself (turn). Imports nothing else of kernels/."""
