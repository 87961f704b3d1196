"""`simkit run`'s dataset: determinism, resuming, refusing, and what it records."""

from __future__ import annotations

import json

import numba
import pandas as pd
import pyarrow.parquet as pq
import pytest

from simkit import dataset as ds
from simkit.policies import Lineup
from simkit.rules import Rules
from simkit.runner import RunSpec, run, set_threads

RULES = Rules.make(2)
LINEUP = Lineup.parse("random", RULES)


def spec(games=600, chunk_size=250, seed=5, rules=RULES, lineup=LINEUP) -> RunSpec:
    return RunSpec(rules, lineup, seed, games, chunk_size)


def rows(directory) -> pd.DataFrame:
    return ds.read_games(directory).reset_index(drop=True)


@pytest.fixture(autouse=True)
def restore_threads():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


def test_rows_identical_for_one_and_two_threads(tmp_path):
    """Same seed and configuration: same rows on 1 thread or 2."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs 2 threads")
    set_threads(1)
    run(tmp_path / "one", spec())
    set_threads(2)
    run(tmp_path / "two", spec())
    pd.testing.assert_frame_equal(rows(tmp_path / "one"), rows(tmp_path / "two"))


def test_part_files_are_byte_identical_across_runs(tmp_path):
    """Same seed, configuration and version: the same bytes."""
    run(tmp_path / "a", spec())
    run(tmp_path / "b", spec())
    for part in sorted((tmp_path / "a").glob(ds.PART_GLOB)):
        assert part.read_bytes() == (tmp_path / "b" / part.name).read_bytes()


@pytest.mark.parametrize("chunk_size", [1, 7, 600, 1000])
def test_rows_identical_for_any_chunk_size(tmp_path, chunk_size):
    """Rows depend on (seed, game index) alone, not on how games are chunked."""
    run(tmp_path / "ref", spec(chunk_size=250))
    run(tmp_path / "other", spec(chunk_size=chunk_size))
    pd.testing.assert_frame_equal(rows(tmp_path / "ref"), rows(tmp_path / "other"))


def test_interrupted_run_resumes_to_identical_rows(tmp_path):
    """Ctrl-C after the first chunk; the re-run plays only the rest; rows as if never stopped."""

    def interrupt(_games):
        raise KeyboardInterrupt

    first = run(tmp_path / "resumed", spec(), on_chunk=interrupt)
    assert first.interrupted and not first.complete
    assert first.chunks_written >= 1
    assert not list((tmp_path / "resumed").glob(".*.tmp")), "no partial file may remain"
    manifest = ds.read_manifest(tmp_path / "resumed")
    assert not manifest["complete"]
    second = run(tmp_path / "resumed", spec())
    assert second.chunks_before == first.chunks_written
    assert second.complete and second.chunks_written == second.chunks - first.chunks_written
    run(tmp_path / "straight", spec())
    pd.testing.assert_frame_equal(rows(tmp_path / "resumed"), rows(tmp_path / "straight"))


def test_finished_run_does_nothing(tmp_path):
    """A re-run of a finished run plays no game."""
    run(tmp_path, spec())
    again = run(tmp_path, spec())
    assert again.complete and again.chunks_written == 0 and again.games_played == 0


def test_missing_part_is_replayed(tmp_path):
    """A deleted part file is played again, identically."""
    run(tmp_path, spec())
    part = tmp_path / ds.part_name(250)
    original = part.read_bytes()
    part.unlink()
    again = run(tmp_path, spec())
    assert again.chunks_written == 1
    assert part.read_bytes() == original


def test_more_games_extends_the_run(tmp_path):
    """Asking the same run for more games adds chunks and keeps the finished ones."""
    run(tmp_path / "grown", spec(games=500))
    grown = run(tmp_path / "grown", spec(games=600))
    assert grown.chunks_before == 2
    run(tmp_path / "whole", spec(games=600))
    pd.testing.assert_frame_equal(rows(tmp_path / "grown"), rows(tmp_path / "whole"))


def test_different_configuration_is_refused_unless_overwrite(tmp_path):
    run(tmp_path, spec())
    four = Rules.make(4)
    with pytest.raises(ds.DatasetError, match="different run.*--overwrite"):
        run(tmp_path, spec(rules=four, lineup=Lineup.parse("random", four)))
    with pytest.raises(ds.DatasetError, match="different run"):
        run(tmp_path, spec(seed=6))
    done = run(tmp_path, spec(seed=6), overwrite=True)
    assert done.complete and set(rows(tmp_path)["seed"]) == {6}


def test_fewer_games_than_on_disk_is_refused(tmp_path):
    run(tmp_path, spec(games=600))
    with pytest.raises(ds.DatasetError, match="already holds a run of 600 games"):
        run(tmp_path, spec(games=100))


def test_foreign_and_unwritable_directories_are_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ds.DatasetError, match="not empty and holds no simkit dataset"):
        run(tmp_path, spec())
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(ds.DatasetError, match="not a directory|cannot write"):
        run(afile / "sub", spec())


@pytest.mark.parametrize("games,chunk", [(0, 10), (-5, 10), (10, 0)])
def test_bad_counts_are_refused(tmp_path, games, chunk):
    with pytest.raises(ValueError, match="must be"):
        run(tmp_path, spec(games=games, chunk_size=chunk))


def test_manifest_and_parts_record_seed_configuration_and_versions(tmp_path):
    run(tmp_path, spec())
    manifest = json.loads((tmp_path / ds.MANIFEST).read_text())
    assert manifest["identity"] == {"seed": 5, "rules": RULES.as_dict(), "policies": ["random", "random"]}
    assert set(manifest["versions"]) >= {"simkit", "numba", "numpy", "pyarrow", "kernel_sources"}
    assert manifest["complete"] and [c["first_game"] for c in manifest["chunks"]] == [0, 250, 500]
    meta = json.loads(pq.read_schema(tmp_path / ds.part_name(0)).metadata[b"simkit"])
    assert meta["format"] == ds.FORMAT
    assert {k: meta[k] for k in ("seed", "rules", "policies")} == manifest["identity"]


def test_columns_and_dtypes(tmp_path):
    """The per-game columns documented in the README, with small dtypes."""
    run(tmp_path, spec(games=50, chunk_size=50))
    table = pq.read_table(tmp_path / ds.part_name(0))
    assert table.schema.names == ds.SCHEMA.names
    df = table.to_pandas()
    assert list(df["game"]) == list(range(50))
    assert set(df["end"].astype(str)) <= {"win", "stalemate", "turn_cap"}
    assert str(df["winner_team"].dtype) == "int8" and str(df["turns"].dtype) == "int32"
    assert (df["policies"].astype(str) == "random,random").all()
    decided = df[df["end"] == "win"]
    assert (decided["winner_team"] >= 0).all()
    assert ((df["first_sequence_turn"] >= 1) | (df["first_sequence_turn"] == -1)).all()


def test_parts_are_written_with_the_documented_encodings(tmp_path):
    """Non-nullable columns, no statistics, lz4, delta-encoded game index (dataset.WRITE_OPTIONS)."""
    run(tmp_path, spec(games=50, chunk_size=50))
    path = tmp_path / ds.part_name(0)
    assert not any(f.nullable for f in pq.read_schema(path))
    columns = {c.path_in_schema: c for c in (pq.ParquetFile(path).metadata.row_group(0).column(i)
                                             for i in range(len(ds.SCHEMA)))}
    assert all(c.compression == "LZ4" and not c.is_stats_set for c in columns.values())
    assert "DELTA_BINARY_PACKED" in columns["game"].encodings
    assert "RLE_DICTIONARY" in columns["end"].encodings
    assert "RLE_DICTIONARY" not in columns["turns"].encodings


def test_ctrl_c_leaves_complete_parts_and_the_run_resumes(tmp_path):
    """A real SIGINT to `simkit run`: exit 130, no partial file, then a re-run finishes it."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "ds"
    args = [sys.executable, "-m", "simkit", "run", "--games", "400000", "--chunk-size", "20000",
            "--out", str(out), "--quiet"]
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while not list(out.glob(ds.PART_GLOB)):
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "no part file appeared"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert not list(out.glob(".*.tmp"))
    manifest = ds.read_manifest(out)
    assert not manifest["complete"]
    on_disk = sorted(out.glob(ds.PART_GLOB))
    for part in on_disk:  # every part on disk is whole
        assert pq.read_metadata(part).num_rows == 20000
    claimed = {c["file"] for c in manifest["chunks"] if c["done"]}
    assert claimed <= {p.name for p in on_disk}  # the manifest never claims a missing part
    again = subprocess.run(args, stderr=subprocess.PIPE, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert ds.read_manifest(out)["complete"]
    assert len(ds.read_games(out)) == 400_000


def test_extending_past_a_short_last_chunk_replays_it(tmp_path):
    """550 games in chunks of 250 end with a 50-game part; asking for 600 replays that chunk whole."""
    run(tmp_path / "grown", spec(games=550))
    grown = run(tmp_path / "grown", spec(games=600))
    assert grown.chunks_before == 2 and grown.chunks_written == 1
    run(tmp_path / "whole", spec(games=600))
    pd.testing.assert_frame_equal(rows(tmp_path / "grown"), rows(tmp_path / "whole"))


def test_a_run_from_another_version_is_not_resumed(tmp_path):
    """Rows from two versions must not mix: another kernel's dataset is refused unless --overwrite."""
    run(tmp_path, spec(games=500))
    manifest = ds.read_manifest(tmp_path)
    manifest["versions"]["kernel_sources"] = "0" * 16
    ds.write_json_atomic(tmp_path / ds.MANIFEST, manifest)
    with pytest.raises(ds.DatasetError, match="written by simkit .* may differ"):
        run(tmp_path, spec(games=600))
    assert run(tmp_path, spec(games=600), overwrite=True).complete
