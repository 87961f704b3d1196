"""The report computed from all the rows at once: the reference the streaming report is held to.

This is simkit 0.4.0's computation (every section from the per-game rows in
a pandas DataFrame: counts with numpy, percentiles with np.percentile, the
mean's t-interval with scipy on the values, the standard deviation with
numpy), filling the same ``simkit.analysis.report.Summary`` the streaming report
fills from its aggregates. The sections 0.4.0 did not have (balance, the
relative advantage, the interval of the standard deviation) take the counts
from the rows here and the definitions from ``simkit.analysis.stats``; how the
games unfold (comebacks, the closing turns, the lead changes) is computed
from the rows alone, as the all-rows reference of its section.
tests/test_report.py checks that both print every number alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sp

from simkit.analysis import stats
from simkit.analysis.report import CONFIG_COLUMNS, Summary, config_order
from simkit.analysis.sections import NOT_RECORDED, OUTCOMES, PERCENTILES, mixed_lineup_note

_NAN = float("nan")


def _wilson(k: int, n: int) -> tuple[float, float, float]:
    if n <= 0:
        return _NAN, _NAN, _NAN
    ci = sp.binomtest(int(k), int(n)).proportion_ci(confidence_level=0.95, method="wilson")
    return k / n, float(ci.low), float(ci.high)


def _mean(x: np.ndarray) -> tuple[float, float, float]:
    """The mean of the values with its t-interval (the mean itself when they do not vary; NaN with fewer than 2)."""
    if len(x) < 2:
        return (float(x.mean()) if len(x) else _NAN), _NAN, _NAN
    mean, sem = float(x.mean()), float(sp.sem(x))
    if sem == 0:
        return mean, mean, mean
    low, high = sp.t.interval(0.95, len(x) - 1, loc=mean, scale=sem)
    return mean, float(low), float(high)


def unfold(df: pd.DataFrame) -> tuple[dict[str, float], list[str]]:
    """The section unfold from the rows: comebacks, the closing turns, the lead changes; and its notes."""
    winner = df["winner_team"].to_numpy().astype(np.int64)
    first = df["first_sequence_team"].to_numpy().astype(np.int64)
    decided = (first >= 0) & (winner >= 0)
    comebacks = _wilson(int(np.count_nonzero(decided & (winner != first))), int(decided.sum()))
    closing = (df["turns"].to_numpy().astype(np.int64) - df["first_sequence_turn"].to_numpy().astype(np.int64))[
        first >= 0
    ].astype(np.float64)
    leads = (
        df["lead_changes"].astype(np.float64).dropna().to_numpy() if "lead_changes" in df else np.zeros(0, np.float64)
    )
    out: dict[str, float] = {}
    for name, (value, low, high) in (
        ("comebacks", comebacks),
        ("closing_turns", _mean(closing)),
        ("lead_changes", _mean(leads)),
        ("lead_changed", _wilson(int(np.count_nonzero(leads > 0)), len(leads))),
    ):
        out.update({name: value, f"{name}_ci_low": low, f"{name}_ci_high": high})
        if name == "closing_turns":
            out["closing_turns_median"] = float(np.median(closing)) if len(closing) else _NAN
    return out, [NOT_RECORDED] if len(leads) == 0 else []


def _policies(config: dict, players: int, teams: int) -> list[str | None]:
    parts: list[str | None] = [p.strip() for p in str(config.get("policies", "")).split(",")]
    return parts if len(parts) == players else [parts[(s % teams) % len(parts)] for s in range(players)]


def summarise_rows(df: pd.DataFrame, expected: dict[str, int] | None = None) -> list[Summary]:
    """One Summary per run_id of `df`, every number from the rows (0.4.0's way)."""
    out = []
    for rid, group in df.groupby("run_id", sort=False, observed=True):
        teams = int(group["teams"].iloc[0])
        swapped = group["policies"].nunique() > 1
        first = group[group["game"] % teams == 0].iloc[0] if swapped else group.iloc[0]
        config = {
            c: first[c].item() if isinstance(first[c], np.generic) else first[c] for c in CONFIG_COLUMNS if c in group
        }
        s = one(group, config, teams, swapped)
        s.run_id = str(rid)
        if expected and str(rid) in expected:
            s.expected_games = expected[str(rid)]
        out.append(s)
    return sorted(out, key=config_order)


def one(df: pd.DataFrame, config: dict[str, Any], teams: int, swapped: bool) -> Summary:
    n = len(df)
    winner = df["winner_team"].to_numpy().astype(np.int64)
    if swapped:
        config = {**config, "swap_seats": True}
    teams_rows = []
    for t in range(teams):
        k = int(np.count_nonzero(winner == t))
        rate, lo, hi = _wilson(k, n)
        teams_rows.append({"team": t, "wins": k, "win_rate": rate, "ci_low": lo, "ci_high": hi})
    team_table = pd.DataFrame(teams_rows, columns=["team", "wins", "win_rate", "ci_low", "ci_high"])
    players = int(config["players"])
    pol = _policies(config, players, teams)
    seats = pd.DataFrame(
        [
            {
                "seat": s,
                "team": s % teams,
                "policy": pol[s],
                "team_win_rate": float(team_table.iloc[s % teams]["win_rate"]),
                "ci_low": float(team_table.iloc[s % teams]["ci_low"]),
                "ci_high": float(team_table.iloc[s % teams]["ci_high"]),
            }
            for s in range(players)
        ],
        columns=["seat", "team", "policy", "team_win_rate", "ci_low", "ci_high"],
    )
    end = df["end"].astype(str).to_numpy()
    counts = {
        "win": int(np.count_nonzero(winner >= 0)),
        "stalemate": int(np.count_nonzero(end == "stalemate")),
        "turn_cap": int(np.count_nonzero(end == "turn_cap")),
    }
    outcome_rows = []
    for name in OUTCOMES:
        rate, lo, hi = _wilson(counts[name], n)
        outcome_rows.append({"outcome": name, "count": counts[name], "rate": rate, "ci_low": lo, "ci_high": hi})
    outcomes = pd.DataFrame(outcome_rows, columns=["outcome", "count", "rate", "ci_low", "ci_high"]).astype(
        {"count": "Int64"}
    )
    k = int(np.count_nonzero(winner < 0))
    rate, lo, hi = _wilson(k, n)
    draw = {"count": k, "rate": rate, "rate_ci_low": lo, "rate_ci_high": hi}
    # length, from the values
    x = df["turns"].to_numpy().astype(np.float64)
    mean, sem = float(x.mean()), float(sp.sem(x))
    m_lo, m_hi = sp.t.interval(0.95, n - 1, loc=mean, scale=sem)
    sd = stats.sd_length(np.bincount(df["turns"].to_numpy().astype(np.int64)))
    length = {
        "mean": mean,
        "mean_ci_low": float(m_lo),
        "mean_ci_high": float(m_hi),
        "std": float(x.std(ddof=1)),
        "std_ci_low": sd.low,
        "std_ci_high": sd.high,
        "median": float(np.median(x)),
        **{f"p{p}": float(np.percentile(x, p)) for p in PERCENTILES},
        "min": int(x.min()),
        "max": int(x.max()),
    }
    fst = df["first_sequence_team"].to_numpy().astype(np.int64)
    has = fst >= 0
    kf = int(has.sum())
    share, slo, shi = _wilson(kf, n)
    converted = int(np.count_nonzero(has & (winner == fst)))
    conv, clo, chi = _wilson(converted, kf)
    turn = df["first_sequence_turn"].to_numpy()[has].astype(np.float64)
    first_sequence = {
        "count": kf,
        "share": share,
        "share_ci_low": slo,
        "share_ci_high": shi,
        "decided": int(np.count_nonzero(has & (winner >= 0))),
        "converted": converted,
        "conversion_rate": conv,
        "conversion_rate_ci_low": clo,
        "conversion_rate_ci_high": chi,
        "mean_turn": float(turn.mean()),
        "median_turn": float(np.median(turn)),
    }
    wins = np.array([np.count_nonzero(winner == t) for t in range(teams)], dtype=np.int64)
    res = sp.chisquare(wins.astype(np.float64))
    equal = {
        "decided": int(wins.sum()),
        "statistic": float(res.statistic),
        "dof": teams - 1,
        "p_value": float(res.pvalue),
    }
    fair = 1 / teams
    r0, lo0, hi0 = _wilson(int(wins[0]), int(wins.sum()))
    rel = stats.relative_advantage(wins)
    first_mover = {
        "decided": int(wins.sum()),
        "wins": int(wins[0]),
        "win_rate": r0,
        "win_rate_ci_low": lo0,
        "win_rate_ci_high": hi0,
        "fair_share": fair,
        "advantage": r0 - fair,
        "advantage_ci_low": lo0 - fair,
        "advantage_ci_high": hi0 - fair,
        "relative_advantage": rel.value,
        "relative_advantage_ci_low": rel.low,
        "relative_advantage_ci_high": rel.high,
        "p_value": float(sp.binomtest(int(wins[0]), int(wins.sum()), p=fair).pvalue),
    }
    b_all, b_dec = stats.balance(wins, int(np.count_nonzero(winner < 0))), stats.balance(wins)
    balance = {
        "balance": b_all.value,
        "balance_ci_low": b_all.low,
        "balance_ci_high": b_all.high,
        "balance_decided": b_dec.value,
        "balance_decided_ci_low": b_dec.low,
        "balance_decided_ci_high": b_dec.high,
    }
    means = []
    for t in range(teams):
        row: dict[str, float] = {"team": t}
        for name in ("one_eyed", "two_eyed", "sequences", "chips"):
            row[name] = float(df[f"{name}_{t}"].astype(np.float64).mean())
        row["jacks"] = row["one_eyed"] + row["two_eyed"]
        means.append(row)
    team_means = pd.DataFrame(means, columns=["team", "one_eyed", "two_eyed", "jacks", "sequences", "chips"])
    game_means = {name: float(df[name].astype(np.float64).mean()) for name in ("dead_swaps", "reshuffles", "passes")}
    lineups = None
    if swapped:
        rotation = df["game"].to_numpy() % teams
        draws = int(np.count_nonzero(winner < 0))
        rows = []
        for i in range(teams):
            w = int(np.count_nonzero(winner == (i - rotation) % teams))
            e = stats.score(w, draws, n, teams)
            rows.append(
                {
                    "position": i,
                    "policy": pol[i],
                    "games": n,
                    "wins": w,
                    "draws": draws,
                    "score": (w + draws / teams) / n,
                    "ci_low": e.low,
                    "ci_high": e.high,
                }
            )
        lineups = pd.DataFrame(
            rows, columns=["position", "policy", "games", "wins", "draws", "score", "ci_low", "ci_high"]
        )
    s = Summary(
        config,
        n,
        team_table,
        seats,
        outcomes,
        draw,
        length,
        first_sequence,
        equal,
        first_mover,
        balance,
        team_means,
        game_means,
        lineups,
    )
    # every team's share of the decided games and the largest gap: the counts from the rows, the
    # definitions from simkit.analysis.stats; the rounds: the length's values over the players
    decided = int(wins.sum())
    share_rows = []
    for t, e in enumerate(stats.decided_shares(wins)):
        share_rows.append(
            {
                "team": t,
                "wins": int(wins[t]),
                "decided_share": int(wins[t]) / decided,
                "ci_low": e.low,
                "ci_high": e.high,
            }
        )
    s.shares = pd.DataFrame(share_rows, columns=["team", "wins", "decided_share", "ci_low", "ci_high"])
    gap = stats.max_gap(wins)
    s.gap = {"decided": decided, "max_gap": gap.value, "max_gap_ci_low": gap.low, "max_gap_ci_high": gap.high}
    s.rounds = {k: v / players for k, v in length.items() if not k.startswith("std")}
    s.unfold, unfold_notes = unfold(df)
    for text in unfold_notes:
        s.add_note(text, "unfold")
    if swapped:
        s.seats["policy"] = "rotates"
        s.add_note(
            "the line-up rotated from game to game: a seat's policy changed with the game; see Line-up scores", "seats"
        )
    else:
        lineup = mixed_lineup_note(config, teams)
        if lineup:
            s.add_note(lineup, "first_mover")
    return s
