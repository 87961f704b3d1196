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

The sections, each a short function of the aggregate, are in ``simkit.analysis.sections``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis import sections
from simkit.analysis.aggregate import Aggregate, runs_of
from simkit.game.options import OPTIONS, is_default
from simkit.running.parts import DamagedPart
from simkit.running.reading import check_complete, run_command

CONFIG_COLUMNS = [*OPTIONS, "policies", "seed"]
"""Columns that identify a configuration (every rule option, the policies, the seed)."""

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
    team_table = sections.team_table(agg)
    summary = Summary(
        config=config,
        games=agg.games,
        teams=team_table,
        seats=sections.seat_table(team_table, config, agg.teams),
        outcomes=sections.outcome_table(agg),
        draw=sections.draw(agg),
        length=sections.length(agg, notes),
        first_sequence=sections.first_sequence(agg, notes),
        equal_strength=sections.equal_strength(agg, notes),
        first_mover=sections.first_mover(agg, notes),
        balance=sections.balance(agg),
        team_means=sections.team_means(agg),
        game_means=sections.game_means(agg),
        lineups=sections.lineup_scores(agg, config) if swapped else None,
        notes=notes,
    )
    summary.shares, summary.gap = sections.shares(agg), sections.gap(agg)
    summary.unfold, unfold_notes = sections.unfold(agg)
    for note in unfold_notes:
        summary.add_note(note, "unfold")
    summary.rounds = sections.rounds_of(summary.length, config.get("players"))
    if swapped:
        summary.seats["policy"] = "rotates"
        summary.add_note(
            "the line-up rotated from game to game: a seat's policy changed with the game; see Line-up scores", "seats"
        )
    lineup = None if swapped else sections.mixed_lineup_note(config, agg.teams)
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
