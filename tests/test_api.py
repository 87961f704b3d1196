"""The Python API: simulate is `simkit run` without the disk, summarise the report as DataFrames, the documented
examples run."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import simkit
from simkit.running import dataset as ds
from simkit.running.reading import read_games

README = Path(__file__).resolve().parents[1] / "README.md"
API_PAGE = README.parent / "docs" / "guide" / "api.md"


def test_simulate_gives_the_rows_simkit_run_writes(tmp_path):
    from simkit.cli import app

    args = ["--players", "4", "--policy", "greedy,random", "--swap-seats", "--hand-size", "6,5", "--seed", "7"]
    result = CliRunner().invoke(
        app, ["run", "--games", "300", "--chunk-size", "120", *args, "--out", str(tmp_path), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    written = read_games(tmp_path)
    played = simkit.simulate(players=4, policy="greedy,random", swap_seats=True, hand_size="6,5", seed=7, games=300)
    assert list(played.columns) == ds.SCHEMA.names
    pd.testing.assert_frame_equal(played, written)
    later = simkit.simulate(
        players=4, policy="greedy,random", swap_seats=True, hand_size=[6, 5], seed=7, games=100, first_game=200
    )
    pd.testing.assert_frame_equal(later.reset_index(drop=True), written.iloc[200:].reset_index(drop=True))


@pytest.mark.parametrize(
    "kwargs, cli_args",
    [
        (dict(players=5), ["--players", "5"]),
        (dict(policy="greedy,random,lookahead"), ["--policy", "greedy,random,lookahead"]),
        (dict(policy="greedy:block4=1:block4=2"), ["--policy", "greedy:block4=1:block4=2"]),
        (dict(hand_size="7,7,7"), ["--hand-size", "7,7,7"]),
        (dict(games=0), ["--games", "0"]),
        (dict(seed=-1), ["--seed", "-1"]),
    ],
)
def test_bad_arguments_raise_value_error_in_the_cli_words(tmp_path, kwargs, cli_args):
    from simkit.cli import app

    with pytest.raises(ValueError) as caught:
        simkit.simulate(**kwargs)
    result = CliRunner().invoke(app, ["run", *cli_args, "--out", str(tmp_path / "x"), "--quiet"])
    assert result.exit_code in (1, 2)
    if result.exit_code == 1:  # typer itself checks some options (exit 2) before simkit sees them
        # the same words, the argument named as each door names it: games (Python), --games (command line)
        name = next(iter(kwargs)).replace("policy", "")
        said = str(caught.value).replace(name, "--" + name.replace("_", "-"), 1) if name else str(caught.value)
        assert result.stderr.strip() == f"error: {said}"


def test_summarise_returns_the_report_tables_as_dataframes():
    games = simkit.simulate(policy="greedy,random", swap_seats=True, games=400, seed=2)
    tables = simkit.summarise(games)
    assert {"teams", "seats", "outcomes", "draw", "length", "first_mover", "lineups"} <= set(tables)
    teams = tables["teams"]
    assert list(teams["wins"]) == [int((games["winner_team"] == t).sum()) for t in (0, 1)]
    assert teams["games"].iloc[0] == 400 and teams["policies"].iloc[0] == "greedy,random"
    lineups = tables["lineups"].set_index("policy")
    assert lineups.loc["greedy", "score"] > 0.9


def _blocks(page: Path, skipped: bool) -> list[str]:
    """The ```python blocks of a page: those Sybil skips (they read folders), or those without a prompt."""
    text = page.read_text(encoding="utf-8")
    pattern = r"<!-- skip: next -->\s*```python\n(.*?)```" if skipped else r"```python\n(?!>>>)(.*?)```"
    return re.findall(pattern, text, re.S)


def test_the_examples_that_read_folders_run(tmp_path, monkeypatch, capsys):
    """The README's example, and the API page's examples that read a study or a run (Sybil skips those),
    on a small study and run laid out where they say."""
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.running.runner import RunSpec, run
    from simkit.studies.loop import run_study
    from simkit.studies.registry import make_study

    monkeypatch.chdir(tmp_path)
    for players in (2, 4):
        run_study(make_study("first-player", ["random"], 200, rules={"players": players}), Path("runs/first-player"))
    rules = Rules.make(2)
    run(Path("runs/default-2p-random"), RunSpec(rules, Lineup.parse("random", rules), 2026, 500))
    readme, api_page = _blocks(README, skipped=False), _blocks(API_PAGE, skipped=True)
    assert len(readme) == 1 and len(api_page) >= 1
    namespace: dict = {}  # one namespace, as in a notebook: the README's block imports simkit
    for code in readme + api_page:
        exec(compile(code, "example", "exec"), namespace)
    out = capsys.readouterr().out
    assert "score" in out


def test_summarise_keeps_a_count_whole_beside_a_rate():
    """The draw section mixes a count and a rate; the count stays an int (never 12.0)."""
    draw = simkit.summarise(simkit.simulate(games=300, seed=3))["draw"]
    count = draw.loc[draw["metric"] == "count", "value"].iloc[0]
    assert isinstance(count, (int, np.integer)) and not isinstance(count, bool)
