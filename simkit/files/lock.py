"""One writer per directory: an exclusive lock held for a run's (or a study's) life.

The lock is ``fcntl.flock`` on ``DIR/.simkit.lock``. The operating system
releases it when the process ends, however it ends, so a crashed or killed
run never leaves a directory locked. The file names the run holding it
(process, host, start time, command), so a second run can say whom it
waits for. (flock is local to one machine: two hosts writing one network
directory are not kept apart.)
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import TextIO

LOCK_NAME = ".simkit.lock"


class LockedError(RuntimeError):
    """The directory is being written by another run or study; the message names it."""


class DirectoryLock:
    """``with DirectoryLock(dir):`` holds the directory's lock, or raises LockedError at once."""

    def __init__(self, directory: Path):
        self.path = Path(directory) / LOCK_NAME
        self._file: TextIO | None = None

    def __enter__(self) -> DirectoryLock:
        f = self.path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            holder = _describe(f.read())
            f.close()
            raise LockedError(
                f"{self.path.parent} is being written by another simkit command ({holder}); "
                "wait for it to finish or choose another --out"
            ) from None
        f.seek(0)
        f.truncate()
        f.write(
            json.dumps(
                {
                    "pid": os.getpid(),
                    "host": socket.gethostname(),
                    "started": time.strftime("%Y-%m-%d %H:%M:%S"),
                    "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
                }
            )
        )
        f.flush()
        self._file = f
        return self

    def __exit__(self, *exc) -> None:
        if self._file is not None:
            self._file.truncate(0)
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None


def _describe(text: str) -> str:
    """'pid 123 on host, started 2026-11-30 12:00:01: simkit run ...' from the lock file's text."""
    try:
        h = json.loads(text)
        return f"pid {h['pid']} on {h['host']}, started {h['started']}: {h['command']}"
    except (ValueError, KeyError, TypeError):
        return "a process that has not yet said who it is"
