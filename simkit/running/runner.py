"""Run N games of one configuration into a dataset, chunk by chunk, resumably.

A run is identified by its identity (``simkit.running.dataset.identity_of``). Its
games are split into chunks of ``chunk_size`` consecutive game indices;
an executor (``simkit.running.executors``: this machine's threads, or a Dask
cluster, ``simkit.running.distributed``) plays each chunk and writes it as one part
file. A part file that exists is complete (it was fsynced and renamed into
place) and says which run it belongs to, so a re-run checks the parts on
disk, plays only the missing chunks, and a finished run plays nothing. A
part that cannot be read (a power loss, a truncated copy), or whose bytes are
not those written (their sha256 differs from the one the chunk log recorded
when it was written: simkit.running.parts.open_part), is set aside under a name
that says so and played again, the same bytes. The manifest (``simkit.running.manifest``) is
a small header and a log with one line per finished chunk: the same
bookkeeping per chunk at any length of run.

The runner keeps the directory: one writer at a time (a run holds the
directory's lock, ``simkit.files.lock``, from start to end), resume, refusals and
the manifest; the executor only plays and writes parts.

One module for the run directory's life: its chunks, lock, resume, refusals and manifest.
"""

from __future__ import annotations

import functools
import json
import os
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from simkit.files.atomic import remove_temporaries
from simkit.files.lock import LOCK_NAME, DirectoryLock, LockedError
from simkit.game.options import OPTIONS, is_default, shown
from simkit.game.play import GAME_LOOP, check_games, left_to_compile
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.running import dataset as ds
from simkit.running import manifest as mf
from simkit.running.dask_executor import DaskExecutor  # loaded only when a cluster plays
from simkit.running.executors import Chunks, Executor, LocalExecutor, RunEvents
from simkit.running.parts import (
    DamagedPart,
    UnreadablePart,
    digest_of,
    file_digest,
    open_part,
    part_bytes,
    read_columns,
    read_part_metadata,
    set_aside,
)

MAX_CHUNK_SIZE = 5_000_000  # 5M rows x 20 int64 stats = 800 MB in flight; more is a mistake


def default_chunk_size(lineup: Lineup) -> int:
    """Games per part file for a line-up: its players' declared chunk size, the smallest (a slow
    player's chunks stay short, so a killed run loses little)."""
    return lineup.chunk_size


ENTRY_SECONDS = 2  # an entry point (a batch, a record) around a game loop already compiled: 1-2 s measured


@functools.cache
def compile_seconds() -> dict[str, int]:
    """Each kernel's first compile, cold, as measured by benchmarks/compile_estimates.py: the game loop's
    (GAME_LOOP, with random's decision) and each other player's decision's, by name."""
    return json.loads(resources.files("simkit.data").joinpath("compile_seconds.json").read_text(encoding="utf-8"))


def compile_estimate(lineup_spec: str) -> int:
    """Seconds the compile left for a line-up's kernels takes, roughly: of each kernel numba's cache does
    not hold yet (``simkit.game.play.left_to_compile``), its measured seconds (``compile_seconds``; a
    player not measured counts as the slowest measured); ENTRY_SECONDS where only an entry point is left.
    Of several line-ups joined by ' and ' (a study's), each kernel counts once."""
    measured = compile_seconds()
    slowest = max(s for name, s in measured.items() if name != GAME_LOOP)
    left: dict[str, int] = {}
    for spec in lineup_spec.split(" and "):
        names = list(dict.fromkeys(p.split(":")[0].strip() for p in spec.split(",")))
        teams = max(2, len(names))
        try:
            rules = Rules.make(teams, teams)
            todo = left_to_compile(Lineup.parse(spec, rules), rules)
        except ValueError:  # a line-up this table does not take: everything
            todo = [GAME_LOOP, *names]
        for item in todo:
            left[item] = measured.get(item, slowest)
        if not todo:
            left.setdefault(f"an entry point of {spec}", ENTRY_SECONDS)
    return sum(left.values())


def compile_notice(lineup_spec: str, where: str = "") -> str:
    """What the compile notice says: the line-up, first run only, its players' compile estimate."""
    return f"compiling the kernels for {lineup_spec}{where} (first run only, about {compile_estimate(lineup_spec)} s)"


def compiled_notice(seconds: float) -> str:
    """What the compile notice becomes once the kernels are compiled."""
    return f"compiled in {seconds:.0f} s; they are cached for later runs"


def run_folder_name(rules: Rules, lineup: Lineup, seed: int, default_seed: int) -> str:
    """A directory name made of a run's configuration: 'p4t2-random', 'p2t2-greedy+random-swap-s7'.

    The table ('p4t2'), the line-up, then every rule option not at its
    default (its tag in simkit.game.options.OPTIONS: 'h6,7', 'q3', 'cap30',
    'chips', 'noreshuffle', 'late5'), 'swap', and the seed when it is not
    `default_seed`.
    """

    values = rules.values()
    specs = [p.spec.replace(":", "_") for p in lineup.per_team]
    parts = [
        OPTIONS["players"].tag(rules.players) + OPTIONS["teams"].tag(rules.teams),
        specs[0] if lineup.mixed is False else "+".join(specs),
    ]
    parts += [
        OPTIONS[k].tag(v) for k, v in values.items() if k not in ("players", "teams") and not is_default(k, v, values)
    ]
    if lineup.swap_seats:
        parts.append("swap")
    if seed != default_seed:
        parts.append(f"s{seed}")
    return "-".join(parts)


DEFAULT_FOLDER = "default-2p-random"  # the default configuration's folder (simkit run with no option)


def run_folder(spec: RunSpec, workspace: Path, default_seed: int) -> Path:
    """Where a run of `spec` goes in `workspace` when no --out names a folder: workspace/default-2p-random for
    the default configuration, else workspace/<run_folder_name> (simkit run's and simkit serve's folder)."""
    name = run_folder_name(spec.rules, spec.lineup, spec.seed, default_seed)
    return Path(workspace) / (DEFAULT_FOLDER if name == "p2t2-random" else name)


@dataclass(frozen=True)
class RunSpec:
    """What to play: the configuration, the seed and how many games (chunk_size None: the default)."""

    rules: Rules
    lineup: Lineup
    seed: int
    games: int
    chunk_size: int | None = None

    @property
    def chunking(self) -> int:
        """The chunk size in use."""
        return default_chunk_size(self.lineup) if self.chunk_size is None else self.chunk_size

    def identity(self) -> dict:
        """The facts that decide every row (``simkit.running.dataset.identity_of``)."""
        return ds.identity_of(self.rules, self.lineup, self.seed)

    def chunks(self) -> list[tuple[int, int]]:
        """(first game, number of games) of each chunk."""
        return mf.chunk_list(self.games, self.chunking)

    def describe(self) -> str:
        """'2 players, 2 teams, hand 7, policies random, seed 2026' for messages."""
        return describe(self.identity())


def describe(identity: dict) -> str:
    """A run's configuration in a few words, from its identity (of this version or an older one)."""

    given = identity["rules"]
    values: dict = {}
    for name, option in OPTIONS.items():  # an option older versions lacked was at its default
        value = given.get(name, option.default_for(values))
        values[name] = tuple(value) if isinstance(value, list) else value
    rules = ", ".join(OPTIONS[k].words(v) for k, v in shown(values).items())
    lineup = identity.get("lineup") or ",".join(identity.get("policies", []))
    swap = ", seats swapped" if identity.get("swap_seats") else ""
    return f"{rules}, policies {lineup}{swap}, seed {identity['seed']}"


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
    replaced: str | None = None  # what --overwrite replaced, in words

    @property
    def complete(self) -> bool:
        """Whether every chunk of the run is on disk."""
        return self.chunks_before + self.chunks_written == self.chunks

    @property
    def games_per_second(self) -> float:
        """Games played per wall-clock second in this call (0 when none played)."""
        return self.games_played / self.seconds if self.seconds > 0 and self.games_played else 0.0


def check_spec(spec: RunSpec) -> None:
    """Reject a game count or chunk size the runner does not take, or a line-up parsed for another table
    (its seats, teams or table-dependent defaults would not be this table's)."""
    check_lineup(spec.rules, spec.lineup)
    if spec.games < 1:
        raise ValueError(f"games must be at least 1, got {spec.games}")
    if not 1 <= spec.chunking <= MAX_CHUNK_SIZE:
        raise ValueError(f"chunk size must be 1..{MAX_CHUNK_SIZE}, got {spec.chunking}")
    check_games(spec.seed, 0, spec.games)


def check_lineup(rules: Rules, lineup: Lineup) -> None:
    """Refuse a line-up that was not parsed for the table of `rules` (Lineup.parse(spec, rules))."""
    if (lineup.players, lineup.teams) != (rules.players, rules.teams) or Lineup.parse(
        lineup.spec, rules, lineup.swap_seats
    ) != lineup:
        raise ValueError(
            f"the line-up {lineup.spec!r} was parsed for another table ({lineup.players} players, "
            f"{lineup.teams} teams) than the rules' ({rules.players} players, {rules.teams} teams); "
            "parse it with Lineup.parse(spec, rules)"
        )


# --- the directory -----------------------------------------------------------


def _finished(directory: Path, spec: RunSpec, run_id: str, events: RunEvents) -> dict[int, str]:
    """First game -> the digest of its part, for the chunks whose part files are whole on disk and belong to
    this run.

    Every part is checked: its bytes against the digest the chunk log recorded
    when it was written; a part without one (its line lost, or written before
    parts had digests) is read whole, every page against its checksum, and its
    digest recorded from now on. A part of another run, or one that does not
    fit the run's chunks, is refused; one that cannot be read or fails its
    check is set aside (events.notice says so), and its chunk is played again.
    """
    chunks = dict(spec.chunks())
    recorded = mf.digests(directory)
    done: dict[int, str] = {}
    for path in sorted(directory.glob(ds.PART_GLOB)):
        named = _first_game_of(path)
        digest = recorded.get(named) if named is not None else None
        try:
            data = part_bytes(path, None)
            meta = read_part_metadata(path, data)
            if meta.get("run_id") != run_id and _self_consistent(meta):
                raise ds.DatasetError(
                    f"{path} belongs to another run ({_part_origin(meta)}); move it away or choose another --out"
                )
            if digest is not None:
                part_bytes(path, digest, data)
            else:
                read_columns(open_part(path, None), path)  # every page of every column, checked
                digest = digest_of(data)
        except UnreadablePart as e:
            aside = set_aside(path)
            what = "is damaged" if isinstance(e, DamagedPart) else "cannot be read"
            events.notice(f"{path} {what} ({e.why}): set aside as {aside.name}; its games will be played again")
            continue
        if meta.get("run_id") != run_id:
            raise ds.DatasetError(
                f"{path} belongs to another run ({_part_origin(meta)}); move it away or choose another --out"
            )
        first, rows = meta.get("first_game"), meta.get("games")
        if not isinstance(first, int) or path.name != ds.part_name(first) or first not in chunks:
            raise ds.DatasetError(
                f"{path} does not fit this run's chunks of {spec.chunking} games; re-run with --overwrite"
            )
        if not isinstance(rows, int) or rows > chunks[first]:
            raise ds.DatasetError(
                f"{path} holds {rows} games where {chunks[first]} were expected; re-run with --overwrite"
            )
        if rows == chunks[first]:
            done[first] = digest
        # fewer: the short last chunk of a run that is being extended; it is replayed whole
    return done


def _self_consistent(meta: dict) -> bool:
    """Whether a part's metadata names the run its identity is (a part of another run, not a damaged one of
    this run whose run id a flipped bit changed)."""
    try:
        return ds.run_id(meta["identity"]) == meta["run_id"]
    except (KeyError, TypeError, ValueError):
        return False


def _first_game_of(path: Path) -> int | None:
    """The first game a part's file name says it holds (part-000000100000.parquet: 100000), None if none."""
    digits = path.name.removeprefix("part-").removesuffix(".parquet")
    return int(digits) if digits.isdigit() else None


def _part_origin(meta: dict) -> str:
    identity = meta.get("identity")
    if not isinstance(identity, dict) or "rules" not in identity:
        return "written by an older simkit"
    return describe(identity) + f", simkit {identity.get('simkit')}"


def prepare(
    out: Path, spec: RunSpec, overwrite: bool = False, events: RunEvents | None = None
) -> tuple[RunSpec, str | None]:
    """Make `out` (locked by the caller) ready for `spec`: (the spec to run, what was replaced or None).

    Keeps the chunking of an existing run of the same identity (events.notice
    says so when spec asked for another); refuses a directory holding another
    run (unless overwrite) or foreign files.
    """
    remove_temporaries(out)  # left by a writer killed mid-write; never a finished part
    manifest = ds.read_manifest(out)
    if manifest is None:
        foreign = sorted(p.name for p in out.iterdir() if not _ours(p))
        if foreign:
            raise ds.DatasetError(
                f"{out} is not empty and holds no simkit dataset ({', '.join(foreign[:3])}, ...); "
                "choose a new or empty directory"
            )
        return spec, None
    identity = spec.identity()
    theirs = manifest.get("identity", {})
    same = manifest.get("run_id") == ds.run_id(identity)
    if not same and not overwrite:
        if _without_versions(theirs) == _without_versions(identity):
            raise ds.DatasetError(
                f"{out} was written by simkit {theirs.get('simkit') or manifest.get('versions', {}).get('simkit')} "
                f"(kernel {theirs.get('kernel') or manifest.get('versions', {}).get('kernel_sources')}), this is "
                f"{identity['simkit']} (kernel {identity['kernel']}); its games may differ: "
                "use --overwrite to replay it or choose another --out"
            )
        raise ds.DatasetError(
            f"{out} holds a different run ({identity_differences(identity, theirs)}; it holds "
            f"{_manifest_words(manifest)}); use --overwrite to replace it or choose another --out"
        )
    if not same:  # overwrite: the parts (set-aside ones too), then the log, the header last
        replaced = _manifest_words(manifest)
        for p in [
            *out.glob(ds.PART_GLOB),
            *out.glob(ds.UNREADABLE_GLOB),
            out / mf.LOG,
            out / mf.TIMES,
            out / ds.MANIFEST,
        ]:
            p.unlink(missing_ok=True)
        return spec, replaced
    if spec.games < manifest["games"]:
        raise ds.DatasetError(
            f"{out} already holds a run of {manifest['games']:,} games; ask for at least that many or use --overwrite"
        )
    theirs = manifest["chunk_size"]
    if spec.chunk_size is not None and spec.chunk_size != theirs and events is not None:
        events.notice(
            f"{out} is written in chunks of {theirs:,} games: resuming in those, not in the "
            f"--chunk-size {spec.chunk_size:,} asked for (a chunk size applies to a new dataset only)"
        )
    return RunSpec(spec.rules, spec.lineup, spec.seed, spec.games, theirs), None


def _ours(path: Path) -> bool:
    """A file simkit keeps beside a run's parts: the lock, the chunk log, the times log, a part set aside."""
    return path.name in (LOCK_NAME, mf.LOG, mf.TIMES) or path.match(ds.UNREADABLE_GLOB)


def identity_differences(mine: dict, theirs: dict) -> str:
    """'seed 7 asked, 2026 on disk; players 4 asked, 2 on disk': the fields of two run identities that differ."""
    out = []
    for key in ("seed", "lineup", "swap_seats", "board", "simkit", "kernel"):
        if mine.get(key) != theirs.get(key):
            out.append(f"{key} {mine.get(key)} asked, {theirs.get(key)} on disk")
    ra, rb = mine.get("rules", {}), theirs.get("rules", {})
    for name in ra:
        if name in rb and ra[name] != rb[name]:
            out.append(f"{name} {_plain_value(ra[name])} asked, {_plain_value(rb[name])} on disk")
        elif name not in rb and name != "chip_supply":
            out.append(f"{name} {_plain_value(ra[name])} asked, absent on disk")
    if not out and mine.get("policies") != theirs.get("policies"):
        out.append(_policy_differences(mine.get("policies") or [], theirs.get("policies") or []))
    return "; ".join(out) or "its identity differs"


def _policy_differences(mine: list[dict], theirs: list[dict]) -> str:
    """ "swift's rollouts 10 asked, 6 on disk; ...": the seats' player parameters that differ (each said once)."""
    said: list[str] = []
    for a, b in zip(mine, theirs):
        if a.get("name") != b.get("name"):
            said.append(f"player {a.get('name')} asked, {b.get('name')} on disk")
            continue
        pa, pb = a.get("params", {}), b.get("params", {})
        for key in pa:
            if pa[key] != pb.get(key):
                on_disk = "absent" if key not in pb else f"{pb[key]:g}"
                said.append(f"{a['name']}'s {key} {pa[key]:g} asked, {on_disk} on disk")
    said = list(dict.fromkeys(said))
    if not said:
        return "a player's parameter differs"
    more = len(said) - 3
    return "; ".join(said[:3]) + (f"; and {more} more" if more > 0 else "")


def _plain_value(v) -> str:
    return ",".join(map(str, v)) if isinstance(v, list) else str(v)


def _without_versions(identity: dict) -> dict:
    return {k: v for k, v in identity.items() if k not in ("simkit", "kernel")}


def _manifest_words(manifest: dict) -> str:
    """'200,000 games (60,000 on disk) of 2 players, ...' for messages."""
    on_disk = sum(c["games"] for c in manifest.get("chunks", []) if c.get("done"))
    games = manifest.get("games", 0)
    count = f"{games:,} games" + ("" if on_disk == games else f" ({on_disk:,} on disk)")
    identity = manifest.get("identity", {})
    try:
        return f"{count} of {describe(identity)}"
    except (KeyError, TypeError):
        return f"{count} written by simkit {manifest.get('versions', {}).get('simkit', '?')}"


def _open(out: Path) -> None:
    """Create `out` and check it can be written."""
    if out.exists() and not out.is_dir():
        raise ds.DatasetError(f"{out} exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / f".simkit-write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise ds.DatasetError(f"cannot write to {out}: {e.strerror or e}") from None


# --- playing -----------------------------------------------------------------


def run(
    out: Path, spec: RunSpec, overwrite: bool = False, events: RunEvents | None = None, scheduler=None
) -> RunOutcome:
    """Play the missing chunks of `spec` into `out`; return what was done.

    events hears of the run's progress. Ctrl-C stops within about a game's
    time: the chunk being played is dropped, the part being written
    completes; the outcome says `interrupted`. scheduler: None plays here on
    this machine's threads (simkit.game.play.set_threads); 'local:N' or 'tcp://HOST:PORT' on a Dask cluster
    (``simkit.running.distributed``), as does a cluster from simkit.running.distributed.connect or a distributed.Client;
    an Executor (``simkit.running.executors``) plays as it does.
    """
    check_spec(spec)
    executor = executor_for(scheduler)
    executor.check()  # a bad scheduler or no dask: refused before the directory is touched
    out = Path(out)
    events = events or RunEvents()
    _open(out)
    try:
        lock = DirectoryLock(out).__enter__()
    except LockedError as e:
        raise ds.DatasetError(str(e)) from None
    try:
        spec, replaced = prepare(out, spec, overwrite, events)
        identity = spec.identity()
        digests = _finished(out, spec, ds.run_id(identity), events)
        done = set(digests)
        outcome = RunOutcome(out, spec.games, len(spec.chunks()), len(done), replaced=replaced)
        mf.start(
            out,
            mf.header(
                identity,
                spec.games,
                spec.chunking,
                run_id=ds.run_id(identity),
                versions=ds.versions(),
                columns=ds.SCHEMA.names,
            ),
            [(first, n) for first, n in spec.chunks() if first in done],
            digests,
        )
        todo = [(first, n) for first, n in spec.chunks() if first not in done]
        events.started(spec.games, spec.games - sum(n for _, n in todo))
        chunks = Chunks(out, spec.rules, spec.lineup, spec.seed, identity, todo)
        if todo:
            try:
                executor.warm_up(chunks, events)  # compile (first run) or load the kernels, outside the timing
            except KeyboardInterrupt:
                outcome.interrupted = True
                return outcome
            events.playing()
        start = time.perf_counter()

        def finished(first: int, n: int) -> None:
            """Chunk `first` is on disk: one line in the manifest's log, with the digest of the part's bytes
            (read back from the disk), then counted (once).

            The line comes first. A signal (Ctrl-C, SIGTERM) landing before it is written leaves
            the chunk uncounted, so record_parts_on_disk records it; counted first, the chunk was
            skipped there and its part stayed out of the log (seen: a cluster run SIGTERMed on a
            loaded machine). A line written twice is harmless: the log is read as a set.
            """
            if first in done:
                return
            mf.record(out, first, n, file_digest(out / ds.part_name(first)))
            done.add(first)
            outcome.chunks_written += 1
            outcome.games_played += n

        try:
            if todo:
                outcome.interrupted = executor.play(chunks, finished, events)
        finally:  # a part renamed into place as the run stopped (Ctrl-C, SIGTERM, a failed chunk) counts too
            record_parts_on_disk(out, [(f, n) for f, n in todo if f not in done], ds.run_id(identity), finished)
            outcome.seconds = time.perf_counter() - start
            if outcome.games_played:
                mf.record_time(out, outcome.games_played, outcome.seconds)
        return outcome
    finally:
        lock.__exit__(None, None, None)


def executor_for(scheduler) -> Executor:
    """The executor of a run's `scheduler` (see `run`): this machine's threads for None, a Dask cluster
    for a scheduler string, a cluster or a client, an Executor as it is."""
    if scheduler is None:
        return LocalExecutor()
    if isinstance(scheduler, Executor):
        return scheduler

    return DaskExecutor(scheduler)


def record_parts_on_disk(out: Path, chunks: list[tuple[int, int]], rid: str, finished) -> None:
    """finished(first, n) for each of `chunks` whose part is on disk, whole and of run `rid`.

    A signal can land between a part's rename and its bookkeeping; the disk
    is the truth.
    """
    for first, n in chunks:
        path = out / ds.part_name(first)
        try:
            meta = read_part_metadata(path) if path.exists() else None
        except ds.DatasetError:
            continue
        if meta and meta.get("run_id") == rid and meta.get("games") == n and meta.get("first_game") == first:
            finished(first, n)
