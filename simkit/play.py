"""Play games with the kernel: statistics for many, a full record for one."""

from __future__ import annotations

import numpy as np

from simkit.cards import tables
from simkit.kernels.batch import run_batch
from simkit.kernels.engine import play_game
from simkit.kernels.state import new_state
from simkit.policies import Lineup
from simkit.rules import Rules

MAX_SEED = 2**63 - 1


def check_games(seed: int, first_game: int, n_games: int) -> None:
    """Reject a seed or game range the generator does not take."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be 0..{MAX_SEED}, got {seed}")
    if first_game < 0 or n_games < 0 or first_game + n_games > MAX_SEED:
        raise ValueError(f"games must be a range of non-negative indices, got {first_game}+{n_games}")


def simulate(rules: Rules, lineup: Lineup, seed: int, first_game: int, n_games: int) -> np.ndarray:
    """Statistics of games first_game .. first_game + n_games - 1.

    Returns (n_games, len(STAT_NAMES)) int64; runs on numba's current threads.
    """
    check_games(seed, first_game, n_games)
    return run_batch(tables(), rules.cfg(), lineup.ids(), lineup.params(), seed, first_game, n_games)


def play_logged(rules: Rules, lineup: Lineup, seed: int, game: int):
    """Play one game with its move log; returns the kernel's State arrays."""
    check_games(seed, game, 1)
    st = new_state(rules.max_turns)
    play_game(tables(), rules.cfg(), lineup.ids(), lineup.params(), st, new_state(0), seed, game)
    return st

