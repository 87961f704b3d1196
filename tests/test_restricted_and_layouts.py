"""The restricted-play study and the study of layouts, on small games (simkit.studies.restricted, layouts)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simkit.studies import layouts, restricted
from simkit.studies.loop import run_study
from simkit.studies.options import StudyError
from simkit.studies.registry import make_study


def test_restricted_play_shifts_each_seat_and_averages_the_seats(tmp_path):
    study = make_study("restricted", policies=("greedy",), games=400, rules={"players": 2, "teams": 2})
    run_study(study, tmp_path)
    seats = pd.read_csv(tmp_path / "seats.csv")
    worths = pd.read_csv(tmp_path / "worths.csv")
    assert set(seats["change"]) == set(restricted.CHANGES) and set(seats["restricted_team"]) == {0, 1}
    assert len(worths) == len(restricted.CHANGES)
    for r in worths.itertuples():
        part = seats[seats["change"] == r.change]
        assert r.shift == pytest.approx(part["shift"].mean(), abs=1e-5)  # the CSVs keep six figures
        assert r.shift_low == pytest.approx(part["shift_low"].mean(), abs=1e-5)
    never = worths.set_index("change").loc["no one-eyed Jack"]
    assert never["shift"] < 0  # forgoing a card costs its team at 400 games a seat
    text = (tmp_path / "summary.md").read_text()
    assert "## What each card is worth and where" in text and "restricted.png" in text
    opening = text.split("\n## ")[1]  # the summary opens with what each card is worth, every figure with its interval
    assert opening.startswith("What each card is worth and where")
    for change in restricted.CHANGES:
        assert f"- **{change}**: greedy from " in opening
    assert opening.count("Beyond a card's place in the hand") == len(restricted.JACKS)


def test_restricted_play_refuses_a_line_up_of_two_players(tmp_path):
    study = make_study("restricted", policies=("greedy,random",), games=10, rules={"players": 2, "teams": 2})
    with pytest.raises(StudyError, match="one player against itself"):
        run_study(study, tmp_path)


def test_random_effects_find_no_spread_in_equal_values_and_a_spread_in_unequal_ones():
    rng = np.random.default_rng(3)
    se = np.full(20, 0.01)
    flat = layouts.random_effects(rng.normal(0.05, 0.01, 20), se)
    assert flat["tau_low"] == 0.0 and flat["p"] > 0.01
    spread = layouts.random_effects(rng.normal(0.05, 0.05, 20), se)
    assert spread["tau_low"] > 0.02 and spread["p"] < 1e-6 and spread["tau_low"] < 0.05 < spread["tau_high"]


def test_the_study_of_layouts_plays_the_official_board_its_mirror_and_random_layouts(tmp_path, monkeypatch):
    monkeypatch.setattr(layouts, "BOARDS", (*layouts.BOARDS[:2], "random:1", "random:2", "random:3"))
    study = make_study("layouts", policies=("random",), games=300, rules={"players": 2, "teams": 2})
    run_study(study, tmp_path)
    e = pd.read_csv(tmp_path / "layouts.csv")
    assert list(e["layout"]) == ["official", "mirror", "random:1", "random:2", "random:3"]
    s = pd.read_csv(tmp_path / "spreads.csv")
    assert list(s["measure"]) == ["edge", "turns", "stalemates"] and set(s["layouts"]) == {3}
    assert "## Does the board matter?" in (tmp_path / "summary.md").read_text()
