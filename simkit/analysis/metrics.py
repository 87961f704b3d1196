"""The metrics of a set of games, each named once: the columns every study summary carries.

In the spirit of Ludii's game-evaluation metrics (AdvantageP1, Balance,
Completion, Drawishness, Timeouts, DurationTurns): one registry, ``METRICS``,
of (name, definition, range, function of a run's aggregate). Every value is
a ``simkit.analysis.stats.Estimate`` (the value, its 95% interval and the games
behind it), defined in ``simkit.analysis.stats``; the study summaries, the metric
table of docs/guide/reports.md, 'Metrics' and the tests all read this
registry, so adding a metric touches one place (see
docs/dev/extending.md, 'Adding a metric').
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from simkit.analysis import stats
from simkit.analysis.aggregate import Aggregate
from simkit.analysis.stats import Estimate


@dataclass(frozen=True)
class Metric:
    """One metric: its name, what it means, its range, and how it is computed from a run's aggregate."""

    name: str
    definition: str
    range: str
    compute: Callable[[Aggregate], Estimate]


def _share_of_games(count: Callable[[Aggregate], int]) -> Callable[[Aggregate], Estimate]:
    def compute(agg: Aggregate) -> Estimate:
        return stats.proportion(count(agg), agg.games)

    return compute


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric(
            "advantage",
            "team 0's (the first mover's) share of the decided games minus its fair share "
            "1/teams; +2 pp: team 0 wins 52% of two-team games that have a winner",
            "-1/teams .. 1 - 1/teams",
            lambda a: stats.advantage(a.wins()),
        ),
        Metric(
            "relative_advantage",
            "team 0's share of the decided games divided by its fair share, minus 1; "
            "comparable between two and three teams: +9%: team 0 wins 9% more decided games than its fair "
            "share (54.5% of two-team games, 36.3% of three-team games)",
            "-1 .. teams - 1",
            lambda a: stats.relative_advantage(a.wins()),
        ),
        Metric(
            "balance",
            "1 - the largest gap between two teams' win rates over all games (draws count as games "
            "not won); 1: every team wins equally often",
            "0 .. 1",
            lambda a: stats.balance(a.wins(), a.draws),
        ),
        Metric(
            "balance_decided",
            "1 - the largest gap between two teams' shares of the decided games, so stalemates do not shrink the gaps",
            "0 .. 1",
            lambda a: stats.balance(a.wins()),
        ),
        Metric("completion", "share of games that end with a winner", "0 .. 1", _share_of_games(lambda a: a.decided)),
        Metric(
            "drawishness",
            "share of games that end in a stalemate (every seat passed in one round)",
            "0 .. 1",
            _share_of_games(lambda a: int(a.ends()[1])),
        ),
        Metric(
            "timeouts", "share of games stopped by the turn cap", "0 .. 1", _share_of_games(lambda a: int(a.ends()[2]))
        ),
        Metric(
            "duration",
            "mean game length in turns (passes included)",
            "turns >= 1",
            lambda a: stats.mean_length(a.length),
        ),
        Metric(
            "duration_sd",
            "standard deviation of the game length in turns",
            "turns >= 0",
            lambda a: stats.sd_length(a.length),
        ),
        Metric(
            "comebacks",
            "share of the decided games with a first sequence that the team which completed the first sequence lost",
            "0 .. 1",
            lambda a: stats.comebacks(*a.first_sequences()[1:]),  # (decided, converted) of the first sequences
        ),
        Metric(
            "closing_turns",
            "mean turns from the first sequence to the game's end (turns - first_sequence_turn), over the games "
            "with a first sequence",
            "turns >= 0",
            lambda a: stats.mean_length(a.closing),
        ),
        Metric(
            "lead_changes",
            "mean times per game the lead in sequences passed from one team to another (the lead: strictly the "
            "most sequences; a tie holds none), over the games that recorded them (a dataset of simkit before "
            "0.6.0 has none: undefined)",
            "changes >= 0",
            lambda a: stats.mean_length(a.lead_changes),
        ),
        Metric(
            "lead_changed",
            "share of the games in which the lead changed at least once, over the games that recorded lead changes",
            "0 .. 1",
            lambda a: stats.at_least_one(a.lead_changes),
        ),
    )
}
"""Every metric, by name, in the order the summaries print them."""

INTERVALS = (
    "Intervals (95%): Wilson's for the shares and rates (`advantage` and `relative_advantage` from team 0's "
    "share of the decided games; `completion`, `drawishness`, `timeouts`, `comebacks`, `lead_changed`); for "
    "`balance` and `balance_decided` the range of gaps allowed by Goodman's simultaneous intervals of the teams' "
    "shares (with two teams and decided games, the advantage's interval doubled), which allows for the largest "
    "gap's upward bias; the t-interval for `duration`, `closing_turns` and `lead_changes`; the delta method "
    "(from the fourth moment) for `duration_sd`."
)
"""The interval of every metric in one sentence (docs/guide/reports.md, 'Metrics', and every study summary)."""


def measure(agg: Aggregate) -> dict[str, Estimate]:
    """Every metric of one run's aggregate."""
    return {name: metric.compute(agg) for name, metric in METRICS.items()}
