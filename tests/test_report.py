"""Tests of simkit.report on synthetic per-game tables."""

from __future__ import annotations

import io
import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from rich.console import Console
from scipy import stats

from simkit.report import (
    CONFIG_COLUMNS,
    TIDY_COLUMNS,
    Summary,
    render,
    render_rich,
    summarise,
    to_frame,
    to_records,
    wilson_interval,
)


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
    df = pd.DataFrame({
        "players": np.full(n, players, np.int8),
        "teams": np.full(n, teams, np.int8),
        "hand_size": np.full(n, config.pop("hand_size", 7), np.int8),
        "sequences_to_win": np.full(n, config.pop("sequences_to_win", 2), np.int8),
        "max_turns": np.full(n, config.pop("max_turns", 400), np.int16),
        "chip_limit": np.full(n, config.pop("chip_limit", False), bool),
        "policies": pd.Categorical([policies or ",".join(["random"] * players)] * n),
        "seed": np.full(n, seed, np.int64),
        "game": np.arange(n, dtype=np.int32),
        "winner_team": winner,
        "end": pd.Categorical(end, categories=["win", "stalemate", "turn_cap"]),
        "turns": turns,
        "first_sequence_turn": first_turn,
        "first_sequence_team": first_team,
    })
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
    assert out.loc["draw", "count"] == n_draw
    assert out.loc["win", "count"] + n_draw == 5_000
    assert out.loc["stalemate", "count"] + out.loc["turn_cap", "count"] == n_draw
    assert out.loc["stalemate", "count"] == int((df["end"] == "stalemate").sum())
    assert out.loc["draw", "ci_low"] <= 0.2 <= out.loc["draw", "ci_high"]
    ci = stats.binomtest(n_draw, 5_000).proportion_ci(method="wilson")
    assert (out.loc["draw", "ci_low"], out.loc["draw", "ci_high"]) == pytest.approx((ci.low, ci.high))


# --------------------------------------------------------------------------- tests of fairness


def test_chi_square_biased_and_fair() -> None:
    biased = only(summarise(make_games(10_000, p_team=[0.55, 0.45], seed=4)))
    assert biased.balance["p_value"] < 1e-6
    assert biased.balance["dof"] == 1
    fair = only(summarise(make_games(10_000, p_team=[0.5, 0.5], seed=5)))
    assert fair.balance["p_value"] > 0.05
    df = make_games(1_000, seed=6)
    df["winner_team"] = np.repeat([0, 1], 500).astype(np.int8)
    exact = only(summarise(df))
    assert exact.balance["statistic"] == pytest.approx(0.0)
    assert exact.balance["p_value"] == pytest.approx(1.0)


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
        [make_games(500, seed=16, p_draw=0.1), make_games(300, teams=3, seed=17, p_draw=0.05)],
        ignore_index=True,
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
    back = pd.read_csv(io.StringIO(text), dtype={"key": str}, keep_default_na=False, na_values={
        c: [""] for c in ("value", "ci_low", "ci_high")
    })
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
    console = Console(file=io.StringIO(), width=120, color_system=None)
    render_rich(mixed, console)
    text = console.file.getvalue()
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
    assert s.outcomes.set_index("outcome").loc["draw", "rate"] == 1.0
    assert math.isnan(s.balance["p_value"]) and math.isnan(s.balance["statistic"])
    assert math.isnan(s.first_mover["win_rate"]) and math.isnan(s.first_mover["p_value"])
    assert any("no decided games" in n for n in s.notes)
    rec = to_records([s])[0]
    assert rec["balance"]["p_value"] is None
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
    assert s.balance["dof"] == 2
    assert s.first_mover["fair_share"] == pytest.approx(1 / 3)
    expected = stats.binomtest(int((df["winner_team"] == 0).sum()), 3_000, p=1 / 3).pvalue
    assert s.first_mover["p_value"] == pytest.approx(expected)
    counts = np.bincount(df["winner_team"], minlength=3)
    assert s.balance["p_value"] == pytest.approx(stats.chisquare(counts).pvalue)
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
