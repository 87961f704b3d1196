"""Dask clusters for simkit's runs: ``simkit run --scheduler local:N | tcp://HOST:PORT``.

Needs ``dask[distributed]`` (``pip install 'simkit[distributed]'``); this
module imports it only when a cluster is used, so simkit works without it.

A --scheduler string is read by ``parse_scheduler`` and refused before
anything is written (``check_scheduler``). One cluster for many runs:
``with connect("local:2") as cluster: run(..., scheduler=cluster);
run(..., scheduler=cluster)``; starting a LocalCluster takes seconds, and its
workers keep their compiled kernels from run to run. A study holds one open
across its runs (``opened``). ``simkit.running.dask_executor`` plays a run's
chunks on the cluster, ``simkit.running.worker_tasks`` is what its workers run.
"""

from __future__ import annotations

import logging
import re
import signal
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

INSTALL = "pip install 'simkit[distributed]'"
ALLOWED = (
    "'local:N' (a Dask LocalCluster of N single-threaded worker processes on this machine) "
    "or 'tcp://HOST:PORT' (a running Dask scheduler)"
)
MAX_LOCAL_WORKERS = 1024
CONNECT_SECONDS = 30  # to reach a tcp:// scheduler


class ClusterError(ValueError):
    """The cluster cannot play this run (no dask, no scheduler, a worker that fails); the message says why."""


class WorkerMismatch(ClusterError):
    """A worker runs another simkit, kernel or library version than the client, or lacks simkit."""


# --- the scheduler argument --------------------------------------------------


def parse_scheduler(text: str) -> tuple[str, int | str]:
    """('local', N) or ('tcp', 'tcp://HOST:PORT') from a --scheduler value; ValueError otherwise."""
    m = re.fullmatch(r"local:(\d{1,5})", text.strip())
    if m and 1 <= int(m.group(1)) <= MAX_LOCAL_WORKERS:
        return "local", int(m.group(1))
    m = re.fullmatch(r"tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})", text.strip())
    if m and 1 <= int(m.group(2)) <= 65535:
        return "tcp", text.strip()
    raise ValueError(f"scheduler must be {ALLOWED}, with 1 <= N <= {MAX_LOCAL_WORKERS}; got {text!r}")


def _distributed():
    """The dask.distributed module, or a ClusterError saying how to install it."""
    try:
        import distributed  # dask is optional (the distributed extra): imported where a cluster is used
    except ImportError:
        raise ClusterError(
            f"running on a Dask cluster needs dask.distributed, which is not installed: {INSTALL}"
        ) from None
    return distributed


def check_scheduler(scheduler) -> None:
    """Refuse a scheduler `run` cannot use, before anything is written: a bad string, or no dask installed."""
    if isinstance(scheduler, Cluster):
        return
    if isinstance(scheduler, str):
        kind, where = parse_scheduler(scheduler)
        _distributed()
        if kind == "tcp":
            assert isinstance(where, str)  # tcp://HOST:PORT
            _check_reachable(where)
        return
    try:
        import distributed  # dask is optional (the distributed extra): imported where a cluster is used
    except ImportError:
        pass
    else:
        if isinstance(scheduler, distributed.Client):
            return
    raise ValueError(
        f"scheduler must be {ALLOWED}, or a cluster from simkit.running.distributed.connect; "
        f"got a {type(scheduler).__name__}"
    )


def _check_reachable(address: str) -> None:
    """Refuse at once a tcp://HOST:PORT where nothing listens (Dask itself retries for CONNECT_SECONDS)."""
    host, _, port = address.removeprefix("tcp://").rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
    except OSError as e:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address} ({e.strerror or one_line(e)}); start one "
            f"with `dask scheduler` and workers with `dask worker {address} --nthreads 1`"
        ) from None


# --- a cluster, open for many runs ------------------------------------------


class Cluster:
    """An open Dask client (and the LocalCluster it started, if any), for as many runs as you like.

    Get one with ``connect``; pass it as ``scheduler`` to ``simkit.running.runner.run``.
    ``client`` is the ``distributed.Client``.
    """

    def __init__(self, client, name: str, local=None):
        self.client, self.name, self._local = client, name, local

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<simkit cluster {self.name}: {self.workers} workers>"

    @property
    def workers(self) -> int:
        """Workers connected now."""
        return len(self.client.nthreads())

    def close(self) -> None:
        """Close the client, and the LocalCluster if this cluster started one."""
        try:
            self.client.close()
        finally:
            if self._local is not None:
                self._local.close()
                self._local = None


@contextmanager
def connect(scheduler: str) -> Iterator[Cluster]:
    """``with connect('local:2') as cluster:`` a cluster open for many runs, closed at the end.

    'local:N' starts a LocalCluster of N worker processes with one thread
    each (and closes it at the end); 'tcp://HOST:PORT' connects to a running
    scheduler (and leaves it running).
    """
    cluster = open_cluster(scheduler)
    try:
        yield cluster
    finally:
        cluster.close()


@contextmanager
def opened(scheduler) -> Iterator[Cluster | None]:
    """``with opened(scheduler) as cluster:`` one cluster for a series of runs (a study).

    A string is opened here and closed at the end (see `connect`); a Cluster
    or a distributed.Client is used as it is and left open; None stays None
    (play on this machine).
    """
    if scheduler is None:
        yield None
        return
    check_scheduler(scheduler)
    if isinstance(scheduler, str):
        with connect(scheduler) as cluster:
            yield cluster
    else:
        yield as_cluster(scheduler)


def open_cluster(scheduler: str) -> Cluster:
    """A Cluster for a --scheduler string (see `connect`); close it when done."""
    kind, where = parse_scheduler(scheduler)
    distributed = _distributed()
    if kind == "local":
        with _terminal_interrupts_ignored():  # Ctrl-C is the client's to handle, not the workers'
            local = distributed.LocalCluster(
                n_workers=where,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: never a clash with another cluster
                silence_logs=logging.ERROR,  # a failed chunk is said in one line by the client, not by Dask
            )
        try:
            return Cluster(distributed.Client(local), f"local:{where}", local)
        except BaseException:
            local.close()
            raise
    assert isinstance(where, str)  # tcp://HOST:PORT
    try:
        client = distributed.Client(where, timeout=f"{CONNECT_SECONDS}s")
    except (OSError, TimeoutError) as e:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {where} ({one_line(e)}); start one with "
            f"`dask scheduler` and workers with `dask worker {where} --nthreads 1`"
        ) from None
    return Cluster(client, where)


@contextmanager
def _terminal_interrupts_ignored() -> Iterator[None]:
    """Worker processes started in here ignore SIGINT and SIGTERM.

    Ctrl-C reaches every process of the terminal, and a batch scheduler's
    SIGTERM every process of the job. An ignored signal stays ignored in a
    child process, and Python leaves it so. The client answers both itself:
    it stops the chunks and closes the cluster (whose nannies stop their
    workers through a queue, or with SIGKILL).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def as_cluster(scheduler) -> Cluster:
    """A Cluster, or a distributed.Client wrapped as one (the caller keeps it open)."""
    if isinstance(scheduler, Cluster):
        return scheduler
    return Cluster(scheduler, str(scheduler.scheduler.address))


def one_line(e: BaseException) -> str:
    """An error's message on one line (its type's name if it has none)."""
    return " ".join(str(e).split()) or type(e).__name__
