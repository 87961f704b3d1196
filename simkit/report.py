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
from scipy import stats

CONFIG_COLUMNS = ["players", "teams", "hand_size", "sequences_to_win", "max_turns", "chip_limit", "policies"]
"""Columns that identify a configuration; games are grouped by those present."""

CONFIDENCE = 0.95
"""Confidence level of every interval in a summary."""

OUTCOMES = ("win", "draw", "stalemate", "turn_cap")
"""Rows of the outcome table: ``draw`` = no winner (stalemate or turn cap)."""

PERCENTILES = (5, 25, 75, 95)
"""Percentiles of the game length reported besides the median."""

TIDY_COLUMNS = ["section", "metric", "key", "value", "ci_low", "ci_high"]
"""Columns (after the configuration columns) of the long table `render(..., "csv")`."""

_NAN = float("nan")


@dataclass
class Summary:
    """Statistics of the games of one configuration.

    Tables are pandas DataFrames, scalar sections are ``dict[str, float]``; a
    key ``K_ci_low`` / ``K_ci_high`` in a dict is the 95% interval of ``K``.
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
    """Columns outcome (win/draw/stalemate/turn_cap), count, rate, ci_low, ci_high."""
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
    notes: list[str] = field(default_factory=list)
    """Why statistics are NaN, or caveats (e.g. small expected counts)."""

    @property
    def key(self) -> tuple:
        """The configuration values as a tuple (in `CONFIG_COLUMNS` order)."""
        return tuple(self.config.values())

    @property
    def title(self) -> str:
        """A one-line description of the configuration."""
        if not self.config:
            return f"all games (n={self.games})"
        return ", ".join(f"{k}={v}" for k, v in self.config.items()) + f" (n={self.games})"


# --------------------------------------------------------------------------- statistics


def wilson_interval(k: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of k successes in n trials (NaN, NaN when n == 0)."""
    if n <= 0:
        return _NAN, _NAN
    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def _proportion(k: int, n: int) -> tuple[float, float, float]:
    """(rate, ci_low, ci_high) of k out of n; all NaN when n == 0."""
    lo, hi = wilson_interval(k, n)
    return (k / n if n > 0 else _NAN), lo, hi


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
        rate, lo, hi = _proportion(k, n)
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
    """Count, rate and interval of wins, draws (no winner), stalemates and turn caps."""
    n = len(df)
    end = df["end"].astype(str).to_numpy() if "end" in df else None
    counts = {"win": int(np.count_nonzero(winner >= 0)), "draw": int(np.count_nonzero(winner < 0))}
    for name in ("stalemate", "turn_cap"):
        counts[name] = int(np.count_nonzero(end == name)) if end is not None else None
    rows = []
    for name in OUTCOMES:
        k = counts[name]
        if k is None:
            rows.append({"outcome": name, "count": _NAN, "rate": _NAN, "ci_low": _NAN, "ci_high": _NAN})
            continue
        rate, lo, hi = _proportion(k, n)
        rows.append({"outcome": name, "count": k, "rate": rate, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows, columns=["outcome", "count", "rate", "ci_low", "ci_high"])


def _length(turns: np.ndarray, notes: list[str]) -> dict[str, float]:
    """Distribution of the game length (turns incl. passes)."""
    n = len(turns)
    keys = ["mean", "mean_ci_low", "mean_ci_high", "std", "median", *(f"p{p}" for p in PERCENTILES), "min", "max"]
    if n == 0:
        notes.append("length: no games")
        return dict.fromkeys(keys, _NAN)
    x = turns.astype(np.float64)
    mean = float(x.mean())
    if n >= 2:
        std = float(x.std(ddof=1))
        sem = float(stats.sem(x))
        if sem > 0:
            lo, hi = (float(v) for v in stats.t.interval(CONFIDENCE, n - 1, loc=mean, scale=sem))
        else:
            lo = hi = mean
    else:
        std = lo = hi = _NAN
        notes.append("length: one game, so no standard deviation or t-interval")
    out = {"mean": mean, "mean_ci_low": lo, "mean_ci_high": hi, "std": std, "median": float(np.median(x))}
    for p in PERCENTILES:
        out[f"p{p}"] = float(np.percentile(x, p))
    out["min"] = float(x.min())
    out["max"] = float(x.max())
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
    share, slo, shi = _proportion(k, n)
    converted = int(np.count_nonzero(has & (winner == fst))) if "first_sequence_team" in df else None
    if converted is None:
        conv, clo, chi = _NAN, _NAN, _NAN
        notes.append("first_sequence: no first_sequence_team column, conversion unknown")
    else:
        conv, clo, chi = _proportion(converted, k)
        if k == 0:
            notes.append("first_sequence: no game had a sequence, conversion rate undefined")
    if "first_sequence_turn" in df and k > 0:
        turn = df["first_sequence_turn"].to_numpy()[has].astype(np.float64)
        mean_turn, median_turn = float(turn.mean()), float(np.median(turn))
    else:
        mean_turn = median_turn = _NAN
    return {
        "count": float(k),
        "share": share,
        "share_ci_low": slo,
        "share_ci_high": shi,
        "decided": float(np.count_nonzero(has & (winner >= 0))),
        "converted": _NAN if converted is None else float(converted),
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
    out = {"decided": float(decided), "statistic": _NAN, "dof": _NAN, "p_value": _NAN}
    if teams < 2:
        notes.append("balance: fewer than two teams, chi-square test undefined")
        return out
    if decided == 0:
        notes.append("balance: no decided games, chi-square test undefined")
        return out
    res = stats.chisquare(counts)
    out.update(statistic=float(res.statistic), dof=float(teams - 1), p_value=float(res.pvalue))
    if decided / teams < 5:
        notes.append(f"balance: expected wins per team {decided / teams:.3g} < 5, chi-square approximation is rough")
    return out


def _first_mover(winner: np.ndarray, teams: int, notes: list[str]) -> dict[str, float]:
    """Win rate of team 0 (seat 0 moves first) among decided games against the fair share 1/teams."""
    fair = 1.0 / teams if teams > 0 else _NAN
    decided = int(np.count_nonzero(winner >= 0))
    wins = int(np.count_nonzero(winner == 0))
    rate, lo, hi = _proportion(wins, decided)
    p_value = _NAN
    if decided == 0:
        notes.append("first_mover: no decided games, first-mover advantage undefined")
    elif teams < 2:
        notes.append("first_mover: fewer than two teams, binomial test undefined")
    else:
        p_value = float(stats.binomtest(wins, decided, p=fair, alternative="two-sided").pvalue)
    return {
        "decided": float(decided),
        "wins": float(wins),
        "win_rate": rate,
        "win_rate_ci_low": lo,
        "win_rate_ci_high": hi,
        "fair_share": fair,
        "advantage": rate - fair,
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


def summarise_games(df: pd.DataFrame, config: dict[str, Any] | None = None) -> Summary:
    """A `Summary` of the games in `df`, all taken to share one configuration `config`."""
    config = {k: _plain(v) for k, v in (config or {}).items()}
    notes: list[str] = []
    teams = _n_teams(config, df)
    winner = df["winner_team"].to_numpy().astype(np.int64) if "winner_team" in df else np.full(len(df), -1)
    if "winner_team" not in df:
        notes.append("no winner_team column: every game counted as undecided")
    if len(df) == 0:
        notes.append("no games")
    team_table = _team_table(winner, teams)
    return Summary(
        config=config,
        games=int(len(df)),
        teams=team_table,
        seats=_seat_table(team_table, config, teams),
        outcomes=_outcome_table(df, winner),
        length=_length(df["turns"].to_numpy() if "turns" in df else np.empty(0), notes),
        first_sequence=_first_sequence(df, winner, notes),
        balance=_balance(winner, teams, notes),
        first_mover=_first_mover(winner, teams, notes),
        team_means=_team_means(df, teams),
        game_means=_game_means(df),
        notes=notes,
    )


def summarise(df: pd.DataFrame) -> list[Summary]:
    """One `Summary` per configuration (group of equal `CONFIG_COLUMNS` values present in `df`).

    Summaries come in sorted configuration order; a frame without any
    configuration column gives one summary with an empty ``config``.
    """
    cols = [c for c in CONFIG_COLUMNS if c in df.columns]
    if len(df) == 0:
        return []
    if not cols:
        return [summarise_games(df, {})]
    out = []
    for key, group in df.groupby(cols, sort=True, dropna=False, observed=True):
        values = key if isinstance(key, tuple) else (key,)
        out.append(summarise_games(group, dict(zip(cols, values, strict=True))))
    return out


# --------------------------------------------------------------------------- renderers


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
    """Summaries as JSON-serialisable dicts (tables as lists of row dicts, NaN -> None)."""
    out = []
    for s in summaries:
        out.append(_json_value({
            "config": s.config,
            "games": s.games,
            "teams": s.teams,
            "seats": s.seats,
            "outcomes": s.outcomes,
            "length": s.length,
            "first_sequence": s.first_sequence,
            "balance": s.balance,
            "first_mover": s.first_mover,
            "team_means": s.team_means,
            "game_means": s.game_means,
            "notes": list(s.notes),
        }))
    return out


def _dict_rows(d: dict[str, float]) -> list[tuple[str, float, float, float]]:
    """(metric, value, ci_low, ci_high) per entry of a scalar section, folding ``*_ci_*`` keys."""
    rows = []
    for k, v in d.items():
        if k.endswith("_ci_low") or k.endswith("_ci_high"):
            continue
        rows.append((k, v, d.get(f"{k}_ci_low", _NAN), d.get(f"{k}_ci_high", _NAN)))
    return rows


_SCALAR_SECTIONS = ("length", "first_sequence", "balance", "first_mover", "game_means")


def _tidy_rows(s: Summary) -> list[dict[str, Any]]:
    """The long-format rows (section, metric, key, value, ci_low, ci_high) of one summary."""
    rows: list[dict[str, Any]] = []

    def add(section: str, metric: str, key: Any, value: Any, lo: Any = _NAN, hi: Any = _NAN) -> None:
        rows.append({"section": section, "metric": metric, "key": "" if key is None else str(key),
                     "value": value, "ci_low": lo, "ci_high": hi})

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
    for r in s.team_means.to_dict(orient="records"):
        for metric, v in r.items():
            if metric != "team":
                add("team_means", metric, r["team"], v)
    for note in s.notes:
        add("notes", "note", note, _NAN)
    return rows


def to_frame(summaries: Iterable[Summary]) -> pd.DataFrame:
    """All summaries as one long (tidy) DataFrame: config columns, then `TIDY_COLUMNS`."""
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


def _markdown_table(frame: pd.DataFrame) -> str:
    """A pipe table of `frame` (floats with 4 significant digits, NaN blank)."""
    cells = frame.astype(object).where(frame.notna(), None)
    return cells.to_markdown(index=False, floatfmt=".4g", missingval="")


def _scalar_frame(d: dict[str, float]) -> pd.DataFrame:
    """A scalar section as a metric/value[/ci_low/ci_high] frame (no CI columns if none is defined)."""
    frame = pd.DataFrame(_dict_rows(d), columns=["metric", "value", "ci_low", "ci_high"])
    if frame[["ci_low", "ci_high"]].isna().all().all():
        frame = frame.drop(columns=["ci_low", "ci_high"])
    return frame


_SECTION_TITLES = {
    "teams": "Team win rates (all games)",
    "seats": "Seats (win rate of the seat's team)",
    "outcomes": "Outcomes",
    "length": "Game length (turns)",
    "first_sequence": "First sequence",
    "balance": "Equal team strength: chi-square on decided games",
    "first_mover": "First-mover advantage (team 0, decided games)",
    "team_means": "Means per game and team",
    "game_means": "Means per game",
}


def _section_frames(s: Summary) -> Iterator[tuple[str, pd.DataFrame]]:
    """(title, frame) of each section of a summary, in report order."""
    for section, title in _SECTION_TITLES.items():
        value = getattr(s, section)
        yield title, value if isinstance(value, pd.DataFrame) else _scalar_frame(value)


def _markdown(summaries: Sequence[Summary]) -> str:
    """Markdown: a heading per configuration and a pipe table per section."""
    parts = []
    for s in summaries:
        parts.append(f"## {s.title}\n")
        for title, frame in _section_frames(s):
            parts.append(f"### {title}\n\n{_markdown_table(frame)}\n")
        if s.notes:
            parts.append("### Notes\n\n" + "\n".join(f"- {n}" for n in s.notes) + "\n")
    return "\n".join(parts)


def render(summaries: Iterable[Summary], fmt: str) -> str:
    """Summaries as text: ``"json"``, ``"csv"`` (tidy long table) or ``"markdown"``."""
    summaries = list(summaries)
    if fmt == "json":
        return json.dumps(to_records(summaries), indent=2, allow_nan=False)
    if fmt == "csv":
        buf = io.StringIO()
        to_frame(summaries).to_csv(buf, index=False)
        return buf.getvalue()
    if fmt in ("markdown", "md"):
        return _markdown(summaries)
    raise ValueError(f"unknown report format {fmt!r}; use json, csv or markdown")


def _fmt(value: Any, digits: int = 4) -> str:
    """A number for the terminal: NaN as an em dash, ints plain, floats with `digits` significant digits."""
    value = _plain(value)
    if value is None:
        return "—"
    if isinstance(value, (bool, str)):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return "—"
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.{digits}g}"
    return str(value)


def _ci(lo: Any, hi: Any) -> str:
    """An interval as ``[lo, hi]`` (em dash when undefined)."""
    if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)):
        return "—"
    return f"[{lo:.3f}, {hi:.3f}]"


def _rich_frame(title: str, frame: pd.DataFrame) -> Table:
    """A rich table of a frame, folding ci_low/ci_high into one '95% CI' column."""
    table = Table(title=title, title_justify="left", show_edge=False, header_style="bold", min_width=len(title))
    cols = [c for c in frame.columns if c not in ("ci_low", "ci_high")]
    has_ci = "ci_low" in frame.columns
    for c in cols:
        table.add_column(str(c), justify="right" if pd.api.types.is_numeric_dtype(frame[c]) else "left")
    if has_ci:
        table.add_column("95% CI", justify="right")
    for r in frame.to_dict(orient="records"):
        cells = [_fmt(r[c]) for c in cols]
        if has_ci:
            cells.append(_ci(r["ci_low"], r["ci_high"]))
        table.add_row(*cells)
    return table


def render_rich(summaries: Iterable[Summary], console: Console) -> None:
    """Print the summaries as rich tables on `console`, one block per configuration."""
    for s in summaries:
        console.rule(f"[bold]{s.title}")
        for title, frame in _section_frames(s):
            console.print(_rich_frame(title, frame))
            console.print()
        for note in s.notes:
            console.print(f"[yellow]note:[/yellow] {note}")
        if s.notes:
            console.print()
