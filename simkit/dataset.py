"""The on-disk dataset: per-game rows in Parquet part files plus a manifest.

Layout of a run directory::

    DIR/_manifest.json                     seed, configuration, versions, chunks
    DIR/part-000000000000.parquet          games [0, chunk_size)
    DIR/part-000000100000.parquet          games [chunk_size, 2 * chunk_size)
    ...

Each part file's schema metadata repeats the manifest's identity (format,
seed, rules, policies) so a single file stands on its own. Files are
written under a temporary name and renamed into place, so a part file that
exists is complete. Columns are non-nullable; parts are lz4-compressed,
without column statistics, with dictionary encoding only for the two string
columns and delta encoding for the game index (see WRITE_OPTIONS): about
23 ms per 100,000 games (Arrow conversion included), which keeps a 2-core
run within 10% of the kernel's speed, for ~18 MB per million games.
"""

from __future__ import annotations

import json
import platform
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simkit.atomic import replacing
from simkit.kernels.jit import SOURCES_HASH
from simkit.kernels.state import END_NAMES, STAT_NAMES

FORMAT = "simkit.dataset/1"
MANIFEST = "_manifest.json"  # "_": Parquet readers skip it, so pandas.read_parquet(DIR) works
PART_GLOB = "part-*.parquet"

# Per-game statistics columns and their Arrow types (kernel STAT_NAMES order).
STAT_TYPES: dict[str, pa.DataType] = {
    "winner_team": pa.int8(),
    "end": pa.dictionary(pa.int8(), pa.string()),
    "turns": pa.int32(),
    "first_sequence_turn": pa.int32(),
    "first_sequence_team": pa.int8(),
    **{f"sequences_{t}": pa.int8() for t in range(3)},
    **{f"chips_{t}": pa.int8() for t in range(3)},
    **{f"one_eyed_{t}": pa.int16() for t in range(3)},
    **{f"two_eyed_{t}": pa.int16() for t in range(3)},
    "dead_swaps": pa.int32(),
    "reshuffles": pa.int32(),
    "passes": pa.int32(),
}
assert tuple(STAT_TYPES) == STAT_NAMES

CONFIG_TYPES: dict[str, pa.DataType] = {
    "players": pa.int8(),
    "teams": pa.int8(),
    "hand_size": pa.int8(),
    "sequences_to_win": pa.int8(),
    "max_turns": pa.int32(),
    "chip_limit": pa.bool_(),
    "policies": pa.dictionary(pa.int8(), pa.string()),
    "seed": pa.int64(),
}

SCHEMA = pa.schema(
    [pa.field(k, t, nullable=False) for k, t in CONFIG_TYPES.items()]
    + [pa.field("game", pa.int64(), nullable=False)]
    + [pa.field(k, t, nullable=False) for k, t in STAT_TYPES.items()]
)

# Parquet writer settings, chosen for writing speed (measured per 100,000 games,
# 2-player random: defaults 35-40 ms / 1.3 MB; these 20 ms / 1.8 MB). Dictionary
# encoding of 27 small-integer columns and of the unique game indices cost more
# than it saved; delta encoding shrinks the game index column to almost nothing.
WRITE_OPTIONS = {
    "compression": "lz4",
    "write_statistics": False,
    "use_dictionary": ["policies", "end"],
    "column_encoding": {"game": "DELTA_BINARY_PACKED"},
}


class DatasetError(ValueError):
    """A directory that is not a usable simkit dataset; the message says why."""


def versions() -> dict[str, str]:
    """Versions of everything that decides the bytes of a dataset."""
    import numba

    import simkit

    return {
        "simkit": simkit.__version__,
        "kernel_sources": SOURCES_HASH[:16],
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pyarrow": pa.__version__,
        "python": platform.python_version(),
    }


def part_name(first_game: int) -> str:
    """File name of the part that starts at game `first_game`."""
    return f"part-{first_game:012d}.parquet"


def to_table(stats: np.ndarray, first_game: int, identity: dict) -> pa.Table:
    """Arrow table of a (n, N_STATS) stats block for games first_game.. .

    identity: {"seed", "rules": {...}, "policies": [...]} of the run.
    """
    n = stats.shape[0]
    rules = identity["rules"]
    config_values = {**{k: rules[k] for k in CONFIG_TYPES if k in rules},
                     "policies": ",".join(identity["policies"]), "seed": identity["seed"]}
    columns: list[pa.Array] = []
    for name, typ in CONFIG_TYPES.items():
        value = config_values[name]
        if pa.types.is_dictionary(typ):
            columns.append(pa.DictionaryArray.from_arrays(np.zeros(n, np.int8), pa.array([value], pa.string())))
        else:
            columns.append(pa.array(np.full(n, value, typ.to_pandas_dtype()), typ))
    columns.append(pa.array(np.arange(first_game, first_game + n, dtype=np.int64)))
    by_column = np.ascontiguousarray(stats.T)  # one transpose beats 20 strided column copies
    for col, (name, typ) in zip(by_column, STAT_TYPES.items()):
        if name == "end":
            columns.append(pa.DictionaryArray.from_arrays(col.astype(np.int8), pa.array(END_NAMES, pa.string())))
        else:
            columns.append(pa.array(col.astype(typ.to_pandas_dtype()), typ))
    metadata = {b"simkit": json.dumps({**identity, "format": FORMAT}, sort_keys=True).encode()}
    return pa.Table.from_arrays(columns, schema=SCHEMA.with_metadata(metadata))


def write_part(directory: Path, stats: np.ndarray, first_game: int, identity: dict) -> Path:
    """Write one part atomically (temporary file, then rename); return its path."""
    path = directory / part_name(first_game)
    with replacing(path) as tmp:
        pq.write_table(to_table(stats, first_game, identity), tmp, **WRITE_OPTIONS)
    return path


def write_json_atomic(path: Path, obj: dict) -> None:
    """Write JSON to `path` through a temporary file and a rename."""
    with replacing(path) as tmp:
        tmp.write_text(json.dumps(obj, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def read_manifest(directory: Path) -> dict | None:
    """The run's manifest, or None where there is none; DatasetError if unreadable."""
    path = Path(directory) / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise DatasetError(f"{path} is not a readable simkit manifest ({e})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise DatasetError(f"{path} is not a simkit dataset manifest (format {FORMAT!r} expected)")
    return manifest


@dataclass(frozen=True)
class Found:
    """Part files found under a directory, and the manifests that describe them."""

    parts: list[Path]
    manifests: list[Path]


def find_parts(root: Path) -> Found:
    """Every part file of every run under `root` (the run itself or a folder of runs)."""
    root = Path(root)
    if not root.is_dir():
        raise DatasetError(f"{root} is not a directory")
    manifests = sorted(root.rglob(MANIFEST))
    parts = sorted(p for m in manifests for p in m.parent.glob(PART_GLOB))
    if not manifests:
        raise DatasetError(f"{root} holds no simkit dataset (no {MANIFEST} found); create one with `simkit run`")
    return Found(parts, manifests)


def read_games(root: Path, columns: list[str] | None = None):
    """All per-game rows under `root` as a pandas DataFrame, sorted by run and game."""
    found = find_parts(root)
    for m in found.manifests:
        read_manifest(m.parent)  # raises on a foreign or corrupt manifest
    if not found.parts:
        raise DatasetError(f"{root} holds no finished part files yet")
    tables = []
    for p in found.parts:
        try:
            table = pq.read_table(p, columns=columns)
        except (OSError, pa.ArrowException) as e:
            raise DatasetError(f"{p} is not a readable Parquet part ({e})") from None
        if b"simkit" not in (table.schema.metadata or {}):
            raise DatasetError(f"{p} is not a simkit part file (no simkit metadata)")
        tables.append(table)
    try:
        table = pa.concat_tables(tables, promote_options="permissive")
    except pa.ArrowException as e:
        raise DatasetError(f"part files under {root} do not share one schema ({e})") from None
    return table.to_pandas()
