"""simkit.kernels: pure Numba code on arrays (no I/O, no mutable globals), in one-way layers.

core: the rules (tables, the random streams, the configuration, a game's State, the moves, the turn,
the players' spare arrays); values: what a position is worth; players: each player's kernel and
declaration, and the decisions of a line-up (players.dispatch); engine: one game; batch: many games
across threads. Each layer imports only the layers below it (tests/test_layers.py).

``GAMES_STAMP`` names the games these kernels play: for the same rules,
line-up, seed and game index, the same moves. It is a run's ``kernel`` in its
identity (``simkit.running.dataset.identity_of``), so a dataset resumes, and a
regenerated part is byte-identical, across kernel changes that keep the
games (speed, compile time). A change that plays other games must give it a
new value: tests/test_games_stamp.py plays a corpus of every policy, table
and rule option (tests/fingerprint.py) and fails until the stamp and the
corpus's recorded hash are renewed together (then republish results/).
The compile cache is keyed by the sources themselves (``kernels.core.jit``).
It was the sources' hash until simkit 0.5.0, hence its form.
"""

GAMES_STAMP = "91fc7e6872d2374b"
