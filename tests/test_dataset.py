"""A dataset cannot mislead: its identity, checked parts, and honest pooling in reports."""

from __future__ import annotations

import json
import shutil

import pyarrow.parquet as pq
import pytest

from simkit.analysis.report import summarise_dataset
from simkit.game.players import PLAYERS, Lineup
from simkit.game.rules import Rules
from simkit.presentation.report import render
from simkit.running import dataset as ds
from simkit.running.reading import read_runs
from simkit.running.runner import RunSpec, run
from tests.manifests import manifest_of

TWO = Rules.make(2)


def spec(policy="random", games=300, chunk=100, seed=5, rules=TWO) -> RunSpec:
    return RunSpec(rules, Lineup.parse(policy, rules), seed, games, chunk)


def test_identity_holds_every_parameter_of_every_seat_defaults_included():
    identity = spec("lookahead,greedy").identity()
    seats = identity["policies"]
    assert [s["name"] for s in seats] == ["lookahead", "greedy"]
    for seat, name in zip(seats, ["lookahead", "greedy"]):
        # all of them at their defaults, but a restriction, which at its default forgoes nothing
        kind = PLAYERS[name]
        assert seat["params"] == {k: v for k, v in kind.params.items() if not kind.settable[k].restriction}
    restricted = spec("greedy:one_eyed=never").identity()["policies"][0]["params"]
    assert restricted == {**seats[1]["params"], "one_eyed": 1.0}
    assert identity["rules"]["chip_supply"] == [50, 50, 35]
    assert len(identity["board"]) == 16
    assert {"seed", "simkit", "kernel", "swap_seats", "lineup"} <= set(identity)


def test_the_run_id_changes_with_anything_that_decides_a_row():
    base = ds.run_id(spec("greedy").identity())
    assert ds.run_id(spec("greedy:complete=1000").identity()) == base  # the default, written out
    changed = [
        spec("greedy:block4=800"),
        spec("greedy", seed=6),
        spec("greedy", rules=Rules.make(2, hand_size="6,7")),
        spec("greedy", rules=Rules.make(2, max_turns=500)),
        spec("greedy", rules=Rules.make(2, chip_limit=True)),
        RunSpec(TWO, Lineup.parse("greedy", TWO, swap_seats=True), 5, 300),
    ]
    ids = {ds.run_id(s.identity()) for s in changed}
    assert base not in ids and len(ids) == len(changed)
    # ... but not with the number of games or the chunking: those extend or split the same run.
    assert ds.run_id(spec("greedy", games=10, chunk=3).identity()) == base


def test_a_part_of_another_run_is_refused_on_resume(tmp_path):
    """A part from another seed copied into the directory is named, not trusted for its row count."""
    run(tmp_path / "mine", spec())
    run(tmp_path / "other", spec(seed=99))
    (tmp_path / "mine" / ds.part_name(100)).unlink()
    shutil.copy(tmp_path / "other" / ds.part_name(100), tmp_path / "mine" / ds.part_name(100))
    with pytest.raises(ds.DatasetError, match=r"part-000000000100.parquet belongs to another run \(.*seed 99"):
        run(tmp_path / "mine", spec())


def test_a_part_that_does_not_fit_the_chunks_is_refused(tmp_path):
    run(tmp_path / "a", spec(chunk=100))
    run(tmp_path / "b", spec(chunk=150))
    shutil.copy(tmp_path / "b" / ds.part_name(150), tmp_path / "a" / ds.part_name(150))
    with pytest.raises(ds.DatasetError, match="does not fit this run's chunks"):
        run(tmp_path / "a", spec(chunk=100))


def test_a_part_of_this_run_whose_metadata_gives_no_first_game_is_refused(tmp_path):
    """A part named for a chunk of the run, with the run's id but no first game in its metadata (the chunk log has
    no digest of it, so it is read whole), is refused as not fitting the chunks: one error, no traceback."""
    run(tmp_path, spec(games=200))
    table = pq.read_table(tmp_path / ds.part_name(100))
    meta = json.loads(table.schema.metadata[b"simkit"])
    del meta["first_game"]
    stray = table.replace_schema_metadata({b"simkit": json.dumps(meta).encode()})
    pq.write_table(stray, tmp_path / ds.part_name(200))
    with pytest.raises(ds.DatasetError, match="part-000000000200.parquet does not fit this run's chunks"):
        run(tmp_path, spec(games=300))


def test_a_report_counts_a_copied_run_once_and_says_so(tmp_path):
    run(tmp_path / "study" / "a", spec())
    shutil.copytree(tmp_path / "study" / "a", tmp_path / "study" / "copy")
    df, runs = read_runs(tmp_path / "study")
    assert len(df) == 300
    assert df.attrs["duplicates"] == {ds.run_id(spec().identity()): 300}
    (summary,) = summarise_dataset(tmp_path / "study")
    assert summary.games == 300
    assert any("300 rows were copies" in n for n in summary.notes)


def test_two_seeds_are_two_summaries_never_pooled(tmp_path):
    run(tmp_path / "s5", spec(seed=5))
    run(tmp_path / "s6", spec(seed=6))
    summaries = summarise_dataset(tmp_path)
    assert [s.games for s in summaries] == [300, 300]
    assert [s.config["seed"] for s in summaries] == [5, 6]


def test_an_incomplete_run_is_marked_in_every_format(tmp_path):
    run(tmp_path, spec(games=300))
    manifest = manifest_of(tmp_path)
    manifest["games"] = 1000  # as if 1,000 were asked for and only 300 written
    ds.write_json_atomic(tmp_path / ds.MANIFEST, manifest)
    (summary,) = summarise_dataset(tmp_path)
    assert not summary.complete and "n=300 of 1,000: incomplete" in summary.title
    for fmt in ("markdown", "csv", "json"):
        text = render([summary], fmt)
        assert "incomplete: 300 of 1,000 games" in text, fmt


def test_old_format_datasets_are_still_read(tmp_path):
    """A simkit.running.dataset/1 run (int hand size, no run_id) is reported, each run on its own."""
    run(tmp_path / "new", spec(games=100))
    old = tmp_path / "old"
    old.mkdir()
    table = pq.read_table(tmp_path / "new" / ds.part_name(0))
    table = table.drop_columns(["run_id"])
    hand = table.schema.get_field_index("hand_size")
    table = table.set_column(hand, "hand_size", table.column("hand_size").cast("string").cast("int8"))
    pq.write_table(table, old / ds.part_name(0))
    ds.write_json_atomic(
        old / ds.MANIFEST,
        {"format": "simkit.running.dataset/1", "games": 100, "chunk_size": 100, "identity": {"seed": 5}, "chunks": []},
    )
    df, runs = read_runs(old)
    assert len(df) == 100 and df["run_id"].iloc[0].startswith("v1-")
    assert (df["hand_size"].astype(str) == "7").all()
    with pytest.raises(ds.DatasetError, match="different run|written by"):
        run(old, spec(games=100))


def test_every_client_reads_the_same_rows(tmp_path):
    """The part files stay readable by pyarrow, pandas, DuckDB and polars, with the same rows
    (a writer setting such as BYTE_STREAM_SPLIT for integers would lock out DuckDB before 2026-07)."""
    import pandas as pd

    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    run(tmp_path, spec(games=300, chunk=100))
    files = str(tmp_path / "part-*.parquet")
    reference = pq.ParquetDataset(tmp_path).read().to_pandas().sort_values("game", ignore_index=True)
    numbers = [c for c in reference.columns if pd.api.types.is_integer_dtype(reference[c])]
    readers = {
        "pandas": pd.read_parquet(tmp_path),
        "duckdb": duckdb.sql(f"select * from read_parquet('{files}')").df(),
        "polars": pl.read_parquet(files).to_pandas(),
    }
    assert len(reference) == 300 and len(numbers) > 20
    for name, frame in readers.items():
        frame = frame.sort_values("game", ignore_index=True)
        assert list(frame.columns) == list(reference.columns), name
        assert (frame[numbers].to_numpy() == reference[numbers].to_numpy()).all(), name
        assert (frame["end"].astype(str) == reference["end"].astype(str)).all(), name


def test_writing_a_part_does_not_import_pandas(tmp_path):
    """The part writer of every run builds its Arrow columns from numpy buffers; pa.array
    (and Arrow's to_pandas_dtype) would import pandas, half a second of CPU on a core the kernel needs."""
    import subprocess
    import sys

    script = f"""
import sys
import numpy as np
from simkit.running import dataset as ds
from simkit.kernels.core.stats import GAME_STATS, as_rows
from simkit.game.players import Lineup
from simkit.game.rules import Rules
rules = Rules.make(3, hand_size=(6, 7, 7), handicap=(2, 1), chip_limit=True)
identity = ds.identity_of(rules, Lineup.parse("greedy,random", rules, swap_seats=True), 5)
stats = np.zeros(50, GAME_STATS)
as_rows(stats)[:] = np.arange(as_rows(stats).size).reshape(as_rows(stats).shape) % 3
ds.write_part({str(tmp_path)!r}, stats, 100, identity)
assert "pandas" not in sys.modules, "writing a part imported pandas"
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = pq.read_table(tmp_path / ds.part_name(100)).to_pylist()
    assert [r["game"] for r in rows] == list(range(100, 150))
    assert {(r["hand_size"], r["handicap"], r["chip_limit"], r["players"]) for r in rows} == {("6,7,7", "2,1", True, 3)}
    rules = Rules.make(3, hand_size=(6, 7, 7), handicap=(2, 1), chip_limit=True)
    seat_texts = Lineup.parse("greedy,random", rules, swap_seats=True).seat_texts()
    assert len(set(seat_texts)) == 3
    assert [r["policies"] for r in rows] == [seat_texts[g % 3] for g in range(100, 150)]
