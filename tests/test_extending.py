"""docs/dev/extending.md, walked cheaply: a rule option, a study's own option and a metric, each declared in its
registry alone (monkeypatched, no other file edited), reach what the page says follows from the declaration.

A command is built from the registries each time the command line runs it (simkit.commands.group), so each
test declares its toy, then invokes the app. Nothing plays a game.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest
from typer.core import TyperOption
from typer.main import get_group
from typer.testing import CliRunner

import simkit.studies.loop
from simkit.analysis import metrics, stats
from simkit.analysis.aggregate import Aggregate
from simkit.cli import app
from simkit.commands import run as run_command
from simkit.game import options
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.presentation import render
from simkit.studies import options as study_options
from simkit.studies.directory import default_folder
from simkit.studies.kind import Config
from simkit.studies.options import StudyError
from simkit.studies.registry import KINDS, make_study
from simkit.studies.summary import summary_row

ROOT = Path(__file__).resolve().parents[1]
EXTENDING = ROOT / "docs" / "dev" / "extending.md"
runner = CliRunner()


def flat(text: str) -> str:
    """The help's words on one line (wrapped lines joined)."""
    return " ".join(text.split())


class Played(Exception):
    """A command line good enough to play: stopped before the first game."""


def test_the_page_names_the_registries_it_walks():
    text = EXTENDING.read_text(encoding="utf-8")
    for path in (
        "simkit/game/options.py",
        "simkit/studies/options.py",
        "simkit/analysis/metrics.py",
        "simkit/studies/registry.py",
        "kernels/players/NAME.py",
        "tests/fingerprint.py",
    ):
        assert f"`{path}`" in text, path
        if "NAME" not in path:
            assert (ROOT / path).is_file(), path


def test_a_rule_option_declared_in_OPTIONS_alone_is_an_option_of_run_study_and_play(monkeypatch):
    toy = dataclasses.replace(
        options.OPTIONS["late_card"], name="toy_rule", help="A toy rule of the test.", metavar="T"
    )
    monkeypatch.setitem(options.OPTIONS, "toy_rule", toy)
    for command in ("run", "play"):
        result = runner.invoke(app, [command, "--help"], terminal_width=200)
        assert result.exit_code == 0, result.output
        assert "--toy-rule T A toy rule of the test. Default: 0." in flat(result.stdout), command
    # (simkit study --help would make Rules, whose fields are OPTIONS' as simkit.game.rules was imported: its option)
    (param,) = [p for p in get_group(app).commands["study"].params if p.name == "toy_rule"]
    assert isinstance(param, TyperOption)
    assert param.opts == ["--toy-rule"] and param.help == "A toy rule of the test. Default: 0."
    given = {}

    def stop(rule_options, *args, **kwargs):
        given.update(rule_options)
        raise Played

    monkeypatch.setattr(run_command, "rules_and_lineup", stop)
    result = runner.invoke(app, ["run", "--toy-rule", "3", "--late-card", "2"])
    assert isinstance(result.exception, Played) and given == {"toy_rule": 3, "late_card": 2}
    assert "| `toy_rule` | `--toy-rule` | 0 |" in options.markdown_table()  # the docs' table, regenerated


def test_a_study_option_declared_in_STUDY_OPTIONS_alone_reaches_its_kind(monkeypatch, tmp_path):
    toy = study_options.StudyOption(
        "rounds", "first-player", "a toy option of the test, a whole number", parse=int, takes="a whole number"
    )
    monkeypatch.setitem(study_options.STUDY_OPTIONS, "rounds", toy)
    kind = KINDS["first-player"]
    assert kind.options == {"rounds": toy} and "rounds" not in KINDS["teams"].options
    assert "Its own options: --rounds (a toy option of the test, a whole number)." in kind.accepts()
    result = runner.invoke(app, ["study", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert re.search(
        r"--rounds \S+ The first-player study only: a toy option of the test, a whole number\.", flat(result.stdout)
    )
    assert flat(kind.accepts()) in flat(result.stdout)  # the kind's part of the help
    studies = []

    def stop(study, out, *args, **kwargs):
        studies.append((study, out))
        raise Played

    monkeypatch.setattr(simkit.studies.loop, "run_study", stop)
    result = runner.invoke(app, ["study", "first-player", "--rounds", "3"], catch_exceptions=True)
    assert isinstance(result.exception, Played), result.output
    ((study, out),) = studies
    assert study.options["rounds"] == 3 and out.name == "first-player-rounds-3" == default_folder(study)
    bad = runner.invoke(app, ["study", "first-player", "--rounds", "x", "--out", str(tmp_path / "s")])
    assert bad.exit_code == 1 and bad.stderr.strip() == "error: --rounds 'x' must be a whole number"
    other = runner.invoke(app, ["study", "teams", "--rounds", "3", "--out", str(tmp_path / "s")])
    assert other.exit_code == 1
    assert other.stderr.strip() == "error: --rounds applies to the first-player study, not to teams"
    with pytest.raises(StudyError, match="--rounds is not an option of the teams study"):
        make_study("teams", rounds=3)
    assert not (tmp_path / "s").exists()


def test_a_study_option_that_chooses_among_parts_is_neither_identity_nor_folder(monkeypatch):
    toy = study_options.StudyOption("part", "first-player", "a part of the study", chooses=True)
    monkeypatch.setitem(study_options.STUDY_OPTIONS, "part", toy)
    study = make_study("first-player", part="a")
    assert study.identity() == make_study("first-player").identity() and default_folder(study) == "first-player"


def test_a_metric_declared_in_METRICS_alone_is_in_every_study_row_and_the_docs_table(monkeypatch):
    toy = metrics.Metric(
        "toy_metric",
        "a toy metric of the test: the share of games won by team 1",
        "0 .. 1",
        lambda a: stats.proportion(int(a.wins()[1]), a.games),
    )
    monkeypatch.setitem(metrics.METRICS, "toy_metric", toy)
    rules = Rules.make(2)
    n = 10
    agg = Aggregate.of_rows(
        {
            "game": np.arange(n),
            "winner_team": np.arange(n) % 2,
            "end": ["win"] * n,
            "turns": np.full(n, 40),
            "first_sequence_team": np.arange(n) % 2,
            "first_sequence_turn": np.full(n, 20),
        },
        rules.teams,
        rules.max_turns,
    )
    row = summary_row(Config(rules, Lineup.parse("random", rules), n), agg)
    assert (
        row["toy_metric"] == 0.5 and row["toy_metric_n"] == n and row["toy_metric_low"] < 0.5 < row["toy_metric_high"]
    )
    assert (
        "| `toy_metric` | a toy metric of the test: the share of games won by team 1 | 0 .. 1 |"
        in render.metrics_markdown()
    )
