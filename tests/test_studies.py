"""Studies: summaries recomputed by hand from the rows, resume and extend, the hand-size rows, ratings, bad input."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest
from typer.testing import CliRunner

from simkit import dataset as ds
from simkit.metrics import METRICS, markdown_table
from simkit.runner import RunEvents
from simkit.studies import (
    DEFAULT_GAMES, Study, StudyError, first_player, games_for_half_width, hand_size, run_study, skill, teams_study,
)

README = Path(__file__).resolve().parents[1] / "README.md"
GAMES = 400


def small_first_player(policies=("random",)) -> Study:
    return Study("first-player", first_player(list(policies), tables=[(2, 2), (3, 3), (4, 2)]), GAMES, seed=3)


@pytest.fixture(scope="module")
def done(tmp_path_factory) -> tuple[Study, Path]:
    out = tmp_path_factory.mktemp("study")
    study = small_first_player()
    run_study(study, out, command=["simkit", "study", "first-player", "--games", str(GAMES)])
    return study, out


def wilson(k, n):
    ci = binomtest(k, n).proportion_ci(0.95, method="wilson")
    return ci.low, ci.high


def test_default_games_give_a_half_width_of_half_a_point():
    n = DEFAULT_GAMES
    assert n == games_for_half_width(0.005) == 38_415
    low, high = wilson(n // 2, n)
    assert (high - low) / 2 <= 0.00501
    low, high = wilson((n - 400) // 2, n - 400)
    assert (high - low) / 2 > 0.005  # and not many more games than that


def test_summary_recomputed_by_hand_from_the_rows(done):
    study, out = done
    summary = pd.read_csv(out / "summary.csv")
    assert len(summary) == 3 and list(summary["games"]) == [GAMES] * 3
    p_values = []
    for row, config in zip(summary.itertuples(), study.configs):
        rows = ds.read_games(out / config.name)
        assert len(rows) == GAMES and (rows["seed"] == 3).all()
        winner = rows["winner_team"].to_numpy()
        for t in range(row.teams):
            k = int((winner == t).sum())
            low, high = wilson(k, GAMES)
            assert getattr(row, f"win_rate_{t}") == pytest.approx(k / GAMES, abs=1e-6)
            assert getattr(row, f"win_rate_{t}_low") == pytest.approx(low, abs=1e-5)
            assert getattr(row, f"win_rate_{t}_high") == pytest.approx(high, abs=1e-5)
        decided = int((winner >= 0).sum())
        share = (winner == 0).sum() / decided
        assert row.advantage == pytest.approx(share - 1 / row.teams, abs=1e-6)
        low, high = wilson(int((winner == 0).sum()), decided)
        assert row.advantage_low == pytest.approx(low - 1 / row.teams, abs=1e-5)
        assert row.draw_rate == pytest.approx((winner < 0).mean(), abs=1e-6)
        assert row.mean_turns == pytest.approx(rows["turns"].mean(), abs=1e-4)
        assert row.drawishness == pytest.approx((rows["end"] == "stalemate").mean(), abs=1e-6)
        assert row.balance == pytest.approx(1 - (np.bincount(winner[winner >= 0], minlength=row.teams).max()
                                                 - np.bincount(winner[winner >= 0], minlength=row.teams).min())
                                            / GAMES, abs=1e-6)
        assert row.balance_low <= row.balance <= row.balance_high
        p = binomtest(int((winner == 0).sum()), decided, 1 / row.teams).pvalue
        assert row.p_value == pytest.approx(p, rel=1e-5)
        p_values.append(p)
    # Holm by hand: sort, multiply by (m - rank), running maximum, cap at 1.
    order = np.argsort(p_values)
    holm, running = np.empty(3), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (3 - rank) * p_values[i]))
        holm[i] = running
    assert summary["p_holm"].to_numpy() == pytest.approx(holm, rel=1e-5)
    assert summary.loc[2, "turn_order"] == "team 0: 1st,3rd; team 1: 2nd,4th"


def test_the_study_directory_holds_what_the_readme_promises(done):
    study, out = done
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted([c.name for c in study.configs] + ["summary.csv", "summary.md", "study.json",
                                                                "first_player.png", ".simkit.lock"])
    assert (out / "first_player.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    meta = json.loads((out / "study.json").read_text())
    assert meta["command"] == f"simkit study first-player --games {GAMES}" and meta["seed"] == 3
    assert {"simkit", "kernel_sources", "numba"} <= set(meta["versions"])
    assert [c["run_id"] for c in meta["configurations"]] == [
        ds.read_manifest(out / c.name)["run_id"] for c in study.configs]
    text = (out / "summary.md").read_text()
    assert f"`simkit study first-player --games {GAMES}`" in text and "Holm" in text
    for column in ("players", "teams", "hand_size", "sequences_to_win", "policies", "games", "win_rate_0",
                   "win_rate_0_low", "win_rate_0_high", "win_rate_1", "win_rate_2", "draw_rate", "mean_turns"):
        assert column in pd.read_csv(out / "summary.csv").columns


def test_a_finished_study_plays_nothing_and_rebuilds_its_summary(done, tmp_path):
    study, out = done
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    (copy / "summary.csv").unlink()
    (copy / "first_player.png").unlink()
    again = run_study(study, copy)
    assert again.games_played == 0
    assert (copy / "first_player.png").exists()
    pd.testing.assert_frame_equal(pd.read_csv(copy / "summary.csv"), pd.read_csv(out / "summary.csv"))


class StopAfter(RunEvents):
    def __init__(self, games):
        self.left = games

    def advanced(self, games):
        self.left -= games
        if self.left <= 0:
            raise KeyboardInterrupt


def test_an_interrupted_study_resumes_and_more_games_extend_it(done, tmp_path):
    study, out = done
    small = Study(study.kind, study.configs, GAMES, seed=3)
    stopped = run_study(Study(small.kind, small.configs, GAMES, 3), tmp_path, events=StopAfter(GAMES + 50))
    assert stopped.interrupted and not (tmp_path / "summary.csv").exists()
    resumed = run_study(small, tmp_path)
    assert not resumed.interrupted and 0 < resumed.games_played < 3 * GAMES
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "summary.csv"), pd.read_csv(out / "summary.csv"))
    more = run_study(Study(small.kind, small.configs, GAMES + 100, 3), tmp_path)
    assert more.games_played == 3 * (GAMES + 100)  # each run's one short chunk is replayed whole
    assert list(pd.read_csv(tmp_path / "summary.csv")["games"]) == [GAMES + 100] * 3
    first = ds.read_games(tmp_path / small.configs[0].name)
    assert first["game"].tolist() == list(range(GAMES + 100))


def test_adding_a_line_up_leaves_the_other_configurations_games_unchanged(done, tmp_path):
    study, out = done
    wider = Study("first-player", first_player(["random", "greedy"], tables=[(2, 2), (3, 3), (4, 2)]), GAMES, 3)
    run_study(wider, tmp_path)
    for config in study.configs:
        assert ds.read_games(tmp_path / config.name).equals(ds.read_games(out / config.name))
    assert len(pd.read_csv(tmp_path / "summary.csv")) == 6


def test_hand_size_study_sweeps_then_penalises_and_compensates(tmp_path):
    configs = hand_size(sizes=[5, 6], policies=["random"], base={"players": 4})
    kinds = [(c.group, c.label, c.rules.hand_size) for c in configs]
    assert kinds == [
        ("sweep", "5 cards each", 5), ("sweep", "6 cards each", 6),
        ("penalty", "seat 0 (moves first) one card short", (5, 6, 6, 6)),
        ("penalty", "seat 1 (moves second) one card short", (6, 5, 6, 6)),
        ("penalty", "team 0 one card short (every seat)", (5, 6, 5, 6)),
        ("penalty", "team 1 one card short (every seat)", (6, 5, 6, 5)),
        ("compensation", "every later team one card more", (6, 7, 6, 7)),
    ]
    study = Study("hand-size", configs, 300, 5)
    outcome = run_study(study, tmp_path)
    shifts = outcome.extra["shifts"]
    assert list(shifts["label"]) == [c.label for c in configs[2:]]
    even = ds.read_games(tmp_path / configs[1].name)
    for row, config in zip(shifts.itertuples(), configs[2:]):
        rows = ds.read_games(tmp_path / config.name)
        assert (rows["hand_size"].astype(str) == config.rules.hand_size_text).all()
        expected = (rows["winner_team"] == 0).mean() - (even["winner_team"] == 0).mean()
        assert row.shift == pytest.approx(expected, abs=1e-9)
        assert row.shift_low < row.shift < row.shift_high
    assert (tmp_path / "hand_size.png").exists() and (tmp_path / "hand_size_shifts.png").exists()
    assert "Shifts from the even game" in (tmp_path / "summary.md").read_text()


def test_skill_study_scores_pairs_and_rates_them_anchored_at_random(tmp_path):
    configs = skill(["random", "greedy"])
    assert [c.lineup.swap_seats for c in configs] == [True]
    outcome = run_study(Study("skill", configs, 400, 5), tmp_path)
    pairs, ratings = outcome.extra["pairs"], outcome.extra["ratings"]
    rows = ds.read_games(tmp_path / configs[0].name)
    a_team = rows["game"] % 2  # random is team 0 in even games, team 1 in odd ones
    a_wins = int((rows["winner_team"] == a_team).sum())
    draws = int((rows["winner_team"] < 0).sum())
    assert pairs.loc[0, "a_wins"] == a_wins and pairs.loc[0, "draws"] == draws
    score = (a_wins + draws / 2) / 400
    assert pairs.loc[0, "a_score"] == pytest.approx(score)
    by = ratings.set_index("policy")
    assert by.loc["random", "rating"] == 0
    # Two players: the rating is the Elo-scaled log-odds of the score.
    assert by.loc["greedy", "rating"] == pytest.approx(-400 * math.log10(score / (1 - score)), rel=1e-4)
    assert by.loc["greedy", "rating_low"] < by.loc["greedy", "rating"] < by.loc["greedy", "rating_high"]
    assert "from a coin flip" in (tmp_path / "summary.md").read_text()


def test_teams_study_has_splits_and_sequence_counts():
    labels = [c.label for c in teams_study(["random"])]
    assert labels[:4] == ["6 players in 2 teams", "6 players in 3 teams", "12 players in 2 teams",
                          "12 players in 3 teams"]
    assert "2 players, 3 sequences to win" in labels and "6 players, 1 sequence to win" in labels


def test_readme_metric_table_is_the_registry():
    assert markdown_table() in README.read_text(encoding="utf-8")
    assert list(METRICS) == ["advantage", "balance", "completion", "drawishness", "timeouts", "duration",
                             "duration_sd"]


@pytest.mark.parametrize("args, message", [
    (["study", "nonsense"], "unknown study 'nonsense'; known: first-player, hand-size, teams, skill"),
    (["study", "hand-size", "--sizes", "9..3"], "the hand-size sweep is empty"),
    (["study", "hand-size", "--sizes", "0..3"], "hand size 0 cannot be dealt to 2 players"),
    (["study", "hand-size", "--sizes", "three"], "--sizes 'three' must be a range such as 3..9"),
    (["study", "hand-size", "--players", "12", "--sizes", "9"], "hand size 9 cannot be dealt to 12 players"),
    (["study", "first-player", "--hand-size", "7,7,7"], "--hand-size list 7,7,7 has 3 sizes for 2 seats"),
    (["study", "first-player", "--hand-size", "15"], "deals 120 cards to 8 players; the deck holds 104"),
    (["study", "first-player", "--hand-size", "9"], "deals 108 cards to 12 players; the deck holds 104"),
    (["study", "teams", "--sizes", "3..5"], "--sizes applies to the hand-size study, not to teams"),
    (["study", "skill", "--policy", "greedy"], "a skill study needs at least two --policy line-ups"),
    (["study", "skill", "--policy", "greedy", "--policy", "greedy"], "a line-up is given twice"),
    (["study", "first-player", "--policy", "clever"], "unknown policy 'clever'"),
    (["study", "first-player", "--games", "0"], "--games must be at least 1"),
])
def test_bad_study_input_gets_one_error_line(tmp_path, args, message):
    from cli import app

    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "s")])
    assert result.exit_code == 1, result.output
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and message in err, err
    assert not (tmp_path / "s").exists()


def test_the_study_command_prints_its_key_table(tmp_path):
    from cli import app

    result = CliRunner().invoke(app, ["study", "teams", "--games", "60", "--out", str(tmp_path), "--policy",
                                      "random"])
    assert result.exit_code == 0, result.output
    assert "6 players in 3 teams" in result.stdout and "advantage" in result.stdout
    with pytest.raises(StudyError):
        hand_size(sizes=[])


def test_a_study_on_a_dask_cluster_gives_the_local_rows(done, tmp_path):
    """--scheduler on a study: one cluster for every configuration, the same games as on this machine."""
    pytest.importorskip("distributed")
    study, out = done
    outcome = run_study(Study(study.kind, study.configs, GAMES, 3), tmp_path, scheduler="local:2")
    assert outcome.games_played == 3 * GAMES
    for config in study.configs:
        pd.testing.assert_frame_equal(ds.read_games(tmp_path / config.name), ds.read_games(out / config.name))
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "summary.csv"), pd.read_csv(out / "summary.csv"))


def test_holm_adjusts_each_p_value_for_the_whole_family():
    """Holm by hand on p-values where it differs from Bonferroni (and NaN stays out of the family)."""
    from simkit.studies import holm

    adjusted = holm(pd.Series([0.01, 0.04, 0.03, np.nan]))
    assert adjusted.iloc[:3].tolist() == pytest.approx([0.03, 0.06, 0.06])
    assert np.isnan(adjusted.iloc[3])
