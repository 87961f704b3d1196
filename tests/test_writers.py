"""Nothing lost, nothing destroyed: one writer per directory, whole files only, plain errors, Ctrl-C."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from simkit.files.atomic import WriteError, replacing
from simkit.files.lock import DirectoryLock, LockedError
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels.core.stats import GAME_STATS
from simkit.running import dataset as ds
from simkit.running import manifest as mf
from simkit.running.reading import read_games
from simkit.running.runner import RunEvents, RunSpec, run
from tests.manifests import manifest_of

TWO = Rules.make(2)


def spec(games=300, chunk=100) -> RunSpec:
    return RunSpec(TWO, Lineup.parse("random", TWO), 5, games, chunk)


def test_every_writer_has_its_own_temporary_name(tmp_path):
    target = tmp_path / "part-000000000000.parquet"
    with replacing(target) as a, replacing(target) as b:
        assert a != b and a.name.startswith(".part-000000000000.parquet.") and a.name.endswith(".tmp")
        a.write_text("a")
        b.write_text("b")
    assert target.read_text() in ("a", "b")
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_a_second_run_on_a_directory_being_written_is_refused_naming_the_first(tmp_path):
    with DirectoryLock(tmp_path):
        with pytest.raises(ds.DatasetError, match=rf"being written by another simkit command \(pid {os.getpid()} on "):
            run(tmp_path, spec())
    assert run(tmp_path, spec()).complete  # released: the next run goes ahead


def test_a_killed_run_does_not_leave_the_directory_locked(tmp_path):
    """kill -9 of the lock holder: the operating system releases the lock with the process."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
        import time
        from simkit.files.lock import DirectoryLock
        with DirectoryLock({str(tmp_path)!r}):
            print("locked", flush=True)
            time.sleep(600)
    """),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    with pytest.raises(LockedError, match=f"pid {holder.pid}"):
        DirectoryLock(tmp_path).__enter__()
    holder.kill()
    holder.wait()
    assert run(tmp_path, spec()).complete


def test_two_simkit_runs_started_together_one_writes_the_other_refuses(tmp_path):
    """Two processes on one --out: one plays, the other says in one line who is writing."""
    out = tmp_path / "ds"
    args = [
        sys.executable,
        "-m",
        "simkit",
        "run",
        "--games",
        "2000000",
        "--chunk-size",
        "100000",
        "--out",
        str(out),
        "--quiet",
    ]
    first = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (out / ".simkit.lock").exists() or not (out / ".simkit.lock").read_text():
        assert first.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    second = subprocess.run(args, stderr=subprocess.PIPE, text=True, timeout=120)
    assert second.returncode == 1
    err = second.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and f"pid {first.pid}" in err
    first.send_signal(signal.SIGINT)
    first.communicate(timeout=120)
    assert not list(out.glob(".*.tmp"))


def test_stale_temporary_files_are_removed_when_the_run_resumes(tmp_path):
    """What a writer killed mid-write leaves behind is swept away; finished parts are kept."""
    run(tmp_path, spec())
    (tmp_path / ds.part_name(100)).unlink()
    stale = tmp_path / f".{ds.part_name(100)}.12345-deadbeef.tmp"
    stale.write_bytes(b"half a parquet file")
    again = run(tmp_path, spec())
    assert again.chunks_written == 1 and not stale.exists()
    assert pq.read_metadata(tmp_path / ds.part_name(100)).num_rows == 100


def test_a_full_disk_says_which_file_that_nothing_partial_was_kept_and_how_to_resume(tmp_path, monkeypatch):
    real = pq.write_table
    calls = []

    def full(table, where, **kw):
        calls.append(where)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "Error writing bytes to file. Detail: [errno 28] No space left on device")
        return real(table, where, **kw)

    monkeypatch.setattr(pq, "write_table", full)
    with pytest.raises(WriteError) as caught:
        run(tmp_path, spec())
    message = str(caught.value)
    assert f"could not write {tmp_path / ds.part_name(100)}: the disk is full" in message
    assert "nothing partial was kept" in message and "resumes" in message
    assert not list(tmp_path.glob(".*.tmp"))
    assert [c["done"] for c in manifest_of(tmp_path)["chunks"]] == [True, False, False]
    monkeypatch.setattr(pq, "write_table", real)
    assert run(tmp_path, spec()).chunks_written == 2


def test_ctrl_c_leaves_complete_parts_and_the_run_resumes(tmp_path):
    """A real SIGINT to `simkit run` once the first part is on disk: exit 130, whole parts only, then a resume.

    The run is 200 chunks long, so it cannot finish between the first part and the signal.
    """
    out = tmp_path / "ds"
    args = [
        sys.executable,
        "-m",
        "simkit",
        "run",
        "--games",
        "400000",
        "--chunk-size",
        "2000",
        "--out",
        str(out),
        "--quiet",
    ]
    # SIGINT back to its default in the child: a shell's background job (`make test &`) ignores it, and a
    # Python started with SIGINT ignored never raises KeyboardInterrupt, so the run would just finish.
    proc = subprocess.Popen(
        args, stderr=subprocess.PIPE, text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 300
    while not list(out.glob(ds.PART_GLOB)):
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "no part file appeared"
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert not list(out.glob(".*.tmp"))
    manifest = manifest_of(out)
    assert not manifest["complete"]
    on_disk = sorted(out.glob(ds.PART_GLOB))
    assert 0 < len(on_disk) < 200
    for part in on_disk:  # every part on disk is whole
        assert pq.read_metadata(part).num_rows == 2000
    claimed = {c["file"] for c in manifest["chunks"] if c["done"]}
    assert claimed <= {p.name for p in on_disk}  # the manifest never claims a missing part
    again = subprocess.run(args, stderr=subprocess.PIPE, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert manifest_of(out)["complete"]
    assert len(read_games(out)) == 400_000


# --- durable writes ----------------------------------------------------------------


def test_a_part_is_fsynced_before_its_rename_and_the_directory_after(tmp_path, monkeypatch):
    """The order that survives a power loss: data on disk, then the name, then the name on disk."""
    done: list[tuple[str, ...]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        done.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(a, b):
        done.append(("rename", os.path.basename(a), os.path.basename(b)))
        real_replace(a, b)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    ds.write_part(tmp_path, np.zeros(3, GAME_STATS), 0, spec().identity())
    (_, tmp), rename, last = done
    part = ds.part_name(0)
    assert os.path.basename(tmp).startswith(f".{part}.") and tmp.endswith(".tmp")
    assert rename == ("rename", os.path.basename(tmp), part)
    assert last == ("fsync", str(tmp_path))
    done.clear()
    mf.record(tmp_path, 0, 3)  # a finished chunk's line is on disk before the next chunk counts on it
    assert done == [("fsync", str(tmp_path / mf.LOG))]


class Notes(RunEvents):
    def __init__(self):
        self.notes = []

    def notice(self, message):
        self.notes.append(message)


@pytest.mark.parametrize("damage", ["truncated", "empty", "not parquet"])
def test_an_unreadable_part_is_set_aside_said_in_a_line_and_played_again(tmp_path, damage):
    """What a power loss or a bad copy leaves: the resume moves it out of every reader's way and replays it."""
    run(tmp_path / "straight", spec())
    out = tmp_path / "ds"
    run(out, spec())
    part = out / ds.part_name(100)
    whole = part.read_bytes()
    part.write_bytes({"truncated": whole[: len(whole) // 2], "empty": b"", "not parquet": b"hello\n"}[damage])
    events = Notes()
    again = run(out, spec(), events=events)
    assert again.complete and again.chunks_before == 2 and again.chunks_written == 1
    (aside,) = out.glob(ds.UNREADABLE_GLOB)
    assert aside.name.startswith("_part-000000000100.parquet.unreadable-2")
    (note,) = events.notes
    assert note.startswith(f"{part} cannot be read (") and "\n" not in note
    assert note.endswith(f"): set aside as {aside.name}; its games will be played again")
    if damage == "empty":
        assert "(the file is empty)" in note
    assert part.read_bytes() == whole
    pd.testing.assert_frame_equal(read_games(out), read_games(tmp_path / "straight"))
    assert len(pd.read_parquet(out)) == 300  # pyarrow's discovery skips the part set aside
    assert sorted(p.name for p in out.glob("*.parquet")) == [ds.part_name(g) for g in (0, 100, 200)]
    assert run(out, spec()).chunks_written == 0  # set aside once, not again


def test_simkit_run_after_a_part_was_truncated_says_so_in_one_line(tmp_path):
    """The command line's side: one line on stderr, exit 0, the same rows as a run never damaged."""
    out = tmp_path / "ds"
    args = [
        sys.executable,
        "-m",
        "simkit",
        "run",
        "--games",
        "300",
        "--chunk-size",
        "100",
        "--seed",
        "5",
        "--out",
        str(out),
        "--quiet",
    ]
    subprocess.run(args, check=True, timeout=300)
    part = out / ds.part_name(200)
    part.write_bytes(part.read_bytes()[:1000])
    again = subprocess.run(args, stderr=subprocess.PIPE, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    (line,) = again.stderr.strip().splitlines()
    (aside,) = out.glob(ds.UNREADABLE_GLOB)
    assert line == (
        f"{part} cannot be read (Parquet magic bytes not found in footer. Either the file is corrupted "
        f"or this is not a parquet file.): set aside as {aside.name}; its games will be played again"
    )
    run(tmp_path / "straight", spec())
    pd.testing.assert_frame_equal(read_games(out), read_games(tmp_path / "straight"))


def test_overwrite_removes_the_parts_set_aside_and_the_logs_with_the_run(tmp_path):
    run(tmp_path, spec())
    (tmp_path / ds.part_name(0)).write_bytes(b"")
    run(tmp_path, spec())
    assert list(tmp_path.glob(ds.UNREADABLE_GLOB))
    other = RunSpec(TWO, Lineup.parse("random", TWO), 6, 200, 100)
    assert run(tmp_path, other, overwrite=True).replaced
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [".simkit.lock", ds.MANIFEST, mf.LOG, mf.TIMES, ds.part_name(0), ds.part_name(100)]
    )
    assert [json.loads(line)["games"] for line in (tmp_path / mf.TIMES).read_text().splitlines()] == [200]


# --- one writer per study ------------------------------------------------------------


def test_a_second_study_on_a_study_directory_being_written_is_refused_naming_the_first(tmp_path):
    from typer.testing import CliRunner

    from simkit.cli import app
    from simkit.studies.loop import run_study
    from simkit.studies.options import StudyError
    from simkit.studies.registry import make_study

    study = make_study("first-player", ["random"], 100, 5, {"players": 2})
    with DirectoryLock(tmp_path):
        with pytest.raises(
            StudyError,
            match=rf"^{tmp_path} is being written by another simkit command "
            rf"\(pid {os.getpid()} on .*\); wait for it",
        ):
            run_study(study, tmp_path)
        result = CliRunner().invoke(
            app,
            ["study", "first-player", "--policy", "random", "--players", "2", "--games", "100", "--out", str(tmp_path)],
        )
        assert result.exit_code == 1
        (line,) = result.output.strip().splitlines()
        assert line.startswith(f"error: {tmp_path} is being written by another simkit command (pid {os.getpid()}")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".simkit.lock"]  # nothing was played or written
    assert run_study(study, tmp_path).games_played == 100  # released: the next study goes ahead
