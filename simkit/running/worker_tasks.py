"""What a Dask worker runs for simkit's cluster runs (``simkit.running.dask_executor``): the probe of its
versions and of the output directory, the warm-up of its kernels, one chunk's games into their part file
(``play_chunk``, a Dask task), and the stop flags that end a run's chunks when its client stops it."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simkit.game.play import set_threads, simulate
from simkit.kernels.batch import new_done
from simkit.kernels.core.stats import GAME_STATS
from simkit.running import dataset as ds
from simkit.running.distributed import INSTALL, WorkerMismatch
from simkit.running.executors import in_background

PROGRESS_SECONDS = 0.5  # how often a running chunk reports its games


def compared_versions(versions: dict) -> dict:
    """The versions a worker must share with the client (Python as major.minor)."""
    v = dict(versions)
    v["python"] = ".".join(v["python"].split(".")[:2])
    return v


_stopped: set[str] = set()  # tokens of calls stopped by their client (tiny; kept for the process's life)
_playing: dict[str, list[np.ndarray]] = {}  # token -> stop flags of its chunks playing now
_lock = threading.Lock()


def probe(out: str, rid: str) -> dict:
    """What a worker is: its versions, and whether it sees the run being written in `out`."""
    try:
        manifest = json.loads((Path(out) / ds.MANIFEST).read_text(encoding="utf-8"))
        sees_run = manifest.get("run_id") == rid
    except (OSError, ValueError, AttributeError):
        sees_run = False
    return {
        "versions": compared_versions(ds.versions()),
        "sees_run": sees_run,
        "writable": os.access(out, os.W_OK),
        "host": socket.gethostname(),
        "pid": os.getpid(),
    }


async def warm_up(rules, lineup, seed: int, identity: dict) -> None:
    """Get a worker ready to play: the line-up's kernels and the Parquet writer, off its event loop."""
    await asyncio.to_thread(_compile, rules, lineup, seed, identity)


def _compile(rules, lineup, seed: int, identity: dict) -> None:
    """Compile (or load from numba's cache) the kernels; write one row to memory.

    A process's first Parquet write costs 0.5-2 s more than the next ones;
    paying it here keeps it out of the first chunk.
    """
    set_threads(1)
    simulate(rules, lineup, seed, 0, 0)
    table = ds.to_table(np.zeros(1, GAME_STATS), 0, identity)
    pq.write_table(table, pa.BufferOutputStream(), **ds.WRITE_OPTIONS)


def stop(token: str) -> None:
    """Stop the chunks of call `token` on this worker: the playing ones after their game, the others at once."""
    with _lock:
        _stopped.add(token)
        for flag in _playing.get(token, []):
            flag[0] = 1


def active(token: str) -> int:
    """Chunks of call `token` playing on this worker now."""
    with _lock:
        return len(_playing.get(token, []))


@contextmanager
def _registered(token: str, flag: np.ndarray) -> Iterator[bool]:
    """Register a chunk's stop flag while it plays; yields whether the call was already stopped."""
    with _lock:
        if token in _stopped:
            stopped = True
        else:
            stopped = False
            _playing.setdefault(token, []).append(flag)
    try:
        yield stopped
    finally:
        with _lock:
            flags = _playing.get(token, [])
            if any(f is flag for f in flags):
                flags[:] = [f for f in flags if f is not flag]
                if not flags:
                    del _playing[token]


def _check_versions(expected: dict) -> None:
    """Refuse to play on a worker whose versions differ from the client's (one that joined after the probe)."""
    mine = compared_versions(ds.versions())
    differ = [f"{k} {mine.get(k)} (client {v})" for k, v in expected.items() if mine.get(k) != v]
    if differ:
        raise WorkerMismatch(
            f"worker on {socket.gethostname()} (pid {os.getpid()}) runs {', '.join(differ)}; "
            f"every worker needs the client's simkit, kernel and libraries ({INSTALL})"
        )


def _report(topic: str, first: int, games: int) -> None:
    try:
        from distributed import get_worker  # dask is optional (the distributed extra): imported where a cluster is used

        get_worker().log_event(topic, [first, games])
    except Exception:  # noqa: BLE001 - not on a worker, or it is closing: progress is only for the bar
        pass


def play_chunk(
    first: int, n: int, *, out: str, rules, lineup, seed: int, identity: dict, versions: dict, token: str, topic: str
) -> dict:
    """One Dask task: play games [first, first + n) on one thread and write their part file into `out`.

    Returns a few numbers (never the games): {'first', 'games', 'file',
    'bytes', 'play_seconds', 'write_seconds', 'worker'}, or {'first',
    'stopped': True} when the client stopped the run (nothing written).
    The part's bytes are those a local run writes for the same chunk.
    """
    _check_versions(versions)
    set_threads(1)
    flag = np.zeros(1, np.int64)
    with _registered(token, flag) as stopped:
        if stopped:
            return {"first": first, "stopped": True}
        done = new_done(n, 1)
        t0 = time.perf_counter()
        future = in_background(simulate, rules, lineup, seed, first, n, flag, done)
        while True:
            try:
                stats = future.result(timeout=PROGRESS_SECONDS)
                break
            except FutureTimeout:
                _report(topic, first, int(done.sum()))
        if int(done.sum()) < n:  # stopped mid-chunk: the rows are incomplete, write nothing
            return {"first": first, "stopped": True}
        t1 = time.perf_counter()
        path = ds.write_part(Path(out), stats, first, identity)
        t2 = time.perf_counter()
    return {
        "first": first,
        "games": n,
        "file": path.name,
        "bytes": path.stat().st_size,
        "play_seconds": t1 - t0,
        "write_seconds": t2 - t1,
        "worker": f"{socket.gethostname()}:{os.getpid()}",
    }
