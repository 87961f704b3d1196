"""Files written whole or not at all: a temporary name, then a rename."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

TMP_GLOB = ".*.tmp"  # what `replacing` leaves only if the process is killed mid-write


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside `path`; on success rename it to `path`.

    On any error (Ctrl-C included) the temporary file is removed and `path`
    is left as it was.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
