"""How values and tables are printed: the formats of every number, the one markdown table writer, and the
registries' tables.

Nothing here computes a statistic (``simkit.analysis.stats`` and ``simkit.analysis.report``
do); this module only formats:

- ``format_value`` / ``format_interval``: counts with thousands separators
  (991,118), rates as percentages with two decimals (51.89%), advantages in
  percentage points (+2.36 pp), relative advantages in percent of the fair
  share (+4.72%), p-values by ``format_p_value`` (four decimals, scientific
  below 1e-4, ``< 1e-300`` below 1e-300), means of small counts with three
  decimals (0.260), other numbers with two decimals;
- ``pct``, ``pp``, ``relative``, ``number``, ``count``: the study tables' numbers, with their intervals;
- ``markdown_table``: every markdown pipe table simkit writes (reports,
  study summaries, README's tables);
- the glossary (``glossary_markdown``, ``glossary_table``) and the metrics (``metrics_markdown``) as tables.

``simkit.presentation.report`` prints a report with them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd
from rich.table import Table
from rich.text import Text

from simkit.analysis.metrics import METRICS
from simkit.presentation.glossary import GLOSSARY, P_FLOOR_TEXT, UNDEFINED

P_FLOOR = 1e-300
"""p-values below this (including an exact 0.0 from scipy's underflow) print as `P_FLOOR_TEXT`."""


def plain_value(value: Any) -> Any:
    """A numpy/pandas scalar as the matching plain Python value."""
    if isinstance(value, np.generic):
        return value.item()
    return value


_COUNTS = frozenset(
    {
        "games",
        "wins",
        "draws",
        "count",
        "decided",
        "converted",
        "dof",
        "min",
        "max",
        "team",
        "seat",
        "position",
        "expected_games",
    }
)
_RATES = frozenset(
    {
        "win_rate",
        "team_win_rate",
        "rate",
        "share",
        "decided_share",
        "conversion_rate",
        "fair_share",
        "score",
        "balance",
        "balance_decided",
        "comebacks",
        "lead_changed",
    }
)
_POINTS = frozenset({"advantage"})
_GAPS = frozenset({"max_gap"})
_PERCENT_OF_FAIR = frozenset({"relative_advantage"})
_P_VALUES = frozenset({"p_value"})
_SMALL_MEANS = frozenset({"lead_changes"})


def value_kind(name: str) -> str:
    """How the metric or column `name` is printed: count, rate, points, gap, relative, p_value, small_mean or
    number."""
    if name in _COUNTS:
        return "count"
    if name in _RATES:
        return "rate"
    if name in _POINTS:
        return "points"
    if name in _GAPS:
        return "gap"
    if name in _PERCENT_OF_FAIR:
        return "relative"
    if name in _P_VALUES:
        return "p_value"
    if name in _SMALL_MEANS:
        return "small_mean"
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
    (+2.36 pp); p-values by `format_p_value`; means of small counts with three
    decimals (0.260); other numbers with two decimals (79.37); undefined values
    as `UNDEFINED`; text as it is.
    """
    value = plain_value(value)
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
    if kind == "gap":
        return f"{100 * v:.2f} pp"
    if kind == "relative":
        return f"{100 * v:+.2f}%"
    if kind == "p_value":
        return format_p_value(v)
    if kind == "small_mean":
        return f"{v:,.3f}"
    return f"{v:,.2f}"


def format_interval(name: str, lo: Any, hi: Any) -> str:
    """An interval of `name` as ``[lo, hi]`` in `format_value`'s format; "" if there is none, `UNDEFINED` if NaN."""
    if lo is None and hi is None:
        return ""
    text_lo, text_hi = format_value(name, lo), format_value(name, hi)
    if UNDEFINED in (text_lo, text_hi):
        return UNDEFINED
    return f"[{text_lo}, {text_hi}]"


def md_cell(text: str) -> str:
    """Text made safe for one markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown_table(
    columns: Sequence[str], rows: Iterable[Sequence[Any]], left: Iterable[str] | None = None, pad: bool = True
) -> str:
    """A markdown pipe table: the one writer of every table simkit prints or publishes.

    Cells are text (formatted by the caller); `left` names the text columns,
    left-aligned (by default every column holding text that is not a
    number), the others right-aligned. pad: pad the cells to their column's
    width, for reading the source; off for tables of long text (the glossary).
    """
    columns = [str(c) for c in columns]
    cells = [[md_cell(c) for c in columns], *([md_cell(c) for c in row] for row in rows)]
    if left is None:
        left_set = {c for i, c in enumerate(columns) if any(not looks_numeric(r[i]) for r in cells[1:])}
    else:
        left_set = set(left)
    widths = [max(3, *(len(row[i]) for row in cells)) if pad else 3 for i in range(len(columns))]
    is_left = [c in left_set for c in columns]

    def line(row: list[str]) -> str:
        if not pad:
            return "| " + " | ".join(row) + " |"
        return "| " + " | ".join(c.ljust(w) if lf else c.rjust(w) for c, w, lf in zip(row, widths, is_left)) + " |"

    sep = "|" + "|".join((":" + "-" * (w + 1)) if lf else ("-" * (w + 1) + ":") for w, lf in zip(widths, is_left)) + "|"
    return "\n".join([line(cells[0]), sep, *(line(r) for r in cells[1:])]) + "\n"


def looks_numeric(text: str) -> bool:
    """Whether a printed cell is a number (with its interval, unit or sign)."""
    t = text.replace(",", "").replace("%", "").replace("pp", "").replace("+", "").replace("−", "-").strip()
    head = t.split(" [")[0].split(" ")[0]
    if head in ("", UNDEFINED):
        return True
    try:
        float(head.lstrip("<").strip() or "0")
        return True
    except ValueError:
        return False


def glossary_markdown() -> str:
    """The glossary (simkit.presentation.glossary.GLOSSARY) as a markdown pipe table (term, meaning), as in
    docs/guide/reports.md, 'Glossary'."""
    return markdown_table(
        ["term", "meaning"],
        [(f"`{term}`", meaning) for term, meaning in GLOSSARY.items()],
        left=["term", "meaning"],
        pad=False,
    )


def glossary_table() -> Table:
    """The glossary (simkit.presentation.glossary.GLOSSARY) as a rich table."""
    table = Table(
        title="Reading this report", title_justify="left", show_edge=False, header_style="bold", show_lines=False
    )
    table.add_column("term", max_width=24, overflow="fold")
    table.add_column("meaning", ratio=1, overflow="fold")
    for term, meaning in GLOSSARY.items():
        table.add_row(Text(term, style="bold"), Text(meaning))
    return table


# --------------------------------------------------------------------------- study tables


def _with_interval(value: float, low: float | None, high: float | None, number) -> str:
    """number(value), then ' [number(low), number(high)]' when there is an interval; UNDEFINED for NaN."""
    if value is None or not np.isfinite(value):
        return UNDEFINED
    text = number(value)
    if low is not None and np.isfinite(low):
        text += f" [{number(low).rstrip('%').removesuffix(' pp')}, {number(high).rstrip('%').removesuffix(' pp')}]"
    return text


def pct(value: float, low: float | None = None, high: float | None = None, digits: int = 1) -> str:
    """'52.4% [51.9, 52.9]': a rate in percent, with its interval."""
    return _with_interval(value, low, high, lambda v: f"{100 * v:.{digits}f}%")


def pp(value: float, low: float | None = None, high: float | None = None, digits: int = 1) -> str:
    """'+2.4 pp [+1.9, +2.9]': a difference of rates in percentage points, with its interval."""
    return _with_interval(value, low, high, lambda v: f"{100 * v:+.{digits}f} pp")


def relative(value: float, low: float | None = None, high: float | None = None, digits: int = 1) -> str:
    """'+9.0% [+8.0, +10.0]': a relative advantage, in percent of the fair share, with its interval."""
    return _with_interval(value, low, high, lambda v: f"{100 * v:+.{digits}f}%")


def number(value: float, low: float | None = None, high: float | None = None, digits: int = 1) -> str:
    """'17.4 [17.3, 17.5]': a number (a mean of turns, of lead changes) with its interval."""
    return _with_interval(value, low, high, lambda v: f"{v:,.{digits}f}")


def count(n: Any) -> str:
    """'1,000,000'."""
    return UNDEFINED if n is None or (isinstance(n, float) and not np.isfinite(n)) else f"{int(n):,}"


def metrics_markdown() -> str:
    """The metrics registry as a markdown table (docs/guide/reports.md, 'Metrics')."""
    return markdown_table(
        ["metric", "definition", "range"],
        [(f"`{m.name}`", m.definition, m.range) for m in METRICS.values()],
        left=["metric", "definition", "range"],
        pad=False,
    )
