"""`simkit run`'s dataset: determinism for every policy, resuming, refusing, and what it records."""

from __future__ import annotations

import json
import time

import pandas as pd
import pyarrow.parquet as pq
import pytest

import simkit.game.play
from simkit.game.play import get_threads, set_threads
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.running import dataset as ds
from simkit.running import manifest as mf
from simkit.running.executors import LocalExecutor
from simkit.running.parts import digest_of
from simkit.running.reading import find_runs, read_games
from simkit.running.runner import RunEvents, RunSpec, run
from tests.manifests import manifest_of

RULES = Rules.make(2)
LINEUP = Lineup.parse("random", RULES)
# Cheap enough for hundreds of games, and still every part of the lookahead (shortlist, rollouts, value).
CHEAP_LOOKAHEAD = "lookahead:rollouts=2:shortlist=2:horizon=2"
# (line-up, games): more than 64 games, so one batch has more games than blocks and every
# block plays several games on reused state arrays.
# The later players: a small search against the same search on the richer value (one arena
# for both, reused from game to game), the one-ply fast and swift (the lookahead's kernel with its leaves
# scored by kernels/values/rich.py).
CHEAP_ISMCTS = "ismcts:iterations=16:width=3:reply=2:horizon=1"
CHEAP_RICH = "ismcts-rich:iterations=16:width=3:reply=2:horizon=1"
EVERY_POLICY = [
    ("random", 600),
    ("greedy", 300),
    ("greedy,random", 300),
    (CHEAP_LOOKAHEAD, 140),
    (CHEAP_ISMCTS + "," + CHEAP_RICH, 140),
    ("fast,swift", 140),
]


def spec(games=600, chunk_size=250, seed=5, rules=RULES, lineup=LINEUP) -> RunSpec:
    return RunSpec(rules, lineup, seed, games, chunk_size)


def spec_of(policy: str, games: int, chunk_size: int, players: int = 2) -> RunSpec:
    rules = Rules.make(players)
    return RunSpec(rules, Lineup.parse(policy, rules), 5, games, chunk_size)


def rows(directory) -> pd.DataFrame:
    return read_games(directory).reset_index(drop=True)


class InterruptAfter(RunEvents):
    """Ctrl-C once `games` games have been reported, as if the user pressed it then."""

    def __init__(self, games: int):
        self.games, self.seen = games, 0

    def advanced(self, games: int) -> None:
        self.seen += games
        if self.seen >= self.games:
            raise KeyboardInterrupt


@pytest.fixture(autouse=True)
def restore_threads(monkeypatch):
    """Two threads allowed even on a one-core machine, so the thread tests run (and can fail) everywhere."""
    monkeypatch.setattr(simkit.game.play, "cores", lambda: max(2, simkit.game.play.os.cpu_count() or 1))
    before = get_threads()
    yield
    set_threads(before)


@pytest.mark.parametrize("policy, games", EVERY_POLICY)
def test_rows_identical_for_one_and_two_threads(tmp_path, policy, games):
    """Same seed and configuration: same rows on 1 thread or 2, for every policy."""
    set_threads(1)
    run(tmp_path / "one", spec_of(policy, games, games))
    set_threads(2)
    run(tmp_path / "two", spec_of(policy, games, games))
    one, two = rows(tmp_path / "one"), rows(tmp_path / "two")
    assert len(one) == games
    pd.testing.assert_frame_equal(one, two)


@pytest.mark.parametrize("policy, games", EVERY_POLICY)
def test_rows_identical_for_any_chunk_size_and_after_an_interruption(tmp_path, policy, games):
    """Rows depend on (seed, game index) alone: not on chunking, nor on a Ctrl-C and a resume."""
    run(tmp_path / "whole", spec_of(policy, games, games))
    reference = rows(tmp_path / "whole")
    for chunk in (1 if games <= 150 else 7, 64, games // 2 + 1):
        run(tmp_path / f"c{chunk}", spec_of(policy, games, chunk))
        pd.testing.assert_frame_equal(reference, rows(tmp_path / f"c{chunk}"))
    stopped = run(tmp_path / "resumed", spec_of(policy, games, 50), events=InterruptAfter(70))
    assert stopped.interrupted and 0 < stopped.chunks_written < stopped.chunks
    again = run(tmp_path / "resumed", spec_of(policy, games, 50))
    assert again.complete and again.chunks_before == stopped.chunks_written
    pd.testing.assert_frame_equal(reference, rows(tmp_path / "resumed"))


def test_part_files_are_byte_identical_across_runs(tmp_path):
    """Same seed, configuration and version: the same bytes."""
    run(tmp_path / "a", spec())
    run(tmp_path / "b", spec())
    parts = sorted((tmp_path / "a").glob(ds.PART_GLOB))
    assert len(parts) == 3
    for part in parts:
        assert part.read_bytes() == (tmp_path / "b" / part.name).read_bytes()


def test_the_runner_hands_an_executor_only_the_missing_chunks(tmp_path):
    """An executor is used through check, warm_up and play alone; its parts are a local run's, byte for byte."""
    calls: list = []

    class Recording(LocalExecutor):
        def check(self):
            calls.append("check")

        def warm_up(self, chunks, events):
            calls.append(("warm_up", chunks.todo))
            super().warm_up(chunks, events)

        def play(self, chunks, finished, events):
            calls.append(("play", chunks.todo))
            return super().play(chunks, finished, events)

    chunks = spec().chunks()
    assert run(tmp_path / "a", spec(), scheduler=Recording()).complete
    assert calls == ["check", ("warm_up", chunks), ("play", chunks)]
    run(tmp_path / "b", spec())
    for part in sorted((tmp_path / "b").glob(ds.PART_GLOB)):
        assert part.read_bytes() == (tmp_path / "a" / part.name).read_bytes()
    (tmp_path / "a" / ds.part_name(250)).unlink()
    calls.clear()
    again = run(tmp_path / "a", spec(), scheduler=Recording())
    assert again.complete and again.chunks_written == 1
    assert calls == ["check", ("warm_up", [chunks[1]]), ("play", [chunks[1]])]
    calls.clear()
    assert run(tmp_path / "a", spec(), scheduler=Recording()).chunks_written == 0
    assert calls == ["check"]  # nothing to play: no warm-up, no play


def test_interrupted_run_leaves_only_whole_parts_and_resumes(tmp_path):
    """Ctrl-C in the middle of a chunk: that chunk is dropped, no partial file remains, the rest resumes."""
    first = run(tmp_path / "resumed", spec(), events=InterruptAfter(300))
    assert first.interrupted and not first.complete
    assert first.chunks_written == 1  # chunk [0, 250) was written; [250, 500) was being played
    assert not list((tmp_path / "resumed").glob(".*.tmp")), "no partial file may remain"
    manifest = manifest_of(tmp_path / "resumed")
    assert not manifest["complete"]
    assert [c["done"] for c in manifest["chunks"]] == [True, False, False]
    second = run(tmp_path / "resumed", spec())
    assert second.chunks_before == 1 and second.chunks_written == 2 and second.complete
    run(tmp_path / "straight", spec())
    pd.testing.assert_frame_equal(rows(tmp_path / "resumed"), rows(tmp_path / "straight"))


def test_a_signal_before_a_chunks_manifest_line_leaves_no_part_out_of_the_log(tmp_path, monkeypatch):
    """Ctrl-C or SIGTERM landing as the first finished chunk's line is about to be written: the part
    is on disk, so the manifest must say so (the disk is the truth: runner.record_parts_on_disk)."""
    real = mf.record
    calls = []

    def interrupted_once(where, first, n, digest=None):
        calls.append(first)
        if len(calls) == 1:
            raise KeyboardInterrupt  # the signal, before the line is written
        real(where, first, n, digest)

    monkeypatch.setattr(mf, "record", interrupted_once)
    out = tmp_path / "ds"
    stopped = run(out, spec())
    assert stopped.interrupted
    parts = {p.name for p in out.glob(ds.PART_GLOB)}
    assert ds.part_name(0) in parts
    assert {c["file"] for c in manifest_of(out)["chunks"] if c["done"]} == parts
    monkeypatch.setattr(mf, "record", real)
    again = run(out, spec())
    assert again.complete and again.chunks_before == len(parts)


def test_ctrl_c_answers_within_a_game_in_a_lookahead_run(tmp_path):
    """A lookahead chunk takes minutes; Ctrl-C stops it after the game each thread is playing."""
    rules = Rules.make(2)
    slow = RunSpec(rules, Lineup.parse("lookahead:rollouts=16", rules), 3, 2000, 1000)
    run(tmp_path / "warm", RunSpec(slow.rules, slow.lineup, 3, 1, 1))  # compile outside the timing

    class Clock(InterruptAfter):
        def advanced(self, games: int) -> None:
            self.at = time.perf_counter()
            super().advanced(games)

    clock = Clock(1)
    outcome = run(tmp_path / "slow", slow, events=clock)
    waited = time.perf_counter() - clock.at
    assert outcome.interrupted and outcome.chunks_written == 0
    assert waited < 5, f"Ctrl-C took {waited:.1f} s to answer"


def test_progress_is_reported_game_by_game_within_a_chunk(tmp_path):
    """The bar moves during a chunk (not only between chunks), and adds up to the games played."""

    class Count(RunEvents):
        def __init__(self):
            self.steps = []

        def advanced(self, games):
            self.steps.append(games)

    events = Count()
    rules = Rules.make(2)
    slow = Lineup.parse("lookahead:rollouts=64:race=0:horizon=8", rules)  # 40 games take a second or two
    run(tmp_path, RunSpec(rules, slow, 1, 40, 40), events=events)
    assert sum(events.steps) == 40
    assert len(events.steps) > 1, "a 40-game lookahead chunk reported only at its end"


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
    assert grown.chunks_before == 2 and grown.chunks_written == 1
    run(tmp_path / "whole", spec(games=600))
    pd.testing.assert_frame_equal(rows(tmp_path / "grown"), rows(tmp_path / "whole"))


def test_extending_past_a_short_last_chunk_replays_it(tmp_path):
    """550 games in chunks of 250 end with a 50-game part; asking for 600 replays that chunk whole."""
    run(tmp_path / "grown", spec(games=550))
    grown = run(tmp_path / "grown", spec(games=600))
    assert grown.chunks_before == 2 and grown.chunks_written == 1
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
    assert done.replaced == (
        "600 games of 2 players, 2 teams, hand 7, 2 sequences to win, turn cap 1,000, policies random, seed 5"
    )


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
    assert not list(tmp_path.iterdir()), "nothing is written for a refused run"


def test_default_chunk_size_is_smaller_when_a_lookahead_plays():
    rules = Rules.make(2)
    assert RunSpec(rules, Lineup.parse("greedy,random", rules), 1, 10).chunking == 100_000
    assert RunSpec(rules, Lineup.parse("greedy,lookahead", rules), 1, 10).chunking == 1_000


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
    assert (df["hand_size"].astype(str) == "7").all()
    assert df["run_id"].nunique() == 1 and len(df["run_id"].iloc[0]) == 16
    decided = df[df["end"] == "win"]
    assert (decided["winner_team"] >= 0).all()
    assert ((df["first_sequence_turn"] >= 1) | (df["first_sequence_turn"] == -1)).all()


def test_parts_are_written_with_the_documented_encodings(tmp_path):
    """Non-nullable columns, no statistics, lz4, delta-encoded game index (dataset.WRITE_OPTIONS)."""
    run(tmp_path, spec(games=50, chunk_size=50))
    path = tmp_path / ds.part_name(0)
    assert not any(f.nullable for f in pq.read_schema(path))
    columns = {
        c.path_in_schema: c
        for c in (pq.ParquetFile(path).metadata.row_group(0).column(i) for i in range(len(ds.SCHEMA)))
    }
    assert all(c.compression == "LZ4" and not c.is_stats_set for c in columns.values())
    assert "DELTA_BINARY_PACKED" in columns["game"].encodings
    for name in ("end", "policies", "hand_size", "run_id"):
        assert "RLE_DICTIONARY" in columns[name].encodings, name
    assert "RLE_DICTIONARY" not in columns["turns"].encodings


def test_swap_seats_rotates_the_lineup_from_game_to_game(tmp_path):
    """--swap-seats: even games greedy,random, odd games random,greedy; the same games otherwise."""
    rules = Rules.make(2)
    swapped = Lineup.parse("greedy,random", rules, swap_seats=True)
    run(tmp_path / "swap", RunSpec(rules, swapped, 9, 40, 40))
    df = rows(tmp_path / "swap")
    assert list(df["policies"].astype(str)[:4]) == ["greedy,random", "random,greedy"] * 2
    run(tmp_path / "plain", RunSpec(rules, Lineup.parse("greedy,random", rules), 9, 40, 40))
    run(tmp_path / "reversed", RunSpec(rules, Lineup.parse("random,greedy", rules), 9, 40, 40))
    stats = [c for c in ds.STAT_TYPES]
    plain, rev = rows(tmp_path / "plain"), rows(tmp_path / "reversed")
    even, odd = df["game"] % 2 == 0, df["game"] % 2 == 1
    pd.testing.assert_frame_equal(df.loc[even, stats], plain.loc[even, stats])
    pd.testing.assert_frame_equal(df.loc[odd, stats], rev.loc[odd, stats])


def test_a_run_from_another_version_is_not_resumed(tmp_path):
    """Rows from two versions must not mix: another kernel's dataset is refused unless --overwrite."""
    run(tmp_path, spec(games=500))
    manifest = manifest_of(tmp_path)
    manifest["identity"]["kernel"] = "0" * 16
    manifest["run_id"] = ds.run_id(manifest["identity"])
    ds.write_json_atomic(tmp_path / ds.MANIFEST, manifest)
    with pytest.raises(ds.DatasetError, match="written by simkit .* may differ"):
        run(tmp_path, spec(games=600))
    assert run(tmp_path, spec(games=600), overwrite=True).complete


def test_manifest_records_seed_configuration_and_versions(tmp_path):
    run(tmp_path, spec())
    header = json.loads((tmp_path / ds.MANIFEST).read_text())
    assert header["identity"] == spec().identity()
    assert header["run_id"] == ds.run_id(spec().identity())
    assert set(header["versions"]) >= {"simkit", "numba", "numpy", "pyarrow", "kernel_sources"}
    assert header["games"] == 600 and header["chunk_size"] == 250 and header["chunk_log"] == mf.LOG
    assert "chunks" not in header  # the chunks are in the log, a line each
    digest = {first: digest_of((tmp_path / ds.part_name(first)).read_bytes()) for first in (0, 250, 500)}
    assert (tmp_path / mf.LOG).read_text().splitlines() == [  # each with the sha256 of its part's bytes
        f'{{"first_game":0,"games":250,"sha256":"{digest[0]}"}}',
        f'{{"first_game":250,"games":250,"sha256":"{digest[250]}"}}',
        f'{{"first_game":500,"games":100,"sha256":"{digest[500]}"}}',
    ]
    manifest = manifest_of(tmp_path)  # read as 0.4.0 wrote it whole
    assert manifest["complete"] and [c["first_game"] for c in manifest["chunks"]] == [0, 250, 500]
    assert manifest["chunks"][2] == {"first_game": 500, "games": 100, "file": ds.part_name(500), "done": True}
    meta = json.loads(pq.read_schema(tmp_path / ds.part_name(250)).metadata[b"simkit"])
    assert meta == {
        "format": ds.FORMAT,
        "run_id": header["run_id"],
        "identity": header["identity"],
        "first_game": 250,
        "games": 250,
    }


def test_the_times_log_holds_each_command_that_played_and_nothing_else(tmp_path):
    """A command that plays appends its games and wall time; a finished run asked again appends nothing; a
    resume appends its own line; a torn line is skipped."""
    stopped = run(tmp_path, spec(), events=InterruptAfter(300))
    assert stopped.interrupted and stopped.games_played > 0
    first = mf.played_seconds(tmp_path)
    assert first is not None and first >= 0
    done = run(tmp_path, spec())
    assert done.complete
    lines = [json.loads(line) for line in (tmp_path / mf.TIMES).read_text().splitlines()]
    assert [x["games"] for x in lines] == [stopped.games_played, done.games_played]
    assert mf.played_seconds(tmp_path) == pytest.approx(sum(x["seconds"] for x in lines))
    run(tmp_path, spec())
    assert len((tmp_path / mf.TIMES).read_text().splitlines()) == 2  # nothing played, nothing written
    with (tmp_path / mf.TIMES).open("a") as f:
        f.write('{"games":5,"sec')  # a torn last line (a power loss)
    assert mf.played_seconds(tmp_path) == pytest.approx(sum(x["seconds"] for x in lines))
    assert mf.played_seconds(tmp_path / "none") is None


# --- the manifest: a header and a log of finished chunks ---------------------------


def _bookkeeping_per_chunk(directory, games: int, monkeypatch) -> tuple[list[int], int]:
    """(bytes added to the manifest's files by each finished chunk, header rewrites after the start)."""
    header = directory / ds.MANIFEST
    log = directory / mf.LOG
    real = mf.record.__wrapped__ if hasattr(mf.record, "__wrapped__") else mf.record
    added, stamps = [], set()

    def record(where, first, n, digest=None):
        before = header.stat().st_size + log.stat().st_size
        stamps.add((header.stat().st_ino, header.stat().st_mtime_ns))
        real(where, first, n, digest)
        added.append(header.stat().st_size + log.stat().st_size - before)

    record.__wrapped__ = real  # type: ignore[attr-defined]  # as functools.wraps sets it
    monkeypatch.setattr(mf, "record", record)
    run(directory, spec(games=games, chunk_size=1))
    stamps.add((header.stat().st_ino, header.stat().st_mtime_ns))
    return added, len(stamps) - 1


def test_each_finished_chunk_costs_the_same_bookkeeping_however_long_the_run(tmp_path, monkeypatch):
    """The header is written once, at the start; a chunk appends one short line, at chunk 10 as at 150."""
    short, rewrites_short = _bookkeeping_per_chunk(tmp_path / "short", 10, monkeypatch)
    long, rewrites_long = _bookkeeping_per_chunk(tmp_path / "long", 150, monkeypatch)
    assert len(short) == 10 and len(long) == 150
    assert rewrites_short == rewrites_long == 0, "the header was rewritten during the run"
    assert max(short) <= max(long) <= max(short) + 2  # the line grows with the digits of first_game only
    assert max(long) <= 40 + len(',"sha256":""') + 64  # and the part's digest, 64 hex digits
    assert manifest_of(tmp_path / "long")["complete"]


def write_040_manifest(directory, s: RunSpec, done: set[int]) -> None:
    """The whole-JSON manifest of simkit 0.4.0 (a chunks list and a complete flag), without a log."""
    identity = s.identity()
    ds.write_json_atomic(
        directory / ds.MANIFEST,
        {
            "format": ds.FORMAT,
            "run_id": ds.run_id(identity),
            "identity": identity,
            "games": s.games,
            "chunk_size": s.chunking,
            "versions": ds.versions(),
            "columns": ds.SCHEMA.names,
            "chunks": [
                {"first_game": f, "games": n, "file": ds.part_name(f), "done": f in done} for f, n in s.chunks()
            ],
            "complete": len(done) == len(s.chunks()),
        },
    )
    (directory / mf.LOG).unlink(missing_ok=True)


def test_a_040_dataset_is_read_and_resumed(tmp_path):
    """A manifest written whole by 0.4.0 is read as it is; resuming the run writes the header and the log."""
    run(tmp_path / "old", spec())
    (tmp_path / "old" / ds.part_name(250)).unlink()
    write_040_manifest(tmp_path / "old", spec(), {0, 500})
    manifest = manifest_of(tmp_path / "old")
    assert [c["done"] for c in manifest["chunks"]] == [True, False, True] and not manifest["complete"]
    (run_,) = find_runs(tmp_path / "old")
    assert run_.games == 600 and run_.games_on_disk == 350 and run_.run_id == ds.run_id(spec().identity())
    again = run(tmp_path / "old", spec())
    assert again.chunks_before == 2 and again.chunks_written == 1 and again.complete
    assert "chunks" not in json.loads((tmp_path / "old" / ds.MANIFEST).read_text())
    assert len((tmp_path / "old" / mf.LOG).read_text().splitlines()) == 3
    run(tmp_path / "straight", spec())
    pd.testing.assert_frame_equal(rows(tmp_path / "old"), rows(tmp_path / "straight"))


def test_a_torn_last_line_of_the_log_is_skipped_and_rewritten_on_resume(tmp_path):
    """A power loss mid-append leaves a line without its newline: it claims nothing."""
    run(tmp_path, spec())
    log = tmp_path / mf.LOG
    lines = log.read_text().splitlines()
    log.write_text(lines[0] + "\n" + lines[1] + "\n" + lines[2][:12])
    manifest = manifest_of(tmp_path)
    assert [c["done"] for c in manifest["chunks"]] == [True, True, False]
    assert find_runs(tmp_path)[0].games_on_disk == 500
    again = run(tmp_path, spec())  # the part of the torn line is on disk: nothing to play
    assert again.chunks_written == 0 and again.complete
    assert log.read_text().splitlines() == lines


def test_a_resume_with_another_chunk_size_says_so_and_keeps_the_datasets(tmp_path):
    class Notes(RunEvents):
        def __init__(self):
            self.notes = []

        def notice(self, message):
            self.notes.append(message)

    run(tmp_path, spec(games=500), events=InterruptAfter(300))
    events = Notes()
    again = run(tmp_path, spec(games=500, chunk_size=100), events=events)
    assert again.complete and manifest_of(tmp_path)["chunk_size"] == 250
    assert sorted(p.name for p in tmp_path.glob(ds.PART_GLOB)) == [ds.part_name(0), ds.part_name(250)]
    (note,) = events.notes
    assert note == (
        f"{tmp_path} is written in chunks of 250 games: resuming in those, not in the --chunk-size "
        "100 asked for (a chunk size applies to a new dataset only)"
    )
    quiet = Notes()
    run(tmp_path, spec(games=500, chunk_size=250), events=quiet)
    run(tmp_path, RunSpec(RULES, LINEUP, 5, 500), events=quiet)  # no --chunk-size: nothing to say
    assert quiet.notes == []
