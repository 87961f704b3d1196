"""One part file, checked and read: its bytes against the digest its chunk log recorded, or its pages
against their checksums; its footer's metadata; a part that fails set aside.

A part that fails its check is an UnreadablePart (not Parquet, empty, truncated) or a DamagedPart (its
bytes are not the ones written): a missing chunk to every reader (simkit.running.reading).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from simkit.files.atomic import fsync_directory
from simkit.running import manifest as mf
from simkit.running.dataset import DatasetError


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
