"""The balance metrics of a set of games, each named and defined once.

In the spirit of Ludii's game-evaluation metrics (AdvantageP1, Balance,
Completion, Drawishness, Timeouts, DurationTurns): one registry, ``METRICS``,
of (name, definition, range, function of the per-game rows). Every value is
an ``Estimate``: the value, its 95% interval and the number of games behind
it. The study summaries, the README's metric table and the tests all read
this registry, so adding a metric touches one place.

Intervals: proportions use the Wilson score interval (scipy); the mean
length a t-interval; balance the range of gaps allowed by simultaneous
(Goodman) intervals of the teams' win rates; the spread of the length a
bootstrap of the games (percentile interval, ``BOOTSTRAP`` resamples from a
fixed seed, so the same games give the same interval).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

CONFIDENCE = 0.95
BOOTSTRAP = 2000  # resamples for the bootstrap intervals
BOOTSTRAP_SEED = 20261130


@dataclass(frozen=True)
class Estimate:
    """A metric's value with its 95% interval [low, high] and the games it rests on."""

    value: float
    low: float
    high: float
    n: int


@dataclass(frozen=True)
class Metric:
    """One metric: its name, what it means, its range, and how it is computed from the rows."""

    name: str
    definition: str
    range: str
    compute: Callable[[pd.DataFrame], Estimate]


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """(k / n, low, high): a proportion with its 95% Wilson interval; NaN for n = 0.

    The one proportion interval of simkit: the reports and the studies use it.
    """
    if n <= 0:
        return (np.nan,) * 3
    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return k / n, float(ci.low), float(ci.high)


def mean_interval(x: np.ndarray) -> tuple[float, float, float]:
    """(mean, low, high) of the values x with the t-interval of the mean; low and high NaN for
    fewer than two values, both the mean when every value is equal."""
    n = len(x)
    if n < 2:
        return (float(x.mean()) if n else np.nan), np.nan, np.nan
    mean, sem = float(x.mean()), float(stats.sem(x))
    if sem == 0:
        return mean, mean, mean
    low, high = stats.t.interval(CONFIDENCE, n - 1, loc=mean, scale=sem)
    return mean, float(low), float(high)


def _teams(df: pd.DataFrame) -> int:
    return int(df["teams"].iloc[0])


def team_wins(df: pd.DataFrame) -> np.ndarray:
    """(teams,) games won by each team."""
    return np.bincount(df["winner_team"].to_numpy()[df["winner_team"].to_numpy() >= 0].astype(np.int64),
                       minlength=_teams(df))[: _teams(df)]


def advantage(df: pd.DataFrame) -> Estimate:
    """Team 0's share of the decided games minus its fair share 1 / teams."""
    wins = team_wins(df)
    decided = int(wins.sum())
    share, low, high = wilson(int(wins[0]), decided)
    fair = 1 / _teams(df)
    return Estimate(share - fair, low - fair, high - fair, decided)


def _bootstrap(counts: np.ndarray, statistic: Callable[[np.ndarray], np.ndarray]) -> tuple[float, float]:
    """Percentile interval of statistic(resampled counts) over BOOTSTRAP multinomial resamples of the games.

    counts: (k,) games in each category; resampling the games with
    replacement is drawing the category counts from this multinomial.
    statistic: (B, k) counts -> (B,) values.
    """
    n = int(counts.sum())
    if n == 0:
        return np.nan, np.nan
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    draws = rng.multinomial(n, counts / n, size=BOOTSTRAP)
    values = statistic(draws)
    tail = (1 - CONFIDENCE) / 2 * 100
    return tuple(float(v) for v in np.percentile(values, [tail, 100 - tail]))


def balance(df: pd.DataFrame) -> Estimate:
    """1 - the largest gap between two teams' win rates (over all games).

    Interval: from Goodman's simultaneous 95% intervals of the teams' win
    rates (statsmodels), the smallest and largest gap they allow: joint
    coverage of the rates makes it at least a 95% interval of the gap.
    """
    counts = np.append(team_wins(df), int((df["winner_team"] < 0).sum()))
    n = int(counts.sum())
    if n == 0:
        return Estimate(np.nan, np.nan, np.nan, 0)
    rates = counts[:-1] / n
    if counts[-1] == 0:
        counts = counts[:-1]  # no draws: the intervals need no empty category
    # imported here: statsmodels adds 0.1 s to every `simkit run`'s report, which needs only wilson
    from statsmodels.stats.proportion import multinomial_proportions_confint

    bounds = multinomial_proportions_confint(counts, alpha=1 - CONFIDENCE, method="goodman")[: len(rates)]
    low, high = bounds[:, 0], bounds[:, 1]
    widest = high.max() - low.min()
    narrowest = max(0.0, low.max() - high.min())
    return Estimate(float(1 - (rates.max() - rates.min())), float(1 - widest), float(1 - narrowest), n)


def _share(mask_of: Callable[[pd.DataFrame], pd.Series]) -> Callable[[pd.DataFrame], Estimate]:
    def compute(df: pd.DataFrame) -> Estimate:
        value, low, high = wilson(int(mask_of(df).sum()), len(df))
        return Estimate(value, low, high, len(df))
    return compute


def duration(df: pd.DataFrame) -> Estimate:
    """Mean game length in turns, with its t-interval."""
    turns = df["turns"].to_numpy(np.float64)
    return Estimate(*mean_interval(turns), len(turns))


def duration_spread(df: pd.DataFrame) -> Estimate:
    """Standard deviation of the game length in turns, with a bootstrap interval."""
    turns = df["turns"].to_numpy(np.int64)
    n = len(turns)
    if n < 2:
        return Estimate(np.nan, np.nan, np.nan, n)
    values, counts = np.unique(turns, return_counts=True)

    def std(draws: np.ndarray) -> np.ndarray:
        mean = draws @ values / n
        return np.sqrt(np.maximum(draws @ (values.astype(np.float64) ** 2) / n - mean**2, 0) * n / (n - 1))

    low, high = _bootstrap(counts.astype(np.float64), std)
    return Estimate(float(turns.std(ddof=1)), low, high, n)


METRICS: dict[str, Metric] = {m.name: m for m in (
    Metric("advantage", "team 0's (the first mover's) share of the decided games minus its fair share "
           "1/teams; +2 pp: team 0 wins 52% of two-team games that have a winner", "-1/teams .. 1 - 1/teams",
           advantage),
    Metric("balance", "1 - the largest gap between two teams' win rates over all games; 1: every team wins "
           "equally often", "0 .. 1", balance),
    Metric("completion", "share of games that end with a winner", "0 .. 1",
           _share(lambda df: df["winner_team"] >= 0)),
    Metric("drawishness", "share of games that end in a stalemate (every seat passed in one round)", "0 .. 1",
           _share(lambda df: df["end"].astype(str) == "stalemate")),
    Metric("timeouts", "share of games stopped by the turn cap", "0 .. 1",
           _share(lambda df: df["end"].astype(str) == "turn_cap")),
    Metric("duration", "mean game length in turns (passes included)", "turns >= 1", duration),
    Metric("duration_sd", "standard deviation of the game length in turns", "turns >= 0", duration_spread),
)}
"""Every metric, by name, in the order the summaries print them."""


def measure(df: pd.DataFrame) -> dict[str, Estimate]:
    """Every metric of the games in `df` (one configuration)."""
    return {name: metric.compute(df) for name, metric in METRICS.items()}


def markdown_table() -> str:
    """The registry as a markdown table (README's "Metrics")."""
    lines = ["| metric | definition | range |", "| --- | --- | --- |"]
    lines += [f"| `{m.name}` | {m.definition} | {m.range} |" for m in METRICS.values()]
    return "\n".join(lines) + "\n"
