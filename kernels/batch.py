"""Many games at once: a chunk of consecutive game indices across threads.

Each game depends on (seed, game index) alone, so the rows are the same for
any thread count, and any split of the games into chunks.
"""

import numba
import numpy as np
from numba import njit, prange

from .engine import play_game
from .jit import SOURCES_HASH  # noqa: F401  (installs the stamped cache first)
from .state import N_STATS, new_state

BLOCKS_PER_THREAD = 32


@njit(cache=True, parallel=True, nogil=True)
def play_batch(tb, cfg, policies, params, seed, first_game, n_games, n_blocks):
    """Statistics of games first_game .. first_game + n_games - 1.

    Returns (n_games, N_STATS) int64, row i for game first_game + i. The games
    are split into n_blocks contiguous blocks, each with its own state arrays.
    """
    out = np.empty((n_games, N_STATS), np.int64)
    for b in prange(n_blocks):
        st = new_state(0)
        sim = new_state(0)  # the lookahead policy's board to play ahead on
        for i in range(n_games * b // n_blocks, n_games * (b + 1) // n_blocks):
            play_game(tb, cfg, policies, params, st, sim, seed, first_game + i)
            out[i, :] = st.stats
    return out


def run_batch(tb, cfg, policies, params, seed, first_game, n_games):
    """play_batch with enough blocks to keep every thread busy.

    Blocks are handed out one at a time (dynamic scheduling), so a thread
    slowed by other work (the Parquet writer) does not hold up the others.
    """
    n_blocks = max(1, min(n_games, BLOCKS_PER_THREAD * numba.get_num_threads()))
    with numba.parallel_chunksize(1):
        return play_batch(tb, cfg, policies, params, seed, first_game, n_games, n_blocks)
