"""The on-disk dataset: per-game rows in Parquet part files plus a manifest.

Layout of a run directory::

    DIR/_manifest.json                     identity, versions, games, chunk size (simkit.running.manifest)
    DIR/_chunks.log                        one line per finished chunk (simkit.running.manifest)
    DIR/_times.log                         the wall time of each command that played (simkit.running.manifest)
    DIR/part-000000000000.parquet          games [0, chunk_size)
    DIR/part-000000100000.parquet          games [chunk_size, 2 * chunk_size)
    DIR/.simkit.lock                       held by the run writing DIR (simkit.files.lock)
    DIR/_part-....parquet.unreadable-...   a part a resume could not read, set aside (set_aside)

A run's *identity* is everything that decides its rows (``identity_of``):
seed, rules (with the chip supply), a hash of the board, every seat's player
with all its parameters, whether seats swap, the simkit version and the
kernel's games stamp (``kernels.GAMES_STAMP``: which games the kernel plays,
unchanged by kernel edits that keep every game). Its hash, ``run_id``, is a
column of every row and a key of every part's metadata, so a part from
another run is recognised, and a report never pools two runs or counts a
game twice.

Files are written under a temporary name, fsynced and renamed into place
(simkit.files.atomic.replacing), so a part file that exists is complete, even
after a power loss. Every part is checked whenever it is read (``open_part``):
its bytes against the sha256 its chunk log recorded when it was written
(simkit.running.manifest.digests); a part without a recorded digest (its log line
lost) has each page it is read from checked against the CRC-32 the page
carries (Parquet page checksums, written into every part). A part that fails
(``DamagedPart``) is a missing chunk to every reader: a report names it, a
resume sets it aside and plays its chunk again, the same bytes. A part
written before parts had either is read as before.
Columns are non-nullable; parts are
lz4-compressed, without column statistics, with dictionary encoding only for
the string columns and delta encoding for the game index (see
WRITE_OPTIONS): about 19-25 ms of CPU per 100,000 games, Arrow conversion
included (the kernel hands each statistic over as a contiguous column, so
the conversion copies nothing it need not). The writer thread shares the
cores at the kernel's priority (simkit.running.executors.LocalExecutor); a part holds
~1.85 MB per 100,000 games.

One module for the dataset's format: what a part holds, a run's identity, writing and reading.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shlex
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simkit.files.atomic import fsync_directory, replacing
from simkit.game.boards import OFFICIAL, layout_hash
from simkit.game.options import OPTIONS, is_default, sizes_text
from simkit.game.players import Lineup
from simkit.game.rules import CHIP_SUPPLY, Rules
from simkit.kernels import GAMES_STAMP
from simkit.kernels.core.config import MAX_TEAMS
from simkit.kernels.core.jit import SOURCES_HASH
from simkit.kernels.core.stats import STATS
from simkit.running import manifest as mf
from simkit.running.manifest import FORMAT, part_name, writing
from simkit.version import VERSION

MANIFEST = mf.HEADER  # the manifest's header file, DIR/_manifest.json
PART_GLOB = "part-*.parquet"
UNREADABLE_GLOB = "_part-*.parquet.unreadable-*"  # parts set aside: "_" hides them from Parquet readers

STRING = pa.dictionary(pa.int8(), pa.string())
NUMPY_TYPES = {
    pa.bool_(): np.bool_,
    pa.int8(): np.int8,
    pa.int16(): np.int16,
    pa.int32(): np.int32,
    pa.int64(): np.int64,
}
"""The numpy type of each Arrow type of a non-text column (Arrow's to_pandas_dtype would import
pandas, half a second of CPU, in the writer thread of every run)."""
ARROW_TYPES = {np.dtype(t): a for a, t in NUMPY_TYPES.items()}


def stat_columns() -> dict[str, tuple[str, int | None, pa.DataType]]:
    """The dataset's column of each per-game statistic (simkit.kernels.core.stats.STATS), in order: name ->
    (the statistic, its team or None, its Arrow type: text for a category, else its declared type)."""
    columns = {}
    for stat in STATS:
        typ = STRING if stat.names else ARROW_TYPES[np.dtype(stat.column)]
        for team in range(MAX_TEAMS) if stat.per_team else [None]:
            columns[stat.name if team is None else f"{stat.name}_{team}"] = (stat.name, team, typ)
    return columns


STAT_COLUMNS = stat_columns()
STAT_TYPES: dict[str, pa.DataType] = {name: typ for name, (*_, typ) in STAT_COLUMNS.items()}
"""The per-game statistics' columns and their Arrow types."""
OPTION_TYPES: dict[str, pa.DataType] = {name: option.column_type for name, option in OPTIONS.items()}
"""A column per rule option (simkit.game.options.OPTIONS), in the table's order."""
CONFIG_TYPES: dict[str, pa.DataType] = {
    **OPTION_TYPES,
    "policies": STRING,  # per seat, seat 0 first; with swapped seats it alternates from game to game
    "seed": pa.int64(),
    "run_id": STRING,
}

SCHEMA = pa.schema(
    [pa.field(k, t, nullable=False) for k, t in CONFIG_TYPES.items()]
    + [pa.field("game", pa.int64(), nullable=False)]
    + [pa.field(k, t, nullable=False) for k, t in STAT_TYPES.items()]
)
assert all(f.type in NUMPY_TYPES for f in SCHEMA if f.type != STRING), "a column type NUMPY_TYPES lacks"

# Parquet writer settings, chosen for writing speed (measured per 100,000 games,
# 2-player random: defaults 35-40 ms / 1.3 MB; these 20 ms / 1.8 MB). Dictionary
# encoding of 27 small-integer columns and of the unique game indices cost more
# than it saved; delta encoding shrinks the game index column to almost nothing.
WRITE_OPTIONS = {
    "compression": "lz4",
    "write_statistics": False,
    "use_dictionary": [name for name, t in {**CONFIG_TYPES, **STAT_TYPES}.items() if t == STRING],
    "column_encoding": {"game": "DELTA_BINARY_PACKED"},
    "write_page_checksum": True,  # a CRC-32 in every page header, checked where no digest is (open_part)
}


class DatasetError(ValueError):
    """A directory that is not a usable simkit dataset; the message says why."""


def versions() -> dict[str, str]:
    """Versions of everything that took part in writing a dataset."""
    return {
        "simkit": VERSION,
        "kernel_sources": SOURCES_HASH[:16],  # the sources that ran (provenance); the games: "kernel" of identity_of
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pyarrow": pa.__version__,
        "python": platform.python_version(),
    }


def board_hash(board: str = OFFICIAL) -> str:
    """A short hash of the layout of the board the kernel plays on (simkit.game.boards)."""

    return layout_hash(board)


def identity_of(rules, lineup, seed: int) -> dict:
    """Everything that decides a run's rows (rules: simkit.game.rules.Rules; lineup: simkit.game.players.Lineup)."""

    return {
        "seed": seed,
        "rules": {**rules.as_dict(), "chip_supply": list(CHIP_SUPPLY)},
        "board": board_hash(rules.layout),
        "lineup": lineup.spec,
        "swap_seats": lineup.swap_seats,
        "seat_policies": lineup.seat_texts(),
        "policies": lineup.resolved(),
        "simkit": VERSION,
        "kernel": GAMES_STAMP,
    }


def run_id(identity: dict) -> str:
    """The identity's hash: 16 hex digits."""
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def _strings(values: list[str], indices: np.ndarray) -> pa.DictionaryArray:
    """The text column whose row i is values[indices[i]]."""
    return pa.DictionaryArray.from_arrays(_column(indices, pa.int8()), _text(values))


def _text(values: list[str]) -> pa.StringArray:
    """The Arrow string array of `values`, from its buffers (``pa.array`` would import pandas)."""
    encoded = [v.encode() for v in values]
    offsets = np.cumsum([0, *map(len, encoded)], dtype=np.int32)
    return pa.Array.from_buffers(
        pa.string(), len(values), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))]
    )


def _column(values: np.ndarray, typ: pa.DataType) -> pa.Array:
    """The Arrow array of type `typ` (a key of NUMPY_TYPES) of a 1-D numpy array, made from its
    buffer (``pa.array`` of a numpy array imports pandas, to ask whether it is a pandas object)."""
    if typ == pa.bool_():
        data = np.packbits(values.astype(np.bool_), bitorder="little")  # Arrow's booleans are bits
    else:
        data = np.ascontiguousarray(values, NUMPY_TYPES[typ])
    return pa.Array.from_buffers(typ, len(values), [None, pa.py_buffer(data)])


def to_table(stats: np.ndarray, first_game: int, identity: dict) -> pa.Table:
    """Arrow table of the (n,) GAME_STATS records `stats` of games first_game.. of the run `identity`."""
    n = stats.shape[0]
    rules = identity["rules"]
    games = np.arange(first_game, first_game + n, dtype=np.int64)
    constants = {**{k: OPTIONS[k].column_value(_tuple(rules[k])) for k in OPTIONS}, "seed": identity["seed"]}
    zeros = np.zeros(n, np.int8)
    columns: list[pa.Array] = []
    for name, typ in CONFIG_TYPES.items():
        if typ == STRING and name in OPTIONS:
            columns.append(_strings([constants[name]], zeros))
        elif name == "policies":
            seat_policies = identity["seat_policies"]
            columns.append(_strings(seat_policies, games % len(seat_policies)))
        elif name == "run_id":
            columns.append(_strings([run_id(identity)], zeros))
        else:
            columns.append(_column(np.full(n, constants[name], NUMPY_TYPES[typ]), typ))
    columns.append(_column(games, pa.int64()))
    names = {stat.name: stat.names for stat in STATS}
    for stat, team, typ in STAT_COLUMNS.values():
        values = stats[stat] if team is None else stats[stat][:, team]
        columns.append(_strings(list(names[stat]), values) if typ == STRING else _column(values, typ))
    return pa.Table.from_arrays(columns, schema=SCHEMA)


def _tuple(value):
    """A list from JSON (a per-seat hand size) as the tuple Rules holds."""
    return tuple(value) if isinstance(value, list) else value


def part_metadata(identity: dict, first_game: int, games: int) -> dict:
    """What a part file says of itself (its schema metadata, key ``simkit``)."""
    return {
        "format": FORMAT,
        "run_id": run_id(identity),
        "identity": identity,
        "first_game": first_game,
        "games": games,
    }


def write_part(directory: Path, stats: np.ndarray, first_game: int, identity: dict) -> Path:
    """Write one part atomically (a temporary file of this writer's own, then a rename); its path."""
    path = Path(directory) / part_name(first_game)
    table = to_table(stats, first_game, identity)
    meta = json.dumps(part_metadata(identity, first_game, len(table)), sort_keys=True).encode()
    with writing(path), replacing(path) as tmp:
        pq.write_table(table.replace_schema_metadata({b"simkit": meta}), tmp, **WRITE_OPTIONS)
    return path


def write_json_atomic(path: Path, obj: dict) -> None:
    """Write JSON to `path` through a temporary file and a rename."""
    with writing(path), replacing(path) as tmp:
        tmp.write_text(json.dumps(obj, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def read_manifest(directory: Path) -> dict | None:
    """The run's manifest, with its chunks list and complete flag (simkit.running.manifest.read), or None
    where there is none; DatasetError if unreadable."""
    try:
        return mf.read(directory)
    except mf.ManifestError as e:
        raise DatasetError(str(e)) from None


class UnreadablePart(DatasetError):
    """A part file that cannot be read as Parquet (empty, truncated, not Parquet); `why` says how."""

    def __init__(self, path: Path, why: str):
        super().__init__(f"{path} is not a readable Parquet part ({why})")
        self.path, self.why = Path(path), why

    def __reduce__(self):  # copied and pickled whole (pandas copies the shortfalls a DataFrame's attrs hold)
        return type(self), (self.path, self.why)


class DamagedPart(UnreadablePart):
    """A part whose bytes are not those written (its digest differs from the one its chunk log recorded) or
    whose pages fail their checksums: a missing chunk to every reader; `why` says how."""

    def __init__(self, path: Path, why: str):
        DatasetError.__init__(self, f"{path} is damaged ({why})")
        self.path, self.why = Path(path), why


def digest_of(data: bytes) -> str:
    """The digest a chunk log records of a part: the sha256 of its bytes, in hex (as sha256sum prints it)."""
    return hashlib.sha256(data).hexdigest()


def file_digest(path: Path) -> str | None:
    """The digest (digest_of) of the file at `path`, None if it cannot be read."""
    try:
        return digest_of(Path(path).read_bytes())
    except OSError:
        return None


def part_bytes(path: Path, digest: str | None, data: bytes | None = None) -> bytes:
    """The bytes of the part at `path` (`data`, if already read), checked against `digest` (the sha256 its
    chunk log recorded when it was written; None: no digest recorded, nothing to check them against).

    UnreadablePart if the file cannot be read, DamagedPart if its bytes are not the ones written.
    """
    if data is None:
        try:
            data = Path(path).read_bytes()
        except OSError as e:
            raise UnreadablePart(path, e.strerror or str(e)) from None
    if digest is not None:
        got = digest_of(data)
        if got != digest:
            raise DamagedPart(
                path, f"its bytes are not the ones written: sha256 {got[:12]}..., {mf.LOG} recorded {digest[:12]}..."
            )
    return data


def open_part(path: Path, digest: str | None, checked: bytes | None = None) -> pq.ParquetFile:
    """The part at `path` opened for reading, its bytes checked against `digest` (part_bytes; `checked`: its
    bytes, already checked so); without a digest, every page read from it is checked against its page
    checksum instead (with one, the bytes are the ones written, pages and all: checking the pages again would
    cost more than the digest, 2.8 ms against 1.5 ms per 100,000 games). UnreadablePart or DamagedPart when
    it fails."""
    data = part_bytes(path, digest) if checked is None else checked
    if not data:
        raise UnreadablePart(path, "the file is empty")
    try:
        return pq.ParquetFile(pa.BufferReader(data), page_checksum_verification=digest is None)
    except (OSError, pa.ArrowException) as e:
        raise UnreadablePart(path, " ".join(str(e).split())) from None


def read_columns(part: pq.ParquetFile, path: Path, columns: list[str] | None = None) -> pa.Table:
    """The columns (None: all) of an opened part (open_part); DamagedPart if a page fails its checksum or
    does not decode."""
    try:
        return part.read(columns=columns)
    except (OSError, pa.ArrowException) as e:
        raise DamagedPart(path, " ".join(str(e).split())) from None


def read_part_metadata(path: Path, data: bytes | None = None) -> dict:
    """The ``simkit`` metadata of a part file, from its footer alone (of `data`, the file's bytes, if given).

    UnreadablePart if the file is not readable Parquet or its row count is
    not the one its metadata gives; DatasetError if it has no simkit metadata.
    """
    try:
        footer = pq.read_metadata(path if data is None else pa.BufferReader(data))
    except (OSError, pa.ArrowException) as e:
        empty = (Path(path).exists() and Path(path).stat().st_size == 0) if data is None else not data
        raise UnreadablePart(path, "the file is empty" if empty else " ".join(str(e).split())) from None
    metadata = footer.metadata or {}
    if b"simkit" not in metadata:
        raise DatasetError(f"{path} is not a simkit part file (no simkit metadata)")
    try:
        meta = json.loads(metadata[b"simkit"])
    except ValueError:
        raise UnreadablePart(path, "its simkit metadata is not JSON") from None
    if isinstance(meta, dict) and isinstance(meta.get("games"), int) and footer.num_rows != meta["games"]:
        raise UnreadablePart(path, f"it holds {footer.num_rows} rows where its metadata says {meta['games']}")
    return meta


def set_aside(path: Path) -> Path:
    """Rename an unreadable part to _part-....parquet.unreadable-<UTC time>, out of every reader's way; the new path.

    The leading "_" keeps pandas, pyarrow and Dask from reading it as a
    part; the name no longer ends in .parquet, so globs skip it too.
    """

    path = Path(path)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    aside = path.with_name(f"_{path.name}.unreadable-{stamp}")
    k = 1
    while aside.exists():
        k += 1
        aside = path.with_name(f"_{path.name}.unreadable-{stamp}-{k}")
    os.replace(path, aside)
    fsync_directory(path.parent)
    return aside


@dataclass(frozen=True)
class Run:
    """One run found under a directory: its manifest, its finished parts and the digests its chunk log
    recorded of them (part file name -> sha256; a part without one is read unchecked, as before)."""

    directory: Path
    manifest: dict
    parts: list[Path]
    digests: dict[str, str] = field(default_factory=dict)
    logged: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (first game, games), digest given

    def digest(self, path: Path) -> str | None:
        """The digest recorded of the part at `path` when it was written, None if none was."""
        return self.digests.get(Path(path).name) if Path(path).parent == self.directory else None

    def chunk_of(self, path: Path) -> tuple[int, int] | None:
        """(first game, games) of the part at `path` as its chunk log recorded them with its digest: what its
        footer says, if its bytes are the ones written (a reader checks them against the digest), so a reader
        need not open its footer to place it; None if the log gives no digest of it."""
        return self.logged.get(Path(path).name) if Path(path).parent == self.directory else None

    @property
    def run_id(self) -> str:
        """The identity's hash (old-format runs: the hash of their manifest's identity)."""
        return self.manifest.get("run_id") or "v1-" + run_id(self.manifest.get("identity", {}))

    @property
    def games(self) -> int:
        """Games the run was asked for."""
        return int(self.manifest.get("games", 0))

    @property
    def games_on_disk(self) -> int:
        """Games in its finished chunks, as the manifest records them."""
        return sum(c["games"] for c in self.manifest.get("chunks", []) if c.get("done"))


def find_runs(root: Path) -> list[Run]:
    """Every run under `root` (the run itself or a folder of runs)."""
    root = Path(root)
    if not root.exists():
        raise DatasetError(f"{root} does not exist; give the folder `simkit run --out` or `simkit study --out` wrote")
    if not root.is_dir():
        raise DatasetError(f"{root} is a file, not a dataset folder; give the folder `simkit run --out` wrote")
    manifests = sorted(root.rglob(MANIFEST))
    if not manifests:
        raise DatasetError(f"{root} holds no simkit dataset (no {MANIFEST} found); create one with `simkit run`")
    return [
        Run(m.parent, _found_manifest(m.parent), sorted(m.parent.glob(PART_GLOB)), *_checked_chunks(m.parent))
        for m in manifests
    ]


def _found_manifest(directory: Path) -> dict:
    """The manifest of a run whose manifest file was found in `directory`."""
    manifest = read_manifest(directory)
    assert manifest is not None, f"{directory / MANIFEST} was found, so it is read"
    return manifest


def _checked_chunks(directory: Path) -> tuple[dict[str, str], dict[str, tuple[int, int]]]:
    """(part file name -> the sha256 the run's chunk log recorded of it, name -> (first game, games)) for
    the chunks the log gives a digest (simkit.running.manifest.checked_chunks)."""
    try:
        chunks = mf.checked_chunks(directory)
    except mf.ManifestError as e:
        raise DatasetError(str(e)) from None
    return ({part_name(f): d for f, (_, d) in chunks.items()}, {part_name(f): (f, n) for f, (n, _) in chunks.items()})


def _read_part(path: Path, run: Run, columns: list[str] | None) -> pa.Table:
    """One part as a table of the current schema (old-format parts are brought up to it), checked
    (open_part): UnreadablePart or DamagedPart when it fails."""
    table = read_columns(open_part(path, run.digest(path)), path)
    if b"simkit" not in (table.schema.metadata or {}):
        raise DatasetError(f"{path} is not a simkit part file (no simkit metadata)")
    if "run_id" not in table.column_names:  # simkit.running.dataset/1: an int8 hand size, no run_id
        n = len(table)
        hand = table.column("hand_size").cast(pa.string()).dictionary_encode().cast(STRING)
        table = table.set_column(table.schema.get_field_index("hand_size"), "hand_size", hand)
        table = table.append_column("run_id", _strings([run.run_id], np.zeros(n, np.int8)))
    for name in OPTIONS:  # written before the option existed: the game was played at its default
        if name not in table.column_names:
            table = table.append_column(
                pa.field(name, OPTION_TYPES[name], nullable=False), _constant(name, OPTIONS[name].default, len(table))
            )
    table = table.select([f for f in SCHEMA.names if f in table.column_names])
    return table if columns is None else table.select([c for c in columns if c in table.column_names])


def _constant(name: str, value, n: int) -> pa.Array:
    """A column of n copies of option `name`'s `value`."""
    typ = OPTION_TYPES[name]
    if typ == STRING:
        return _strings([str(OPTIONS[name].column_value(value))], np.zeros(n, np.int8))
    return _column(np.full(n, value, NUMPY_TYPES[typ]), typ)


def read_games(root: Path, columns: list[str] | None = None, allow_incomplete: bool = False):
    """All per-game rows under `root` as a pandas DataFrame, in run and game order.

    The same run found twice (a copied folder) gives its games once. A run
    with fewer games than it was asked for, or a part that fails its check
    (``open_part``), raises IncompleteDataset saying what is missing and the
    command that completes it; allow_incomplete: the rows there are, with an
    IncompleteDatasetWarning saying the same.
    """
    return read_runs(root, columns, allow_incomplete)[0]


def read_runs(root: Path, columns: list[str] | None = None, allow_incomplete: bool = False):
    """(rows, runs): the rows under `root` and the Run of every run_id in them.

    rows: a pandas DataFrame, each (run_id, game) once, in run and game
    order; rows.attrs["duplicates"] maps a run_id to the rows dropped as
    copies of its games (the same run found twice, e.g. a copied folder);
    rows.attrs["shortfalls"] lists the runs that lack games (Shortfall: with
    allow_incomplete only, else IncompleteDataset is raised).
    """
    runs = find_runs(root)
    if not any(r.parts for r in runs):
        raise DatasetError(f"{root} holds no finished part files yet")
    tables: list[pa.Table] = []
    damaged: dict[str, list[UnreadablePart]] = {}
    for r in runs:
        for p in r.parts:
            try:
                table = _read_part(p, r, None)
            except UnreadablePart as e:
                damaged.setdefault(r.run_id, []).append(e)
                continue
            tables.append(table)
    by_id: dict[str, Run] = {}
    for r in runs:
        by_id.setdefault(r.run_id, r)
    found: dict[str, list[np.ndarray]] = {rid: [] for rid in by_id}
    for t in tables:
        if len(t):
            found.setdefault(t.column("run_id")[0].as_py(), []).append(t.column("game").to_numpy())
    shortfalls = [
        short
        for rid, r in by_id.items()
        if (short := Shortfall.of(r, np.concatenate([np.zeros(0, np.int64), *found[rid]]), damaged.get(rid, [])))
    ]
    check_complete(
        root, shortfalls, allow_incomplete, "read_games(..., allow_incomplete=True) returns the rows there are"
    )
    tables = [t if columns is None else t.select([c for c in columns if c in t.column_names]) for t in tables]
    if not tables:
        table = pa.table(
            {c: pa.array([], SCHEMA.field(c).type) for c in (columns or SCHEMA.names) if c in SCHEMA.names}
        )
    else:
        try:
            table = pa.concat_tables(tables, promote_options="permissive")
        except pa.ArrowException as e:
            raise DatasetError(f"part files under {root} do not share one schema ({e})") from None
    df = table.to_pandas()
    duplicates: dict[str, int] = {}
    if "run_id" in df and "game" in df:
        copies = df.duplicated(["run_id", "game"])
        if copies.any():
            duplicates = {str(k): int(v) for k, v in df.loc[copies, "run_id"].value_counts().items() if v}
            df = df[~copies]
        df = df.sort_values(["run_id", "game"], kind="stable").reset_index(drop=True)
    df.attrs["duplicates"] = duplicates
    df.attrs["shortfalls"] = shortfalls
    return df, by_id


# --- a dataset that lacks games ------------------------------------------------------


class IncompleteDataset(DatasetError):
    """A dataset with fewer games than its runs were asked for, or with parts that fail their check: what a
    reader refuses to summarise silently. `lines` say what is missing and the commands that complete it."""

    def __init__(self, lines: list[str], shortfalls: list[Shortfall]):
        super().__init__("\n".join(lines))
        self.lines, self.shortfalls = lines, shortfalls


class IncompleteDatasetWarning(UserWarning):
    """Rows or a report of a dataset that lacks games, given on purpose (allow_incomplete=True)."""


def _always_warn() -> None:
    """Every read of a dataset that lacks games warns, not only the first from a line of code (Python's default)."""

    warnings.filterwarnings("always", category=IncompleteDatasetWarning)


_always_warn()


@dataclass
class Shortfall:
    """What one run under a dataset lacks: the games it was asked for and found, its parts left out (each an
    UnreadablePart saying why: damaged, unreadable) and the ranges [first, end) of games no part gave."""

    run: Run
    found: int
    left_out: list[UnreadablePart]
    missing: list[tuple[int, int]]

    @classmethod
    def of(cls, run: Run, games: np.ndarray, left_out: list[UnreadablePart]) -> Shortfall | None:
        """The shortfall of `run` whose parts gave the game indices `games`, None when it lacks nothing."""
        present = np.zeros(run.games, np.bool_)
        games = np.asarray(games, np.int64)
        present[games[(games >= 0) & (games < run.games)]] = True
        return cls.of_ranges(run, _ranges(~present), left_out)

    @classmethod
    def of_ranges(cls, run: Run, missing: list[tuple[int, int]], left_out: list[UnreadablePart]) -> Shortfall | None:
        """The shortfall of `run` lacking the game ranges `missing`, None when it lacks nothing."""
        if not missing and not left_out:
            return None
        return cls(run, run.games - sum(b - a for a, b in missing), list(left_out), list(missing))

    def lines(self) -> list[str]:
        """What the run lacks and the command that completes it, as a report's and an error's first lines."""
        what = [f"{self.run.directory}: {self.found:,} of {self.run.games:,} games"]
        for e in self.left_out:
            name = e.path.name if e.path.parent == self.run.directory else str(e.path)
            what.append(f"{'damaged' if isinstance(e, DamagedPart) else 'unreadable'} {name} ({e.why})")
        if self.missing:
            shown = ", ".join(f"{a:,}-{b - 1:,}" if b - a > 1 else f"{a:,}" for a, b in self.missing[:3])
            more = f" and {len(self.missing) - 3} more ranges" if len(self.missing) > 3 else ""
            what.append(f"games {shown}{more} missing")
        out = ["  " + "; ".join(what)]
        folders = list(
            dict.fromkeys([*(e.path.parent for e in self.left_out), *([self.run.directory] if self.missing else [])])
        )
        for folder in folders:
            command, why = run_command(self.run.manifest, folder)
            out.append(f"  complete it: {command}" if command else f"  {why}")
        return out


def _ranges(mask: np.ndarray) -> list[tuple[int, int]]:
    """The [start, end) ranges where `mask` is True."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(np.int8), [0]])))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2])]


def shortfall_lines(root: Path, shortfalls: list[Shortfall], then: str) -> list[str]:
    """The lines that say a dataset lacks games: a first line, the runs' (Shortfall.lines), and `then`."""
    left_out = sum(len(s.left_out) for s in shortfalls)
    damage = f", {left_out} part{'s' if left_out != 1 else ''} left out as damaged or unreadable" if left_out else ""
    runs = f"{len(shortfalls)} run{'s' if len(shortfalls) != 1 else ''}"
    first = (
        f"{root} is incomplete: {runs} lack{'s' if len(shortfalls) == 1 else ''} games{damage}; "
        "whatever is summarised of it would be partial"
    )
    return [first, *(line for s in shortfalls for line in s.lines()), f"  {then}"]


def check_complete(root: Path, shortfalls: list[Shortfall], allow_incomplete: bool, then: str) -> None:
    """Refuse a dataset that lacks games: IncompleteDataset (its lines say what is missing, the commands that
    complete it and `then`, what allows the partial result); allow_incomplete: an IncompleteDatasetWarning."""
    if not shortfalls:
        return
    lines = shortfall_lines(root, shortfalls, then)
    if not allow_incomplete:
        raise IncompleteDataset(lines, shortfalls)

    warnings.warn("\n".join(lines[:-1]), IncompleteDatasetWarning, stacklevel=3)


def run_command(manifest: dict, out: Path) -> tuple[str | None, str]:
    """(the `simkit run` command that completes the run of `manifest` in `out`, None if this simkit cannot;
    why not). The command names every option that decides the run's identity, so it is that run's."""

    identity = manifest.get("identity") or {}
    games = manifest.get("games")
    wrote = identity.get("simkit") or manifest.get("versions", {}).get("simkit", "an older simkit")
    cannot = (
        f"this simkit cannot complete it (written by simkit {wrote}, kernel "
        f"{identity.get('kernel') or manifest.get('versions', {}).get('kernel_sources', '?')}; this is "
        f"{identity_now()}): complete it with that version, or replay it whole with `simkit run --overwrite`"
    )
    try:
        given = {k: tuple(v) if isinstance(v, list) else v for k, v in identity["rules"].items() if k in OPTIONS}
        rules = Rules.make(**given)
        lineup = Lineup.parse(identity["lineup"], rules, bool(identity.get("swap_seats")))
        same = run_id(identity_of(rules, lineup, identity["seed"])) == manifest.get("run_id")
    except (KeyError, TypeError, ValueError, AttributeError):
        return None, cannot
    if not same or not isinstance(games, int):
        return None, cannot
    words = ["simkit", "run", "--games", str(games), "--policy", lineup.spec]
    if lineup.swap_seats:
        words.append("--swap-seats")
    words += ["--seed", str(identity["seed"])]
    values = rules.values()
    for name, value in values.items():
        option = OPTIONS[name]
        if name != "players" and is_default(name, value, values):
            continue
        if option.kind == "bool":
            words.append(option.flag if value else f"--no-{option.flag[2:]}")
        else:
            words += [option.flag, sizes_text(value) if option.kind in ("sizes", "counts") else str(value)]
    words += ["--out", str(out)]
    return " ".join(shlex.quote(w) for w in words), ""


def identity_now() -> str:
    """'simkit 0.5.0, kernel <stamp>': the version of simkit and of its games this is."""

    return f"simkit {VERSION}, kernel {GAMES_STAMP}"
