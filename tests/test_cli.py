"""The command line: exact interfaces, clear errors, no tracebacks."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import simkit
from cli import app
from simkit.records import read_records
from tests import referee

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_version():
    result = invoke("--version")
    assert result.exit_code == 0 and simkit.__version__ in result.stdout


def test_play_writes_records_an_independent_referee_accepts(tmp_path):
    path = tmp_path / "games.jsonl"
    result = invoke("play", "--players", "4", "--teams", "2", "--policy", "random", "--seed", "3",
                    "--games", "3", "--first-game", "10", "--record", str(path))
    assert result.exit_code == 0, result.output
    records = read_records(path)
    assert [r["game"] for r in records] == [10, 11, 12]
    assert all(r["seed"] == 3 and r["format"] == "simkit.game/1" for r in records)
    for r in records:
        assert referee.check_record(r) == []
    assert result.stdout.count("game 1") == 3  # one result line per game
    assert "XX" in result.stdout  # the board is shown


def test_play_is_reproducible(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    invoke("play", "--seed", "9", "--games", "2", "--record", str(a), "--no-board")
    invoke("play", "--seed", "9", "--games", "1", "--first-game", "1", "--record", str(b), "--no-board")
    assert read_records(a)[1] == read_records(b)[0]


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "--players", "5"], "5 players is not a legal game; legal: 2 players"),
        (["play", "--players", "4", "--teams", "3"], "cannot form 3 equal teams"),
        (["play", "--policy", "clever"], "unknown policy 'clever'; known: random"),
        (["play", "--policy", "random:depth=3"], "bad parameter"),
        (["play", "--hand-size", "0"], "hand size 0 is not allowed"),
        (["play", "--record", "/nonexistent-dir/x.jsonl"], "is not a directory"),
        (["run", "--games", "0", "--out", "{tmp}/x"], "--games must be at least 1"),
        (["run", "--games", "-3", "--out", "{tmp}/x"], "--games must be at least 1"),
        (["run", "--games", "10", "--threads", "99", "--out", "{tmp}/x"], "threads must be 1.."),
        (["run", "--games", "10", "--chunk-size", "0", "--out", "{tmp}/x"], "chunk size must be"),
        (["run", "--games", "10", "--seed", str(2**63), "--out", "{tmp}/x"], "seed must be 0.."),
        (["run", "--games", "10", "--out", "{tmp}/afile/x"], "cannot write"),
        (["report", "{tmp}"], "holds no simkit dataset"),
        (["report", "{tmp}/missing"], "is not a directory"),
    ],
)
def test_bad_input_gets_one_line_error(tmp_path, args, message):
    (tmp_path / "afile").write_text("x")
    result = runner.invoke(app, [a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and message in err
    assert not (tmp_path / "x").exists()  # nothing written for a refused run


def test_corrupt_dataset_is_reported_not_crashed(tmp_path):
    invoke("run", "--games", "20", "--chunk-size", "10", "--out", str(tmp_path), "--quiet")
    (tmp_path / "part-000000000000.parquet").write_bytes(b"not parquet")
    result = runner.invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "not a readable Parquet part" in result.stderr
    (tmp_path / "_manifest.json").write_text("{}")
    result = runner.invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 1 and "not a simkit dataset manifest" in result.stderr


def test_run_then_report_formats(tmp_path):
    out = tmp_path / "ds"
    result = invoke("run", "--games", "400", "--chunk-size", "150", "--seed", "1", "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    again = invoke("run", "--games", "400", "--chunk-size", "150", "--seed", "1", "--out", str(out), "--quiet")
    assert "nothing to do" in again.stderr
    refused = runner.invoke(app, ["run", "--games", "400", "--players", "4", "--out", str(out), "--quiet"])
    assert refused.exit_code == 1 and "--overwrite" in refused.stderr
    as_json = invoke("report", str(out), "--format", "json")
    assert as_json.exit_code == 0
    assert json.loads(as_json.stdout)
    for fmt in ("csv", "markdown", "rich"):
        assert invoke("report", str(out), "--format", fmt).exit_code == 0
