"""Nothing silently wrong: every part is checked on every read, and a damaged part is a missing chunk.

A part's bytes are checked against the sha256 its chunk log recorded when it was written, and every page
read against its Parquet page checksum (simkit.running.parts.open_part). Damage anywhere in a part (its pages,
its footer, its header) is then either found, the part named and left out, or harmless, the rows read the
same; never other numbers. A damaged part is healed as a missing chunk is: the same command plays it again,
the same bytes. Random games only, a few hundred of them: the whole file takes seconds.
"""

from __future__ import annotations

import json
import random
import shlex
import struct
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import simkit
from simkit.analysis.aggregate import paired, runs_of
from simkit.cli import app
from simkit.commands.errors import EXIT_INCOMPLETE
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.running import dataset as ds
from simkit.running import manifest as mf
from simkit.running.parts import DamagedPart, digest_of, file_digest, open_part, read_columns
from simkit.running.reading import IncompleteDataset, IncompleteDatasetWarning, read_games
from simkit.running.runner import RunEvents, RunSpec, run

TWO = Rules.make(2)
runner = CliRunner()


def spec(games=300, chunk=100, seed=5) -> RunSpec:
    return RunSpec(TWO, Lineup.parse("random", TWO), seed, games, chunk)


class Notes(RunEvents):
    def __init__(self):
        self.notes = []

    def notice(self, message):
        self.notes.append(message)


# --- every damage is found, or harmless --------------------------------------------------------------


def regions(data: bytes) -> dict[str, tuple[int, int]]:
    """[start, end) of a Parquet file's header (the magic), its pages (every column chunk) and its footer
    (the metadata, its length and the closing magic)."""
    footer_length = struct.unpack("<i", data[-8:-4])[0]
    footer = len(data) - 8 - footer_length
    return {"header": (0, 4), "pages": (4, footer), "footer": (footer, len(data))}


def damages(data: bytes, seed: int = 2026) -> list[tuple[str, str, int, bytes]]:
    """(kind, region, offset, the damaged file): 200 single-bit flips and 20 byte overwrites, seeded,
    spread over the pages (most of the file), the footer and the header."""
    rng = random.Random(seed)
    where = regions(data)
    out = []
    for kind, count, share in (
        ("bit flip", 200, {"pages": 120, "footer": 60, "header": 20}),
        ("overwrite", 20, {"pages": 12, "footer": 6, "header": 2}),
    ):
        assert sum(share.values()) == count
        for region, n in share.items():
            lo, hi = where[region]
            for _ in range(n):
                damaged = bytearray(data)
                at = rng.randrange(lo, hi)
                if kind == "bit flip":
                    damaged[at] ^= 1 << rng.randrange(8)
                else:  # a run of 1-16 bytes overwritten with other bytes (zeros, or random)
                    size = min(rng.randint(1, 16), hi - at)
                    fill = bytes(size) if rng.random() < 0.5 else bytes(rng.randrange(256) for _ in range(size))
                    if fill == bytes(data[at : at + size]):
                        fill = bytes(b ^ 0xFF for b in fill)
                    damaged[at : at + size] = fill
                assert bytes(damaged) != data
                out.append((kind, region, at, bytes(damaged)))
    return out


def rows_of(path: Path, digest: str | None) -> pd.DataFrame:
    """Every row of one part as a reader checks it (open_part), values as plain numbers and text."""
    table = read_columns(open_part(path, digest), path)
    return table.to_pandas().astype({c: str for c in ("end", "policies", "hand_size", "run_id", "handicap")})


def verdict(read, original) -> str:
    """'detected' when reading raises (the part is named as damaged or unreadable), 'harmless' when it gives
    the original rows, else 'silently wrong'."""
    try:
        got = read()
    except ds.DatasetError:
        return "detected"
    except Exception as e:  # noqa: BLE001 - a crash is no silent number, but no clean refusal either
        return f"crashed ({type(e).__name__})"
    return "harmless" if original(got) else "silently wrong"


@pytest.fixture(scope="module")
def one_part(tmp_path_factory) -> Path:
    """A dataset of one part: 300 random games."""
    out = tmp_path_factory.mktemp("one-part")
    run(out, spec(games=300, chunk=300))
    return out


def test_every_bit_flip_and_overwrite_is_found_or_harmless(one_part, capsys):
    """200 seeded single-bit flips and 20 byte overwrites over the pages, the footer and the header of a part:
    each is found (the part named as damaged) or harmless (the same rows) by every reader, the report's
    (simkit.analysis.aggregate.runs_of), read_games' and the resume's (simkit.running.runner); never other numbers.

    The table also says what the page checksums and the decoder catch alone (a part without a recorded
    digest): not everything, which is why each part's digest is recorded when it is written."""
    part = one_part / ds.part_name(0)
    data = part.read_bytes()
    digest = mf.digests(one_part)[0]
    assert digest == digest_of(data) and part.stat().st_size < 40_000
    original_rows = rows_of(part, digest)
    (found,) = runs_of(one_part)
    original_aggregate = found.aggregate

    def same_rows(got: pd.DataFrame) -> bool:
        return got.shape == original_rows.shape and bool((got.to_numpy() == original_rows.to_numpy()).all())

    def same_aggregate(got) -> bool:
        return all(
            np.array_equal(getattr(got, k), getattr(original_aggregate, k))
            for k in ("outcomes", "length", "first_turn", "sums")
        )

    def report():
        (run_,) = runs_of(one_part)
        if run_.left_out:
            raise run_.left_out[0]
        return run_.aggregate

    def rows_read():
        with warnings.catch_warnings(record=True) as heard:
            warnings.simplefilter("always")
            rows = read_games(one_part, allow_incomplete=True)
        if heard:
            raise ds.DatasetError(str(heard[0].message))
        return rows.reset_index(drop=True).astype(
            {c: str for c in ("end", "policies", "hand_size", "run_id", "handicap")}
        )

    def resume():
        from simkit.running.runner import _finished

        events = Notes()
        done = _finished(one_part, spec(games=300, chunk=300), ds.run_id(spec().identity()), events)
        for aside in one_part.glob(ds.UNREADABLE_GLOB):
            aside.rename(part)  # put the damaged part back for the next reader
        if events.notes:
            raise ds.DatasetError(events.notes[0])
        return done

    readers = {
        "report": (report, same_aggregate),
        "read_games": (rows_read, same_rows),
        "resume": (resume, lambda done: done == {0: digest}),
        "pages alone": (lambda: rows_of(part, None), same_rows),  # no digest: the page checksums, the decoder
    }
    table: dict[tuple[str, str], dict[str, int]] = {}
    try:
        for kind, region, at, damaged in damages(data):
            part.write_bytes(damaged)
            for name, (read, original) in readers.items():
                outcome = verdict(read, original)
                counts = table.setdefault((name, kind), {})
                counts[outcome] = counts.get(outcome, 0) + 1
                if name != "pages alone":
                    assert outcome in ("detected", "harmless"), (name, kind, region, at, outcome)
    finally:
        part.write_bytes(data)
    with capsys.disabled():
        print("\nreader       damage      tried  detected  harmless  silently wrong  other")
        for (name, kind), counts in table.items():
            tried = sum(counts.values())
            other = tried - sum(counts.get(k, 0) for k in ("detected", "harmless", "silently wrong"))
            print(
                f"{name:<12} {kind:<10} {tried:>6} {counts.get('detected', 0):>9} {counts.get('harmless', 0):>9} "
                f"{counts.get('silently wrong', 0):>15} {other:>6}"
            )
    for (name, kind), counts in table.items():
        assert sum(counts.values()) == (200 if kind == "bit flip" else 20)
        if name != "pages alone":
            assert counts.get("silently wrong", 0) == 0 and counts.get("detected", 0) == sum(counts.values())
    assert file_digest(part) == digest


def test_the_regions_cover_the_file(one_part):
    data = (one_part / ds.part_name(0)).read_bytes()
    r = regions(data)
    assert data[:4] == data[-4:] == b"PAR1" and r["header"][1] == r["pages"][0] and r["pages"][1] == r["footer"][0]
    assert r["footer"][1] == len(data) and r["pages"][1] - r["pages"][0] > r["footer"][1] - r["footer"][0]


# --- a damaged part is a missing chunk: named, and played again the same ---------------------------


def damage(path: Path, at: float = 0.3, size: int = 8) -> None:
    """Overwrite `size` bytes in the middle of a file (what a bad disk or a bad copy does), the size kept."""
    data = bytearray(path.read_bytes())
    i = int(len(data) * at)
    data[i : i + size] = bytes(b ^ 0x5A for b in data[i : i + size])
    path.write_bytes(bytes(data))


def test_a_damaged_part_is_named_by_the_report_and_the_same_command_plays_it_again(tmp_path):
    """The report exits 3, its first lines name the part and give the command; that command (run's own)
    plays the chunk again, the same bytes, and the report is whole again."""
    out = tmp_path / "ds"
    args = ["run", "--games", "300", "--chunk-size", "100", "--seed", "5", "--out", str(out), "--quiet"]
    assert runner.invoke(app, args).exit_code == 0
    part = out / ds.part_name(100)
    whole, rows = part.read_bytes(), read_games(out)
    damage(part)
    assert part.stat().st_size == len(whole)

    refused = runner.invoke(app, ["report", str(out)])
    assert refused.exit_code == EXIT_INCOMPLETE == 3, refused.output
    assert refused.stdout == ""  # no partial report without --allow-incomplete
    lines = refused.stderr.splitlines()
    assert lines[0] == (
        f"error: {out} is incomplete: 1 run lacks games, 1 part left out as damaged or "
        "unreadable; whatever is summarised of it would be partial"
    )
    assert lines[1].startswith(
        f"  {out}: 200 of 300 games; damaged {part.name} (its bytes are not the ones written: sha256 "
    )
    assert lines[1].endswith("games 100-199 missing")
    command = f"simkit run --games 300 --policy random --seed 5 --players 2 --out {out}"
    assert lines[2] == f"  complete it: {command}"
    assert lines[3] == f"  `simkit report --allow-incomplete {out}` prints the partial report on purpose (exit code 0)"
    assert "Traceback" not in refused.output

    partial = runner.invoke(app, ["report", str(out), "--allow-incomplete", "--format", "json"])
    assert partial.exit_code == 0
    assert partial.stderr.splitlines()[0].startswith(f"warning: {out} is incomplete: ")
    (summary,) = json.loads(partial.stdout)
    assert summary["games"] == 200 and not summary["complete"]
    assert any(n.startswith(f"damaged part {part} (") for n in summary["notes"])

    healed = runner.invoke(app, shlex.split(command)[1:] + ["--quiet"])
    assert healed.exit_code == 0, healed.output
    (note,) = healed.stderr.strip().splitlines()
    assert note.startswith(f"{part} is damaged (its bytes are not the ones written") and "set aside" in note
    assert part.read_bytes() == whole
    pd.testing.assert_frame_equal(read_games(out), rows)
    assert runner.invoke(app, ["report", str(out), "--format", "json"]).exit_code == 0
    again = runner.invoke(app, shlex.split(command)[1:])
    assert "nothing to do" in again.stderr and part.read_bytes() == whole


def test_damage_in_the_footer_is_healed_too(tmp_path):
    """A part whose footer (its metadata) is damaged: refused by the readers, set aside and played again."""
    run(tmp_path, spec())
    part = tmp_path / ds.part_name(200)
    whole = part.read_bytes()
    damage(part, at=1 - 200 / len(whole), size=3)
    (found,) = runs_of(tmp_path)
    assert [e.path for e in found.left_out] == [part] and found.missing == [(200, 300)]
    events = Notes()
    again = run(tmp_path, spec(), events=events)
    assert again.chunks_written == 1 and part.read_bytes() == whole and len(events.notes) == 1


def test_read_games_and_summarise_never_return_partial_rows_silently(tmp_path):
    run(tmp_path, spec())
    rows = read_games(tmp_path)
    damage(tmp_path / ds.part_name(0))
    with pytest.raises(IncompleteDataset) as caught:
        simkit.read_games(tmp_path)
    message = str(caught.value)
    assert "200 of 300 games; damaged part-000000000000.parquet" in message
    assert f"complete it: simkit run --games 300 --policy random --seed 5 --players 2 --out {tmp_path}" in message
    assert "read_games(..., allow_incomplete=True) returns the rows there are" in message
    assert isinstance(caught.value, ValueError)
    with pytest.warns(IncompleteDatasetWarning, match="games 0-99 missing"):
        partial = simkit.read_games(tmp_path, allow_incomplete=True)
    pd.testing.assert_frame_equal(partial, rows.iloc[100:].reset_index(drop=True))
    assert [s.found for s in partial.attrs["shortfalls"]] == [200]
    with pytest.raises(IncompleteDataset, match="summarise\\(..., allow_incomplete=True\\)"):
        simkit.summarise(tmp_path)
    with pytest.warns(IncompleteDatasetWarning):
        tables = simkit.summarise(tmp_path, allow_incomplete=True)
    assert int(tables["teams"]["games"].iloc[0]) == 200
    for _ in range(2):  # every read warns, not only the first from a line of code
        with pytest.warns(IncompleteDatasetWarning):
            simkit.read_games(tmp_path, ["game"], allow_incomplete=True)


def test_an_interrupted_run_is_refused_by_the_readers_with_the_command_that_completes_it(tmp_path):
    run(tmp_path, spec(games=300))
    manifest = json.loads((tmp_path / ds.MANIFEST).read_text())
    manifest["games"] = 500  # as if 500 were asked for and the run stopped at 300
    (tmp_path / ds.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(IncompleteDataset, match=r"300 of 500 games; games 300-499 missing") as caught:
        read_games(tmp_path)
    assert f"--games 500 --policy random --seed 5 --players 2 --out {tmp_path}" in str(caught.value)
    result = runner.invoke(app, ["report", str(tmp_path), "--format", "csv"])
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr.splitlines()[1] == f"  {tmp_path}: 300 of 500 games; games 300-499 missing"


def test_a_part_written_before_digests_is_read_as_before_and_says_nothing(tmp_path):
    """A chunk log without digests (a dataset written before them): its parts are read unchecked but for their
    pages, nothing is said; a resume checks every page of them once and records their digests."""
    run(tmp_path, spec())
    rows = read_games(tmp_path)
    log = tmp_path / mf.LOG
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    log.write_text("".join(json.dumps({"first_game": e["first_game"], "games": e["games"]}) + "\n" for e in lines))
    assert mf.digests(tmp_path) == {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pd.testing.assert_frame_equal(read_games(tmp_path), rows)
        (found,) = runs_of(tmp_path)
    assert found.shortfall() is None and found.aggregate.games == 300
    assert runner.invoke(app, ["report", str(tmp_path), "-f", "json"]).exit_code == 0
    assert run(tmp_path, spec()).chunks_written == 0
    assert mf.digests(tmp_path) == {e["first_game"]: e["sha256"] for e in lines}


def test_a_part_whose_log_line_was_lost_is_checked_whole_and_its_digest_recorded(tmp_path):
    """kill -9 between a part's rename and its line: the resume reads the part whole (every page checked)."""
    run(tmp_path, spec())
    log = tmp_path / mf.LOG
    lines = log.read_text().splitlines()
    log.write_text(lines[0] + "\n" + lines[2] + "\n")
    assert run(tmp_path, spec()).chunks_written == 0
    assert sorted(log.read_text().splitlines()) == sorted(lines)


def test_a_part_of_another_run_is_still_refused_not_taken_for_damage(tmp_path):
    run(tmp_path / "mine", spec())
    run(tmp_path / "other", spec(seed=99))
    (tmp_path / "other" / ds.part_name(100)).replace(tmp_path / "mine" / ds.part_name(100))
    with pytest.raises(ds.DatasetError, match=r"belongs to another run \(.*seed 99"):
        run(tmp_path / "mine", spec())


def test_a_study_heals_a_damaged_part_as_a_missing_chunk(tmp_path):
    """A study reads its runs through the report's reader and plays through the runner: the same command
    plays the damaged chunk again, and the summary is the summary before."""
    args = [
        "study",
        "first-player",
        "--policy",
        "random",
        "--players",
        "2",
        "--games",
        "300",
        "--seed",
        "5",
        "--out",
        str(tmp_path),
        "--quiet",
    ]
    assert runner.invoke(app, args).exit_code == 0
    summary = (tmp_path / "summary.csv").read_text()
    (folder,) = [p.parent for p in tmp_path.rglob(ds.MANIFEST)]
    (part,) = sorted(folder.glob(ds.PART_GLOB))[:1]
    whole = part.read_bytes()
    damage(part)
    refused = runner.invoke(app, ["report", str(tmp_path)])
    assert refused.exit_code == 3 and f"damaged {part.name}" in refused.stderr
    healed = runner.invoke(app, args)
    assert healed.exit_code == 0, healed.output
    assert "is damaged" in healed.stderr and part.read_bytes() == whole
    assert (tmp_path / "summary.csv").read_text() == summary


def test_paired_games_are_read_checked(tmp_path):
    run(tmp_path / "a", spec())
    run(tmp_path / "b", spec(seed=6))
    before = paired(tmp_path / "a", tmp_path / "b", 2)
    assert before.n == 300
    damage(tmp_path / "b" / ds.part_name(100))
    with pytest.raises(DamagedPart, match="part-000000000100.parquet is damaged"):
        paired(tmp_path / "a", tmp_path / "b", 2)


def test_parts_carry_page_checksums_and_their_digest_in_the_log(tmp_path):
    """What the formats give: a CRC-32 in every page header (pyarrow's write_page_checksum), and the sha256 of
    the part's bytes in its chunk log's line (sha256sum part-*.parquet prints the same)."""
    run(tmp_path, spec())
    assert ds.WRITE_OPTIONS["write_page_checksum"] is True
    for first, digest in mf.digests(tmp_path).items():
        assert digest == digest_of((tmp_path / ds.part_name(first)).read_bytes())
    part = tmp_path / ds.part_name(0)
    table = pq.read_table(part)
    plain = tmp_path / "plain.parquet"
    pq.write_table(table, plain, **{**ds.WRITE_OPTIONS, "write_page_checksum": False})
    columns = table.num_columns
    assert part.stat().st_size - plain.stat().st_size >= 4 * columns  # four bytes of CRC in every page header
