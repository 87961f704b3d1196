"""simkit fair: the sequential test's error at the margin and power at 0 (simulated), its looks and resuming."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simkit.analysis import sequential as sq
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.studies import fair

REPLICATES = 4_000


def _verdicts(design: sq.Design, shares, rng) -> tuple[np.ndarray, np.ndarray]:
    """Each replicate's verdict and games, looks taken in order by sq.look on multinomial games (all
    decided) with true `shares`, until one decides or the looks end."""
    looks = design.decided
    steps = np.diff(looks, prepend=0)
    wins = np.cumsum([rng.multinomial(n, shares, size=REPLICATES) for n in steps], axis=0)  # (looks, R, teams)
    verdict = np.full(REPLICATES, "undecided", dtype=object)
    games = np.full(REPLICATES, looks[-1])
    for r in range(REPLICATES):
        for k, n in enumerate(looks, start=1):
            v = sq.look(design, k, wins[k - 1, r], n).verdict
            if v != "continue":
                verdict[r], games[r] = v, n
                break
    return verdict, games


def _at_most(rate: float, level: float) -> bool:
    return rate <= level + 3 * np.sqrt(level * (1 - level) / REPLICATES)


@pytest.mark.parametrize("margin", [0.005, 0.01])
def test_fair_at_the_margin_is_called_at_most_five_percent_of_the_time(margin) -> None:
    """Two teams, team 0's true share at 1/2 + margin (the least favourable "not fair"), every look of
    the design: "fair" in at most ALPHA of the tests, whatever look it came at."""
    design = sq.Design(margin, 2)
    verdict, _ = _verdicts(design, (0.5 + margin, 0.5 - margin), np.random.default_rng(1))
    assert _at_most(np.mean(verdict == "fair"), sq.ALPHA), np.mean(verdict == "fair")


def test_a_three_team_gap_at_its_margin_is_called_fair_at_most_five_percent_of_the_time() -> None:
    design = sq.Design(0.005, 3)
    g = design.gap_margin
    assert g == 0.01
    verdict, _ = _verdicts(design, (1 / 3 + g / 2, 1 / 3 - g / 2, 1 / 3), np.random.default_rng(2))
    assert _at_most(np.mean(verdict == "fair"), sq.ALPHA)


def test_a_fair_rule_is_found_fair_and_an_unfair_one_not_fair() -> None:
    """Power: at a true edge of 0 "fair" in at least 95% of the tests, mostly by the reference games (the
    fixed-sample size of 90% power) times 2; at twice the margin "not fair" in at least 95%, early."""
    design = sq.Design(0.005, 2)
    verdict, games = _verdicts(design, (0.5, 0.5), np.random.default_rng(3))
    assert np.mean(verdict == "fair") >= 0.95
    assert np.median(games) <= design.decided[4]  # the look at twice the reference
    verdict, games = _verdicts(design, (0.51, 0.49), np.random.default_rng(4))
    assert np.mean(verdict == "not fair") >= 0.95 and np.median(games) <= design.decided[3]


def test_the_boundaries_spend_alpha_as_declared() -> None:
    """The boundaries fall as the looks go on (Pocock-type spending), the last above the fixed-sample
    z (some alpha went to the earlier looks), the first spends the first look's alpha exactly."""
    c = sq.Design(0.01, 2).boundaries
    assert all(a > b for a, b in zip(c, c[1:]))
    assert c[-1] > 1.6449 and c[0] == pytest.approx(sq.norm.isf(sq.spent(1 / 128)), rel=1e-9)
    assert sq.Design(0.005, 2).boundaries == c  # the looks' fractions alone decide them


def test_the_looks_double_and_their_games_divide_into_chunks() -> None:
    rules = Rules.make(4, 2, late_card=8)
    p = fair.plan(rules, Lineup.parse("swift", rules), 1, None)
    assert p.design.margin == 0.01
    assert all(b == 2 * a for a, b in zip(p.looks, p.looks[1:]))
    assert all(n % p.chunk == 0 for n in p.looks)
    casual = fair.plan(rules, Lineup.parse("greedy", rules), 1, None)
    assert casual.design.margin == 0.005 and casual.looks[0] >= casual.design.decided[0]


def test_a_clearly_unfair_rule_is_not_fair_at_the_first_look_and_a_second_call_plays_nothing(tmp_path) -> None:
    """Random play without a rule (+2.4 pp at two players): "not fair" at the first look; asked again it
    replays the look from the disk; another margin in the same folder is refused; a cap below the first
    look is undecided without a game."""
    rules = Rules.make(2, 2)
    p = fair.plan(rules, Lineup.parse("random", rules), 7, None)
    out = tmp_path / "fair"
    first = fair.test(p, out, None)
    assert first.verdict == "not fair" and first.last is not None and first.last.look == 1
    assert first.last.low > p.design.margin
    played = sorted((out / fair.GAMES).glob("*.parquet"))
    assert played
    again = fair.test(p, out, None)
    assert again.verdict == "not fair" and again.last == first.last
    assert sorted((out / fair.GAMES).glob("*.parquet")) == played
    record = fair.as_json(p, again, "simkit fair")
    assert {"verdict", "games", "advantage", "low", "high"} <= set(record) and json.dumps(record)
    with pytest.raises(fair.FairError, match="another configuration or design"):
        fair.test(fair.plan(rules, Lineup.parse("random", rules), 7, 0.02), out, None)
    small = fair.test(p, tmp_path / "small", 1_000)
    assert small.verdict == "undecided" and small.last is None and small.next_games == p.looks[0]


def test_a_test_never_writes_into_results(tmp_path) -> None:
    with pytest.raises(fair.FairError, match="only `make results` writes"):
        fair.check_out(tmp_path / "results" / "x", tmp_path / "results")


def test_the_command_prints_its_looks_and_verdict_and_json(tmp_path, monkeypatch) -> None:
    """simkit fair: a line per look, the verdict with its interval, games and command, exit 0 on "not fair";
    --format json with its keys; bad input as one error line."""
    from typer.testing import CliRunner

    from simkit.cli import app

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    text = runner.invoke(app, ["fair", "--policy", "random", "--margin", "1"])
    assert text.exit_code == 0, text.output
    assert "look 1 of 8: 4,000 games" in text.output and "Not fair:" in text.output
    assert "simkit fair --players 2 --teams 2 --policy random --margin 1" in text.output
    assert (tmp_path / "runs" / "fair" / "p2t2-random-m1" / "fair.json").exists()
    as_json = runner.invoke(app, ["fair", "--policy", "random", "--margin", "1", "--format", "json"])
    record = json.loads(as_json.stdout)
    assert record["verdict"] == "not fair" and record["low"] > 0.01
    assert f"{record['games']:,} games ({record['decided']:,} decided)" in text.output  # replayed from disk
    bad = runner.invoke(app, ["fair", "--policy", "random", "--margin", "30"])
    assert bad.exit_code == 1 and bad.output.startswith("error: --margin must lie between")
