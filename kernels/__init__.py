"""simkit.kernels: pure Numba code on arrays (no I/O, no mutable globals).

tables: line masks and card cells; rng: splitmix64 per game; state: the
arrays of one game and rule queries; policies: who decides; engine: one game;
batch: many games across threads.
"""
