"""The report's sections, each a short function of a run's aggregate (simkit.analysis.aggregate.Aggregate)
giving a table (pandas DataFrame) or a dict of numbers with their intervals; simkit.analysis.report
gathers them into a Summary. Each number is defined in simkit.analysis.stats or simkit.analysis.metrics.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from simkit.analysis import stats
from simkit.analysis.aggregate import Aggregate
from simkit.analysis.metrics import METRICS

OUTCOMES = ("win", "stalemate", "turn_cap")
"""Rows of the outcome table: exclusive, they add up to all games (a draw is stalemate + turn_cap)."""

PERCENTILES = (5, 25, 75, 95)
"""Percentiles of the game length reported besides the median."""

_NAN = float("nan")


def _with_ci(name: str, e: stats.Estimate) -> dict[str, float]:
    """{name: value, name_ci_low: low, name_ci_high: high}."""
    return {name: e.value, f"{name}_ci_low": e.low, f"{name}_ci_high": e.high}


def _seat_policies(config: dict[str, Any], players: int, teams: int) -> list[str | None]:
    """Policy spec per seat from the ``policies`` config value (as simkit's Lineup cycles it)."""
    spec = config.get("policies")
    if not isinstance(spec, str) or not spec.strip():
        return [None] * players
    parts: list[str | None] = [p.strip() for p in spec.split(",")]
    if len(parts) == players:
        return parts
    return [parts[(s % teams) % len(parts)] for s in range(players)]


def team_table(agg: Aggregate) -> pd.DataFrame:
    """Wins, win rate over all games and Wilson interval per team."""
    rows = []
    for t, k in enumerate(agg.wins()):
        e = stats.proportion(int(k), agg.games)
        rows.append({"team": t, "wins": int(k), "win_rate": e.value, "ci_low": e.low, "ci_high": e.high})
    return pd.DataFrame(rows, columns=["team", "wins", "win_rate", "ci_low", "ci_high"])


def seat_table(team_table: pd.DataFrame, config: dict[str, Any], teams: int) -> pd.DataFrame:
    """Per seat: its team, its player and the team's win rate with interval."""
    players = int(config["players"]) if config.get("players") is not None else teams
    policies = _seat_policies(config, players, teams)
    rows = []
    for s in range(players):
        tr = team_table.iloc[s % teams]
        rows.append(
            {
                "seat": s,
                "team": s % teams,
                "policy": policies[s],
                "team_win_rate": float(tr["win_rate"]),
                "ci_low": float(tr["ci_low"]),
                "ci_high": float(tr["ci_high"]),
            }
        )
    return pd.DataFrame(rows, columns=["seat", "team", "policy", "team_win_rate", "ci_low", "ci_high"])


def outcome_table(agg: Aggregate) -> pd.DataFrame:
    """Count, rate and interval of wins, stalemates and turn caps (they add up to all games)."""
    rows = []
    for name, k in zip(OUTCOMES, agg.ends()):
        e = stats.proportion(int(k), agg.games)
        rows.append({"outcome": name, "count": int(k), "rate": e.value, "ci_low": e.low, "ci_high": e.high})
    return pd.DataFrame(rows, columns=["outcome", "count", "rate", "ci_low", "ci_high"]).astype({"count": "Int64"})


def draw(agg: Aggregate) -> dict[str, float]:
    """Games without a winner (stalemate + turn cap): count, rate and interval."""
    e = stats.proportion(agg.draws, agg.games)
    return {"count": agg.draws, "rate": e.value, "rate_ci_low": e.low, "rate_ci_high": e.high}


def length(agg: Aggregate, notes: list[str]) -> dict[str, float]:
    """Distribution of the game length (turns incl. passes), from its exact histogram."""
    keys = [
        "mean",
        "mean_ci_low",
        "mean_ci_high",
        "std",
        "std_ci_low",
        "std_ci_high",
        "median",
        *(f"p{p}" for p in PERCENTILES),
        "min",
        "max",
    ]
    if agg.games == 0:
        notes.append("length: no games")
        return dict.fromkeys(keys, _NAN)
    if agg.games == 1:
        notes.append("length: one game, so no standard deviation or t-interval")
    low, high = stats.extremes(agg.length)
    out = {
        **_with_ci("mean", stats.mean_length(agg.length)),
        **_with_ci("std", stats.sd_length(agg.length)),
        "median": stats.quantile(agg.length, 50),
    }
    for p in PERCENTILES:
        out[f"p{p}"] = stats.quantile(agg.length, p)
    out["min"], out["max"] = low, high
    return {k: out[k] for k in keys}


def shares(agg: Aggregate) -> pd.DataFrame:
    """Every team's share of the decided games, with Goodman's simultaneous intervals."""
    wins = agg.wins()
    rows = [
        {"team": t, "wins": int(w), "decided_share": e.value, "ci_low": e.low, "ci_high": e.high}
        for t, (w, e) in enumerate(zip(wins, stats.decided_shares(wins)))
    ]
    return pd.DataFrame(rows, columns=["team", "wins", "decided_share", "ci_low", "ci_high"])


def gap(agg: Aggregate) -> dict[str, float]:
    """The largest gap between two teams' shares of the decided games, with its interval."""
    wins = agg.wins()
    return {"decided": int(wins.sum()), **_with_ci("max_gap", stats.max_gap(wins))}


def rounds_of(length: dict[str, float], players: Any) -> dict[str, float] | None:
    """`length` in rounds (turns / players), without the standard deviation; None if players is unknown."""
    try:
        players = int(players)
    except (TypeError, ValueError):
        return None
    if players < 1:
        return None
    return {k: v / players for k, v in length.items() if not k.startswith("std")}


def first_sequence(agg: Aggregate, notes: list[str]) -> dict[str, float]:
    """How often a first sequence happens, when, and how often its team goes on to win."""
    count, decided, converted = agg.first_sequences()
    share = stats.proportion(count, agg.games)
    conversion = stats.proportion(converted, count)
    if count == 0:
        notes.append("first_sequence: no game had a sequence, conversion rate undefined")
    return {
        **{"count": count},
        **_with_ci("share", share),
        "decided": decided,
        "converted": converted,
        **_with_ci("conversion_rate", conversion),
        "mean_turn": stats.mean_length(agg.first_turn).value if count else _NAN,
        "median_turn": stats.quantile(agg.first_turn, 50) if count else _NAN,
    }


UNFOLD = ("comebacks", "closing_turns", "lead_changes", "lead_changed")
"""The metrics of the section unfold, in print order (the median of the closing turns follows their mean)."""

NOT_RECORDED = "lead changes: not recorded in this dataset (simkit records them since 0.6.0)"
"""The note under the section unfold of a dataset without the lead changes."""


def unfold(agg: Aggregate) -> tuple[dict[str, float], list[str]]:
    """The section unfold and its notes: comebacks, the closing turns, the lead changes, each as METRICS has it."""
    out: dict[str, float] = {}
    for name in UNFOLD:
        out.update(_with_ci(name, METRICS[name].compute(agg)))
        if name == "closing_turns":
            out["closing_turns_median"] = stats.quantile(agg.closing, 50)
    recorded = agg.lead_recorded
    if recorded == 0 and agg.games:
        return out, [NOT_RECORDED]
    if recorded < agg.games:
        return out, [
            f"lead changes: recorded in {recorded:,} of {agg.games:,} games (the other parts were written before "
            "simkit 0.6.0); lead_changes and lead_changed are of those games"
        ]
    return out, []


def equal_strength(agg: Aggregate, notes: list[str]) -> dict[str, float]:
    """Chi-square goodness-of-fit test of equal win counts per team among decided games."""
    wins = agg.wins()
    decided = int(wins.sum())
    statistic, dof, p = stats.equal_strength(wins)
    if decided == 0:
        notes.append("equal_strength: no decided games, chi-square test undefined")
    elif decided / agg.teams < 5:
        notes.append(
            f"equal_strength: expected wins per team {decided / agg.teams:.3g} < 5, chi-square approximation is rough"
        )
    return {"decided": decided, "statistic": statistic, "dof": dof, "p_value": p}


def first_mover(agg: Aggregate, notes: list[str]) -> dict[str, float]:
    """Team 0's share of the decided games against its fair share 1/teams: advantage and relative advantage."""
    wins = agg.wins()
    decided = int(wins.sum())
    share = stats.team_shares(wins)[0]
    if decided == 0:
        notes.append("first_mover: no decided games, first-mover advantage undefined")
    return {
        "decided": decided,
        "wins": int(wins[0]),
        **_with_ci("win_rate", share),
        "fair_share": 1 / agg.teams,
        **_with_ci("advantage", stats.advantage(wins)),
        **_with_ci("relative_advantage", stats.relative_advantage(wins)),
        "p_value": stats.first_mover_test(wins),
    }


def balance(agg: Aggregate) -> dict[str, float]:
    """Balance over all games (draws a category of their own) and over the decided games."""
    wins = agg.wins()
    return {**_with_ci("balance", stats.balance(wins, agg.draws)), **_with_ci("balance_decided", stats.balance(wins))}


def team_means(agg: Aggregate) -> pd.DataFrame:
    """Mean per game, per team, of jacks played, sequences and chips on the board at the end."""
    rows = []
    for t in range(agg.teams):
        row: dict[str, Any] = {"team": t}
        for name in ("one_eyed", "two_eyed", "sequences", "chips"):
            row[name] = agg.total(f"{name}_{t}") / agg.games if agg.games else _NAN
        row["jacks"] = row["one_eyed"] + row["two_eyed"]
        rows.append(row)
    return pd.DataFrame(rows, columns=["team", "one_eyed", "two_eyed", "jacks", "sequences", "chips"])


def game_means(agg: Aggregate) -> dict[str, float]:
    """Mean per game of dead-card swaps, deck reshuffles and passes."""
    return {name: agg.total(name) / agg.games if agg.games else _NAN for name in ("dead_swaps", "reshuffles", "passes")}


def lineup_scores(agg: Aggregate, config: dict[str, Any]) -> pd.DataFrame:
    """Per line-up position i: its policy, games, wins, draws and score (wins + draws / teams) / games.

    Game g was played by rotation r = g % teams, in which position i plays
    team (i - r) % teams.
    """
    teams = agg.teams
    policies = _seat_policies(config, int(config.get("players") or teams), teams)
    by = agg.wins_by_rotation()
    rows = []
    for i in range(teams):
        wins = int(sum(by[r, (i - r) % teams] for r in range(teams)))
        e = stats.score(wins, agg.draws, agg.games, teams)
        rows.append(
            {
                "position": i,
                "policy": policies[i],
                "games": agg.games,
                "wins": wins,
                "draws": agg.draws,
                "score": e.value,
                "ci_low": e.low,
                "ci_high": e.high,
            }
        )
    return pd.DataFrame(rows, columns=["position", "policy", "games", "wins", "draws", "score", "ci_low", "ci_high"])


def mixed_lineup_note(config: dict[str, Any], teams: int) -> str | None:
    """The first-mover caveat for a line-up whose teams play different policies, else None.

    Teams whose seats play the same policies in the same order differ only by
    when they move, so team 0's edge is the first mover's. Otherwise (e.g.
    ``greedy,random``) it mixes the policies' strength with the seat order.
    """
    players = int(config["players"]) if config.get("players") is not None else teams
    policies = _seat_policies(config, players, teams)
    if teams < 1 or any(p is None for p in policies):
        return None
    lineups = [tuple(policies[s] for s in range(t, players, teams)) for t in range(teams)]
    if len(set(lineups)) <= 1:
        return None
    who = "; ".join(f"team {t}: {','.join(map(str, specs))}" for t, specs in enumerate(lineups))
    return (
        f"mixed line-up ({who}): this measures the line-up, not the seat order. Team 0 both moves first "
        "and plays its own policies, so its edge mixes policy strength with moving first; to separate them, "
        "add a run with the policies swapped between the teams, or give every team the same policy."
    )
