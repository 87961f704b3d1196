"""A report printed: ``render`` as JSON, CSV (a long, tidy table) or markdown, and ``render_rich`` on the
terminal, of a list of ``simkit.analysis.report.Summary``; every value formatted by
``simkit.presentation.render``."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from rich.console import Console
from rich.table import Table
from rich.text import Text

from simkit.analysis.report import CONFIG_COLUMNS, SECTIONS
from simkit.analysis.stats import FAIR_BAND
from simkit.presentation.render import (
    format_interval,
    format_value,
    glossary_markdown,
    glossary_table,
    markdown_table,
    plain_value,
    value_kind,
)

if TYPE_CHECKING:  # the report imports nothing from here at run time, so no cycle
    from simkit.analysis.report import Summary

TIDY_COLUMNS = ["section", "metric", "key", "value", "ci_low", "ci_high", "text"]
"""Columns (after the configuration columns) of the long table `render(..., "csv")`;
``text`` is the value as the rich and markdown tables print it (see `format_value`)."""

_NAN = float("nan")


# --------------------------------------------------------------------------- data renderers


def json_value(value: Any) -> Any:
    """A value made JSON-serialisable: numpy -> Python, NaN/NA -> None, recursively."""
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, pd.DataFrame):
        return [json_value(r) for r in value.to_dict(orient="records")]
    value = plain_value(value)
    if value is None or value is pd.NA:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def to_records(summaries: Iterable[Summary]) -> list[dict[str, Any]]:
    """Summaries as JSON-serialisable dicts (tables as lists of row dicts, NaN -> None, counts as ints)."""
    out = []
    for s in summaries:
        out.append(
            json_value(
                {
                    "config": s.config,
                    "games": s.games,
                    "teams": s.teams,
                    "shares": s.shares,
                    "gap": s.gap,
                    "seats": s.seats,
                    "outcomes": s.outcomes,
                    "draw": s.draw,
                    "length": s.length,
                    "rounds": s.rounds,
                    "first_sequence": s.first_sequence,
                    "unfold": s.unfold,
                    "equal_strength": s.equal_strength,
                    "first_mover": s.first_mover,
                    "balance": s.balance,
                    "lineups": s.lineups,
                    "team_means": s.team_means,
                    "game_means": s.game_means,
                    "run_id": s.run_id,
                    "expected_games": s.expected_games,
                    "complete": s.complete,
                    "section_notes": s.section_notes,
                    "notes": list(s.notes),
                }
            )
        )
    return out


def dict_rows(d: dict[str, float]) -> list[tuple[str, Any, Any, Any]]:
    """(metric, value, ci_low, ci_high) per entry of a scalar section, folding ``*_ci_*`` keys (None: no CI)."""
    rows = []
    for k, v in d.items():
        if k.endswith("_ci_low") or k.endswith("_ci_high"):
            continue
        rows.append((k, v, d.get(f"{k}_ci_low"), d.get(f"{k}_ci_high")))
    return rows


_SCALAR_SECTIONS = (
    "draw",
    "gap",
    "length",
    "rounds",
    "first_sequence",
    "unfold",
    "equal_strength",
    "first_mover",
    "balance",
    "game_means",
)


def _number(value: Any) -> float:
    """A value for a float column (None and NA -> NaN)."""
    value = plain_value(value)
    return _NAN if value is None or value is pd.NA else float(value)


def _metric_kind_name(section: str, metric: str) -> str:
    """The name whose kind formats `metric` of `section`: the rounds are fractions of turns, never counts."""
    return "rounds" if section == "rounds" else metric


def _tidy_rows(s: Summary) -> list[dict[str, Any]]:
    """The long-format rows (section, metric, key, value, ci_low, ci_high, text) of one summary."""
    rows: list[dict[str, Any]] = []

    def add(section: str, metric: str, key: Any, value: Any, lo: Any = None, hi: Any = None) -> None:
        text = format_value(_metric_kind_name(section, metric), value)
        rows.append(
            {
                "section": section,
                "metric": metric,
                "key": "" if key is None else str(key),
                "value": _number(value),
                "ci_low": _number(lo),
                "ci_high": _number(hi),
                "text": text,
            }
        )

    add("games", "games", None, s.games)
    for r in s.teams.itertuples(index=False):
        add("teams", "wins", r.team, r.wins)
        add("teams", "win_rate", r.team, r.win_rate, r.ci_low, r.ci_high)
    if s.shares is not None:
        for r in s.shares.itertuples(index=False):
            add("shares", "wins", r.team, r.wins)
            add("shares", "decided_share", r.team, r.decided_share, r.ci_low, r.ci_high)
    for r in s.seats.itertuples(index=False):
        add("seats", "team", r.seat, r.team)
        add("seats", "team_win_rate", r.seat, r.team_win_rate, r.ci_low, r.ci_high)
    for r in s.outcomes.itertuples(index=False):
        add("outcomes", "count", r.outcome, r.count)
        add("outcomes", "rate", r.outcome, r.rate, r.ci_low, r.ci_high)
    for section in _SCALAR_SECTIONS:
        for metric, v, lo, hi in dict_rows(getattr(s, section) or {}):
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
            rows.append(
                {
                    "section": "notes",
                    "metric": section,
                    "key": "",
                    "value": _NAN,
                    "ci_low": _NAN,
                    "ci_high": _NAN,
                    "text": note,
                }
            )
    for note in s.notes:
        rows.append(
            {
                "section": "notes",
                "metric": "note",
                "key": "",
                "value": _NAN,
                "ci_low": _NAN,
                "ci_high": _NAN,
                "text": note,
            }
        )
    return rows


def to_frame(summaries: Iterable[Summary]) -> pd.DataFrame:
    """All summaries as one long (tidy) DataFrame: config columns, then `TIDY_COLUMNS`.

    value, ci_low and ci_high are float columns (NaN: undefined or no interval);
    `render(..., "csv")` writes the counts among them as integers.
    """

    summaries = list(summaries)
    config_cols = [c for c in CONFIG_COLUMNS if any(c in s.config for s in summaries)]
    config_cols += [c for s in summaries for c in s.config if c not in config_cols]
    rows: list[dict] = []
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
    kinds = [value_kind(_metric_kind_name(sec, m)) for sec, m in zip(frame["section"], frame["metric"])]
    frame["value"] = pd.Series(
        [int(v) if k == "count" and math.isfinite(v) else v for v, k in zip(values, kinds, strict=True)],
        index=frame.index,
        dtype=object,
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
    entries = dict_rows(d)
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


def _length_block(s: Summary) -> _Block:
    """The game length in turns (all seats), its interval, and the same in rounds (turns per player) beside."""
    rounds = s.rounds or {}
    rows = []
    for metric, v, lo, hi in dict_rows(s.length):
        r = rounds.get(metric)
        rows.append(
            [
                metric,
                format_value(metric, v),
                format_interval(metric, lo, hi) if lo is not None else "",
                "" if r is None or not math.isfinite(r) else f"{r:,.2f}",
            ]
        )
    columns = ["metric", "turns (all seats)", "95% CI"] + (["rounds"] if rounds else [])
    return _Block("length", _title("length"), columns, [row[: len(columns)] for row in rows])


def fair_line() -> str:
    """What "fair" means where simkit says it: an equivalence margin on the advantage, not a zero edge."""

    return (
        f"fair: the compensation study calls a setting fair when the advantage's 95% interval lies within "
        f"±{100 * FAIR_BAND['casual']:g} pp (casual play: random and greedy) or ±{100 * FAIR_BAND['strong']:g} pp "
        "(strong play: swift, as on the rules card; also fast, the lookahead and the tree searches): an "
        "equivalence margin, not a zero edge."
    )


def _blocks(s: Summary) -> Iterator[_Block]:
    """The printed sections of a summary, in `SECTIONS` order, each with its notes (the rounds, a section of
    the data formats, are a column of the length's table)."""

    for section in SECTIONS:
        if section == "outcomes":
            block = _outcome_block(s)
        elif section == "length":
            block = _length_block(s)
        else:
            value = getattr(s, section)
            if value is None:
                continue
            block = _frame_block(section, value) if isinstance(value, pd.DataFrame) else _scalar_block(section, value)
        if section == "first_mover":
            block.lines.append(fair_line())
        block.notes = list(s.section_notes.get(section, []))
        yield block


def _markdown(summaries: Sequence[Summary], explain: bool = False) -> str:
    """Markdown: a heading per configuration and a pipe table per section (the glossary last with `explain`)."""
    parts = []
    for s in summaries:
        parts.append(f"## {s.title}\n")
        for b in _blocks(s):
            rows = list(b.rows)
            if b.total is not None:
                rows.append([f"**{c}**" if c else c for c in b.total])
            text = f"### {b.title}\n\n{markdown_table(b.columns, rows, left=_LEFT & set(b.columns))}"
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
    of their own and are never cut: on a terminal they wrap at its width at word
    boundaries; elsewhere they are soft-wrapped, so a pipe gets them whole on one
    line whatever the console width (rich assumes 80 columns when stdout is not a
    terminal). The lines and notes under a table wrap as the console does.
    """
    whole = not console.is_terminal
    for s in summaries:
        console.rule()
        console.print(Text(s.title, style="bold"), soft_wrap=whole)
        console.print()
        for b in _blocks(s):
            console.print(Text(b.title, style="bold"), soft_wrap=whole)
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
