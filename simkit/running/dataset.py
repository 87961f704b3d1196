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

This module: the dataset's format (what a part holds, its schema), a run's identity and writing a part;
simkit.running.parts checks and reads one part, simkit.running.reading the runs under a folder and what
they lack.
"""

from __future__ import annotations

import hashlib
import json
import platform
from pathlib import Path

import numba
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simkit.files.atomic import replacing
from simkit.game.boards import OFFICIAL, layout_hash
from simkit.game.options import OPTIONS
from simkit.game.rules import CHIP_SUPPLY
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


def text_column(values: list[str], indices: np.ndarray) -> pa.DictionaryArray:
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
            columns.append(text_column([constants[name]], zeros))
        elif name == "policies":
            seat_policies = identity["seat_policies"]
            columns.append(text_column(seat_policies, games % len(seat_policies)))
        elif name == "run_id":
            columns.append(text_column([run_id(identity)], zeros))
        else:
            columns.append(_column(np.full(n, constants[name], NUMPY_TYPES[typ]), typ))
    columns.append(_column(games, pa.int64()))
    names = {stat.name: stat.names for stat in STATS}
    for stat, team, typ in STAT_COLUMNS.values():
        values = stats[stat] if team is None else stats[stat][:, team]
        columns.append(text_column(list(names[stat]), values) if typ == STRING else _column(values, typ))
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


def option_column(name: str, value, n: int) -> pa.Array:
    """A column of n copies of option `name`'s `value` (a part written before the option existed)."""
    typ = OPTION_TYPES[name]
    if typ == STRING:
        return text_column([str(OPTIONS[name].column_value(value))], np.zeros(n, np.int8))
    return _column(np.full(n, value, NUMPY_TYPES[typ]), typ)
