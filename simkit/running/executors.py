"""Playing a run's chunks: one small interface, and this machine's threads as its first implementation.

An executor is given chunks of a run (``Chunks``: games [first, first + n)
of one configuration) and plays them, writing each chunk's part file
(``simkit.running.dataset.write_part``) and calling ``finished(first, n)`` once the
part is on disk. ``simkit.running.runner.run`` chooses the executor and keeps
everything else: the directory's lock, resume, refusals and the manifest.

    Executor.check()                         refuse what cannot play, before the directory is touched
    Executor.warm_up(chunks, events)         compile (or load) the kernels before the first game
    Executor.play(chunks, finished, events)  play every chunk; True when Ctrl-C (or SIGTERM) stopped it

``LocalExecutor`` plays here: the kernel plays a chunk on every thread
(``simkit.game.play.set_threads``) in a thread of its own and reports its games
as they finish, so the progress bar moves and Ctrl-C answers within about a
game's time, whatever the player; a writer thread writes the previous chunk
meanwhile. ``simkit.running.dask_executor.DaskExecutor`` plays on a Dask cluster.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simkit.game.play import get_threads, simulate
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels.batch import new_done
from simkit.running import dataset as ds

POLL_SECONDS = 0.2  # how often the progress bar hears from the kernel

log = logging.getLogger(__name__)


class RunEvents:
    """What a run tells its watcher (the CLI's progress bar); every method does nothing here."""

    def started(self, total: int, already: int) -> None:
        """The run will play `total` games, `already` of them are on disk."""

    def compiling(self, lineup: str) -> None:
        """The kernels of `lineup` (its spec) are being compiled (first run only)."""

    def compiled(self, seconds: float) -> None:
        """The kernels are ready, after `seconds`."""

    def playing(self) -> None:
        """The kernels are ready: the games start now."""

    def advanced(self, games: int) -> None:
        """`games` more games were played."""

    def notice(self, message: str) -> None:
        """A line the user should read (a part set aside, a --chunk-size not used); here a logged warning."""
        log.warning("%s", message)


@dataclass(frozen=True)
class Chunks:
    """Chunks of one run to play: games [first, first + n) for each (first, n) of `todo`, each into its
    part file in `out`, with the run's `identity` (``simkit.running.dataset.identity_of``) in its rows."""

    out: Path
    rules: Rules
    lineup: Lineup
    seed: int
    identity: dict
    todo: list[tuple[int, int]]


Finished = Callable[[int, int], None]  # finished(first, n): chunk `first` of n games is on disk


class Executor(ABC):
    """Plays chunks of a run and hands back their parts. The runner calls check, then warm_up, then play."""

    def check(self) -> None:  # noqa: B027  (optional: a no-op unless overridden)
        """Refuse, before the run's directory is touched, what this executor cannot play on (nothing here)."""

    def warm_up(self, chunks: Chunks, events: RunEvents) -> None:  # noqa: B027  (optional: a no-op unless overridden)
        """Get the kernels ready before the first game, outside the run's timing (nothing here).

        Ctrl-C raises KeyboardInterrupt: nothing has been played.
        """

    @abstractmethod
    def play(self, chunks: Chunks, finished: Finished, events: RunEvents) -> bool:
        """Play every chunk of `chunks`, calling finished(first, n) once its part is on disk and
        events.advanced(games) as games finish; True when Ctrl-C (or SIGTERM) stopped it.

        Stopped, it returns once the parts being written are whole: a part renamed into place as it
        stopped may not have been handed back (``simkit.running.runner.record_parts_on_disk`` finds it).
        """


class LocalExecutor(Executor):
    """This machine: the kernel plays chunk k on every thread while a writer thread writes chunk k-1."""

    def warm_up(self, chunks: Chunks, events: RunEvents) -> None:
        """Compile (or load from numba's cache) the line-up's kernels, telling events when it is a compile."""
        noting_compile(events, chunks.lineup.spec, simulate, chunks.rules, chunks.lineup, chunks.seed, 0, 0)

    def play(self, chunks: Chunks, finished: Finished, events: RunEvents) -> bool:
        """Play `chunks` here (see Executor.play); on Ctrl-C the chunk being played is dropped and the part
        being written completes, then counts."""
        pending: tuple[Future, int, int] | None = None

        def flush() -> None:
            """Wait for the part being written, then record it."""
            nonlocal pending
            if pending is not None:
                future, first, n = pending
                future.result()  # if Ctrl-C lands here, `pending` still names the part
                pending = None
                finished(first, n)

        # The writer keeps the kernel threads' priority. At nice 19 it barely ran while they played,
        # so each flush() waited for the whole previous part with the cores idle (19 ms per
        # 100,000-game chunk, against 1 ms at the same priority; 10,000,000 two-player random games
        # in one process: 24.1-24.4 s at nice 19, 23.5 s at the same priority, 22.2 s writing nothing).
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="simkit-writer") as writer:
            try:
                for first, n in chunks.todo:
                    stats = _play_watched(chunks, first, n, events)
                    flush()
                    pending = (writer.submit(ds.write_part, chunks.out, stats, first, chunks.identity), first, n)
                flush()
            except KeyboardInterrupt:
                flush()  # the part being written completes, then counts
                return True
        return False


def in_background(fn, *args) -> Future:
    """Run fn(*args) in a daemon thread (numba's kernels release the GIL); its future.

    A daemon thread does not keep the process alive: Ctrl-C ends the run
    after the game in flight instead of waiting for the chunk. (Compiles run
    in the calling thread: see noting_compile.)
    """
    future: Future = Future()

    def target() -> None:
        try:
            future.set_result(fn(*args))
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
            future.set_exception(e)

    threading.Thread(target=target, name="simkit-kernel", daemon=True).start()
    return future


def noting_compile(events: RunEvents, lineup: str, fn, *args):
    """fn(*args), telling events when it takes long enough to be a compile, not a cache load.

    A cached kernel loads in well under a second; after a second of waiting
    events.compiling(lineup) is called (from a timer thread), and
    events.compiled(seconds) at the end. fn runs in the calling thread: numba
    compiles about 30% slower in a thread of its own (glibc's malloc there
    maps and unmaps about four times as many pages: 22 s against 16 s for the
    random line-up, measured), and Ctrl-C still ends a compile between two of
    numba's Python steps.
    """
    start = time.perf_counter()
    told = threading.Event()

    def tell() -> None:
        told.set()
        events.compiling(lineup)

    timer = threading.Timer(1.0, tell)
    timer.daemon = True
    timer.start()
    try:
        result = fn(*args)
    finally:
        timer.cancel()
        timer.join()  # compiling(), if it started, has finished before compiled()
    if told.is_set():
        events.compiled(time.perf_counter() - start)
    return result


def _play_watched(chunks: Chunks, first: int, n: int, events: RunEvents) -> np.ndarray:
    """Play games [first, first + n) in a kernel thread, reporting games as they finish.

    On Ctrl-C every kernel thread stops after the game it is playing, and
    KeyboardInterrupt goes on to the caller: the chunk is dropped.
    """
    stop = np.zeros(1, np.int64)
    done = new_done(n, get_threads())
    future = in_background(simulate, chunks.rules, chunks.lineup, chunks.seed, first, n, stop, done)
    reported = 0
    try:
        while True:
            try:
                stats = future.result(timeout=POLL_SECONDS)
                break
            except FutureTimeout:
                now = int(done.sum())
                if now > reported:
                    events.advanced(now - reported)
                    reported = now
    except KeyboardInterrupt:
        stop[0] = 1
        future.exception()  # returns once every thread has finished its game
        raise
    events.advanced(n - reported)
    return stats
