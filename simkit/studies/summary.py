"""A study's summary: one row per configuration (summary.csv), the markdown page (summary.md), and writing them.

``write_summary`` writes what a kind makes of a study (``StudyKind.tables``
and ``StudyKind.figures``) into its directory: summary.csv, the extra
tables, the plots, summary.md and study.json.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence, Set
from pathlib import Path
from types import SimpleNamespace

import pandas as pd

from simkit.analysis import stats
from simkit.analysis.aggregate import Aggregate
from simkit.analysis.metrics import INTERVALS, measure
from simkit.files.atomic import replacing
from simkit.game.options import OPTIONS
from simkit.game.rules import Rules
from simkit.presentation import plots
from simkit.presentation.render import markdown_table, number, pct
from simkit.running import dataset as ds
from simkit.studies.directory import policies_named, recorded_commands, write_study_file, write_text
from simkit.studies.kind import Config, Results, Study, Tables

TERMINAL_WIDTH = 100
"""The columns a study's terminal table keeps each row within (Tables.terminal); summary.md has every column."""

ADVANTAGE_NOTE = (
    "advantage: team 0's share of the decided games minus its fair share, 95% CI in brackets; "
    "p (Holm): the test of advantage = 0, adjusted over the study"
)


def table_id(players: int, teams: int) -> str:
    """A table's name in an address: '8p2t' (summary.md's anchor of the table, the explorer's table=)."""
    return f"{players}p{teams}t"


TABLE_TEXT = re.compile(r"(\d+)p ?/ ?(\d+)t")
"""A table as the key tables write it: '8p / 2t' or '8p/2t'."""

EXPLORER = Path(__file__).resolve().parents[2] / "docs" / "explorer.md"
"""The explorer's page in the source tree (the documentation site's explorer.html)."""


def explorer_link(out: Path) -> str | None:
    """The link from a published study's summary.md (a folder of the source tree's results/) to the explorer's
    page; None for a study written anywhere else (the explorer shows the published ones only)."""
    if not EXPLORER.exists() or Path(out).resolve().parent != EXPLORER.parents[1] / "results":
        return None
    return Path(os.path.relpath(EXPLORER, Path(out).resolve())).as_posix()


def _tables(summary: pd.DataFrame) -> list[tuple[int, int]]:
    return sorted({(int(p), int(t)) for p, t in zip(summary["players"], summary["teams"])})


def anchored(key: pd.DataFrame, tables: list[tuple[int, int]]) -> pd.DataFrame:
    """The key table with an anchor (an id, 8p2t) in the first cell of each table's first row, so an address
    ending #8p2t opens summary.md there: by its column 'table', else at the first row (a study of one table)."""
    key = key.astype(str)
    marks: dict[str, int] = {}
    if "table" in key.columns:
        for i, text in enumerate(key["table"]):
            found = TABLE_TEXT.fullmatch(text.strip())
            if found:
                marks.setdefault(table_id(int(found[1]), int(found[2])), i)
    elif len(tables) == 1 and len(key):
        marks[table_id(*tables[0])] = 0
    for name, i in marks.items():
        key.iat[i, 0] = f'<a id="{name}"></a>{key.iat[i, 0]}'
    return key


def tables_line(name: str, tables: list[tuple[int, int]], explorer: str | None) -> str:
    """summary.md's line of its tables: each table's anchor on the page and, for a published study, the
    explorer's view of the study and of each table (its address's query: ?study=NAME&table=8p2t)."""
    here = " · ".join(f"[{p}p/{t}t](#{table_id(p, t)})" for p, t in tables)
    lines = [f"The tables on this page: {here}."]
    if explorer:
        view = f"{explorer}?study={name}"
        each = " · ".join(f"[{p}p/{t}t]({view}&table={table_id(p, t)})" for p, t in tables)
        lines.append(
            f"Every row of this study, with its interval, games, Holm status and the command that plays it, in "
            f"[the explorer]({view}): {each}."
        )
    return "\n".join(lines) + "\n"


def unfold_cells(r) -> dict[str, str]:
    """How a configuration's games unfold, as cells of a key table (a row of summary_frame): the comebacks, the
    turns after the first sequence and the lead changes per game, each with its 95% interval; '—' where the
    row has none (lead changes its dataset did not record, a summary.csv older than the columns)."""

    def cell(name: str, say) -> str:
        value, low, high = (getattr(r, f"{name}{end}", math.nan) for end in ("", "_low", "_high"))
        return say(value, low, high)

    return {
        UNFOLD_COLUMNS[0]: cell("comebacks", pct),
        UNFOLD_COLUMNS[1]: cell("closing_turns", number),
        UNFOLD_COLUMNS[2]: cell("lead_changes", lambda v, lo, hi: number(v, lo, hi, digits=3)),
    }


UNFOLD_COLUMNS = ("comebacks [95% CI]", "turns after the first sequence [95% CI]", "lead changes per game [95% CI]")
"""The key table's columns of unfold_cells."""

UNFOLD_NOTE = (
    "How the games unfold (`comebacks`, `closing_turns`, `lead_changes` in summary.csv): comebacks, of the decided "
    "games with a first sequence, the share that the team which completed it lost; turns after the first "
    "sequence, the mean over the games with one; lead changes per game, the times the lead in sequences passed "
    "from one team to another (— for a dataset of simkit before 0.6.0, which has none)."
)
"""summary.md's note on unfold_cells' columns, under a key table that has them."""


def summary_row(config: Config, agg: Aggregate) -> dict:
    """One configuration's row of summary.csv: configuration, team win rates and shares, metrics, the test
    of the first mover's advantage."""
    rules = config.rules
    row: dict = {"study_group": config.group, "label": config.label, **dict(config.facts)}
    row.update({name: OPTIONS[name].column_value(v) for name, v in rules.values().items()})
    row.update({"policies": config.lineup.spec, "swap_seats": config.lineup.swap_seats, "games": agg.games})
    wins = agg.wins()
    shares = stats.team_shares(wins)
    for t in range(3):
        rate = stats.proportion(int(wins[t]), agg.games) if t < rules.teams else stats.Estimate.undefined()
        share = shares[t] if t < rules.teams else stats.Estimate.undefined()
        row[f"win_rate_{t}"], row[f"win_rate_{t}_low"], row[f"win_rate_{t}_high"] = rate.value, rate.low, rate.high
        row[f"share_{t}"], row[f"share_{t}_low"], row[f"share_{t}_high"] = share.value, share.low, share.high
    gap = stats.max_gap(wins)
    row["max_gap"], row["max_gap_low"], row["max_gap_high"] = gap.value, gap.low, gap.high
    ends = agg.ends()
    row["draw_rate"] = agg.draws / agg.games
    row["stalemate_rate"] = ends[1] / agg.games
    row["turn_cap_rate"] = ends[2] / agg.games
    row["mean_turns"] = stats.mean_length(agg.length).value
    row["median_turns"] = stats.quantile(agg.length, 50)
    for name, est in measure(agg).items():
        row[name], row[f"{name}_low"], row[f"{name}_high"], row[f"{name}_n"] = est.value, est.low, est.high, est.n
    row["decided"] = agg.decided
    row["p_value"] = stats.first_mover_test(wins)
    row["turn_order"] = turn_order(rules) if rules.players > rules.teams else ""
    return row


def turn_order(rules: Rules) -> str:
    """'team 0: 1st,3rd; team 1: 2nd,4th': when each team's seats move (partner tables)."""
    return "; ".join(
        f"team {t}: " + ",".join(_ordinal(s + 1) for s in range(t, rules.players, rules.teams))
        for t in range(rules.teams)
    )


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


HEADLINE_LEVEL = 0.05
"""A shift is named in a summary's "What changes and where" when its Holm-adjusted p-value is below this."""


def _where(r) -> str:
    return f"{int(r.players)}p/{int(r.teams)}t, {r.policies}"


def _estimate(r, unit: str, scale: float) -> str:
    """'-6.25 pp [-6.40, -6.10] (2p/2t, greedy)' of a row (a frame's tuple or Series)."""
    if isinstance(r, pd.Series):  # (a Series' .shift is its method)
        r = SimpleNamespace(**r.to_dict())
    v, lo, hi, u = scale * r.shift, scale * r.low, scale * r.high, f" {unit}" if unit else ""
    return f"{v:+.2f}{u} [{lo:+.2f}, {hi:+.2f}] ({_where(r)})"


def what_changes(
    frame: pd.DataFrame,
    what: str,
    unit: str = "pp",
    scale: float = 100,
    family: int | None = None,
    heading: bool = True,
) -> str:
    """summary.md's "What changes and where": for each change (column `change`), where its shift survives the
    study's Holm correction (`p_holm` below HEADLINE_LEVEL), its smallest and largest surviving estimates with
    their 95% intervals (`shift`, `low`, `high`), the span of strong play's estimates when none of them
    survives, and where casual and strong play (`strength`) differ: strong play's shift minus a casual
    line-up's at one table, Holm-adjusted over the section's comparisons, the two shifts taken as independent
    although both line-ups play the study's seed (the sentence says by how much their shared deals could move
    those intervals, ``shared_deals``). `frame` has a row
    per shift: players, teams, policies, strength, games, change, shift, low, high, p_holm. The first paragraph
    gives each line-up's games and its widest shift interval (the study's resolution). family: the shifts
    Holm's correction was over (default: the frame's); heading: begin with the section's title."""
    if not len(frame):
        return ""
    resolution = []
    for spec, rows in frame.groupby("policies", sort=False):
        widest = scale * float(((rows["high"] - rows["low"]) / 2).max())
        resolution.append(
            f"{spec} ({rows['strength'].iloc[0]} play), {int(rows['games'].max()):,} games per configuration: "
            f"every shift within ±{widest:.2f}{' ' + unit if unit else ''}"
        )
    differences = casual_strong_differences(frame)
    lines = [
        *(["## What changes and where\n"] if heading else []),
        f"Each figure is an estimate, with its 95% interval, of the shift of {what}. A change is named at a table "
        "and line-up only where its shift survives Holm's correction over the study's "
        f"{family or len(frame)} shifts (adjusted p below {HEADLINE_LEVEL:g}). Resolution: "
        + "; ".join(resolution)
        + "."
        + shared_deals(differences)
        + "\n",
    ]
    for change, rows in frame.groupby("change", sort=False):
        shown = rows[rows["p_holm"] < HEADLINE_LEVEL].sort_values("shift")
        if not len(shown):
            lo, hi = rows.loc[rows["shift"].idxmin()], rows.loc[rows["shift"].idxmax()]
            text = (
                f"- **{change}**: no shift survives Holm in its {len(rows)} rows (a table and a line-up each); the "
                f"estimates run from {_estimate(lo, unit, scale)} to {_estimate(hi, unit, scale)}."
            )
        else:
            counts = ", ".join(
                f"{(shown['strength'] == k).sum()} of {(rows['strength'] == k).sum()} {k}"
                for k in ("casual", "strong")
                if (rows["strength"] == k).any()
            )
            first, last = shown.iloc[0], shown.iloc[-1]
            span = (
                f"{_estimate(first, unit, scale)}"
                if len(shown) == 1
                else f"from {_estimate(first, unit, scale)} to {_estimate(last, unit, scale)}"
            )
            text = (
                f"- **{change}**: a shift survives Holm in {len(shown)} of its {len(rows)} rows (a table and a "
                f"line-up each; {counts}): {span}."
            )
            strong = rows[rows["strength"] == "strong"]
            if len(strong) > 1 and not (strong["p_holm"] < HEADLINE_LEVEL).any():
                lo, hi = strong.loc[strong["shift"].idxmin()], strong.loc[strong["shift"].idxmax()]
                text += (
                    f" Strong play's estimates, none surviving, run from {_estimate(lo, unit, scale)} to "
                    f"{_estimate(hi, unit, scale)}."
                )
        text += _contrast(differences[differences["change"] == change], len(differences), unit, scale)
        lines.append(text)
    return "\n".join(lines) + "\n"


def casual_strong_differences(frame: pd.DataFrame) -> pd.DataFrame:
    """Strong play's shift minus each casual line-up's, per change and table where both were played: a row
    per comparison with change, players, teams, strong, casual (the line-ups), value, low, high (95%, the two
    shifts taken as independent), p and p_holm (Holm over every comparison of `frame`); shared, the most the
    two shifts can correlate through the deals they share, and moved, the most that could narrow or widen
    the interval (a fraction of its half-width).

    Every line-up of a study plays its seed, so game i of one line-up is dealt as game i of another: a
    line-up's n games share their deals with the first n of another's N >= n. A shift is a mean of per-game
    terms, so by Cauchy-Schwarz the two shifts' correlation is at most sqrt(n / N) (0.14 for 20,000 against
    1,000,000), and the difference's true standard error lies within sqrt(1 -/+ 2 r h_s h_c / (h_s^2 + h_c^2))
    of the one taken here (h: the two half-widths, r that bound); with n = N nothing bounds it (shared 1)."""
    rows = []
    for (change, players, teams), at in frame.groupby(["change", "players", "teams"], sort=False):
        for s in at[at["strength"] == "strong"].itertuples():
            for c in at[at["strength"] == "casual"].itertuples():
                value, low, high, p = stats.independent_difference(s.shift, s.low, s.high, c.shift, c.low, c.high)
                shared = math.sqrt(min(s.games, c.games) / max(s.games, c.games))
                hs, hc = (s.high - s.low) / 2, (c.high - c.low) / 2
                k = 2 * shared * hs * hc / (hs**2 + hc**2) if hs > 0 and hc > 0 else 0.0
                moved = max(math.sqrt(1 + k) - 1, 1 - math.sqrt(max(1 - k, 0.0)))
                rows.append(
                    dict(
                        change=change, players=players, teams=teams, strong=s.policies, casual=c.policies,
                        value=value, low=low, high=high, p=p, shared=shared, moved=moved,
                        games=(int(min(s.games, c.games)), int(max(s.games, c.games))),
                    )
                )  # fmt: skip
    columns = [
        "change",
        "players",
        "teams",
        "strong",
        "casual",
        "value",
        "low",
        "high",
        "p",
        "shared",
        "moved",
        "games",
    ]
    out = pd.DataFrame(rows, columns=columns)
    out["p_holm"] = stats.holm(out["p"]) if len(out) else []
    return out


def shared_deals(differences: pd.DataFrame) -> str:
    """The sentence on the intervals of strong play's shift minus casual play's (``casual_strong_differences``):
    they take the two shifts as independent, and how far the deals the line-ups share could move them."""
    if not len(differences):
        return ""
    worst = differences.loc[differences["moved"].idxmax()]
    n, big = worst["games"]
    if worst["shared"] >= 1:
        return (
            " Strong play's shift minus a casual line-up's takes the two as independent; the line-ups play the "
            "study's seed on as many games, so they share every deal and those intervals are only approximate."
        )
    return (
        " Strong play's shift minus a casual line-up's takes the two as independent; both line-ups play the "
        f"study's seed, so the {n:,} games of one share their deals with the first {n:,} of the other's {big:,}, "
        f"which correlates the two shifts by at most {worst['shared']:.2f} and could make such an interval up to "
        f"{100 * worst['moved']:.1f}% narrower or wider."
    )


def _contrast(d: pd.DataFrame, family: int, unit: str, scale: float) -> str:
    """Where casual and strong play differ for one change (comparisons `d`, from casual_strong_differences),
    or the largest difference when none survives Holm over the section's `family` comparisons."""
    if not len(d):
        return ""

    def said(r) -> str:
        u = f" {unit}" if unit else ""
        interval = f"{scale * r.value:+.2f}{u} [{scale * r.low:+.2f}, {scale * r.high:+.2f}]"
        return f"{int(r.players)}p/{int(r.teams)}t, {r.strong} minus {r.casual}: {interval}"

    shown = d[d["p_holm"] < HEADLINE_LEVEL]
    if len(shown):
        return (
            " Casual and strong play differ (strong play's shift minus casual play's, Holm over the section's "
            f"{family} comparisons) at " + "; ".join(said(r) for r in shown.itertuples()) + "."
        )
    largest = d.loc[d["value"].abs().idxmax()]
    return (
        " Casual and strong play differ at no table beyond Holm's correction over the section's "
        f"{family} comparisons; the largest difference, {said(SimpleNamespace(**largest.to_dict()))}."
    )


def summary_frame(configs: list[Config], results: Results) -> pd.DataFrame:
    """summary.csv's rows: one per configuration, with Holm's adjustment over the study's advantage tests."""
    rows = [summary_row(c, results.complete(c)) for c in configs]
    frame = pd.DataFrame(rows)
    frame["p_holm"] = stats.holm(frame["p_value"])
    return frame


def write_summary(
    study: Study,
    configs: list[Config],
    results: Results,
    out: Path,
    command: Sequence[str] | None = None,
    gone: Set[str] = frozenset(),
) -> Tables:
    """Write summary.csv, the extra tables, the plots, summary.md and study.json; the tables."""

    tables = study.kind.tables(study, configs, results)
    _write_csv(out / "summary.csv", tables.summary)
    for name, frame in tables.extra.items():
        _write_csv(out / f"{name}.csv", frame)
    figures = study.kind.figures(tables)
    for name, figure in figures.items():
        plots.save(figure, out / name)
    _remove_stale(out, {"summary.csv", *(f"{name}.csv" for name in tables.extra), *figures})
    commands = [c for c in recorded_commands(out, command) if not set(policies_named(c, study.kind)) <= gone]
    page = summary_markdown(study, tables, commands, list(figures), out.name, explorer_link(out))
    write_text(out / "summary.md", page)
    write_study_file(out, study, configs, commands)
    return tables


def _remove_stale(out: Path, written: set[str]) -> None:
    """Remove the tables and figures of `out` this summary no longer makes (its *.csv and *.png
    outside `written`): a figure left from an earlier summary would show what summary.md no longer
    says (a family whose searches are not on disk, a section gone)."""
    for path in sorted([*out.glob("*.csv"), *out.glob("*.png")]):
        if path.name not in written:
            path.unlink()


def summary_markdown(
    study: Study, tables: Tables, commands: list[str], figures: list[str], name: str = "", explorer: str | None = None
) -> str:
    """summary.md: the question, the commands that regenerate it, its tables (tables_line), the key table with an
    anchor at each table, the sections, the plots, notes. name: the study's folder, as the explorer names it;
    explorer: the link to the explorer's page (explorer_link)."""

    versions = ds.versions()
    lineups = "; ".join(f"{lineup}: {games:,} games per {study.kind.unit}" for lineup, games in study.lineups.items())
    regenerate = "\n".join(f"    {c}" for c in commands)
    parts = [
        f"# {study.kind.name} study: {study.kind.question}\n",
        f"Regenerate with (simkit {versions['simkit']}, kernel {ds.GAMES_STAMP}; seed {study.seed}; "
        f"{lineups}):\n\n{regenerate}\n\nEvery configuration's dataset is in its own folder here (not committed: "
        "the same commands re-create it exactly); `simkit report` reads any of them.\n",
    ]
    if tables.headline:
        parts.insert(1, tables.headline)
    shown = _tables(tables.summary) if len(tables.summary) else []
    if shown:
        parts.append(tables_line(name or study.kind.name, shown, explorer))
    if tables.key is not None:
        key = anchored(tables.key, shown)
        parts.append(markdown_table(list(key.columns), key.itertuples(index=False)))
    parts += tables.sections
    for name in figures:
        parts.append(f"![{name}]({name})\n")

    notes = [
        INTERVALS,
        *([UNFOLD_NOTE] if tables.key is not None and UNFOLD_COLUMNS[0] in tables.key.columns else []),
        *tables.notes,
        "The metrics are defined in docs/guide/reports.md, 'Metrics'; summary.csv has every number with its "
        "interval and the games behind it.",
    ]
    parts.append("\n".join(f"- {n}" for n in notes) + "\n")
    return "\n".join(parts)


def _write_csv(path: Path, frame: pd.DataFrame) -> None:
    """Write a table whole or not at all, its numbers to six significant figures."""
    with ds.writing(path), replacing(path) as tmp:
        frame.to_csv(tmp, index=False, float_format="%.6g")
