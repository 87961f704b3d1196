"""Play a run's chunks on a Dask cluster (``simkit.running.distributed``): the client's side of a cluster run.

``DaskExecutor`` is the cluster's ``simkit.running.executors.Executor``: ``simkit.running.runner.run``
chooses it for a scheduler, holds the directory's lock and keeps the
manifest. How a cluster run goes (``DaskExecutor.play``):

1. Every worker is probed (``client.run``) before any game is played: it
   must import simkit, run the client's simkit, kernel and libraries
   (``simkit.running.dataset.versions``), and see the output directory (a filesystem
   the client and every worker share, at the same path). Anything else is
   refused with one line naming the worker.
2. Every worker compiles the line-up's kernels (or loads them from numba's
   cache) before the first chunk; a compile that takes over a second is
   announced (``RunEvents.compiling``).
3. Each chunk is one Dask task (``play_chunk``): it plays games
   [first, first + n) on one kernel thread and writes its own part file with
   ``simkit.running.dataset.write_part`` (a temporary name of its own, then a
   rename), returning only a few numbers: the client's memory does not grow
   with the run. Tasks are pure: a task's key names the run, the chunk and
   this call, and the part it writes has the bytes a local run writes.
4. The client records chunks in the manifest as they complete
   (``as_completed``). Running chunks report their games every half second
   (``Worker.log_event``), so the progress bar follows the cluster.

Faults: a worker that dies while playing a chunk loses nothing. Dask's
scheduler gives the chunk to another worker (up to
``distributed.scheduler.allowed-failures`` times, 3 by default), and a task
that raises is retried ``RETRIES`` times (``client.map(retries=...)``). A
dying worker can leave a temporary ``.part-*.tmp`` file (never a part file):
stray temporaries are removed when the run ends, under the run's lock.
Ctrl-C at the client (or SIGTERM, which the command line turns into one)
stops every chunk of the run within about a game's time (a stop flag set on
each worker with ``client.run``), keeps the finished parts and returns;
re-running resumes like a local run. LocalCluster workers ignore both
signals: a terminal's Ctrl-C or a batch scheduler's SIGTERM to every
process of the job is the client's to answer.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from pathlib import Path

from simkit.files.atomic import remove_temporaries
from simkit.running import dataset as ds
from simkit.running.distributed import (
    INSTALL,
    Cluster,
    ClusterError,
    WorkerMismatch,
    as_cluster,
    check_scheduler,
    one_line,
    open_cluster,
)
from simkit.running.executors import Chunks, Executor, Finished, RunEvents, noting_compile
from simkit.running.worker_tasks import active, compared_versions, play_chunk, probe, stop, warm_up
from simkit.version import VERSION

log = logging.getLogger(__name__)

RETRIES = 2  # a task that raises is tried again this often (a lost worker is Dask's allowed-failures)
WORKER_SECONDS = 60  # for a scheduler without workers to get one
STOP_SECONDS = 30  # for the chunks still playing after Ctrl-C or an error to stop
POLL_SECONDS = 0.1  # how often the client looks at finished chunks and progress
PART_TMP_GLOB = ".part-*.parquet.*.tmp"  # simkit.files.atomic.replacing's temporaries of part files


class DaskExecutor(Executor):
    """Plays a run's chunks on a Dask cluster (see the module docstring).

    scheduler: 'local:N', 'tcp://HOST:PORT', a Cluster from `connect` or a
    distributed.Client. A string's cluster is opened by `play` and closed at
    its end; a Cluster or a Client is used as it is and left open. Its
    warm-up is part of `play`: the workers compile once they are probed.
    """

    def __init__(self, scheduler):
        self.scheduler = scheduler

    def check(self) -> None:
        """Refuse a bad scheduler string, or a missing dask, before anything is written."""
        check_scheduler(self.scheduler)

    def play(self, chunks: Chunks, finished: Finished, events: RunEvents) -> bool:
        """Play `chunks` on the cluster: its workers are probed, warm up, then play and write the parts
        (see simkit.running.executors.Executor.play)."""
        if not isinstance(self.scheduler, str):
            return _play(as_cluster(self.scheduler), chunks, finished, events)
        try:
            cluster = open_cluster(self.scheduler)
        except KeyboardInterrupt:
            return True
        try:
            return _play(cluster, chunks, finished, events)
        finally:
            cluster.close()
            remove_temporaries(Path(chunks.out), PART_TMP_GLOB)  # a worker killed by the closing cluster may leave one


def _play(cluster: Cluster, chunks: Chunks, finished: Finished, events: RunEvents) -> bool:
    """Play `chunks` on an open cluster; True when Ctrl-C stopped it."""
    from distributed import as_completed  # dask is optional (the distributed extra): imported where a cluster is used

    client = cluster.client
    out = Path(chunks.out).resolve()
    todo, identity = chunks.todo, chunks.identity
    rid = ds.run_id(identity)
    token = secrets.token_hex(6)  # this call: its stop flag, its progress topic, its task keys
    topic = f"simkit-progress-{token}"
    sizes = dict(todo)
    progress = _Progress(sizes)
    pending: dict = {}  # key -> future, not yet recorded
    chunk_of: dict = {}  # key -> (first, n)
    totals = {"play": 0.0, "write": 0.0, "bytes": 0}
    listening = False
    interrupted = False
    done = None
    start = time.perf_counter()
    try:
        _wait_for_workers(cluster)
        check_workers(client, out, rid)
        noting_compile(
            events, chunks.lineup.spec, _warm_up_everywhere, client, chunks.rules, chunks.lineup, chunks.seed, identity
        )
        client.subscribe_topic(topic, progress.heard)
        listening = True
        keys = [f"simkit-chunk-{rid}-{first:012d}-{n}-{token}" for first, n in todo]
        futures = client.map(
            play_chunk,
            [f for f, _ in todo],
            [n for _, n in todo],
            key=keys,
            retries=RETRIES,
            pure=True,
            out=str(out),
            rules=chunks.rules,
            lineup=chunks.lineup,
            seed=chunks.seed,
            identity=identity,
            versions=compared_versions(ds.versions()),
            token=token,
            topic=topic,
        )
        for key, future, chunk in zip(keys, futures, todo):
            pending[key] = future
            chunk_of[key] = chunk
        del futures
        done = as_completed(list(pending.values()), with_results=True, raise_errors=False)
        while not done.is_empty():
            batch = done.next_batch(block=False)
            for future, result in batch:
                first, n = chunk_of[future.key]
                info = _chunk_result(future, result, out, first, n)
                del pending[future.key]
                finished(first, n)
                progress.done(first)
                totals["play"] += info["play_seconds"]
                totals["write"] += info["write_seconds"]
                totals["bytes"] += info["bytes"]
            games = progress.take()
            if games:
                events.advanced(games)
            if not batch:
                time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if done is not None:
            done.clear()  # gather no more results: the rest are stopped, or recorded by what is on disk
        if pending or interrupted:
            # parts renamed meanwhile: simkit.running.runner.record_parts_on_disk
            _halt(client, token, list(pending.values()))
        if listening:
            client.unsubscribe_topic(topic)
        remove_temporaries(out, PART_TMP_GLOB)
    wall = time.perf_counter() - start
    if todo and not interrupted:
        log.info(
            "%d chunks on %s in %.1f s: %.1f s playing and %.1f s writing (%d bytes) on the workers",
            len(todo),
            cluster,
            wall,
            totals["play"],
            totals["write"],
            totals["bytes"],
        )
    return interrupted


def _warm_up_everywhere(client, *args) -> None:
    """warm_up(*args) on every worker: first on one worker of each host, which compiles the kernels into
    its host's numba cache, then on the others, which load them from it instead of compiling them again."""
    hosts: dict[str, list[str]] = {}
    for address, worker in client.scheduler_info()["workers"].items():
        hosts.setdefault(worker["host"], []).append(address)
    for workers in ([a[0] for a in hosts.values()], [w for a in hosts.values() for w in a[1:]]):
        if workers:
            _run_everywhere(client, warm_up, *args, workers=workers)


def _run_everywhere(client, fn, *args, workers=None):
    """client.run(fn, *args) on every worker (or on `workers`); a failure as one ClusterError line."""
    try:
        return client.run(fn, *args, workers=workers)
    except Exception as e:  # noqa: BLE001 - any worker-side failure, said in one line
        raise ClusterError(f"a worker could not prepare simkit's kernels: {one_line(e)}") from None


def _wait_for_workers(cluster: Cluster) -> None:
    try:
        cluster.client.wait_for_workers(1, timeout=WORKER_SECONDS)
    except TimeoutError:
        raise ClusterError(
            f"the Dask scheduler {cluster} has had no worker for {WORKER_SECONDS} s; start some "
            f"with `dask worker {cluster} --nthreads 1`"
        ) from None


def check_workers(client, out: Path, rid: str) -> None:
    """Refuse, in one line, a cluster with a worker that cannot play this run the way this client would.

    Every worker must import simkit, run the client's versions (simkit, its
    kernel, numba, numpy, pyarrow, Python major.minor: the games and the part
    files' bytes depend on them), and see and write `out`.
    """

    mine = compared_versions(ds.versions())
    answers = client.run(probe, str(out), rid, on_error="return")
    problems = []
    for address, answer in sorted(answers.items()):
        if isinstance(answer, BaseException):
            problems.append(_probe_failure(address, answer, VERSION))
            continue
        where = f"worker {address} ({answer['host']}, pid {answer['pid']})"
        theirs = answer["versions"]
        differ = [f"{k} {theirs.get(k)} (client {v})" for k, v in mine.items() if theirs.get(k) != v]
        if differ:
            problems.append(
                WorkerMismatch(
                    f"{where} runs {', '.join(differ)}; every worker needs the client's simkit, kernel and "
                    f"libraries: install simkit {VERSION} there ({INSTALL}, from the client's source)"
                )
            )
        elif not answer["sees_run"]:
            problems.append(
                ClusterError(
                    f"{where} does not see the run in {out}: the output directory must be on a filesystem that "
                    "the client and every worker share, at the same path"
                )
            )
        elif not answer["writable"]:
            problems.append(ClusterError(f"{where} cannot write to {out}"))
    if problems:
        first, more = problems[0], len(problems) - 1
        raise type(first)(str(first) + (f" (and {more} more worker(s) refused)" if more else ""))


def _probe_failure(address: str, error: BaseException, version: str) -> ClusterError:
    text = one_line(error)
    if isinstance(error, ImportError) or "simkit" in text:
        return WorkerMismatch(
            f"worker {address} cannot import simkit ({text}); install simkit {version} on every "
            f"worker ({INSTALL}, from the client's source)"
        )
    return ClusterError(f"worker {address} failed simkit's probe: {text}")


def _chunk_result(future, result, out: Path, first: int, n: int) -> dict:
    """The finished chunk's numbers, or the task's failure as one line."""
    games = f"games [{first:,}, {first + n:,})"
    if future.status == "finished":
        if result.get("stopped"):
            raise ClusterError(f"{games} were stopped by another client of this cluster")
        if not (out / result["file"]).exists():
            raise ClusterError(
                f"a worker wrote {out / result['file']} but the client does not see it: the output "
                "directory must be on a filesystem that the client and every worker share"
            )
        return result
    if future.status == "error":
        exc = result[1]
        # dask is optional (the distributed extra): imported where a cluster is used
        from distributed import KilledWorker

        if isinstance(exc, ds.DatasetError | ClusterError) or type(exc).__name__ == "WriteError":
            raise exc.with_traceback(None)
        if isinstance(exc, KilledWorker):
            raise ClusterError(
                f"{games} were lost with every worker that played them (each died: out of memory?); "
                "re-running the same command resumes the run"
            ) from None
        raise ClusterError(
            f"a worker failed playing {games}: {type(exc).__name__}: {one_line(exc)}; "
            "re-running the same command resumes the run"
        ) from None
    raise ClusterError(f"the cluster dropped {games} ({future.status}); re-running the same command resumes the run")


class _StoppedGathers(logging.Filter):
    """Drops the scheduler's "Couldn't gather keys" error for chunks that this client stopped.

    A chunk stopped by `_halt` may finish while it is cancelled: the
    client's gather of its result then races its cancellation, and a
    scheduler in this process (a LocalCluster's) logs the forgotten keys as
    an error. That is the stop working, not a failure: the run says its
    stop in one line. Keys of other calls are left to the log.
    """

    def __init__(self):
        super().__init__()
        self.tokens: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("Couldn't gather keys"):
            return True
        keys = record.args if isinstance(record.args, dict) else None  # logging unpacks a lone dict argument
        if not keys:
            return True
        return not all(any(t in str(k) for t in self.tokens) for k in keys)


_STOPPED_GATHERS = _StoppedGathers()
# A filter on distributed's scheduler logger, matched on its message: without it a run stopped on a
# LocalCluster printed the scheduler's error above its one line (CI, 2026-12-03). tests/test_distributed.py
# fails if distributed stops logging that message from that logger.
logging.getLogger("distributed.scheduler").addFilter(_STOPPED_GATHERS)


def _halt(client, token: str, futures: list) -> None:
    """Stop every chunk of this call on every worker and wait (a while) until none is playing."""
    _STOPPED_GATHERS.tokens.add(token)
    try:
        client.run(stop, token, on_error="ignore")
        client.cancel(futures)
        deadline = time.monotonic() + STOP_SECONDS
        while time.monotonic() < deadline:
            if not sum(client.run(active, token, on_error="ignore").values()):
                break
            time.sleep(POLL_SECONDS)
        else:
            log.warning("chunks of this run were still playing on the cluster %d s after it was stopped", STOP_SECONDS)
    except Exception as e:  # noqa: BLE001 - the cluster is going away; what is on disk is whole anyway
        log.warning("could not stop the run's chunks on the cluster: %s", one_line(e))


class _Progress:
    """Games played so far by the chunks of a run, from the workers' reports (any thread) and finished chunks.

    A chunk counts at most its size, and never less than it did: a chunk
    played again after its worker died moves the bar only past its old mark.
    """

    def __init__(self, sizes: dict[int, int]):
        self.sizes, self.total, self.told = sizes, 0, 0
        self.seen: dict[int, int] = {}
        self.lock = threading.Lock()

    def _set(self, first: int, games: int) -> None:
        with self.lock:
            old = self.seen.get(first, 0)
            new = min(max(old, games), self.sizes.get(first, 0))
            self.seen[first] = new
            self.total += new - old

    def heard(self, event) -> None:
        """A worker's report (timestamp, [first, games]) (the client's event loop calls this)."""
        try:
            first, games = event[1]
            self._set(int(first), int(games))
        except (TypeError, ValueError, IndexError):
            pass

    def done(self, first: int) -> None:
        self._set(first, self.sizes[first])

    def take(self) -> int:
        """Games played since the last call."""
        with self.lock:
            new, self.told = self.total - self.told, self.total
            return new
