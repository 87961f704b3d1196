"""Many games at once: a range of consecutive game indices across threads.

Each game depends on (seed, game index) alone, so the rows are the same for
any thread count, and any split of the games into chunks.

The games are split into contiguous blocks. Each of ``threads`` workers
takes the next block not yet taken until none is left (dynamic scheduling:
a thread slowed by other work does not hold up the others). Each block is
one call of ``play_block``, a kernel that releases the GIL, on the States
its thread keeps. The workers are the threads of one pool per thread count,
kept for the life of the process, and each keeps its States from
batch to batch (``play_to_end`` resets what a game reads), so a batch of
100,000 games starts no thread and allocates only its output; the calling
thread wakes once, when every worker is done. (Python threads rather than
numba's ``prange``: the same speed, a third less compile time, and no
threading layer to configure.)

A batch can be watched and stopped while it runs: ``done`` (``new_done``)
counts the games finished in each block, its sum the batch's, and setting
``stop[0]`` to 1 makes every block return after the game it is playing.
Block b counts in ``done[b * DONE_STRIDE]``, so two threads never write
one cache line (docs/research.md), and each
thread's State is a record in a buffer of its own (``kernels.core.record.new_record``).
"""

import itertools
import os
import threading
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

import numpy as np
from numba import njit

from .core.jit import COMPILE_OPTIONS
from .core.record import APART
from .core.state import new_log, new_state
from .core.stats import GAME_STATS
from .core.workspace import new_workspace
from .engine import play_to_end
from .players.dispatch import workspace_nodes

BLOCKS_PER_THREAD = 32
DONE_STRIDE = APART // 8  # int64 counters of two blocks lie APART bytes apart


@njit(cache=True, nogil=True, **COMPILE_OPTIONS)
def play_block(
    decisions, tb, cfg, seat_policies, params, st, work, log, seed, first_game, out, lo, hi, stop, done, counter
):
    """Play games first_game + lo .. first_game + hi - 1 into records lo .. hi - 1 of `out`.

    out: the whole batch's (n,) GAME_STATS records, zeroed (kernels.core.stats). seat_policies:
    (R, players) int64 and params: (R, players, P) float64, R line-ups used in turn: game g plays
    line-up g % R (R = 1, or the number of teams when seats are swapped). st and work: this thread's
    State and spare arrays; log: an empty move log. Counts finished games in done[counter]; returns
    early, leaving later records zero, once stop[0] is set.
    """
    rotations = seat_policies.shape[0]
    for i in range(lo, hi):
        if stop[0] != 0:
            return
        game = first_game + i
        r = game % rotations
        play_to_end(decisions, tb, cfg, seat_policies[r], params[r], st, work, log, seed, game, out[i])
        done[counter] += 1


def n_blocks(n_games: int, threads: int) -> int:
    """Enough blocks to keep every thread busy to the end, and at most one per game."""
    return max(1, min(n_games, BLOCKS_PER_THREAD * threads))


def new_done(n_games: int, threads: int) -> np.ndarray:
    """The games-finished counters of a batch (int64 zeros): one per block, DONE_STRIDE apart; sum it."""
    return np.zeros(n_blocks(n_games, threads) * DONE_STRIDE, np.int64)


def run_batch(
    decisions, tb, cfg, seat_policies, params, seed, first_game, n_games, threads, stop=None, done=None
) -> np.ndarray:
    """Statistics of games first_game .. first_game + n_games - 1 on `threads` threads.

    Returns (n_games,) GAME_STATS records (kernels.core.stats), record i for game first_game + i.
    stop: (1,) int64 and done: ``new_done(n_games, threads)``, to watch and stop the batch from
    another thread (see the module docstring); fresh ones by default.
    """
    out = np.zeros(n_games, GAME_STATS)
    records = out.view(np.recarray)  # the same array to numba; in Python its elements are records (np.record)
    blocks = n_blocks(n_games, threads)
    stop = np.zeros(1, np.int64) if stop is None else stop
    done = new_done(n_games, threads) if done is None else done
    if done.shape != (blocks * DONE_STRIDE,):
        raise ValueError(
            f"done must be new_done({n_games}, {threads}) (shape ({blocks * DONE_STRIDE},)), got shape {done.shape}"
        )

    def worker() -> None:
        st, work, log = thread_states(seat_policies, params)
        while (b := next(taken)) < blocks:
            lo, hi = n_games * b // blocks, n_games * (b + 1) // blocks
            play_block(
                decisions,
                tb,
                cfg,
                seat_policies,
                params,
                st,
                work,
                log,
                seed,
                first_game,
                records,
                lo,
                hi,
                stop,
                done,
                b * DONE_STRIDE,
            )

    taken = itertools.count()  # the next block to play; next() on it is atomic under the GIL
    if threads == 1 or blocks == 1:
        worker()
        return out
    futures = [kernel_pool(threads).submit(worker) for _ in range(threads)]
    try:
        wait(futures, return_when=FIRST_EXCEPTION)
        for future in futures:
            if future.done():
                future.result()  # raises a worker's exception
    except BaseException:  # Ctrl-C included: the other workers stop after their game
        stop[0] = 1
        wait(futures)
        raise
    return out


_pools: dict[int, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()
_own = threading.local()  # each thread's (arena nodes, State, spare arrays, log), kept from batch to batch


def kernel_pool(threads: int) -> ThreadPoolExecutor:
    """The process's pool of `threads` kernel threads, made on first use."""
    with _pools_lock:
        if threads not in _pools:
            _pools[threads] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="simkit-kernel")
        return _pools[threads]


def _forget_pools() -> None:
    """In a forked child the pools' threads do not exist: start again from none."""
    global _pools_lock
    _pools.clear()
    _pools_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_pools)


def thread_states(seat_policies, params):
    """This thread's (State, spare arrays, empty move log) for a batch of the line-up: made on the thread's
    first batch with spare arrays of this size, then reused (each game starts from ``play_to_end``'s
    reset)."""
    nodes = workspace_nodes(seat_policies, params)
    kept = getattr(_own, "states", None)
    if kept is None or kept[0] != nodes:
        kept = _own.states = (nodes, new_state(), new_workspace(nodes), new_log(0))
    return kept[1:]
