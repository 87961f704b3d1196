"""Statistical summaries of simulated Sequence games, and renderers for them.

The input is the per-game table simkit writes (one row per game, see the
dataset columns: ``winner_team``, ``end``, ``turns``, ``first_sequence_*``,
``sequences_t``, ``chips_t``, ``one_eyed_t``, ``two_eyed_t``, ``dead_swaps``,
``reshuffles``, ``passes`` and the configuration columns).  `summarise` groups
the games by configuration and computes, per configuration, a `Summary`; the
renderers turn summaries into a rich terminal view, JSON, a tidy CSV table or
Markdown.

Conventions:

* All proportions carry 95% Wilson score intervals computed by
  ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``.
* A team's win rate is wins / all games (games without a winner count as not
  won); the first-mover test and the chi-square test of equal team strength use
  the *decided* games only, where the fair share of every team is 1 / teams.
* Seat ``s`` plays for team ``s % teams`` and seat 0 moves first, so team 0 is
  the first mover's team.  A seat has no win rate of its own: the seat table
  reports the win rate of the seat's team (in two-player games seat == team).
* A statistic that is undefined for the data (no games, a single game, no
  decided game, ...) is NaN in the tables and dicts and ``None`` in JSON; the
  reason is added to `Summary.notes`.
* Counts are Python ints in the dicts and int columns in the tables (exact in
  JSON); rates are proportions in [0, 1].
* The outcomes win, stalemate and turn_cap exclude one another and add up to
  all games; a draw is a game without a winner, ``draw = stalemate +
  turn_cap``, kept apart in `Summary.draw`.
* The rich and markdown renderers print every number through `format_value`
  (counts with thousands separators, rates as percentages with two decimals,
  p-values below `P_FLOOR` as ``< 1e-300``); every term they print is
  explained in `GLOSSARY`, the one source of README's "Reading a report".
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from rich.console import Console
from rich.table import Table
from rich.text import Text
from scipy import stats

from simkit.metrics import mean_interval, wilson
from simkit.options import OPTIONS

CONFIG_COLUMNS = [*OPTIONS, "policies", "seed"]
"""Columns that identify a configuration (every rule option, the policies, the seed); games are grouped by
those present."""

OUTCOMES = ("win", "stalemate", "turn_cap")
"""Rows of the outcome table: exclusive, they add up to all games (a draw is stalemate + turn_cap)."""

PERCENTILES = (5, 25, 75, 95)
"""Percentiles of the game length reported besides the median."""

TIDY_COLUMNS = ["section", "metric", "key", "value", "ci_low", "ci_high", "text"]
"""Columns (after the configuration columns) of the long table `render(..., "csv")`;
``text`` is the value as the rich and markdown tables print it (see `format_value`)."""

P_FLOOR = 1e-300
"""p-values below this (including an exact 0.0 from scipy's underflow) print as `P_FLOOR_TEXT`."""

P_FLOOR_TEXT = "< 1e-300"

UNDEFINED = "—"
"""How the tables print a number that is undefined for the games (NaN)."""

_NAN = float("nan")


@dataclass
class Summary:
    """Statistics of the games of one configuration.

    Tables are pandas DataFrames, scalar sections are ``dict[str, float]``
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
    """Game length in turns: mean (+ t-interval), std, median, p5, p25, p75, p95, min, max."""
    first_sequence: dict[str, float]
    """count, share (+CI) of games with a first sequence; decided, converted,
    conversion_rate (+CI): share of those won by the team that completed it;
    mean_turn, median_turn of the first sequence."""
    balance: dict[str, float]
    """Chi-square test of equal team win counts among decided games:
    decided, statistic, dof, p_value."""
    first_mover: dict[str, float]
    """Team 0 (holds seat 0) among decided games: decided, wins, win_rate (+CI),
    fair_share (= 1/teams), advantage (= win_rate - fair_share), p_value
    (two-sided exact binomial test against fair_share)."""
    team_means: pd.DataFrame
    """Per-team means per game: team, one_eyed, two_eyed, jacks, sequences, chips."""
    game_means: dict[str, float]
    """Means per game of dead_swaps, reshuffles, passes."""
    lineups: pd.DataFrame | None = None
    """With seats swapped: per line-up position, its policy's games, wins, draws, score (+CI); else None."""
    run_id: str | None = None
    """The run's identity hash (simkit.dataset), None for rows without one."""
    notes: list[str] = field(default_factory=list)
    """Why statistics are NaN, or caveats (e.g. small expected counts); printed after all sections."""
    section_notes: dict[str, list[str]] = field(default_factory=dict)
    """Notes printed under one section (key: a `SECTIONS` key), e.g. a mixed line-up under first_mover."""

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

    expected_games: int | None = None
    """Games the run was asked for (from its manifest), when known."""

    @property
    def complete(self) -> bool:
        """False when the run's manifest asks for more games than the summary holds."""
        return self.expected_games is None or self.games >= self.expected_games

    @property
    def title(self) -> str:
        """A one-line description of the configuration."""
        n = f"n={self.games:,}" if self.complete else f"n={self.games:,} of {self.expected_games:,}: incomplete"
        if not self.config:
            return f"all games ({n})"
        return ", ".join(f"{k}={v}" for k, v in title_config(self.config).items()) + f" ({n})"


def title_config(config: dict[str, Any]) -> dict[str, Any]:
    """What a title line shows of a configuration: the required rule options, every other one
    not at its default (simkit.options.shown), then the rest (policies, seed, ...)."""
    from simkit.options import is_default

    values = {k: v for k, v in config.items() if k in OPTIONS}
    if not all(k in values for k in ("players", "teams")):
        return dict(config)
    sizes = values.get("hand_size")
    if isinstance(sizes, str) and "," in sizes:
        values["hand_size"] = tuple(int(h) for h in sizes.split(","))
    elif isinstance(sizes, str) and sizes.isdigit():
        values["hand_size"] = int(sizes)
    try:
        hidden = {k for k, v in values.items() if not OPTIONS[k].required and is_default(k, v, values)}
    except (KeyError, ValueError):  # an older or hand-made table: show everything
        hidden = set()
    return {k: v for k, v in config.items() if k not in hidden}


# --------------------------------------------------------------------------- statistics


def wilson_interval(k: int, n: int) -> tuple[float, float]:
    """Wilson score interval of k successes in n trials (NaN, NaN when n == 0)."""
    return wilson(k, n)[1:]


def _plain(value: Any) -> Any:
    """A numpy/pandas scalar as the matching plain Python value."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def _n_teams(config: dict[str, Any], df: pd.DataFrame) -> int:
    """Teams of a configuration: the ``teams`` column, else inferred from the data."""
    if "teams" in config and config["teams"] is not None and not pd.isna(config["teams"]):
        return int(config["teams"])
    seen = [2]
    for col in ("winner_team", "first_sequence_team"):
        if col in df and len(df):
            seen.append(int(df[col].max()) + 1)
    return max(seen)


def _seat_policies(config: dict[str, Any], players: int, teams: int) -> list[str | None]:
    """Policy spec per seat from the ``policies`` config value (as simkit's Lineup cycles it)."""
    spec = config.get("policies")
    if not isinstance(spec, str) or not spec.strip():
        return [None] * players
    parts = [p.strip() for p in spec.split(",")]
    if len(parts) == players:
        return parts
    return [parts[(s % teams) % len(parts)] for s in range(players)]


def _team_table(winner: np.ndarray, teams: int) -> pd.DataFrame:
    """Wins, win rate over all games and Wilson interval per team."""
    n = len(winner)
    rows = []
    for t in range(teams):
        k = int(np.count_nonzero(winner == t))
        rate, lo, hi = wilson(k, n)
        rows.append({"team": t, "wins": k, "win_rate": rate, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows, columns=["team", "wins", "win_rate", "ci_low", "ci_high"])


def _seat_table(team_table: pd.DataFrame, config: dict[str, Any], teams: int) -> pd.DataFrame:
    """Per seat: its team, its policy and the team's win rate with interval."""
    players = int(config["players"]) if config.get("players") is not None else teams
    policies = _seat_policies(config, players, teams)
    rows = []
    for s in range(players):
        t = s % teams
        tr = team_table.iloc[t]
        rows.append({
            "seat": s,
            "team": t,
            "policy": policies[s],
            "team_win_rate": float(tr["win_rate"]),
            "ci_low": float(tr["ci_low"]),
            "ci_high": float(tr["ci_high"]),
        })
    return pd.DataFrame(rows, columns=["seat", "team", "policy", "team_win_rate", "ci_low", "ci_high"])


def _outcome_table(df: pd.DataFrame, winner: np.ndarray) -> pd.DataFrame:
    """Count, rate and interval of wins, stalemates and turn caps (they add up to all games).

    Without an ``end`` column the kind of draw is unknown: stalemate and
    turn_cap are then missing (count ``<NA>``, rates NaN).
    """
    n = len(df)
    end = df["end"].astype(str).to_numpy() if "end" in df else None
    counts = {"win": int(np.count_nonzero(winner >= 0))}
    for name in ("stalemate", "turn_cap"):
        counts[name] = int(np.count_nonzero(end == name)) if end is not None else None
    rows = []
    for name in OUTCOMES:
        k = counts[name]
        if k is None:
            rows.append({"outcome": name, "count": None, "rate": _NAN, "ci_low": _NAN, "ci_high": _NAN})
            continue
        rate, lo, hi = wilson(k, n)
        rows.append({"outcome": name, "count": k, "rate": rate, "ci_low": lo, "ci_high": hi})
    table = pd.DataFrame(rows, columns=["outcome", "count", "rate", "ci_low", "ci_high"])
    return table.astype({"count": "Int64"})


def _draw(winner: np.ndarray) -> dict[str, float]:
    """Games without a winner (stalemate + turn cap): count, rate and interval."""
    k = int(np.count_nonzero(winner < 0))
    rate, lo, hi = wilson(k, len(winner))
    return {"count": k, "rate": rate, "rate_ci_low": lo, "rate_ci_high": hi}


def _length(turns: np.ndarray, notes: list[str]) -> dict[str, float]:
    """Distribution of the game length (turns incl. passes)."""
    n = len(turns)
    keys = ["mean", "mean_ci_low", "mean_ci_high", "std", "median", *(f"p{p}" for p in PERCENTILES), "min", "max"]
    if n == 0:
        notes.append("length: no games")
        return dict.fromkeys(keys, _NAN)
    x = turns.astype(np.float64)
    mean, lo, hi = mean_interval(x)
    if n >= 2:
        std = float(x.std(ddof=1))
    else:
        std = _NAN
        notes.append("length: one game, so no standard deviation or t-interval")
    out = {"mean": mean, "mean_ci_low": lo, "mean_ci_high": hi, "std": std, "median": float(np.median(x))}
    for p in PERCENTILES:
        out[f"p{p}"] = float(np.percentile(x, p))
    out["min"] = int(turns.min())
    out["max"] = int(turns.max())
    return out


def _first_sequence(df: pd.DataFrame, winner: np.ndarray, notes: list[str]) -> dict[str, float]:
    """How often a first sequence happens, when, and how often its team goes on to win."""
    n = len(df)
    if "first_sequence_team" in df:
        fst = df["first_sequence_team"].to_numpy().astype(np.int64)
    elif "first_sequence_turn" in df:
        fst = np.where(df["first_sequence_turn"].to_numpy() >= 0, 0, -1)  # team unknown
    else:
        notes.append("first_sequence: no first_sequence_* columns")
        return dict.fromkeys(
            ["count", "share", "share_ci_low", "share_ci_high", "decided", "converted",
             "conversion_rate", "conversion_rate_ci_low", "conversion_rate_ci_high", "mean_turn", "median_turn"],
            _NAN,
        )
    has = fst >= 0
    k = int(has.sum())
    share, slo, shi = wilson(k, n)
    converted = int(np.count_nonzero(has & (winner == fst))) if "first_sequence_team" in df else None
    if converted is None:
        conv, clo, chi = _NAN, _NAN, _NAN
        notes.append("first_sequence: no first_sequence_team column, conversion unknown")
    else:
        conv, clo, chi = wilson(converted, k)
        if k == 0:
            notes.append("first_sequence: no game had a sequence, conversion rate undefined")
    if "first_sequence_turn" in df and k > 0:
        turn = df["first_sequence_turn"].to_numpy()[has].astype(np.float64)
        mean_turn, median_turn = float(turn.mean()), float(np.median(turn))
    else:
        mean_turn = median_turn = _NAN
    return {
        "count": k,
        "share": share,
        "share_ci_low": slo,
        "share_ci_high": shi,
        "decided": int(np.count_nonzero(has & (winner >= 0))),
        "converted": _NAN if converted is None else converted,
        "conversion_rate": conv,
        "conversion_rate_ci_low": clo,
        "conversion_rate_ci_high": chi,
        "mean_turn": mean_turn,
        "median_turn": median_turn,
    }


def _balance(winner: np.ndarray, teams: int, notes: list[str]) -> dict[str, float]:
    """Chi-square goodness-of-fit test of equal win counts per team among decided games."""
    counts = np.array([np.count_nonzero(winner == t) for t in range(teams)], dtype=np.float64)
    decided = int(counts.sum())
    out = {"decided": decided, "statistic": _NAN, "dof": _NAN, "p_value": _NAN}
    if teams < 2:
        notes.append("balance: fewer than two teams, chi-square test undefined")
        return out
    if decided == 0:
        notes.append("balance: no decided games, chi-square test undefined")
        return out
    res = stats.chisquare(counts)
    out.update(statistic=float(res.statistic), dof=teams - 1, p_value=float(res.pvalue))
    if decided / teams < 5:
        notes.append(f"balance: expected wins per team {decided / teams:.3g} < 5, chi-square approximation is rough")
    return out


def _first_mover(winner: np.ndarray, teams: int, notes: list[str]) -> dict[str, float]:
    """Win rate of team 0 (seat 0 moves first) among decided games against the fair share 1/teams."""
    fair = 1.0 / teams if teams > 0 else _NAN
    decided = int(np.count_nonzero(winner >= 0))
    wins = int(np.count_nonzero(winner == 0))
    rate, lo, hi = wilson(wins, decided)
    p_value = _NAN
    if decided == 0:
        notes.append("first_mover: no decided games, first-mover advantage undefined")
    elif teams < 2:
        notes.append("first_mover: fewer than two teams, binomial test undefined")
    else:
        p_value = float(stats.binomtest(wins, decided, p=fair, alternative="two-sided").pvalue)
    return {
        "decided": decided,
        "wins": wins,
        "win_rate": rate,
        "win_rate_ci_low": lo,
        "win_rate_ci_high": hi,
        "fair_share": fair,
        "advantage": rate - fair,
        "advantage_ci_low": lo - fair,
        "advantage_ci_high": hi - fair,
        "p_value": p_value,
    }


def _team_means(df: pd.DataFrame, teams: int) -> pd.DataFrame:
    """Mean per game, per team, of jacks played, sequences and chips on the board at the end."""
    n = len(df)
    rows = []
    for t in range(teams):
        row: dict[str, Any] = {"team": t}
        for name in ("one_eyed", "two_eyed", "sequences", "chips"):
            col = f"{name}_{t}"
            row[name] = float(df[col].astype(np.float64).mean()) if col in df and n else _NAN
        row["jacks"] = row["one_eyed"] + row["two_eyed"]
        rows.append(row)
    return pd.DataFrame(rows, columns=["team", "one_eyed", "two_eyed", "jacks", "sequences", "chips"])


def _game_means(df: pd.DataFrame) -> dict[str, float]:
    """Mean per game of dead-card swaps, deck reshuffles and passes."""
    return {
        name: float(df[name].astype(np.float64).mean()) if name in df and len(df) else _NAN
        for name in ("dead_swaps", "reshuffles", "passes")
    }


def _team_lineups(config: dict[str, Any], teams: int) -> list[tuple[str, ...]] | None:
    """Policy specs of each team's seats in seat order, or None when the policies are unknown."""
    players = int(config["players"]) if config.get("players") is not None else teams
    policies = _seat_policies(config, players, teams)
    if teams < 1 or any(p is None for p in policies):
        return None
    return [tuple(policies[s] for s in range(t, players, teams)) for t in range(teams)]


def mixed_lineup_note(config: dict[str, Any], teams: int) -> str | None:
    """The first-mover caveat for a line-up whose teams play different policies, else None.

    Teams whose seats play the same policies in the same order differ only by
    when they move, so team 0's edge is the first mover's.  Otherwise (e.g.
    ``greedy,random``) it mixes the policies' strength with the seat order.
    """
    lineups = _team_lineups(config, teams)
    if lineups is None or len(set(lineups)) <= 1:
        return None
    who = "; ".join(f"team {t}: {','.join(specs)}" for t, specs in enumerate(lineups))
    return (
        f"mixed line-up ({who}): this measures the line-up, not the seat order. Team 0 both moves first "
        "and plays its own policies, so its edge mixes policy strength with moving first; to separate them, "
        "add a run with the policies swapped between the teams, or give every team the same policy."
    )


def summarise_games(df: pd.DataFrame, config: dict[str, Any] | None = None, swapped: bool = False) -> Summary:
    """A `Summary` of the games in `df`, all taken to share one configuration `config`.

    swapped: the line-up rotated from game to game (``--swap-seats``): game g
    was played by rotation g % teams, and the summary scores each line-up
    position. A configuration whose teams play different policies, not
    swapped, gets `mixed_lineup_note` under its first_mover section; callers
    can attach more with `Summary.add_note`.
    """
    config = {k: _plain(v) for k, v in (config or {}).items()}
    notes: list[str] = []
    teams = _n_teams(config, df)
    winner = df["winner_team"].to_numpy().astype(np.int64) if "winner_team" in df else np.full(len(df), -1)
    if "winner_team" not in df:
        notes.append("no winner_team column: every game counted as undecided")
    if len(df) == 0:
        notes.append("no games")
    team_table = _team_table(winner, teams)
    summary = Summary(
        config=config,
        games=int(len(df)),
        teams=team_table,
        seats=_seat_table(team_table, config, teams),
        outcomes=_outcome_table(df, winner),
        draw=_draw(winner),
        length=_length(df["turns"].to_numpy() if "turns" in df else np.empty(0), notes),
        first_sequence=_first_sequence(df, winner, notes),
        balance=_balance(winner, teams, notes),
        first_mover=_first_mover(winner, teams, notes),
        team_means=_team_means(df, teams),
        game_means=_game_means(df),
        lineups=_lineup_scores(df, winner, config, teams) if swapped else None,
        notes=notes,
    )
    if swapped:
        summary.seats["policy"] = "rotates"
        summary.add_note("the line-up rotated from game to game: a seat's policy changed with the game; "
                         "see Line-up scores", "seats")
    lineup = None if swapped else mixed_lineup_note(config, teams)
    if lineup is not None:
        summary.add_note(lineup, "first_mover")
    return summary


def _lineup_scores(df: pd.DataFrame, winner: np.ndarray, config: dict[str, Any], teams: int) -> pd.DataFrame:
    """Per line-up position i: its policy, games, wins, draws and score (wins + draws / teams) / games.

    Game g was played by rotation r = g % teams, in which position i plays
    team (i - r) % teams. The score's interval is the Wilson interval of the
    score rounded to whole games.
    """
    players = int(config.get("players") or teams)
    policies = _seat_policies(config, players, teams)
    rotation = df["game"].to_numpy() % teams
    draws = int(np.count_nonzero(winner < 0))
    rows = []
    for i in range(teams):
        wins = int(np.count_nonzero(winner == (i - rotation) % teams))
        n = len(df)
        score = (wins + draws / teams) / n if n else _NAN
        lo, hi = wilson_interval(round(wins + draws / teams), n)
        rows.append({"position": i, "policy": policies[i], "games": n, "wins": wins, "draws": draws,
                     "score": score, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows, columns=["position", "policy", "games", "wins", "draws", "score", "ci_low", "ci_high"])


def summarise(df: pd.DataFrame, runs: dict | None = None) -> list[Summary]:
    """One `Summary` per run (rows with a ``run_id``) or per configuration (older rows without one).

    runs: run_id -> ``simkit.dataset.Run`` (``simkit.dataset.read_runs``), to
    mark a run with fewer games than it was asked for as incomplete. Rows
    are never pooled across runs: two seeds, versions or policy parameters
    are two summaries. df.attrs["duplicates"] (run_id -> rows dropped as
    copies, from read_runs) adds a note. Summaries come in configuration order.
    """
    if len(df) == 0:
        return []
    cols = [c for c in CONFIG_COLUMNS if c in df.columns]
    if "run_id" not in df.columns:
        if not cols:
            return [summarise_games(df, {})]
        return [summarise_games(group, dict(zip(cols, key if isinstance(key, tuple) else (key,), strict=True)))
                for key, group in df.groupby(cols, sort=True, dropna=False, observed=True)]
    duplicates = df.attrs.get("duplicates") or {}
    out = []
    for rid, group in df.groupby("run_id", sort=False, observed=True):
        teams = int(group["teams"].iloc[0]) if "teams" in group else 2
        swapped = "policies" in group and group["policies"].nunique() > 1
        first = group.iloc[0]
        if swapped:  # the line-up of rotation 0
            first = group[group["game"] % teams == 0].iloc[0] if (group["game"] % teams == 0).any() else first
        config = {c: _plain(first[c]) for c in cols}
        if swapped:
            config["swap_seats"] = True
        summary = summarise_games(group, config, swapped)
        summary.run_id = str(rid)
        run = (runs or {}).get(str(rid))
        if run is not None:
            summary.expected_games = run.games
            if not summary.complete:
                summary.add_note(
                    f"incomplete: {summary.games:,} of {run.games:,} games; the run was interrupted or is "
                    f"still running (simkit run with the same options resumes it: {run.directory})")
        if duplicates.get(str(rid)):
            summary.add_note(f"{duplicates[str(rid)]:,} rows were copies of games already counted (the same run "
                             "found twice, e.g. a copied folder) and were counted once")
        out.append(summary)
    return sorted(out, key=lambda s: tuple(str(v) for v in s.config.values()))


# --------------------------------------------------------------------------- glossary

SECTIONS: dict[str, tuple[str, str]] = {
    "teams": ("Team win rates", "all games"),
    "seats": ("Seats", "win rate of the seat's team"),
    "outcomes": ("Outcomes", "all games"),
    "length": ("Game length", "turns, passes included"),
    "first_sequence": ("First sequence", ""),
    "balance": ("Equal team strength", "chi-square test on decided games"),
    "first_mover": ("First-mover advantage", "team 0, decided games"),
    "lineups": ("Line-up scores", "seats swapped from game to game"),
    "team_means": ("Means per game and team", ""),
    "game_means": ("Means per game", ""),
}
"""Report sections in print order: key (as in JSON and CSV) -> (name, context); the title is ``name (context)``."""

GLOSSARY: dict[str, str] = {
    # the title line of a configuration
    **{name: option.help for name, option in OPTIONS.items()},
    "policies": "Who plays: the policy of each seat, comma-separated, seat 0 first (a shorter list cycles over "
                "the teams). See Policies. With swap_seats, the line-up of the even games.",
    "seed": "The run's master seed: with the configuration it decides every game.",
    "swap_seats": "True: the line-up rotated from game to game (two teams: seats swapped every other game), so "
                  "each policy held every place at the table equally often; see Line-up scores.",
    "incomplete": "The run was asked for more games than are on disk (n=60,000 of 200,000): it was interrupted "
                  "or is still running, and re-running it resumes it.",
    "n, games": "Number of games of the configuration (n= at the end of the title; games in JSON and CSV).",
    # sections
    "Team win rates": "Section teams: each team's wins and win_rate over all games. Draws count as games not "
                      "won, so the teams' rates plus the draw rate make 100%.",
    "Seats": "Section seats: each seat's team and policy, with its team's win rate (a seat has no win rate of "
             "its own; with one seat per team, seat = team).",
    "Outcomes": "Section outcomes: how the games ended. win, stalemate and turn_cap exclude one another and add "
                "up to the total (all games, 100%); the line under the table gives draw = stalemate + turn_cap.",
    "Game length": "Section length: turns per game, passes included.",
    "First sequence": "Section first_sequence: how often and when a game's first sequence is completed, and how "
                      "often the team that completed it wins.",
    "Equal team strength": "Section balance: a chi-square test of whether every team wins equally often, on the "
                           "decided games.",
    "First-mover advantage": "Section first_mover: how often team 0 (seat 0 moves first) wins the decided games, "
                             "against its fair share. With a mixed line-up (teams playing different policies) it "
                             "measures the line-up, not the seat order, and a note under it says so.",
    "Line-up scores": "Section lineups: runs with swap_seats only. Each line-up position's policy, the games it "
                      "played, its wins, the draws, and its score with its 95% Wilson interval.",
    "Means per game and team": "Section team_means: per team, the mean per game of Jacks played, and of "
                               "sequences and chips held at the end.",
    "Means per game": "Section game_means: the mean per game of dead_swaps, reshuffles and passes.",
    # columns and metrics, in report order
    "team": "A team number, 0 to teams - 1. Seat s plays for team s % teams.",
    "seat": "A seat number: seat 0 moves first, then 1, 2 and so on around the table.",
    "policy": "The policy playing the seat (random, greedy or lookahead, with its parameters); rotates when the "
              "line-up rotated from game to game (swap_seats).",
    "wins": "Games the team won. In First-mover advantage: the wins of team 0.",
    "win_rate": "Share of games won: wins / all games in Team win rates, wins / decided games in First-mover "
                "advantage.",
    "team_win_rate": "The win_rate of the seat's team (over all games).",
    "95% CI": "The 95% confidence interval of the number before it: a Wilson interval for rates, a t-interval "
              "for the mean game length. Blank when the metric has none.",
    "Wilson interval": "The interval of every rate (Wilson score interval, 95%): the true rates that fit the "
                       "observed count. Unlike rate ± 2 standard errors it stays within 0-100% and holds near "
                       "0% and 100%.",
    "outcome": "How a game ended: win, stalemate or turn_cap.",
    "count": "In Outcomes: games that ended that way. In First sequence: games in which a sequence was completed.",
    "rate": "count / all games.",
    "win": "A team reached sequences_to_win sequences and won.",
    "stalemate": "Every seat passed in one full round (nobody could play): the game ends without a winner.",
    "turn_cap": "The game reached max_turns turns with neither a win nor a stalemate and was stopped: no winner.",
    "total": "win + stalemate + turn_cap: every game once, 100%.",
    "draw": "A game without a winner: draw = stalemate + turn_cap. Printed under the outcomes, not as a fourth "
            "outcome.",
    "mean": "Average game length in turns, with its 95% t-interval.",
    "std": "Standard deviation of the game length in turns.",
    "median": "The middle game length: half the games are shorter, half longer.",
    "p5, p25, p75, p95": "Percentiles of the game length: 5%, 25%, 75% and 95% of the games are at most this long.",
    "min, max": "The shortest and the longest game, in turns.",
    "share": "count / all games: the share of games in which a sequence was completed.",
    "decided": "Games with a winner (all but the draws). In First sequence: games with a first sequence that "
               "had a winner.",
    "converted": "Games won by the team that completed the first sequence.",
    "conversion_rate": "converted / count: how often the team that completes the first sequence goes on to win "
                       "(a draw counts as not converted).",
    "mean_turn, median_turn": "Mean and median turn (counted from 1, passes included) on which the first "
                              "sequence was completed.",
    "chi-square": "A test of whether the teams' win counts differ more than luck explains, against equal counts "
                  "(decided / teams each).",
    "statistic": "The chi-square statistic: the sum over teams of (wins - expected)² / expected, with expected "
                 "= decided / teams. 0 means exactly equal.",
    "dof": "Degrees of freedom of the chi-square test: teams - 1.",
    "p_value": f"The probability of a difference at least this large if there were none (equal teams; team 0 "
               f"winning exactly its fair share). Below 0.05: hardly luck. Printed as {P_FLOOR_TEXT} when below "
               f"1e-300, where the computed value underflows to 0: it is tiny, not zero.",
    "first mover": "The seat that moves first: seat 0, playing for team 0.",
    "fair_share": "1 / teams: team 0's share of the decided games if moving first made no difference.",
    "advantage": "win_rate - fair_share, in percentage points: +2.36 pp means team 0 wins 52.36% of the decided "
                 "games where 50% would be fair.",
    "pp": "Percentage points: the difference of two percentages (52.36% - 50.00% = +2.36 pp).",
    "line-up": "Which policy plays each seat. Mixed: the teams play different policies, so a team's results mix "
               "policy strength and seat order.",
    "position": "A place in the line-up as given to --policy (0 = the first policy listed), whichever seat it "
                "held in a game.",
    "draws": "Games without a winner.",
    "score": "(wins + draws / teams) / games: the share of the games a policy won, a draw counting as an equal "
             "share for every team. 50% against one other team is an even match.",
    "one_eyed": "One-eyed Jacks played per game by the team (each removes an opponent's chip).",
    "two_eyed": "Two-eyed Jacks played per game by the team (each places a chip on any empty cell).",
    "jacks": "one_eyed + two_eyed.",
    "sequences": "Sequences the team holds at the end of a game.",
    "chips": "The team's chips on the board at the end of a game.",
    "dead_swaps": "Dead cards swapped per game (a card whose two cells are both covered may be discarded and "
                  "replaced).",
    "reshuffles": "Times per game the discard pile was shuffled into a new draw pile.",
    "passes": "Turns per game in which the seat had no legal play (they count as turns).",
    "note": "A caveat under a section or at the end of a configuration: why a number is undefined, a rough "
            "approximation, a mixed line-up.",
    UNDEFINED: "A number undefined for these games (for example no decided game); a note says why. null in "
               "JSON, empty in CSV.",
    "section, metric, key, value, ci_low, ci_high, text": "Columns. In a section of single numbers, metric names "
        "a number and value is it. --format csv has one row per number (after the configuration columns): "
        "section and metric name it, key is its team, seat or outcome, value has full precision (counts as "
        "integers), ci_low and ci_high are its 95% interval, and text is the value as the tables print it (a "
        "p-value that underflowed reads 0.0 in value and < 1e-300 in text). A note is a row of section notes "
        "whose metric is the section it is printed under (note for a general one) and whose text is the note.",
}
"""What every term the report prints means, in report order: term (or comma-separated terms) -> meaning.

The one source of the glossary: README's "Reading a report" table is
`glossary_markdown()`, and ``simkit report --explain`` prints it.
"""


def glossary_entry(term: str) -> str | None:
    """The meaning of a printed term (a `GLOSSARY` key or one of a key's comma-separated terms), else None."""
    if term in GLOSSARY:
        return GLOSSARY[term]
    for key, meaning in GLOSSARY.items():
        if term in key.split(", "):
            return meaning
    return None


def _md_cell(text: str) -> str:
    """Text made safe for one markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def glossary_markdown() -> str:
    """The glossary as a markdown pipe table (term, meaning), as in README's "Reading a report"."""
    lines = ["| term | meaning |", "| --- | --- |"]
    lines += [f"| `{_md_cell(term)}` | {_md_cell(meaning)} |" for term, meaning in GLOSSARY.items()]
    return "\n".join(lines) + "\n"


def glossary_table() -> Table:
    """The glossary as a rich table."""
    table = Table(title="Reading this report", title_justify="left", show_edge=False, header_style="bold",
                  show_lines=False)
    table.add_column("term", max_width=24, overflow="fold")
    table.add_column("meaning", ratio=1, overflow="fold")
    for term, meaning in GLOSSARY.items():
        table.add_row(Text(term, style="bold"), Text(meaning))
    return table


# --------------------------------------------------------------------------- number formats

_COUNTS = frozenset({"games", "wins", "draws", "count", "decided", "converted", "dof", "min", "max", "team", "seat",
                     "position", "expected_games"})
_RATES = frozenset({"win_rate", "team_win_rate", "rate", "share", "conversion_rate", "fair_share", "score"})
_POINTS = frozenset({"advantage"})
_P_VALUES = frozenset({"p_value"})


def value_kind(name: str) -> str:
    """How the metric or column `name` is printed: count, rate, points, p_value or number."""
    if name in _COUNTS:
        return "count"
    if name in _RATES:
        return "rate"
    if name in _POINTS:
        return "points"
    if name in _P_VALUES:
        return "p_value"
    return "number"


def format_p_value(p: float) -> str:
    """A p-value for people: 4 decimals, scientific below 1e-4, `P_FLOOR_TEXT` below `P_FLOOR` (0.0 included)."""
    if not math.isfinite(p):
        return UNDEFINED
    if p < P_FLOOR:
        return P_FLOOR_TEXT
    if p < 1e-4:
        return f"{p:.1e}"
    return f"{p:.4f}"


def format_value(name: str, value: Any) -> str:
    """`value` of the metric or column `name` as the tables print it.

    Counts as integers with thousands separators (991,118); rates as
    percentages with two decimals (51.89%); the advantage in percentage points
    (+2.36 pp); p-values by `format_p_value`; other numbers with two decimals
    (79.37); undefined values as `UNDEFINED`; text as it is.
    """
    value = _plain(value)
    if value is None or value is pd.NA:
        return UNDEFINED
    if isinstance(value, (str, bool)):
        return str(value)
    v = float(value)
    if not math.isfinite(v):
        return UNDEFINED
    kind = value_kind(name)
    if kind == "count":
        return f"{round(v):,}"
    if kind == "rate":
        return f"{100 * v:.2f}%"
    if kind == "points":
        return f"{100 * v:+.2f} pp"
    if kind == "p_value":
        return format_p_value(v)
    return f"{v:,.2f}"


def format_interval(name: str, lo: Any, hi: Any) -> str:
    """An interval of `name` as ``[lo, hi]`` in `format_value`'s format; "" if there is none, `UNDEFINED` if NaN."""
    if lo is None and hi is None:
        return ""
    text_lo, text_hi = format_value(name, lo), format_value(name, hi)
    if UNDEFINED in (text_lo, text_hi):
        return UNDEFINED
    return f"[{text_lo}, {text_hi}]"


# --------------------------------------------------------------------------- data renderers


def _json_value(value: Any) -> Any:
    """A value made JSON-serialisable: numpy -> Python, NaN/NA -> None, recursively."""
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if isinstance(value, pd.DataFrame):
        return [_json_value(r) for r in value.to_dict(orient="records")]
    value = _plain(value)
    if value is None or value is pd.NA:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def to_records(summaries: Iterable[Summary]) -> list[dict[str, Any]]:
    """Summaries as JSON-serialisable dicts (tables as lists of row dicts, NaN -> None, counts as ints)."""
    out = []
    for s in summaries:
        out.append(_json_value({
            "config": s.config,
            "games": s.games,
            "teams": s.teams,
            "seats": s.seats,
            "outcomes": s.outcomes,
            "draw": s.draw,
            "length": s.length,
            "first_sequence": s.first_sequence,
            "balance": s.balance,
            "first_mover": s.first_mover,
            "lineups": s.lineups,
            "team_means": s.team_means,
            "game_means": s.game_means,
            "run_id": s.run_id,
            "expected_games": s.expected_games,
            "complete": s.complete,
            "section_notes": s.section_notes,
            "notes": list(s.notes),
        }))
    return out


def _dict_rows(d: dict[str, float]) -> list[tuple[str, Any, Any, Any]]:
    """(metric, value, ci_low, ci_high) per entry of a scalar section, folding ``*_ci_*`` keys (None: no CI)."""
    rows = []
    for k, v in d.items():
        if k.endswith("_ci_low") or k.endswith("_ci_high"):
            continue
        rows.append((k, v, d.get(f"{k}_ci_low"), d.get(f"{k}_ci_high")))
    return rows


_SCALAR_SECTIONS = ("draw", "length", "first_sequence", "balance", "first_mover", "game_means")


def _number(value: Any) -> float:
    """A value for a float column (None and NA -> NaN)."""
    value = _plain(value)
    return _NAN if value is None or value is pd.NA else float(value)


def _tidy_rows(s: Summary) -> list[dict[str, Any]]:
    """The long-format rows (section, metric, key, value, ci_low, ci_high, text) of one summary."""
    rows: list[dict[str, Any]] = []

    def add(section: str, metric: str, key: Any, value: Any, lo: Any = None, hi: Any = None) -> None:
        rows.append({"section": section, "metric": metric, "key": "" if key is None else str(key),
                     "value": _number(value), "ci_low": _number(lo), "ci_high": _number(hi),
                     "text": format_value(metric, value)})

    add("games", "games", None, s.games)
    for r in s.teams.itertuples(index=False):
        add("teams", "wins", r.team, r.wins)
        add("teams", "win_rate", r.team, r.win_rate, r.ci_low, r.ci_high)
    for r in s.seats.itertuples(index=False):
        add("seats", "team", r.seat, r.team)
        add("seats", "team_win_rate", r.seat, r.team_win_rate, r.ci_low, r.ci_high)
    for r in s.outcomes.itertuples(index=False):
        add("outcomes", "count", r.outcome, r.count)
        add("outcomes", "rate", r.outcome, r.rate, r.ci_low, r.ci_high)
    for section in _SCALAR_SECTIONS:
        for metric, v, lo, hi in _dict_rows(getattr(s, section)):
            add(section, metric, None, v, lo, hi)
    if s.lineups is not None:
        for r in s.lineups.itertuples(index=False):
            for metric in ("games", "wins", "draws"):
                add("lineups", metric, r.position, getattr(r, metric))
            add("lineups", "score", r.position, r.score, r.ci_low, r.ci_high)
    for r in s.team_means.to_dict(orient="records"):
        for metric, v in r.items():
            if metric != "team":
                add("team_means", metric, r["team"], v)
    for section, notes in s.section_notes.items():
        for note in notes:
            rows.append({"section": "notes", "metric": section, "key": "", "value": _NAN,
                         "ci_low": _NAN, "ci_high": _NAN, "text": note})
    for note in s.notes:
        rows.append({"section": "notes", "metric": "note", "key": "", "value": _NAN,
                     "ci_low": _NAN, "ci_high": _NAN, "text": note})
    return rows


def to_frame(summaries: Iterable[Summary]) -> pd.DataFrame:
    """All summaries as one long (tidy) DataFrame: config columns, then `TIDY_COLUMNS`.

    value, ci_low and ci_high are float columns (NaN: undefined or no interval);
    `render(..., "csv")` writes the counts among them as integers.
    """
    summaries = list(summaries)
    config_cols = [c for c in CONFIG_COLUMNS if any(c in s.config for s in summaries)]
    config_cols += [c for s in summaries for c in s.config if c not in config_cols]
    rows = []
    for s in summaries:
        base = {c: s.config.get(c) for c in config_cols}
        rows.extend({**base, **r} for r in _tidy_rows(s))
    frame = pd.DataFrame(rows, columns=[*config_cols, *TIDY_COLUMNS])
    for c in ("value", "ci_low", "ci_high"):
        frame[c] = frame[c].astype(np.float64)
    return frame


def _csv(summaries: Sequence[Summary]) -> str:
    """The tidy table as CSV: full-precision numbers, counts as integers, empty for NaN."""
    frame = to_frame(summaries)
    values = frame["value"].to_numpy()
    kinds = [value_kind(m) for m in frame["metric"]]
    frame["value"] = pd.Series(
        [int(v) if k == "count" and math.isfinite(v) else v for v, k in zip(values, kinds, strict=True)],
        index=frame.index, dtype=object,
    )
    buf = io.StringIO()
    frame.to_csv(buf, index=False)
    return buf.getvalue()


# --------------------------------------------------------------------------- text renderers


@dataclass
class _Block:
    """One section as printed: title, header, rows of text cells, an optional total row, lines and notes under it."""

    section: str
    title: str
    columns: list[str]
    rows: list[list[str]]
    total: list[str] | None = None
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


_LEFT = frozenset({"policy", "outcome", "metric"})
"""Columns of text, left-justified; the others are numbers, right-justified."""


def _title(section: str) -> str:
    name, context = SECTIONS[section]
    return f"{name} ({context})" if context else name


def _frame_block(section: str, frame: pd.DataFrame) -> _Block:
    """A table section; ci_low/ci_high fold into one '95% CI' column of the last value column."""
    cols = [c for c in frame.columns if c not in ("ci_low", "ci_high")]
    has_ci = "ci_low" in frame.columns
    rows = []
    for r in frame.to_dict(orient="records"):
        cells = [format_value(c, r[c]) for c in cols]
        if has_ci:
            cells.append(format_interval(cols[-1], r["ci_low"], r["ci_high"]))
        rows.append(cells)
    return _Block(section, _title(section), [*cols, *(["95% CI"] if has_ci else [])], rows)


def _scalar_block(section: str, d: dict[str, float]) -> _Block:
    """A section of single numbers: metric, value[, 95% CI] (no CI column if no metric has one)."""
    entries = _dict_rows(d)
    has_ci = any(lo is not None for _, _, lo, _ in entries)
    rows = []
    for metric, v, lo, hi in entries:
        cells = [metric, format_value(metric, v)]
        if has_ci:
            cells.append(format_interval(metric, lo, hi))
        rows.append(cells)
    return _Block(section, _title(section), ["metric", "value", *(["95% CI"] if has_ci else [])], rows)


def _outcome_block(s: Summary) -> _Block:
    """The outcomes, a total row (all games, 100%) and the draw line under them."""
    block = _frame_block("outcomes", s.outcomes)
    counts = s.outcomes["count"]
    if counts.notna().all():
        total = int(counts.sum())
        rate = total / s.games if s.games else _NAN
        block.total = ["total", format_value("count", total), format_value("rate", rate), ""]
    else:
        block.total = ["total", format_value("count", s.games), format_value("rate", 1.0 if s.games else _NAN), ""]
    d = s.draw
    interval = format_interval("rate", d["rate_ci_low"], d["rate_ci_high"])
    block.lines.append(
        f"draw = stalemate + turn_cap (no winner): {format_value('count', d['count'])} games, "
        f"{format_value('rate', d['rate'])} {interval}".rstrip()
    )
    return block


def _blocks(s: Summary) -> Iterator[_Block]:
    """The printed sections of a summary, in `SECTIONS` order, each with its notes."""
    for section in SECTIONS:
        if section == "outcomes":
            block = _outcome_block(s)
        else:
            value = getattr(s, section)
            if value is None:
                continue
            block = _frame_block(section, value) if isinstance(value, pd.DataFrame) else _scalar_block(section, value)
        block.notes = list(s.section_notes.get(section, []))
        yield block


def _pipe_table(columns: list[str], rows: list[list[str]]) -> str:
    """A padded markdown pipe table; text columns left-aligned, numbers right-aligned."""
    cells = [[_md_cell(c) for c in row] for row in [columns, *rows]]
    widths = [max(3, *(len(row[i]) for row in cells)) for i in range(len(columns))]
    left = [c in _LEFT for c in columns]

    def line(row: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) if lf else c.rjust(w)
                                 for c, w, lf in zip(row, widths, left, strict=True)) + " |"

    sep = "|" + "|".join(":" + "-" * (w + 1) if lf else "-" * (w + 1) + ":"
                         for w, lf in zip(widths, left, strict=True)) + "|"
    return "\n".join([line(cells[0]), sep, *(line(r) for r in cells[1:])])


def _markdown(summaries: Sequence[Summary], explain: bool = False) -> str:
    """Markdown: a heading per configuration and a pipe table per section (the glossary last with `explain`)."""
    parts = []
    for s in summaries:
        parts.append(f"## {s.title}\n")
        for b in _blocks(s):
            rows = list(b.rows)
            if b.total is not None:
                rows.append([f"**{c}**" if c else c for c in b.total])
            text = f"### {b.title}\n\n{_pipe_table(b.columns, rows)}\n"
            for line in b.lines:
                text += f"\n{line}\n"
            for note in b.notes:
                text += f"\n> **note:** {note}\n"
            parts.append(text)
        if s.notes:
            parts.append("\n\n".join(f"> **note:** {n}" for n in s.notes) + "\n")
    if explain:
        parts.append(f"## Reading a report\n\n{glossary_markdown()}")
    return "\n".join(parts)


def render(summaries: Iterable[Summary], fmt: str, explain: bool = False) -> str:
    """Summaries as text: ``"json"``, ``"csv"`` (tidy long table) or ``"markdown"``.

    `explain` appends the glossary (markdown only: csv and json are for programs).
    """
    summaries = list(summaries)
    if explain and fmt not in ("markdown", "md"):
        raise ValueError(f"--explain adds the glossary to the rich or markdown report, not to {fmt}")
    if fmt == "json":
        return json.dumps(to_records(summaries), indent=2, allow_nan=False)
    if fmt == "csv":
        return _csv(summaries)
    if fmt in ("markdown", "md"):
        return _markdown(summaries, explain)
    raise ValueError(f"unknown report format {fmt!r}; use json, csv or markdown")


def _rich_table(b: _Block) -> Table:
    """A rich table of a printed section (its title is printed apart, see `render_rich`)."""
    table = Table(show_edge=False, header_style="bold")
    for c in b.columns:
        table.add_column(c, justify="left" if c in _LEFT else "right", overflow="fold")
    for i, row in enumerate(b.rows):
        table.add_row(*(Text(c) for c in row), end_section=b.total is not None and i == len(b.rows) - 1)
    if b.total is not None:
        table.add_row(*(Text(c) for c in b.total), style="bold")
    return table


def _note(text: str) -> Text:
    return Text.assemble(("note: ", "yellow"), text)


def render_rich(summaries: Iterable[Summary], console: Console, explain: bool = False) -> None:
    """Print the summaries as rich tables on `console`, one block per configuration (the glossary last with `explain`).

    Titles (of a configuration, under a rule, and of each section) go on lines
    of their own and are never cut: they are soft-wrapped, so a pipe gets them
    whole on one line whatever the console width (rich assumes 80 columns when
    stdout is not a terminal).
    """
    for s in summaries:
        console.rule()
        console.print(Text(s.title, style="bold"), soft_wrap=True)
        console.print()
        for b in _blocks(s):
            console.print(Text(b.title, style="bold"), soft_wrap=True)
            console.print(_rich_table(b))
            for line in b.lines:
                console.print(Text(line))
            for note in b.notes:
                console.print(_note(note))
            console.print()
        for note in s.notes:
            console.print(_note(note))
        if s.notes:
            console.print()
    if explain:
        console.print(glossary_table())
