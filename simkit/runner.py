"""Run N games of one configuration into a dataset, chunk by chunk, resumably.

A run is identified by (seed, rules, policies). Its games are split into
chunks of ``chunk_size`` consecutive game indices; each chunk is played by the
kernel on all threads and written as one part file. A part file that exists
is complete (it was renamed into place), so a re-run plays only the chunks
whose files are missing, and a finished run plays nothing.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numba
import pyarrow.parquet as pq

from simkit import dataset as ds
from simkit.atomic import TMP_GLOB
from simkit.play import check_games, simulate
from simkit.policies import Lineup
from simkit.rules import Rules

DEFAULT_CHUNK_SIZE = 100_000
MAX_CHUNK_SIZE = 5_000_000  # 5M rows x 20 int64 stats = 800 MB in flight; more is a mistake


@dataclass(frozen=True)
class RunSpec:
    """What to play: the configuration, the seed and how many games."""

    rules: Rules
    lineup: Lineup
    seed: int
    games: int
    chunk_size: int = DEFAULT_CHUNK_SIZE

    def identity(self) -> dict:
        """The facts that decide every row: seed, rules, policies."""
        return {"seed": self.seed, "rules": self.rules.as_dict(), "policies": self.lineup.names}

    def chunks(self) -> list[tuple[int, int]]:
        """(first game, number of games) of each chunk."""
        return [(g, min(self.chunk_size, self.games - g)) for g in range(0, self.games, self.chunk_size)]


@dataclass
class RunOutcome:
    """What a call of `run` did."""

    out: Path
    games: int
    chunks: int
    chunks_before: int  # already finished when the call started
    chunks_written: int = 0
    games_played: int = 0
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def complete(self) -> bool:
        """Whether every chunk of the run is on disk."""
        return self.chunks_before + self.chunks_written == self.chunks

    @property
    def games_per_second(self) -> float:
        """Games played per wall-clock second in this call (0 when none played)."""
        return self.games_played / self.seconds if self.seconds > 0 and self.games_played else 0.0


def check_spec(spec: RunSpec) -> None:
    """Reject a game count or chunk size the runner does not take."""
    if spec.games < 1:
        raise ValueError(f"games must be at least 1, got {spec.games}")
    if not 1 <= spec.chunk_size <= MAX_CHUNK_SIZE:
        raise ValueError(f"chunk size must be 1..{MAX_CHUNK_SIZE}, got {spec.chunk_size}")
    check_games(spec.seed, 0, spec.games)


def set_threads(threads: int | None) -> int:
    """Use `threads` kernel threads (None: all cores); return the number in use."""
    most = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        threads = most
    if not 1 <= threads <= most:
        raise ValueError(f"threads must be 1..{most} on this machine, got {threads}")
    numba.set_num_threads(threads)
    return threads


def _finished(directory: Path, spec: RunSpec) -> set[int]:
    """First games of the chunks whose part files are complete on disk."""
    done = set()
    for first, n in spec.chunks():
        path = directory / ds.part_name(first)
        if path.exists():
            try:
                rows = pq.read_metadata(path).num_rows
            except Exception as e:  # noqa: BLE001 - any unreadable part is reported the same way
                raise ds.DatasetError(f"{path} is unreadable ({e}); delete it and re-run") from None
            if rows > n:
                raise ds.DatasetError(
                    f"{path} holds {rows} games where {n} were expected; re-run with --overwrite"
                )
            if rows == n:
                done.add(first)
            # rows < n: the short last chunk of a run that is being extended; it is replayed whole
    return done


def prepare(out: Path, spec: RunSpec, overwrite: bool = False) -> RunSpec:
    """Make `out` ready for `spec`; return the spec to run (chunking of an existing run).

    Refuses a directory holding another run (unless overwrite) or foreign files.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ds.DatasetError(f"{out} exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".simkit-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise ds.DatasetError(f"cannot write to {out}: {e.strerror or e}") from None
    for stale in out.glob(TMP_GLOB):
        stale.unlink()  # left by a run killed mid-write; never a finished part
    manifest = ds.read_manifest(out)
    if manifest is None:
        foreign = [p.name for p in out.iterdir()]
        if foreign:
            raise ds.DatasetError(
                f"{out} is not empty and holds no simkit dataset ({', '.join(sorted(foreign)[:3])}, ...); "
                "choose a new or empty directory"
            )
        return spec
    same = manifest.get("identity") == spec.identity()
    written_by = manifest.get("versions", {})
    now = ds.versions()
    if same and not overwrite and any(written_by.get(k) != now[k] for k in ("simkit", "kernel_sources")):
        raise ds.DatasetError(
            f"{out} was written by simkit {written_by.get('simkit')} (kernel {written_by.get('kernel_sources')}), "
            f"this is {now['simkit']} (kernel {now['kernel_sources']}); its games may differ: "
            "use --overwrite to replay it or choose another --out"
        )
    if not same or overwrite:
        if not overwrite:
            raise ds.DatasetError(
                f"{out} holds a different run (seed {manifest['identity']['seed']}, "
                f"{_describe(manifest['identity'])}); use --overwrite to replace it or choose another --out"
            )
        for p in list(out.glob(ds.PART_GLOB)) + [out / ds.MANIFEST]:
            p.unlink(missing_ok=True)
        return spec
    if spec.games < manifest["games"]:
        raise ds.DatasetError(
            f"{out} already holds a run of {manifest['games']} games; ask for at least that many "
            "or use --overwrite"
        )
    # Same run: keep the chunking already on disk.
    return RunSpec(spec.rules, spec.lineup, spec.seed, spec.games, manifest["chunk_size"])


def _describe(identity: dict) -> str:
    r = identity["rules"]
    return f"{r['players']} players, {r['teams']} teams, policies {','.join(identity['policies'])}"


def _manifest(spec: RunSpec, done: set[int]) -> dict:
    return {
        "format": ds.FORMAT,
        "identity": spec.identity(),
        "games": spec.games,
        "chunk_size": spec.chunk_size,
        "versions": ds.versions(),
        "columns": ds.SCHEMA.names,
        "chunks": [
            {"first_game": first, "games": n, "file": ds.part_name(first), "done": first in done}
            for first, n in spec.chunks()
        ],
        "complete": len(done) == len(spec.chunks()),
    }


def _yield_to_kernel() -> None:
    """Lower the writer thread's priority so the kernel's threads keep the cores."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    except (AttributeError, OSError):  # not on this platform: the writer just shares the cores
        pass


def run(
    out: Path,
    spec: RunSpec,
    overwrite: bool = False,
    on_chunk: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> RunOutcome:
    """Play the missing chunks of `spec` into `out`; return what was done.

    on_start(games already on disk) is called once before playing, and
    on_chunk(games) after each chunk is written. Ctrl-C stops after the part
    being written is complete; the outcome says `interrupted`.
    """
    check_spec(spec)
    out = Path(out)
    spec = prepare(out, spec, overwrite)
    done = _finished(out, spec)
    outcome = RunOutcome(out, spec.games, len(spec.chunks()), len(done))
    ds.write_json_atomic(out / ds.MANIFEST, _manifest(spec, done))
    todo = [(first, n) for first, n in spec.chunks() if first not in done]
    if on_start is not None:
        on_start(spec.games - sum(n for _, n in todo))
    identity = spec.identity()
    start = time.perf_counter()
    pending: tuple[Future, int, int] | None = None

    def flush(notify: bool = True) -> None:
        """Wait for the part being written, then record it in the manifest."""
        nonlocal pending
        if pending is None:
            return
        future, first, n = pending
        future.result()  # if Ctrl-C lands here, `pending` still names the part
        pending = None
        done.add(first)
        ds.write_json_atomic(out / ds.MANIFEST, _manifest(spec, done))
        outcome.chunks_written += 1
        outcome.games_played += n
        if notify and on_chunk is not None:
            on_chunk(n)

    # The kernel (which releases the GIL) plays chunk k while a writer thread writes chunk k-1.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="simkit-writer", initializer=_yield_to_kernel) as writer:
        try:
            for first, n in todo:
                stats = simulate(spec.rules, spec.lineup, spec.seed, first, n)
                flush()
                pending = (writer.submit(ds.write_part, out, stats, first, identity), first, n)
            flush()
        except KeyboardInterrupt:
            outcome.interrupted = True
            flush(notify=False)  # the part being written completes, then counts
    outcome.seconds = time.perf_counter() - start
    return outcome
