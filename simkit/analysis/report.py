"""A run's report: its sections, computed from the run's aggregate (``simkit.analysis.aggregate``).

``summarise_dataset(DIR)`` reads a dataset (or a folder of them, such as a
study) part by part and returns one ``Summary`` per run; ``summarise(df)``
does the same for rows already in memory (``simkit.simulate``,
``simkit.read_games``). Either way a summary's numbers come from an
``Aggregate`` of whole-number counts and sums, through ``simkit.analysis.stats``,
which defines each of them; ``simkit.presentation.render`` prints them.

Conventions:

* A team's win rate is wins / all games (games without a winner count as
  not won); the first mover's advantage, its relative advantage and the
  chi-square test of equal team strength use the *decided* games only, where
  the fair share of every team is 1 / teams.
* Seat ``s`` plays for team ``s % teams`` and seat 0 moves first, so team 0
  is the first mover's team. A seat has no win rate of its own: the seat
  table reports the win rate of the seat's team.
* A statistic undefined for the data (no games, a single game, no decided
  game, ...) is NaN in the tables and dicts and ``None`` in JSON; the reason
  is added to ``Summary.notes``.
* Counts are Python ints in the dicts and int columns in the tables; rates
  are proportions in [0, 1].
* The outcomes win, stalemate and turn_cap exclude one another and add up to
  all games; a draw is a game without a winner, ``draw = stalemate +
  turn_cap``, kept apart in ``Summary.draw``.

One module for the report's sections, each a short function of the aggregate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis import stats
from simkit.analysis.aggregate import Aggregate, runs_of
from simkit.analysis.metrics import METRICS
from simkit.game.options import OPTIONS, is_default
from simkit.running.parts import DamagedPart
from simkit.running.reading import check_complete, run_command

CONFIG_COLUMNS = [*OPTIONS, "policies", "seed"]
"""Columns that identify a configuration (every rule option, the policies, the seed)."""

OUTCOMES = ("win", "stalemate", "turn_cap")
"""Rows of the outcome table: exclusive, they add up to all games (a draw is stalemate + turn_cap)."""

PERCENTILES = (5, 25, 75, 95)
"""Percentiles of the game length reported besides the median."""

SECTIONS: dict[str, tuple[str, str]] = {
    "teams": ("Team win rates", "all games"),
    "shares": ("Shares of the decided games", "every team, Goodman's simultaneous 95% intervals"),
    "gap": ("Largest gap", "between two teams' shares of the decided games"),
    "seats": ("Seats", "win rate of the seat's team"),
    "outcomes": ("Outcomes", "all games"),
    "length": ("Game length", "turns counted over all seats, passes included; rounds = turns per player"),
    "first_sequence": ("First sequence", ""),
    "unfold": ("How the games unfold", "from the first sequence to the end, and the lead in sequences"),
    "equal_strength": ("Equal team strength", "chi-square test on decided games"),
    "first_mover": ("First-mover advantage", "team 0, decided games"),
    "balance": ("Balance", "1 - the largest gap between two teams' win rates"),
    "lineups": ("Line-up scores", "seats swapped from game to game"),
    "team_means": ("Means per game and team", ""),
    "game_means": ("Means per game", ""),
}
"""Report sections in print order: key (as in JSON and CSV) -> (name, context); the title is ``name (context)``."""

_NAN = float("nan")


@dataclass
class Summary:
    """Statistics of the games of one run (or one configuration of rows without a run id).

    Tables are pandas DataFrames, scalar sections ``dict[str, float]``
    (counts in them are ints); a key ``K_ci_low`` / ``K_ci_high`` in a dict is
    the 95% interval of ``K``.
    """

    config: dict[str, Any]
    """Configuration column values shared by the games (plain Python values)."""
    games: int
    """Number of games."""
    teams: pd.DataFrame
    """Columns team, wins, win_rate, ci_low, ci_high (win rate over all games)."""
    seats: pd.DataFrame
    """Columns seat, team, policy, team_win_rate, ci_low, ci_high."""
    outcomes: pd.DataFrame
    """Columns outcome (win/stalemate/turn_cap, adding up to all games), count, rate, ci_low, ci_high."""
    draw: dict[str, float]
    """Games without a winner (= stalemate + turn_cap): count, rate (+CI)."""
    length: dict[str, float]
    """Game length in turns: mean (+ t-interval), std (+ interval), median, p5, p25, p75, p95, min, max."""
    first_sequence: dict[str, float]
    """count, share (+CI) of games with a first sequence; decided, converted, conversion_rate (+CI): share of
    those won by the team that completed it; mean_turn, median_turn of the first sequence."""
    equal_strength: dict[str, float]
    """Chi-square test of equal team win counts among decided games: decided, statistic, dof, p_value."""
    first_mover: dict[str, float]
    """Team 0 (holds seat 0) among decided games: decided, wins, win_rate (+CI), fair_share (= 1/teams),
    advantage (= win_rate - fair_share, +CI), relative_advantage (= win_rate / fair_share - 1, +CI), p_value
    (two-sided exact binomial test against fair_share)."""
    balance: dict[str, float]
    """balance (+CI) over all games and balance_decided (+CI) over the decided games (simkit.analysis.stats.balance)."""
    team_means: pd.DataFrame
    """Per-team means per game: team, one_eyed, two_eyed, jacks, sequences, chips."""
    game_means: dict[str, float]
    """Means per game of dead_swaps, reshuffles, passes."""
    lineups: pd.DataFrame | None = None
    """With seats swapped: per line-up position, its player's games, wins, draws, score (+CI); else None."""
    run_id: str | None = None
    """The run's identity hash (simkit.running.dataset), None for rows without one."""
    notes: list[str] = field(default_factory=list)
    """Why statistics are NaN, or caveats (e.g. small expected counts); printed after all sections."""
    section_notes: dict[str, list[str]] = field(default_factory=dict)
    """Notes printed under one section (key: a `SECTIONS` key), e.g. a mixed line-up under first_mover."""
    expected_games: int | None = None
    """Games the run was asked for (from its manifest), when known."""
    shares: pd.DataFrame | None = None
    """Every team's share of the decided games: columns team, wins, decided_share, ci_low, ci_high (Goodman's
    simultaneous 95% intervals, simkit.analysis.stats.decided_shares)."""
    gap: dict[str, float] | None = None
    """The largest gap between two teams' shares of the decided games: decided, max_gap (+CI,
    simkit.analysis.stats.max_gap)."""
    rounds: dict[str, float] | None = None
    """The game length in rounds (turns per player: every seat's turn once is a round): the keys of
    `length` but std, each divided by the players (+CI for the mean); None when the players are unknown."""
    unfold: dict[str, float] | None = None
    """How the games unfold (simkit.analysis.metrics.METRICS names each): comebacks (+CI), closing_turns (+CI) and
    closing_turns_median, lead_changes (+CI) and lead_changed (+CI); the lead's two NaN, with a note under the
    section, where the dataset did not record them."""
    shortfall: Any = None
    """What the run lacks on disk (simkit.running.reading.Shortfall: parts left out as damaged or unreadable, games
    missing, the command that completes it); None when nothing (or for rows in memory)."""

    def add_note(self, text: str, section: str | None = None) -> None:
        """Attach a note to the summary: under `section` (a `SECTIONS` key) or, if None, at the end."""
        if section is None:
            self.notes.append(text)
            return
        if section not in SECTIONS:
            raise ValueError(f"unknown report section {section!r}; use one of {', '.join(SECTIONS)}")
        self.section_notes.setdefault(section, []).append(text)

    @property
    def key(self) -> tuple:
        """The configuration values as a tuple (in `CONFIG_COLUMNS` order)."""
        return tuple(self.config.values())

    @property
    def complete(self) -> bool:
        """False when the run's manifest asks for more games than the summary holds."""
        return self.expected_games is None or self.games >= self.expected_games

    @property
    def whole(self) -> bool:
        """Complete, and no part of the run was left out (damaged or unreadable, even where a copy of the run
        gave its games)."""
        return self.complete and self.shortfall is None

    @property
    def title(self) -> str:
        """A one-line description of the configuration."""
        n = f"n={self.games:,}" if self.complete else f"n={self.games:,} of {self.expected_games:,}: incomplete"
        if not self.config:
            return f"all games ({n})"
        return ", ".join(f"{k}={v}" for k, v in title_config(self.config).items()) + f" ({n})"


def title_config(config: dict[str, Any]) -> dict[str, Any]:
    """What a title line shows of a configuration: the required rule options, every other one
    not at its default (simkit.game.options.shown), then the rest (policies, seed, ...)."""

    values = {k: v for k, v in config.items() if k in OPTIONS}
    if not all(k in values for k in ("players", "teams")):
        return dict(config)
    try:
        for k, v in values.items():  # the text columns ('6,7', '9,3') as Rules holds them
            if OPTIONS[k].kind in ("sizes", "counts") and isinstance(v, str):
                values[k] = OPTIONS[k].coerce(v)
        hidden = {k for k, v in values.items() if not OPTIONS[k].required and is_default(k, v, values)}
    except (KeyError, ValueError):  # an older or hand-made table: show everything
        hidden = set()
    return {k: v for k, v in config.items() if k not in hidden}


# --------------------------------------------------------------------------- sections


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


def _team_table(agg: Aggregate) -> pd.DataFrame:
    """Wins, win rate over all games and Wilson interval per team."""
    rows = []
    for t, k in enumerate(agg.wins()):
        e = stats.proportion(int(k), agg.games)
        rows.append({"team": t, "wins": int(k), "win_rate": e.value, "ci_low": e.low, "ci_high": e.high})
    return pd.DataFrame(rows, columns=["team", "wins", "win_rate", "ci_low", "ci_high"])


def _seat_table(team_table: pd.DataFrame, config: dict[str, Any], teams: int) -> pd.DataFrame:
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


def _outcome_table(agg: Aggregate) -> pd.DataFrame:
    """Count, rate and interval of wins, stalemates and turn caps (they add up to all games)."""
    rows = []
    for name, k in zip(OUTCOMES, agg.ends()):
        e = stats.proportion(int(k), agg.games)
        rows.append({"outcome": name, "count": int(k), "rate": e.value, "ci_low": e.low, "ci_high": e.high})
    return pd.DataFrame(rows, columns=["outcome", "count", "rate", "ci_low", "ci_high"]).astype({"count": "Int64"})


def _draw(agg: Aggregate) -> dict[str, float]:
    """Games without a winner (stalemate + turn cap): count, rate and interval."""
    e = stats.proportion(agg.draws, agg.games)
    return {"count": agg.draws, "rate": e.value, "rate_ci_low": e.low, "rate_ci_high": e.high}


def _length(agg: Aggregate, notes: list[str]) -> dict[str, float]:
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


def _shares(agg: Aggregate) -> pd.DataFrame:
    """Every team's share of the decided games, with Goodman's simultaneous intervals."""
    wins = agg.wins()
    rows = [
        {"team": t, "wins": int(w), "decided_share": e.value, "ci_low": e.low, "ci_high": e.high}
        for t, (w, e) in enumerate(zip(wins, stats.decided_shares(wins)))
    ]
    return pd.DataFrame(rows, columns=["team", "wins", "decided_share", "ci_low", "ci_high"])


def _gap(agg: Aggregate) -> dict[str, float]:
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


def _first_sequence(agg: Aggregate, notes: list[str]) -> dict[str, float]:
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


def _unfold(agg: Aggregate) -> tuple[dict[str, float], list[str]]:
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


def _equal_strength(agg: Aggregate, notes: list[str]) -> dict[str, float]:
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


def _first_mover(agg: Aggregate, notes: list[str]) -> dict[str, float]:
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


def _balance(agg: Aggregate) -> dict[str, float]:
    """Balance over all games (draws a category of their own) and over the decided games."""
    wins = agg.wins()
    return {**_with_ci("balance", stats.balance(wins, agg.draws)), **_with_ci("balance_decided", stats.balance(wins))}


def _team_means(agg: Aggregate) -> pd.DataFrame:
    """Mean per game, per team, of jacks played, sequences and chips on the board at the end."""
    rows = []
    for t in range(agg.teams):
        row: dict[str, Any] = {"team": t}
        for name in ("one_eyed", "two_eyed", "sequences", "chips"):
            row[name] = agg.total(f"{name}_{t}") / agg.games if agg.games else _NAN
        row["jacks"] = row["one_eyed"] + row["two_eyed"]
        rows.append(row)
    return pd.DataFrame(rows, columns=["team", "one_eyed", "two_eyed", "jacks", "sequences", "chips"])


def _game_means(agg: Aggregate) -> dict[str, float]:
    """Mean per game of dead-card swaps, deck reshuffles and passes."""
    return {name: agg.total(name) / agg.games if agg.games else _NAN for name in ("dead_swaps", "reshuffles", "passes")}


def _lineup_scores(agg: Aggregate, config: dict[str, Any]) -> pd.DataFrame:
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


def summary_of(agg: Aggregate, config: dict[str, Any] | None = None, swapped: bool = False) -> Summary:
    """The `Summary` of one run's aggregate, with its configuration `config`.

    swapped: the line-up rotated from game to game (``--swap-seats``): the
    summary scores each line-up position. A configuration whose teams play
    different policies, not swapped, gets `mixed_lineup_note` under its
    first_mover section; callers can attach more with `Summary.add_note`.
    """
    config = {k: v.item() if isinstance(v, np.generic) else v for k, v in (config or {}).items()}
    if swapped:
        config["swap_seats"] = True
    notes: list[str] = []
    if agg.games == 0:
        notes.append("no games")
    team_table = _team_table(agg)
    summary = Summary(
        config=config,
        games=agg.games,
        teams=team_table,
        seats=_seat_table(team_table, config, agg.teams),
        outcomes=_outcome_table(agg),
        draw=_draw(agg),
        length=_length(agg, notes),
        first_sequence=_first_sequence(agg, notes),
        equal_strength=_equal_strength(agg, notes),
        first_mover=_first_mover(agg, notes),
        balance=_balance(agg),
        team_means=_team_means(agg),
        game_means=_game_means(agg),
        lineups=_lineup_scores(agg, config) if swapped else None,
        notes=notes,
    )
    summary.shares, summary.gap = _shares(agg), _gap(agg)
    summary.unfold, unfold_notes = _unfold(agg)
    for note in unfold_notes:
        summary.add_note(note, "unfold")
    summary.rounds = rounds_of(summary.length, config.get("players"))
    if swapped:
        summary.seats["policy"] = "rotates"
        summary.add_note(
            "the line-up rotated from game to game: a seat's policy changed with the game; see Line-up scores", "seats"
        )
    lineup = None if swapped else mixed_lineup_note(config, agg.teams)
    if lineup is not None:
        summary.add_note(lineup, "first_mover")
    return summary


# --------------------------------------------------------------------------- doors


def summarise(df: pd.DataFrame) -> list[Summary]:
    """One `Summary` per run in rows already in memory (``simkit.simulate``, ``simkit.read_games``).

    Rows are grouped by ``run_id`` (rows without one, by their configuration
    columns), never pooled across runs. df.attrs["duplicates"] (run_id ->
    rows dropped as copies, from read_games) adds a note. Summaries come in
    configuration order (numbers in numeric order).
    """
    if len(df) == 0:
        return []
    missing = [
        c
        for c in ("game", "winner_team", "end", "turns", "first_sequence_turn", "first_sequence_team")
        if c not in df.columns
    ]
    if missing:
        raise ValueError(
            f"the games lack the columns {', '.join(missing)}; simkit.simulate and simkit.read_games "
            "give every column a summary needs"
        )
    cols = [c for c in CONFIG_COLUMNS if c in df.columns]
    by = "run_id" if "run_id" in df.columns else (cols or None)
    groups = [((), df)] if by is None else df.groupby(by, sort=False, dropna=False, observed=True)
    duplicates = df.attrs.get("duplicates") or {}
    out = []
    for key, group in groups:
        teams = int(group["teams"].iloc[0]) if "teams" in group else max(2, int(group["winner_team"].max()) + 1)
        max_turns = int(group["max_turns"].iloc[0]) if "max_turns" in group else int(group["turns"].max())
        swapped = "policies" in group and group["policies"].nunique() > 1
        first = group.iloc[0]
        if swapped and (group["game"] % teams == 0).any():  # the line-up of rotation 0
            first = group[group["game"] % teams == 0].iloc[0]
        config = {c: first[c] for c in cols}
        summary = summary_of(Aggregate.of_rows(group, teams, max_turns), config, swapped)
        if by == "run_id":
            summary.run_id = str(key[0] if isinstance(key, tuple) else key)
            if duplicates.get(summary.run_id):
                summary.add_note(
                    f"{duplicates[summary.run_id]:,} rows were copies of games already counted (the "
                    "same run found twice, e.g. a copied folder) and were counted once"
                )
        out.append(summary)
    return sorted(out, key=config_order)


def summarise_dataset(root: Path) -> list[Summary]:
    """One `Summary` per run under `root` (a dataset or a folder of them), read part by part.

    Only the columns a report needs are read, one part at a time, so memory
    does not grow with the number of games. A run found twice (a copied
    folder) is counted once; a run with fewer games on disk than it was asked
    for, or with parts that cannot be read or fail their check (named in a
    note), is marked incomplete, and its `shortfall` says what it lacks
    (``shortfalls``, ``check_whole``: what the command line and the API
    refuse to summarise silently).
    """

    out = []
    for found in runs_of(Path(root)):
        summary = summary_of(found.aggregate, found.config, found.swapped)
        summary.run_id = found.run_id
        summary.expected_games = found.games_asked
        summary.shortfall = found.shortfall()
        command = None
        if summary.shortfall is not None or not summary.complete:
            command = run_command(found.run.manifest, found.directory)[0] if found.run is not None else None
        again = f"`{command}` plays it again" if command else "re-running the run's command plays it again"
        for e in found.left_out:
            what = "damaged" if isinstance(e, DamagedPart) else "unreadable"
            gave = (
                "its games are left out, so the run is incomplete"
                if not summary.complete
                else "its games were counted from another copy of the run"
            )
            summary.add_note(f"{what} part {e.path} ({e.why}): {gave}; {again}")
        if not summary.complete:
            summary.add_note(
                f"incomplete: {summary.games:,} of {found.games_asked:,} games; the run was interrupted, is "
                f"still running or has parts left out ({command or 'simkit run with the same options'} "
                f"completes it)"
            )
        if found.aggregate.duplicates:
            summary.add_note(
                f"{found.aggregate.duplicates:,} rows were copies of games already counted (the same "
                "run found twice, e.g. a copied folder) and were counted once"
            )
        out.append(summary)
    return sorted(out, key=config_order)


def shortfalls(summaries: list[Summary]) -> list:
    """What the runs of `summaries` lack on disk (simkit.running.reading.Shortfall), the whole ones left out."""
    return [s.shortfall for s in summaries if s.shortfall is not None]


def check_whole(root: Path, summaries: list[Summary], allow_incomplete: bool, then: str) -> None:
    """Refuse the summaries of a dataset that lacks games or has parts left out:
    simkit.running.reading.IncompleteDataset,
    whose lines say what is missing, the commands that complete it, and `then` (what gives the partial report
    on purpose); allow_incomplete: a simkit.running.reading.IncompleteDatasetWarning saying the same."""

    check_complete(root, shortfalls(summaries), allow_incomplete, then)


def config_order(summary: Summary) -> tuple:
    """Sort key of a summary: its configuration values, numbers in numeric order (2 before 10)."""
    return tuple(
        (0, v, "") if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, 0, str(v))
        for v in summary.config.values()
    )
