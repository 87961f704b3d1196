"""SIGTERM (kill, a batch scheduler's stop) ends `simkit run` and `simkit study` as Ctrl-C does.

Each test sends the signal to a real subprocess once it has a part on disk:
the chunk in play is dropped, the parts on disk stay whole, no temporary
file remains, one line says how to resume, and the exit code is 143.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq

from simkit.running import dataset as ds
from simkit.running.reading import read_games
from tests.manifests import manifest_of

SIMKIT = [sys.executable, "-m", "simkit"]


def started(args: list[str], out: Path) -> subprocess.Popen:
    """`args` running, once a part file is on disk somewhere under `out`."""
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    deadline = time.monotonic() + 300
    while not list(out.rglob(ds.PART_GLOB)):
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "no part file appeared"
        time.sleep(0.01)
    return proc


def terminated(proc: subprocess.Popen) -> str:
    """SIGTERM to `proc`; its stderr, once it has exited with 143."""
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert "Traceback" not in err
    return err


def assert_whole(out: Path, chunk: int) -> list[Path]:
    """Every part under `out` is whole, the manifests claim none that is missing, no temporary is left."""
    assert not list(out.rglob(".*.tmp")), "a temporary file remains"
    parts = sorted(out.rglob(ds.PART_GLOB))
    for part in parts:
        assert pq.read_metadata(part).num_rows == chunk
    for header in out.rglob(ds.MANIFEST):
        claimed = {header.parent / c["file"] for c in manifest_of(header.parent)["chunks"] if c["done"]}
        assert claimed <= set(parts)
    return parts


def test_sigterm_stops_a_run_like_ctrl_c(tmp_path):
    out = tmp_path / "ds"
    args = [*SIMKIT, "run", "--games", "500000", "--chunk-size", "5000", "--out", str(out), "--quiet"]
    err = terminated(started(args, out))
    parts = assert_whole(out, 5000)
    assert 0 < len(parts) < 100
    assert err.strip() == (
        f"terminated (SIGTERM): {len(parts)} of 100 chunks are on disk in {out}; run the same command again to resume"
    )
    again = subprocess.run(args, stderr=subprocess.PIPE, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert manifest_of(out)["complete"] and len(read_games(out, ["game"])) == 500_000


def test_sigterm_stops_a_study_like_ctrl_c(tmp_path):
    out = tmp_path / "study"
    args = [*SIMKIT, "study", "first-player", "--policy", "random", "--games", "100000", "--out", str(out), "--quiet"]
    err = terminated(started(args, out))
    assert err.strip() == f"terminated (SIGTERM): run the same command again to resume the study in {out}"
    assert_whole(out, 100000)
    assert not (out / "summary.csv").exists()
    assert not (out / ".simkit.lock").read_text(), "the study's lock is released"
