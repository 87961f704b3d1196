"""Files written whole or not at all, and kept: a temporary name, fsync, a rename, fsync of the directory."""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

TMP_GLOB = ".*.tmp"  # what `replacing` leaves only if the process is killed mid-write


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside `path`; on success make it `path`, durably.

    The temporary name is the writer's own (process id and a random suffix),
    so two writers never write the same temporary file. Once the caller has
    written it, the file is fsynced, renamed to `path`, and the directory
    fsynced: after a power loss `path` is the old file or the whole new one,
    never an empty or truncated one. On any error (Ctrl-C included) the
    temporary file is removed and `path` is left as it was.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        yield tmp
        fsync_file(tmp)
        os.replace(tmp, path)
        fsync_directory(path.parent)
    finally:
        tmp.unlink(missing_ok=True)


def fsync_file(path: Path) -> None:
    """Flush a written file's data to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_directory(directory: Path) -> None:
    """Flush a directory's entries (a rename, a new file) to the disk; a no-op where directories cannot be opened."""
    flags = getattr(os, "O_DIRECTORY", None)
    if flags is None:  # not POSIX (Windows): a rename there is flushed with the file
        return
    fd = os.open(directory, os.O_RDONLY | flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def append_line(path: Path, line: str) -> None:
    """Append one line to `path` (created if missing) in a single write, then fsync it.

    One write call, so a signal cannot split the line and a reader never
    sees half of it; only a power loss can leave a torn last line, which
    readers skip (it has no newline).
    """
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        if os.write(fd, data) != len(data):
            raise OSError(errno.EIO, f"short write appending to {path}")
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_temporaries(directory: Path, pattern: str = TMP_GLOB) -> None:
    """Remove the temporaries matching `pattern` that writers killed mid-write left in `directory`.

    Only for a directory no one else is writing (its lock held): a live
    writer's temporary matches too.
    """
    for stale in Path(directory).glob(pattern):
        stale.unlink(missing_ok=True)


class WriteError(ValueError):
    """A file could not be written; the message says which, why, and what to do."""


@contextmanager
def reporting_write_errors(path: Path, then: str) -> Iterator[None]:
    """Turn an OSError while writing `path` into a WriteError naming the file and what to do `then`.

    Used around `replacing`, so the message can say that nothing partial was kept.
    """
    try:
        yield
    except OSError as e:
        full = e.errno in (errno.ENOSPC, errno.EDQUOT) or "No space left" in str(e)
        why = "the disk is full" if full else (e.strerror or str(e))
        raise WriteError(f"could not write {path}: {why}; nothing partial was kept; {then}") from None
