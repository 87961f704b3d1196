"""simkit.kernels: pure Numba code on arrays (no I/O, no mutable globals).

tables: line masks and card cells; rng: splitmix64 per game; state: the
arrays of one game and rule queries; policies: who decides; engine: one game;
batch: many games across threads.

``GAMES_STAMP`` names the games these kernels play: for the same rules,
line-up, seed and game index, the same moves. It is a run's ``kernel`` in its
identity (``simkit.dataset.identity_of``), so a dataset resumes, and a
regenerated part is byte-identical, across kernel changes that keep the
games (speed, compile time). A change that plays other games must give it a
new value: tests/test_games_stamp.py plays a corpus of every policy, table
and rule option (tests/fingerprint.py) and fails until the stamp and the
corpus's recorded hash are renewed together (then republish results/).
The compile cache is keyed by the sources themselves (``jit.SOURCES_HASH``).
It was the sources' hash until simkit 0.5.0, hence its form.
"""

GAMES_STAMP = "91fc7e6872d2374b"
