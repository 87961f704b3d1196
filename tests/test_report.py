"""Tests of simkit.analysis.report (the sections), simkit.presentation.render (the formats),
simkit.presentation.report (the renderers) and simkit.presentation.glossary, on synthetic
per-game tables and real datasets."""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from rich.console import Console
from scipy import stats

from simkit.analysis.report import CONFIG_COLUMNS, SECTIONS, Summary, summarise
from simkit.analysis.sections import OUTCOMES
from simkit.analysis.stats import proportion
from simkit.presentation.glossary import GLOSSARY, glossary_entry
from simkit.presentation.render import format_interval, format_p_value, format_value, glossary_markdown
from simkit.presentation.report import TIDY_COLUMNS, render, render_rich, to_frame, to_records
from simkit.running import dataset as ds
from simkit.running.parts import file_digest
from simkit.running.reading import IncompleteDatasetWarning, read_games, read_runs


def wilson_interval(k: int, n: int) -> tuple[float, float]:
    e = proportion(k, n)
    return e.low, e.high


REPORTS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "guide" / "reports.md"


def make_games(
    n: int,
    *,
    teams: int = 2,
    players: int | None = None,
    p_team: list[float] | None = None,
    p_draw: float = 0.0,
    seed: int = 0,
    policies: str | None = None,
    **config,
) -> pd.DataFrame:
    """A synthetic dataset of n games with the simkit column layout.

    The winner is drawn from `p_team` (default fair) for decided games; a
    fraction `p_draw` of games end without winner (half stalemate, half cap).
    """
    rng = np.random.default_rng(seed)
    players = players or teams
    p_team = p_team or [1 / teams] * teams
    winner = rng.choice(teams, size=n, p=p_team).astype(np.int8)
    draw = rng.random(n) < p_draw
    winner[draw] = -1
    stalemate = draw & (rng.random(n) < 0.5)
    end = np.where(winner >= 0, "win", np.where(stalemate, "stalemate", "turn_cap"))
    turns = rng.integers(40, 200, size=n).astype(np.int16)
    has_first = (winner >= 0) | (rng.random(n) < 0.3)
    first_team = np.where(
        has_first, np.where(rng.random(n) < 0.7, np.maximum(winner, 0), rng.integers(0, teams, n)), -1
    ).astype(np.int8)
    first_turn = np.where(has_first, rng.integers(20, 40, size=n), -1).astype(np.int16)
    df = pd.DataFrame(
        {
            "players": np.full(n, players, np.int8),
            "teams": np.full(n, teams, np.int8),
            "hand_size": np.full(n, config.pop("hand_size", 7), np.int8),
            "sequences_to_win": np.full(n, config.pop("sequences_to_win", 2), np.int8),
            "max_turns": np.full(n, config.pop("max_turns", 400), np.int16),
            "chip_limit": np.full(n, config.pop("chip_limit", False), bool),
            "reshuffle": np.full(n, config.pop("reshuffle", True), bool),
            "dead_swap": np.full(n, config.pop("dead_swap", True), bool),
            "late_card": np.full(n, config.pop("late_card", 0), np.int32),
            "handicap": pd.Categorical([str(config.pop("handicap", 0))] * n),
            "layout": pd.Categorical([config.pop("layout", "official")] * n),
            "policies": pd.Categorical([policies or ",".join(["random"] * players)] * n),
            "seed": np.full(n, seed, np.int64),
            "game": np.arange(n, dtype=np.int32),
            "winner_team": winner,
            "end": pd.Categorical(end, categories=["win", "stalemate", "turn_cap"]),
            "turns": turns,
            "first_sequence_turn": first_turn,
            "first_sequence_team": first_team,
        }
    )
    assert not config, f"unknown config {config}"
    for t in range(3):
        active = t < teams
        df[f"sequences_{t}"] = (rng.integers(0, 3, n) if active else np.zeros(n)).astype(np.int8)
        df[f"chips_{t}"] = (rng.integers(5, 30, n) if active else np.zeros(n)).astype(np.int8)
        df[f"one_eyed_{t}"] = (rng.integers(0, 3, n) if active else np.zeros(n)).astype(np.int8)
        df[f"two_eyed_{t}"] = (rng.integers(0, 3, n) if active else np.zeros(n)).astype(np.int8)
    df["dead_swaps"] = rng.integers(0, 3, n).astype(np.int8)
    df["reshuffles"] = rng.integers(0, 2, n).astype(np.int8)
    df["passes"] = rng.integers(0, 4, n).astype(np.int16)
    df["lead_changes"] = rng.integers(0, 3, n).astype(np.int16)
    return df


def only(summaries: list[Summary]) -> Summary:
    """The single summary of a one-configuration dataset."""
    assert len(summaries) == 1
    return summaries[0]


# --------------------------------------------------------------------------- intervals and rates


def test_wilson_known_value() -> None:
    lo, hi = wilson_interval(55, 100)
    assert lo == pytest.approx(0.452, abs=5e-4)
    assert hi == pytest.approx(0.644, abs=5e-4)
    assert all(math.isnan(v) for v in wilson_interval(0, 0))


def test_team_win_rates_and_intervals() -> None:
    df = make_games(10_000, p_team=[0.55, 0.45], seed=1)
    s = only(summarise(df))
    assert s.games == 10_000
    wins0 = int((df["winner_team"] == 0).sum())
    row = s.teams.set_index("team").loc[0]
    assert row["wins"] == wins0
    assert row["win_rate"] == pytest.approx(wins0 / 10_000)
    ci = stats.binomtest(wins0, 10_000).proportion_ci(method="wilson")
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high))
    assert row["ci_low"] <= 0.55 <= row["ci_high"]
    row1 = s.teams.set_index("team").loc[1]
    assert row1["ci_low"] <= 0.45 <= row1["ci_high"]
    assert s.teams["wins"].sum() == 10_000


def test_seats_follow_teams() -> None:
    df = make_games(2_000, teams=2, players=4, policies="greedy,random,greedy,random", seed=2)
    s = only(summarise(df))
    assert list(s.seats["seat"]) == [0, 1, 2, 3]
    assert list(s.seats["team"]) == [0, 1, 0, 1]
    assert list(s.seats["policy"]) == ["greedy", "random", "greedy", "random"]
    team_rate = s.teams.set_index("team")["win_rate"]
    for r in s.seats.itertuples():
        assert r.team_win_rate == team_rate[r.team]


def test_seat_policies_cycle_over_teams() -> None:
    df = make_games(100, teams=2, players=4, policies="greedy,random", seed=2)
    s = only(summarise(df))
    assert list(s.seats["policy"]) == ["greedy", "random", "greedy", "random"]


def test_outcomes() -> None:
    df = make_games(5_000, p_draw=0.2, seed=3)
    s = only(summarise(df))
    out = s.outcomes.set_index("outcome")
    n_draw = int((df["winner_team"] < 0).sum())
    assert s.draw["count"] == n_draw
    assert out.loc["win", "count"] + n_draw == 5_000
    assert out.loc["stalemate", "count"] + out.loc["turn_cap", "count"] == n_draw
    assert out.loc["stalemate", "count"] == int((df["end"] == "stalemate").sum())
    assert s.draw["rate_ci_low"] <= 0.2 <= s.draw["rate_ci_high"]
    ci = stats.binomtest(n_draw, 5_000).proportion_ci(method="wilson")
    assert (s.draw["rate_ci_low"], s.draw["rate_ci_high"]) == pytest.approx((ci.low, ci.high))


# --------------------------------------------------------------------------- tests of fairness


def test_chi_square_biased_and_fair() -> None:
    biased = only(summarise(make_games(10_000, p_team=[0.55, 0.45], seed=4)))
    assert biased.equal_strength["p_value"] < 1e-6
    assert biased.equal_strength["dof"] == 1
    fair = only(summarise(make_games(10_000, p_team=[0.5, 0.5], seed=5)))
    assert fair.equal_strength["p_value"] > 0.05
    df = make_games(1_000, seed=6)
    df["winner_team"] = np.repeat([0, 1], 500).astype(np.int8)
    exact = only(summarise(df))
    assert exact.equal_strength["statistic"] == pytest.approx(0.0)
    assert exact.equal_strength["p_value"] == pytest.approx(1.0)


def test_first_mover_advantage() -> None:
    df = make_games(10_000, p_team=[0.55, 0.45], p_draw=0.1, seed=7)
    s = only(summarise(df))
    fm = s.first_mover
    decided = df["winner_team"] >= 0
    wins0 = int((df["winner_team"] == 0).sum())
    assert fm["decided"] == decided.sum()
    assert fm["wins"] == wins0
    assert fm["win_rate"] == pytest.approx(wins0 / decided.sum())
    assert fm["fair_share"] == 0.5
    assert fm["advantage"] == pytest.approx(fm["win_rate"] - 0.5)
    assert fm["win_rate_ci_low"] <= 0.55 <= fm["win_rate_ci_high"]
    # the advantage carries its interval: the win rate's, shifted by the fair share
    assert fm["advantage_ci_low"] == pytest.approx(fm["win_rate_ci_low"] - 0.5)
    assert fm["advantage_ci_high"] == pytest.approx(fm["win_rate_ci_high"] - 0.5)
    expected = stats.binomtest(wins0, int(decided.sum()), p=0.5).pvalue
    assert fm["p_value"] == pytest.approx(expected)
    assert fm["p_value"] < 1e-6


# --------------------------------------------------------------------------- length and first sequence


def test_length_percentiles_match_numpy() -> None:
    df = make_games(3_001, seed=8)
    s = only(summarise(df))
    t = df["turns"].to_numpy().astype(float)
    L = s.length
    for p in (5, 25, 75, 95):
        assert L[f"p{p}"] == pytest.approx(np.percentile(t, p))
    assert L["median"] == pytest.approx(np.median(t))
    assert L["mean"] == pytest.approx(t.mean())
    assert L["std"] == pytest.approx(t.std(ddof=1))
    assert (L["min"], L["max"]) == (t.min(), t.max())
    lo, hi = stats.t.interval(0.95, len(t) - 1, loc=t.mean(), scale=stats.sem(t))
    assert (L["mean_ci_low"], L["mean_ci_high"]) == pytest.approx((lo, hi))
    assert L["mean_ci_low"] <= 119.5 <= L["mean_ci_high"]  # true mean of integers(40, 200)


def test_first_sequence() -> None:
    df = make_games(4_000, p_draw=0.1, seed=9)
    s = only(summarise(df))
    fs = s.first_sequence
    has = df["first_sequence_team"] >= 0
    conv = (has & (df["first_sequence_team"] == df["winner_team"])).sum()
    assert fs["count"] == has.sum()
    assert fs["share"] == pytest.approx(has.mean())
    assert fs["converted"] == conv
    assert fs["conversion_rate"] == pytest.approx(conv / has.sum())
    assert fs["conversion_rate_ci_low"] <= fs["conversion_rate"] <= fs["conversion_rate_ci_high"]
    assert fs["mean_turn"] == pytest.approx(df.loc[has, "first_sequence_turn"].mean())
    assert fs["median_turn"] == pytest.approx(df.loc[has, "first_sequence_turn"].median())


def test_means() -> None:
    df = make_games(1_000, seed=10)
    s = only(summarise(df))
    tm = s.team_means.set_index("team")
    assert tm.loc[1, "one_eyed"] == pytest.approx(df["one_eyed_1"].mean())
    assert tm.loc[0, "jacks"] == pytest.approx(df["one_eyed_0"].mean() + df["two_eyed_0"].mean())
    assert tm.loc[0, "chips"] == pytest.approx(df["chips_0"].mean())
    assert list(tm.index) == [0, 1]  # only the configured teams
    for name in ("dead_swaps", "reshuffles", "passes"):
        assert s.game_means[name] == pytest.approx(df[name].mean())


# --------------------------------------------------------------------------- configurations


def test_several_configurations() -> None:
    df = pd.concat(
        [
            make_games(300, seed=11),
            make_games(200, seed=12, policies="greedy,random"),
            make_games(100, teams=3, seed=13),
            make_games(50, seed=14, chip_limit=True),
        ],
        ignore_index=True,
    )
    ss = summarise(df)
    assert len(ss) == 4
    assert sorted(s.games for s in ss) == [50, 100, 200, 300]
    for s in ss:
        assert list(s.config) == CONFIG_COLUMNS
        assert isinstance(s.config["players"], int)
    by_policy = {(s.config["policies"], s.config["teams"], s.config["chip_limit"]): s for s in ss}
    assert by_policy[("greedy,random", 2, False)].games == 200
    assert by_policy[("random,random,random", 3, False)].games == 100
    assert by_policy[("random,random", 2, True)].games == 50
    assert len(by_policy[("random,random,random", 3, False)].teams) == 3


def test_no_config_columns() -> None:
    df = make_games(100, seed=15).drop(columns=CONFIG_COLUMNS)
    s = only(summarise(df))
    assert s.config == {}
    assert len(s.teams) == 2


# --------------------------------------------------------------------------- renderers


@pytest.fixture(scope="module")
def mixed() -> list[Summary]:
    df = pd.concat(
        [make_games(500, seed=16, p_draw=0.1), make_games(300, teams=3, seed=17, p_draw=0.05)], ignore_index=True
    )
    return summarise(df)


def test_json_parses(mixed: list[Summary]) -> None:
    data = json.loads(render(mixed, "json"))
    assert data == to_records(mixed)
    assert len(data) == 2
    assert data[0]["games"] == mixed[0].games
    assert data[0]["teams"][0]["win_rate"] == pytest.approx(mixed[0].teams["win_rate"][0])
    assert data[1]["config"]["policies"] == "random,random,random"


def test_csv_round_trips(mixed: list[Summary]) -> None:
    text = render(mixed, "csv")
    back = pd.read_csv(
        io.StringIO(text),
        dtype={"key": str},
        keep_default_na=False,
        na_values={c: [""] for c in ("value", "ci_low", "ci_high")},
    )
    expected = to_frame(mixed)
    assert list(back.columns) == [*CONFIG_COLUMNS, *TIDY_COLUMNS]
    assert len(back) == len(expected)
    assert list(back["policies"]) == list(expected["policies"])
    assert list(back["key"]) == list(expected["key"])
    np.testing.assert_allclose(back["value"], expected["value"], rtol=1e-12, equal_nan=True)
    np.testing.assert_allclose(back["ci_low"], expected["ci_low"], rtol=1e-12, equal_nan=True)
    s = mixed[0]
    rows = back[(back["section"] == "teams") & (back["metric"] == "win_rate") & (back["teams"] == 2)]
    rows = rows.set_index("key")
    assert rows.loc["0", "value"] == pytest.approx(s.teams["win_rate"][0])
    assert rows.loc["0", "ci_high"] == pytest.approx(s.teams["ci_high"][0])
    fm = back[(back["section"] == "first_mover") & (back["metric"] == "p_value") & (back["teams"] == 3)]
    assert fm["value"].iloc[0] == pytest.approx(mixed[1].first_mover["p_value"])


def test_markdown(mixed: list[Summary]) -> None:
    md = render(mixed, "markdown")
    headings = [line for line in md.splitlines() if line.startswith("## ")]
    assert len(headings) == 2
    assert "policies=random,random,random" in headings[1]
    assert re.search(r"^\|\s*team\s*\|\s*wins\s*\|", md, re.M)
    assert re.search(r"^\|[-:|]+\|$", md, re.M)
    assert "nan" not in md  # undefined cells are blank
    assert "### First-mover advantage" in md


def test_render_rejects_unknown_format(mixed: list[Summary]) -> None:
    with pytest.raises(ValueError, match="unknown report format"):
        render(mixed, "xml")


def test_render_rich(mixed: list[Summary]) -> None:
    written = io.StringIO()
    console = Console(file=written, width=120, color_system=None)
    render_rich(mixed, console)
    text = written.getvalue()
    assert "Team win rates" in text
    assert "95% CI" in text
    assert "policies=random,random,random" in text


# --------------------------------------------------------------------------- degenerate inputs


def _renders(summaries: list[Summary]) -> None:
    """Every renderer accepts the summaries; JSON has no NaN."""
    json.loads(render(summaries, "json"))
    pd.read_csv(io.StringIO(render(summaries, "csv")))
    render(summaries, "markdown")
    render_rich(summaries, Console(file=io.StringIO(), width=100))


def test_all_draws() -> None:
    df = make_games(200, p_draw=1.0, seed=18)
    s = only(summarise(df))
    assert (s.teams["wins"] == 0).all()
    assert (s.teams["win_rate"] == 0).all()
    assert s.draw["rate"] == 1.0
    assert math.isnan(s.equal_strength["p_value"]) and math.isnan(s.equal_strength["statistic"])
    assert math.isnan(s.first_mover["win_rate"]) and math.isnan(s.first_mover["p_value"])
    assert any("no decided games" in n for n in s.notes)
    rec = to_records([s])[0]
    assert rec["equal_strength"]["p_value"] is None
    assert rec["first_mover"]["win_rate_ci_low"] is None
    _renders([s])


def test_single_game() -> None:
    df = make_games(1, seed=19)
    s = only(summarise(df))
    assert s.games == 1
    assert s.length["mean"] == df["turns"].iloc[0]
    assert math.isnan(s.length["std"]) and math.isnan(s.length["mean_ci_low"])
    assert s.teams["wins"].sum() == 1
    assert 0 <= s.teams["ci_low"].min() and s.teams["ci_high"].max() <= 1
    assert to_records([s])[0]["length"]["std"] is None
    _renders([s])


def test_constant_length() -> None:
    df = make_games(10, seed=20)
    df["turns"] = np.int16(100)
    s = only(summarise(df))
    assert s.length["mean_ci_low"] == s.length["mean_ci_high"] == 100
    assert s.length["std"] == 0


def test_three_teams() -> None:
    df = make_games(3_000, teams=3, players=6, p_team=[0.4, 0.3, 0.3], seed=21)
    s = only(summarise(df))
    assert list(s.teams["team"]) == [0, 1, 2]
    assert list(s.seats["team"]) == [0, 1, 2, 0, 1, 2]
    assert s.equal_strength["dof"] == 2
    assert s.first_mover["fair_share"] == pytest.approx(1 / 3)
    expected = stats.binomtest(int((df["winner_team"] == 0).sum()), 3_000, p=1 / 3).pvalue
    assert s.first_mover["p_value"] == pytest.approx(expected)
    counts = np.bincount(df["winner_team"], minlength=3)
    assert s.equal_strength["p_value"] == pytest.approx(stats.chisquare(counts).pvalue)
    _renders([s])


def test_no_sequences_and_empty() -> None:
    df = make_games(20, p_draw=1.0, seed=22)
    df["first_sequence_team"] = np.int8(-1)
    df["first_sequence_turn"] = np.int16(-1)
    s = only(summarise(df))
    assert s.first_sequence["share"] == 0
    assert math.isnan(s.first_sequence["conversion_rate"])
    assert math.isnan(s.first_sequence["mean_turn"])
    _renders([s])
    assert summarise(df.iloc[:0]) == []
    assert json.loads(render([], "json")) == []
    assert render([], "markdown") == ""


# --------------------------------------------------------------------------- tables people can read


def test_number_formats() -> None:
    assert format_value("wins", 991_118) == "991,118"
    assert format_value("decided", 991_118.0) == "991,118"
    assert format_value("dof", 1) == "1"
    assert format_value("win_rate", 0.518902) == "51.89%"
    assert format_value("fair_share", 1 / 3) == "33.33%"
    assert format_value("advantage", 0.02356) == "+2.36 pp"
    assert format_value("advantage", -0.0032) == "-0.32 pp"
    assert format_value("mean", 79.3712) == "79.37"
    assert format_value("statistic", 2199.47) == "2,199.47"
    assert format_value("policy", "greedy") == "greedy"
    for undefined in (float("nan"), None, pd.NA):
        assert format_value("win_rate", undefined) == "—"
    assert format_interval("win_rate", 0.5179, 0.5199) == "[51.79%, 51.99%]"
    assert format_interval("mean", 79.35, 79.39) == "[79.35, 79.39]"
    assert format_interval("std", None, None) == ""
    assert format_interval("win_rate", float("nan"), float("nan")) == "—"


def test_p_value_formats() -> None:
    assert format_p_value(0.0) == "< 1e-300"  # scipy's underflow
    assert format_p_value(1e-301) == "< 1e-300"
    assert format_p_value(5e-300) == "5.0e-300"
    assert format_p_value(3.2e-12) == "3.2e-12"
    assert format_p_value(0.006215) == "0.0062"
    assert format_p_value(1.0) == "1.0000"
    assert format_p_value(float("nan")) == "—"


@pytest.fixture(scope="module")
def default_study() -> Summary:
    """The default study's counts (README): 518,902 + 472,216 wins = 991,118 decided of 1,000,000."""
    n = 1_000_000
    df = make_games(n, seed=30)
    winner = np.repeat(np.array([0, 1, -1], np.int8), [518_902, 472_216, 8_882])
    df["winner_team"] = winner
    df["end"] = pd.Categorical(np.where(winner >= 0, "win", "stalemate"), categories=["win", "stalemate", "turn_cap"])
    return only(summarise(df))


def _rich_text(summaries: list[Summary], width: int = 120, explain: bool = False) -> str:
    written = io.StringIO()
    console = Console(file=written, width=width, color_system=None)
    render_rich(summaries, console, explain=explain)
    return written.getvalue()


def test_counts_print_as_integers(default_study: Summary) -> None:
    s = default_study
    assert s.first_mover["decided"] == 991_118 and isinstance(s.first_mover["decided"], int)
    assert s.equal_strength["p_value"] == 0.0  # scipy underflows: the case `< 1e-300` is for
    for text in (_rich_text([s]), render([s], "markdown")):
        assert "991,118" in text and "518,902" in text and "472,216" in text and "1,000,000" in text
        assert not re.search(r"\de\+\d", text), "no scientific notation for counts"
        assert re.search(r"p_value\s*[|│]\s*< 1e-300", text)
        assert "51.89%" in text and "[51.79%, 51.99%]" in text
        assert "+2.36 pp" in text
    for line in render([s], "markdown").splitlines():
        if line.startswith("| p_value"):
            assert "< 1e-300" in line, line


def test_csv_counts_are_integers_and_p_floor_has_text(default_study: Summary) -> None:
    text = render([default_study], "csv")
    rows = {
        (r["section"], r["metric"], r["key"]): r
        for r in pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False).to_dict(orient="records")
    }
    assert rows[("first_mover", "decided", "")]["value"] == "991118"
    assert rows[("teams", "wins", "0")]["value"] == "518902"
    assert rows[("games", "games", "")]["value"] == "1000000"
    assert rows[("equal_strength", "dof", "")]["value"] == "1"
    assert ".0," not in "".join(line for line in text.splitlines() if ",wins," in line or ",count," in line)
    p = rows[("equal_strength", "p_value", "")]
    assert float(p["value"]) == 0.0 and p["text"] == "< 1e-300"
    rate = rows[("teams", "win_rate", "0")]
    assert float(rate["value"]) == 0.518902  # full precision
    assert rate["text"] == "51.89%"


def test_json_counts_are_ints(default_study: Summary) -> None:
    rec = json.loads(render([default_study], "json"))[0]
    ints = [
        rec["games"],
        rec["first_mover"]["decided"],
        rec["first_mover"]["wins"],
        rec["equal_strength"]["decided"],
        rec["equal_strength"]["dof"],
        rec["first_sequence"]["count"],
        rec["first_sequence"]["decided"],
        rec["first_sequence"]["converted"],
        rec["length"]["min"],
        rec["length"]["max"],
        rec["draw"]["count"],
        *(r["count"] for r in rec["outcomes"]),
        *(r["wins"] for r in rec["teams"]),
    ]
    assert all(type(v) is int for v in ints), ints
    assert rec["first_mover"]["decided"] == 991_118
    assert rec["equal_strength"]["p_value"] == 0.0  # exact numbers in JSON
    assert rec["first_mover"]["win_rate"] == pytest.approx(518_902 / 991_118)


# --------------------------------------------------------------------------- outcomes add up


def test_outcomes_add_up_to_all_games() -> None:
    df = make_games(3_000, p_draw=0.15, seed=31)
    s = only(summarise(df))
    assert list(s.outcomes["outcome"]) == list(OUTCOMES) == ["win", "stalemate", "turn_cap"]
    assert s.outcomes["count"].sum() == s.games
    assert s.outcomes["rate"].sum() == pytest.approx(1.0)
    out = s.outcomes.set_index("outcome")
    assert s.draw["count"] == out.loc["stalemate", "count"] + out.loc["turn_cap", "count"]
    md = render([s], "markdown")
    section = md.split("### Outcomes")[1].split("###")[0]
    table_rows = [line for line in section.splitlines() if line.startswith("| ") and "outcome" not in line]
    assert [r.split("|")[1].strip() for r in table_rows] == ["win", "stalemate", "turn_cap", "**total**"]
    assert "**3,000**" in table_rows[-1] and "**100.00%**" in table_rows[-1]
    assert f"draw = stalemate + turn_cap (no winner): {s.draw['count']:,} games" in section
    rich = _rich_text([s]).split("Outcomes")[1].split("Game length")[0]
    assert re.search(r"total\s*│\s*3,000\s*│\s*100\.00%", rich)
    assert "draw = stalemate + turn_cap" in rich
    assert rich.index("total") < rich.index("draw =")


def test_rows_without_a_column_a_summary_needs_are_refused() -> None:
    """A summary reads its numbers from an aggregate of every per-game column it needs: rows lacking one
    (made by hand; simkit always writes them) are refused in one sentence, not summarised partly."""
    df = make_games(500, p_draw=0.2, seed=32).drop(columns=["end"])
    with pytest.raises(ValueError, match="the games lack the columns end"):
        summarise(df)


# --------------------------------------------------------------------------- titles on a pipe

LONG_POLICIES = "lookahead:rollouts=32:shortlist=3:margin=0.5:horizon=8,greedy:block4=800:jack_cost=20"


def test_piped_long_title_is_whole() -> None:
    s = only(summarise(make_games(200, policies=LONG_POLICIES, seed=33)))
    assert len(s.title) > 150
    text = _rich_text([s], width=80)  # what rich assumes when stdout is not a terminal
    assert s.title in text.splitlines()
    assert "…" not in text
    for policy in LONG_POLICIES.split(","):
        assert policy in text.replace("\n", "").replace(" ", "").replace("│", "")


def test_cli_report_piped_keeps_long_title(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    import simkit.analysis.report
    from simkit.cli import app

    df = make_games(300, policies=LONG_POLICIES, seed=34)
    monkeypatch.setattr(simkit.analysis.report, "summarise_dataset", lambda directory: summarise(df))
    result = CliRunner().invoke(app, ["report", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    title = only(summarise(df)).title
    assert title in result.stdout.splitlines()
    assert "…" not in result.stdout


# --------------------------------------------------------------------------- first mover and line-ups

LINEUP_NOTE = "measures the line-up, not the seat order"


def _first_mover_note(s: Summary) -> list[str]:
    return [n for n in s.section_notes.get("first_mover", []) if LINEUP_NOTE in n]


@pytest.mark.parametrize(
    ("players", "policies", "mixed"),
    [
        (2, "greedy,random", True),
        (4, "greedy,random", True),  # cycles over the teams: greedy team 0, random team 1
        (4, "greedy,random,random,greedy", True),  # team 0's greedy moves first, team 1's random
        (2, "random,random", False),
        (4, "greedy,greedy,random,random", False),  # both teams: greedy then random, in seat order
        (2, "greedy", False),
    ],
)
def test_mixed_lineup_note(players: int, policies: str, mixed: bool) -> None:
    s = only(summarise(make_games(400, players=players, policies=policies, seed=35)))
    assert bool(_first_mover_note(s)) == mixed
    assert not any(LINEUP_NOTE in n for n in s.notes)


def test_mixed_lineup_note_is_printed_under_first_mover() -> None:
    s = only(summarise(make_games(400, policies="greedy,random", seed=36)))
    note = _first_mover_note(s)[0]
    assert "team 0: greedy" in note and "team 1: random" in note
    rich = _rich_text([s])
    fm = rich.split("First-mover advantage")[1].split("Means per game and team")[0]
    assert "note:" in fm and LINEUP_NOTE in " ".join(fm.split())
    md = render([s], "markdown")
    fm = md.split("### First-mover advantage")[1].split("###")[0]
    assert f"> **note:** {note}" in fm
    assert to_records([s])[0]["section_notes"] == {"first_mover": [note]}
    back = pd.read_csv(io.StringIO(render([s], "csv")), dtype=str, keep_default_na=False)
    notes = back[(back["section"] == "notes") & (back["metric"] == "first_mover")]
    assert list(notes["text"]) == [note]


def test_caller_attaches_a_note() -> None:
    s = only(summarise(make_games(100, seed=37)))
    s.add_note("seeds 1 and 2 pooled", "equal_strength")
    s.add_note("a general remark")
    md = render([s], "markdown")
    assert "> **note:** seeds 1 and 2 pooled" in md.split("### Equal team strength")[1].split("###")[0]
    assert md.rstrip().endswith("> **note:** a general remark")
    with pytest.raises(ValueError, match="unknown report section"):
        s.add_note("x", "nowhere")


# --------------------------------------------------------------------------- glossary


def _docs_glossary() -> dict[str, str]:
    text = REPORTS_PAGE.read_text(encoding="utf-8")
    section = text.split("\n## Glossary\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = re.fullmatch(r"\| `(.+?)` \| (.+) \|", line)
        if m:
            rows[m.group(1)] = m.group(2).replace("\\|", "|")
    return rows


def test_the_docs_glossary_is_the_code_glossary() -> None:
    assert _docs_glossary() == GLOSSARY
    assert glossary_markdown() in REPORTS_PAGE.read_text(encoding="utf-8")


def test_glossary_terms_are_unique() -> None:
    terms = [t for key in GLOSSARY for t in key.split(", ")]
    assert len(terms) == len(set(terms))


def test_glossary_has_the_words_a_newcomer_asks_about() -> None:
    for term in (
        "decided",
        "conversion_rate",
        "fair_share",
        "advantage",
        "pp",
        "stalemate",
        "turn_cap",
        "draw",
        "Wilson interval",
        "chi-square",
        "first mover",
        "line-up",
        "p_value",
        "95% CI",
        "—",
    ):
        assert glossary_entry(term), term
    assert "< 1e-300" in GLOSSARY["p_value"]


def _printed_terms(md: str) -> set[str]:
    """Every section, column, metric, outcome and configuration name a markdown report prints."""
    terms = {"n", "note", "draw", "total"}
    for line in md.splitlines():
        if line.startswith("## "):
            terms |= set(re.findall(r"(\w+)=", line))
        elif line.startswith("### "):
            terms.add(re.sub(r" \(.*\)$", "", line[4:]))
    cells = [
        [c.strip().strip("*") for c in line.strip("|").split("|")]
        for line in md.splitlines()
        if line.startswith("| ") and not line.startswith("|-")
    ]
    for row in cells:
        if row and not re.match(r"^[\d,.%\[\]\s+-]+$", row[0]):  # a name, not a number
            terms.add(row[0])
    headers = [row for row in cells if row[0] in ("team", "seat", "outcome", "metric", "position")]
    for row in headers:
        terms |= set(row)
    return terms


def test_every_printed_term_has_a_glossary_entry(mixed: list[Summary], tmp_path: Path) -> None:
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.running.runner import RunSpec, run

    extra = only(summarise(make_games(300, players=4, policies="greedy,random", seed=38)))
    rules = Rules.make(2)
    run(tmp_path, RunSpec(rules, Lineup.parse("greedy,random", rules, swap_seats=True), 1, 200))
    from simkit.analysis.report import summarise_dataset

    swapped = only(summarise_dataset(tmp_path))  # the only kind of run with line-up scores
    md = render([*mixed, extra, swapped], "markdown")
    terms = _printed_terms(md)
    for section in SECTIONS.values():
        assert section[0] in terms
    assert {"win_rate", "p_value", "advantage", "turn_cap", "95% CI", "chips", "policy"} <= terms
    missing = sorted(t for t in terms if glossary_entry(t) is None)
    assert not missing, missing
    for key, (name, _) in SECTIONS.items():
        assert f"Section {key}:" in GLOSSARY[name]  # the JSON/CSV name of each section


def test_explain_prints_the_glossary(mixed: list[Summary]) -> None:
    md = render(mixed, "markdown", explain=True)
    assert md.rstrip().endswith(glossary_markdown().rstrip())
    assert "## Reading a report" in md
    rich = _rich_text(mixed, width=100, explain=True)
    assert "Reading this report" in rich
    assert rich.index("Reading this report") > rich.index("Means per game")
    flat = " ".join(rich.split())
    for term in ("Wilson interval", "stalemate", "fair_share"):
        assert term in flat
    for fmt in ("csv", "json"):
        with pytest.raises(ValueError, match="--explain"):
            render(mixed, fmt, explain=True)


def test_cli_explain(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    import simkit.analysis.report
    from simkit.cli import app

    df = make_games(300, seed=39)
    monkeypatch.setattr(simkit.analysis.report, "summarise_dataset", lambda directory: summarise(df))
    runner = CliRunner()
    rich = runner.invoke(app, ["report", str(tmp_path), "--explain"], catch_exceptions=False)
    assert rich.exit_code == 0 and "Reading this report" in rich.stdout
    md = runner.invoke(app, ["report", str(tmp_path), "--format", "markdown", "--explain"], catch_exceptions=False)
    assert md.exit_code == 0 and glossary_markdown().rstrip() in md.stdout
    plain = runner.invoke(app, ["report", str(tmp_path), "--format", "markdown"], catch_exceptions=False)
    assert "Reading a report" not in plain.stdout
    for fmt in ("csv", "json"):
        refused = runner.invoke(app, ["report", str(tmp_path), "--format", fmt, "--explain"])
        assert refused.exit_code == 2 and "--explain" in refused.output


# --------------------------------------------------------------------------- streaming equals all rows


@pytest.fixture(scope="module")
def study_like(tmp_path_factory) -> Path:
    """A folder of five runs, 300,000 games in all: two and three teams, a swapped mixed line-up, several
    chunks, a copied run (counted once) and an interrupted one (incomplete)."""
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.running.runner import RunSpec, run

    root = tmp_path_factory.mktemp("streaming")
    specs = {
        "p2": (Rules.make(2), "random", False, 150_000, 40_000),
        "p3": (Rules.make(3), "random", False, 100_000, 30_000),
        "p4-swap": (Rules.make(4, late_card=2), "greedy,random", True, 30_000, 7_000),
        "p6-noreshuffle": (Rules.make(6, 3, reshuffle=False), "random", False, 20_000, 20_000),
    }
    for name, (rules, policy, swap, games, chunk) in specs.items():
        run(root / name, RunSpec(rules, Lineup.parse(policy, rules, swap), 11, games, chunk))
    import shutil

    shutil.copytree(root / "p3", root / "copy-of-p3")  # the same run found twice
    (root / "p2" / ds.part_name(120_000)).unlink()  # an interrupted run: a chunk missing
    return root


def test_streaming_report_prints_every_number_of_the_all_rows_report(study_like: Path) -> None:
    """The report from per-part aggregates equals the all-rows computation (tests/rows_report.py),
    number for number, in every format that prints them; memory does not hold the rows."""
    from simkit.analysis.report import summarise_dataset
    from tests.rows_report import summarise_rows

    streamed = summarise_dataset(study_like)
    with pytest.warns(IncompleteDatasetWarning, match="120,000 of 150,000 games"):  # p2 lacks a chunk
        df, runs = read_runs(study_like, allow_incomplete=True)
    expected = {rid: r.games for rid, r in runs.items()}
    reference = summarise_rows(df, expected)
    assert [s.run_id for s in streamed] == [s.run_id for s in reference]
    for a, b in zip(streamed, reference):
        assert a.games == b.games and a.config == b.config
    # notes about copies and incompleteness are the streaming report's own; compare the numbers
    for s in streamed:
        s.notes = [n for n in s.notes if not n.startswith(("incomplete", "30,000 rows", "100,000 rows"))]
    for s in reference:
        s.notes = []
    assert render(streamed, "markdown") == render(reference, "markdown")
    got, want = to_frame(streamed), to_frame(reference)
    assert list(got["text"]) == list(want["text"])
    np.testing.assert_allclose(got["value"], want["value"], rtol=1e-12, equal_nan=True)
    np.testing.assert_allclose(got["ci_low"], want["ci_low"], rtol=1e-9, equal_nan=True)
    np.testing.assert_allclose(got["ci_high"], want["ci_high"], rtol=1e-9, equal_nan=True)


def test_copies_counted_once_and_incomplete_runs_marked(study_like: Path) -> None:
    from simkit.analysis.report import summarise_dataset

    by_players = {s.config["players"]: s for s in summarise_dataset(study_like)}
    assert by_players[3].games == 100_000
    assert any("100,000 rows were copies" in n for n in by_players[3].notes)
    assert by_players[2].games == 120_000 and not by_players[2].complete
    assert any(n.startswith("incomplete: 120,000 of 150,000 games") for n in by_players[2].notes)


def test_an_unreadable_part_is_named_and_the_rest_reported(study_like: Path, tmp_path: Path) -> None:
    """A report on a dataset with an unreadable part names the file and reports the rest as incomplete."""
    import shutil

    from simkit.analysis.report import summarise_dataset

    shutil.copytree(study_like / "p6-noreshuffle", tmp_path / "p6")
    shutil.copytree(study_like / "p3", tmp_path / "p3")
    bad = tmp_path / "p3" / ds.part_name(30_000)
    bad.write_bytes(bad.read_bytes()[:1000])  # truncated
    by_players = {s.config["players"]: s for s in summarise_dataset(tmp_path)}
    s = by_players[3]
    assert s.games == 70_000 and not s.complete
    assert any(f"damaged part {bad} (its bytes are not the ones written" in n for n in s.notes)
    assert by_players[6].complete


# --------------------------------------------------------------------------- every team's share, words


def test_every_team_share_of_the_decided_games_with_simultaneous_intervals_in_every_format() -> None:
    """Three teams: every team's share of the decided games with Goodman's simultaneous intervals
    (simkit.analysis.stats.simultaneous, as the studies use) and the largest gap with its interval
    (simkit.analysis.stats.max_gap),
    in the markdown, rich, JSON and CSV reports and in simkit.summarise."""
    import simkit
    from simkit.analysis import stats

    df = make_games(3000, teams=3, players=6, p_team=[0.38, 0.33, 0.29], p_draw=0.1, seed=51)
    s = only(summarise(df))
    wins = np.array([int((df["winner_team"] == t).sum()) for t in range(3)])
    low, high = stats.simultaneous(wins)
    assert s.shares is not None and s.gap is not None
    assert list(s.shares["wins"]) == list(wins)
    np.testing.assert_allclose(s.shares["decided_share"], wins / wins.sum())
    np.testing.assert_allclose(s.shares["ci_low"], low)
    np.testing.assert_allclose(s.shares["ci_high"], high)
    gap = stats.max_gap(wins)
    assert (s.gap["max_gap"], s.gap["max_gap_ci_low"], s.gap["max_gap_ci_high"]) == (gap.value, gap.low, gap.high)
    md = render([s], "markdown")
    table = re.sub(r" +", " ", md.split("### Shares of the decided games")[1].split("###")[0])
    for t in range(3):
        share = format_value("decided_share", wins[t] / wins.sum())
        assert f"| {share} | [{format_value('rate', low[t])}, {format_value('rate', high[t])}] |" in table
    assert f"| max_gap | {format_value('max_gap', gap.value)} |" in re.sub(r" +", " ", md)
    assert format_value("max_gap", gap.value) == f"{100 * gap.value:.2f} pp"
    rich = _rich_text([s])
    assert "Shares of the decided games" in rich and "Largest gap" in rich and "decided_share" in rich
    record = json.loads(render([s], "json"))[0]
    assert [r["decided_share"] for r in record["shares"]] == pytest.approx(list(wins / wins.sum()))
    assert record["gap"]["max_gap_ci_high"] == pytest.approx(gap.high)
    back = pd.read_csv(io.StringIO(render([s], "csv")), dtype={"key": str})
    shares = back[(back["section"] == "shares") & (back["metric"] == "decided_share")]
    assert list(shares["key"]) == ["0", "1", "2"]
    np.testing.assert_allclose(shares["ci_low"], low)
    tables = simkit.summarise(df)
    assert list(tables["shares"]["team"]) == [0, 1, 2]
    assert tables["gap"].set_index("metric").loc["max_gap", "value"] == pytest.approx(gap.value)


def test_the_length_says_turns_of_all_seats_and_gives_rounds_beside_them() -> None:
    import simkit

    s = only(summarise(make_games(400, players=8, seed=52)))
    md = render([s], "markdown")
    table = re.sub(r" +", " ", md.split("### Game length")[1].split("###")[0])
    assert "| metric | turns (all seats) |" in table and "rounds |" in table
    mean = s.length["mean"]
    assert s.rounds is not None
    assert s.rounds["mean"] == pytest.approx(mean / 8) and s.rounds["min"] == pytest.approx(s.length["min"] / 8)
    assert f"| {format_value('mean', mean)} |" in table and f"| {mean / 8:,.2f} |" in table
    assert "turns (all seats)" in _rich_text([s])
    rounds = json.loads(render([s], "json"))[0]["rounds"]
    assert rounds["max"] == pytest.approx(s.length["max"] / 8)
    back = pd.read_csv(io.StringIO(render([s], "csv")))
    row = back[(back["section"] == "rounds") & (back["metric"] == "min")].iloc[0]
    assert row["value"] == pytest.approx(s.length["min"] / 8)  # a fraction of turns, not rounded as a count
    assert simkit.summarise(make_games(400, players=8, seed=52))["rounds"]["value"].iloc[0] == pytest.approx(mean / 8)


def test_the_report_says_what_fair_means() -> None:
    from simkit.analysis.stats import FAIR_BAND

    s = only(summarise(make_games(300, seed=53)))
    md = render([s], "markdown")
    line = md.split("### First-mover advantage")[1].split("###")[0]
    assert "equivalence margin, not a zero edge" in line and f"±{100 * FAIR_BAND['casual']:g} pp" in line
    assert "equivalence margin" in " ".join(_rich_text([s], width=100).split())
    assert "equivalence margin" in GLOSSARY["fair"]


def test_on_a_terminal_the_reports_prose_wraps_at_its_width_and_a_pipe_gets_it_whole() -> None:
    """The configuration's title and the lines under a table (what "fair" means: 277 characters) wrap at a
    terminal's width at word boundaries; a console that is not a terminal keeps each title on one line."""
    s = only(summarise(make_games(300, seed=53)))
    shown = io.StringIO()
    render_rich([s], Console(file=shown, width=80, force_terminal=True, color_system=None))
    lines = shown.getvalue().splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    words = " ".join(shown.getvalue().split())
    assert s.title in words and "an equivalence margin, not a zero edge." in words  # no word cut in two
    piped = io.StringIO()
    render_rich([s], Console(file=piped, width=80, soft_wrap=True, color_system=None))
    assert s.title in piped.getvalue().splitlines()


def test_a_tiny_p_value_never_prints_as_zero() -> None:
    """print(simkit.summarise(...)["first_mover"]) shows the p-value as the report does: scientific, or
    < 1e-300 where it underflowed, never 0.0; the data keep the number."""
    import simkit

    df = make_games(20_000, p_team=[0.56, 0.44], seed=54)
    tables = simkit.summarise(df)
    first = tables["first_mover"]
    p = float(first.set_index("metric").loc["p_value", "value"])
    assert 0 < p < 1e-16
    with pd.option_context("display.max_columns", None, "display.width", 1000):
        shown = str(first)
        underflowed = str(huge := simkit.summarise(make_games(200_000, p_team=[0.6, 0.4], seed=55))["first_mover"])
    row = next(line for line in shown.splitlines() if "p_value" in line)
    assert f"{p:.1e}" in row and " 0.0" not in row
    assert f"{p:.1e}" in first.to_string() and isinstance(first, pd.DataFrame)
    assert float(huge.set_index("metric").loc["p_value", "value"]) == 0.0  # underflowed
    assert "< 1e-300" in next(line for line in underflowed.splitlines() if "p_value" in line)


# --------------------------------------------------------------------------- how the games unfold


def _t_interval(x: pd.Series) -> tuple[float, float]:
    low, high = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    return float(low), float(high)


def test_how_the_games_unfold_is_the_all_rows_computation() -> None:
    """Comebacks, the closing turns and the lead changes against pandas on the rows."""
    df = make_games(4_000, p_draw=0.1, seed=41)
    u = only(summarise(df)).unfold
    assert u is not None
    first, winner = df["first_sequence_team"], df["winner_team"]
    settled = (first >= 0) & (winner >= 0)
    lost = int((settled & (winner != first)).sum())
    assert u["comebacks"] == lost / settled.sum()
    assert (u["comebacks_ci_low"], u["comebacks_ci_high"]) == pytest.approx(wilson_interval(lost, int(settled.sum())))
    closing = (df["turns"].astype(np.int64) - df["first_sequence_turn"].astype(np.int64))[first >= 0]
    assert u["closing_turns"] == pytest.approx(closing.mean(), rel=1e-12)
    assert (u["closing_turns_ci_low"], u["closing_turns_ci_high"]) == pytest.approx(_t_interval(closing), rel=1e-9)
    assert u["closing_turns_median"] == closing.median()
    leads = df["lead_changes"].astype(np.int64)
    assert u["lead_changes"] == pytest.approx(leads.mean(), rel=1e-12)
    assert (u["lead_changes_ci_low"], u["lead_changes_ci_high"]) == pytest.approx(_t_interval(leads), rel=1e-9)
    assert u["lead_changed"] == (leads > 0).mean()
    assert (u["lead_changed_ci_low"], u["lead_changed_ci_high"]) == pytest.approx(
        wilson_interval(int((leads > 0).sum()), len(leads))
    )


def test_how_real_games_unfold_streamed_is_the_all_rows_computation(study_like: Path) -> None:
    """Every run of a real folder: the section from the per-part aggregates against pandas on all its rows."""
    from simkit.analysis.report import summarise_dataset

    with pytest.warns(IncompleteDatasetWarning):
        df, _ = read_runs(study_like, allow_incomplete=True)
    for s in summarise_dataset(study_like):
        rows = df[df["run_id"] == s.run_id]
        u, first, winner = s.unfold, rows["first_sequence_team"], rows["winner_team"]
        assert u is not None and not s.section_notes.get("unfold")
        settled = (first >= 0) & (winner >= 0)
        assert u["comebacks"] == (winner != first)[settled].mean()
        closing = (rows["turns"].astype(np.int64) - rows["first_sequence_turn"].astype(np.int64))[first >= 0]
        assert u["closing_turns"] == pytest.approx(closing.mean(), rel=1e-12)
        assert u["closing_turns_median"] == closing.median()
        assert u["lead_changes"] == pytest.approx(rows["lead_changes"].mean(), rel=1e-12, abs=1e-15)
        assert u["lead_changed"] == (rows["lead_changes"] > 0).mean()


def _as_before_lead_changes(directory: Path, first: int) -> None:
    """Part `first` of the run in `directory` as simkit wrote it before 0.6.0 counted lead changes: the same part
    without the column, and its chunk log's line with the digest of those bytes."""
    from simkit.running import manifest as mf

    path = directory / ds.part_name(first)
    pq.write_table(pq.read_table(path).drop_columns(["lead_changes"]), path, **ds.WRITE_OPTIONS)
    log = directory / mf.LOG
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    for line in lines:
        if line["first_game"] == first:
            line[mf.DIGEST] = file_digest(path)
    log.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))


@pytest.fixture(scope="module")
def older(tmp_path_factory) -> dict[str, Path]:
    """A real run of two parts ("new"), its copy written before lead changes were counted ("old": no part has
    the column) and one whose first part lacks it ("mixed")."""
    import shutil

    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.running.runner import RunSpec, run

    root = tmp_path_factory.mktemp("older")
    rules = Rules.make(2)
    run(root / "new", RunSpec(rules, Lineup.parse("random", rules), 17, 600, 300))
    for name, parts in (("old", (0, 300)), ("mixed", (0,))):
        shutil.copytree(root / "new", root / name)
        for first in parts:
            _as_before_lead_changes(root / name, first)
    return {name: root / name for name in ("new", "old", "mixed")}


def test_an_older_dataset_says_lead_changes_were_not_recorded_and_never_reads_them_as_zeros(older) -> None:
    from simkit.analysis.aggregate import runs_of
    from simkit.analysis.report import summarise_dataset
    from simkit.analysis.sections import NOT_RECORDED, UNFOLD

    assert "lead_changes" not in pq.read_schema(older["old"] / ds.part_name(0)).names
    (found,) = runs_of(older["old"])
    assert found.aggregate.games == 600 and found.aggregate.lead_recorded == 0 and not found.left_out
    (new,) = summarise_dataset(older["new"])
    for s in (only(summarise_dataset(older["old"])), only(summarise(read_games(older["old"])))):
        assert s.whole and s.section_notes["unfold"] == [NOT_RECORDED]
        assert s.unfold is not None and new.unfold is not None
        for name in ("lead_changes", "lead_changed"):
            assert all(math.isnan(s.unfold[f"{name}{end}"]) for end in ("", "_ci_low", "_ci_high")), name
        for name in ("comebacks", "closing_turns", "closing_turns_median"):
            assert s.unfold[name] == new.unfold[name]  # the other numbers of the section are the run's
        assert NOT_RECORDED in " ".join(_rich_text([s], width=100).split())
        assert f"> **note:** {NOT_RECORDED}" in render([s], "markdown")
        assert to_records([s])[0]["unfold"]["lead_changes"] is None
        frame = to_frame([s])
        rows = frame[(frame["section"] == "unfold") & frame["metric"].isin(UNFOLD[2:])]
        assert len(rows) == 2 and rows["value"].isna().all() and (rows["text"] == "—").all()


def test_a_run_some_of_whose_parts_lack_lead_changes_gives_them_over_the_games_that_recorded_them(older) -> None:
    from simkit.analysis.aggregate import runs_of
    from simkit.analysis.report import summarise_dataset

    (found,) = runs_of(older["mixed"])
    assert found.aggregate.lead_recorded == 300
    recorded = pq.read_table(older["new"] / ds.part_name(300)).column("lead_changes").to_pandas()
    for s in (only(summarise_dataset(older["mixed"])), only(summarise(read_games(older["mixed"])))):
        assert s.unfold is not None
        assert s.unfold["lead_changes"] == pytest.approx(recorded.mean(), rel=1e-12, abs=1e-15)
        assert s.unfold["lead_changed"] == (recorded > 0).mean()
        assert s.section_notes["unfold"] == [
            "lead changes: recorded in 300 of 600 games (the other parts were written before simkit 0.6.0); "
            "lead_changes and lead_changed are of those games"
        ]
