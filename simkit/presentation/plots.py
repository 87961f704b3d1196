"""The studies' figures: one function per figure, a summary DataFrame in, a matplotlib Figure out.

The caller saves them (``save``: PNG, 150 dpi, Agg backend). Every figure has
labelled axes with units, a legend, 95% error bars and, where a win rate is
shown, the fair share it should be compared with. Its title names the tables
it shows (``6p/2t``), so it reads on its own; each line-up keeps its marker and
its dash, so lines that coincide stay apart; an axis of whole numbers (cards,
settings) has whole-number ticks.

The rules card's evidence, the compensation searches and the confirmation, is drawn by
``simkit.presentation.compensation_plots`` with this module's markers, error bars and last touches.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, no screen

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from simkit.files.atomic import replacing
from simkit.game.options import HAND_SIZE

FAIR: dict[str, Any] = dict(color="0.35", linestyle="--", linewidth=1)
USUAL_HAND: dict[str, Any] = dict(color="0.55", linestyle="-.", linewidth=1.2, zorder=0, label="the table's usual hand")
"""The vertical line at a table's usual hand size (the rules'), in the hand-size figures."""
MARKERS = "osD^v<>"
DASHES: tuple[Any, ...] = (":", "-.", (0, (5, 2)), (0, (1, 3)), (0, (3, 1, 1, 1, 1, 1)))
"""Each line-up's dash for its vertical lines (marked too, at the top, by its marker): two at one place stay two."""


def tables_text(frame: pd.DataFrame) -> str:
    """The tables of a frame with players and teams columns, for a title: '6p/2t', '2p/2t and 3p/3t', or
    '10 tables, 2p/2t to 12p/3t'."""
    tables = sorted({(int(p), int(t)) for p, t in zip(frame["players"], frame["teams"])})
    names = [f"{p}p/{t}t" for p, t in tables]
    if len(names) <= 3:
        return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
    return f"{len(names)} tables, {names[0]} to {names[-1]}"


def lineup_line(ax, x: float, j: int, label: str | None) -> None:
    """Line-up j's vertical line at x: its colour and dash, and its marker at the top, each line-up's a little
    lower than the one before, so lines at one x stay told apart."""
    ax.axvline(x, color=f"C{j}", linestyle=DASHES[j % len(DASHES)], linewidth=1.2, label=label)
    ax.plot(
        [x],
        [0.97 - 0.05 * j],
        MARKERS[j % len(MARKERS)],
        color=f"C{j}",
        markersize=5,
        transform=ax.get_xaxis_transform(),
    )


def error_bars(value: pd.Series, low: pd.Series, high: pd.Series, scale: float = 100) -> np.ndarray:
    """(2, n) distances below and above each value, for errorbar's yerr."""
    return np.vstack([(value - low).to_numpy(), (high - value).to_numpy()]) * scale


def finish(fig: Figure, axes, grid: str = "both", legend_below: bool = False, order: Sequence[str] = ()) -> Figure:
    """The common last touches: a light grid, small legends, a tight layout.

    legend_below: one legend for the figure, under the plots (where the
    points fill the axes and a legend inside would hide some), else one per axes;
    its entries as first drawn, those named in `order` first and in its order.
    """
    for ax in axes:
        ax.grid(axis=grid, alpha=0.3)
        if not legend_below:
            ax.legend(fontsize=8)
    if legend_below:
        handles, labels = {}, []
        for ax in axes:
            for h, label in zip(*ax.get_legend_handles_labels()):
                if label not in handles:
                    handles[label] = h
                    labels.append(label)
        labels.sort(key=lambda label: order.index(label) if label in order else len(order))
        ncol = max(1, min(len(labels), int(fig.get_figwidth() / 2.5)))  # about 2.5 inches an entry
        fig.legend([handles[k] for k in labels], labels, loc="lower center", ncol=ncol, fontsize=8)
        height, rows = fig.get_figheight(), -(-len(labels) // ncol)  # inches: the legend and the title
        fig.tight_layout(rect=(0, (0.2 + 0.22 * rows) / height, 1, 1 - (0.35 / height if fig.get_suptitle() else 0)))
    else:
        fig.tight_layout()
    return fig


def points(ax, x, value, low, high, scale, marker, label, line=False):
    """Points with 95% error bars (value, low, high in proportions; shown times `scale`)."""
    ax.errorbar(
        x,
        scale * np.asarray(value, float),
        yerr=error_bars(pd.Series(value), pd.Series(low), pd.Series(high), scale),
        fmt=("-" if line else "") + marker,
        capsize=3,
        label=label,
        markersize=5,
    )


def first_player(summary: pd.DataFrame) -> Figure:
    """Team 0's edge at every table, one series per line-up: in percentage points over its fair share
    (left) and relative to its fair share (right), which compares two- and three-team tables."""
    tables = sorted({(int(p), int(t)) for p, t in zip(summary["players"], summary["teams"])})
    lineups = list(dict.fromkeys(summary["policies"]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8))
    width = 0.7 / max(len(lineups), 1)
    for j, lineup in enumerate(lineups):
        rows = summary[summary["policies"] == lineup]
        x = np.array([tables.index((int(p), int(t))) for p, t in zip(rows["players"], rows["teams"])])
        x = x + (j - (len(lineups) - 1) / 2) * width
        marker = MARKERS[j % len(MARKERS)]
        points(
            left, x, rows["advantage"], rows["advantage_low"], rows["advantage_high"], 100, marker, f"{lineup} (95% CI)"
        )
        points(
            right,
            x,
            rows["relative_advantage"],
            rows["relative_advantage_low"],
            rows["relative_advantage_high"],
            100,
            marker,
            f"{lineup} (95% CI)",
        )
    for ax in (left, right):
        ax.axhline(0, **FAIR, label="no advantage (fair share)")
        ax.set_xticks(range(len(tables)), [f"{p}p/{t}t" for p, t in tables], fontsize=8)
        ax.set_xlim(-0.6, len(tables) - 0.4)
        ax.set_xlabel("table (players / teams)")
    left.set_ylabel("team 0's share of decided games minus 1/teams (pp)")
    left.set_title("Advantage, in percentage points")
    right.set_ylabel("team 0's share of decided games / (1/teams) - 1 (%)")
    right.set_title("Relative advantage: as a share of the fair share")
    fig.suptitle(
        f"The first player's team at {tables_text(summary)}: its edge over its fair share of the games with a winner"
    )
    return finish(fig, (left, right), "y", legend_below=True)


def _sweep_series(advantage, length, rows: pd.DataFrame, lineup: str, j: int, n: int, step: float, **bars) -> None:
    """One line-up's sweep (rows by hand size): team 0's advantage on the axes `advantage`, the mean game length
    on `length`, each with its 95% interval; the j-th of n line-ups shifted by `step` cards beside the others,
    so the error bars do not hide one another. bars: matplotlib's errorbar options for the length."""
    x = rows["size"] + (j - (n - 1) / 2) * step
    marker = MARKERS[j % len(MARKERS)]
    label = f"{lineup} (95% CI)"
    low, high = rows["advantage_low"], rows["advantage_high"]
    points(advantage, x, rows["advantage"], low, high, 100, marker, label, line=True)
    length.errorbar(
        x,
        rows["duration"],
        yerr=error_bars(rows["duration"], rows["duration_low"], rows["duration_high"], 1),
        fmt=f"-{marker}",
        label=label,
        **bars,
    )


def hand_size(summary: pd.DataFrame) -> Figure:
    """Team 0's advantage (decided games) and the mean game length against the common hand size, the table's
    usual hand marked; at several tables, a panel of each for every table (hand_size_tables)."""
    sweep = summary[summary["study_group"] == "sweep"].copy()
    sweep["size"] = sweep["hand_size"].astype(int)
    if len({(int(p), int(t)) for p, t in zip(sweep["players"], sweep["teams"])}) > 1:
        return hand_size_tables(sweep)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    groups = list(sweep.groupby("policies", sort=False))
    for j, (lineup, rows) in enumerate(groups):
        _sweep_series(left, right, rows.sort_values("size"), lineup, j, len(groups), 0.08, capsize=3)
    for ax in (left, right):
        ax.axvline(HAND_SIZE[int(sweep["players"].iloc[0])], **USUAL_HAND)
    left.axhline(0, **FAIR, label="fair share (no advantage)")
    left.set_title("First player's team: its advantage")
    left.set_xlabel("cards in every hand")
    left.set_ylabel("team 0's advantage, decided games (pp)")
    right.set_title("Game length")
    right.set_xlabel("cards in every hand")
    right.set_ylabel("mean game length (turns)")
    for ax in (left, right):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.suptitle(f"Hand size at {tables_text(sweep)}: the same cards in every hand")
    return finish(fig, (left, right))


def hand_size_tables(sweep: pd.DataFrame) -> Figure:
    """The sweep at several tables: for each table, team 0's advantage (top block of panels) and the mean game
    length (bottom block) against the common hand size, one series per line-up with its 95% interval, the
    table's usual hand marked (a vertical line; its size in the title)."""
    tables = sorted({(int(p), int(t)) for p, t in zip(sweep["players"], sweep["teams"])})
    lineups = list(dict.fromkeys(sweep["policies"]))
    ncols = min(5, len(tables))
    block = -(-len(tables) // ncols)
    fig, axes = plt.subplots(2 * block, ncols, figsize=(3.3 * ncols, 2.7 * 2 * block + 1.2), squeeze=False)
    for i, (players, teams_) in enumerate(tables):
        top, bottom = axes[i // ncols, i % ncols], axes[block + i // ncols, i % ncols]
        at = sweep[(sweep["players"] == players) & (sweep["teams"] == teams_)]
        for j, lineup in enumerate(lineups):
            rows = at[at["policies"] == lineup].sort_values("size")
            if len(rows):
                _sweep_series(top, bottom, rows, lineup, j, len(lineups), 0.1, capsize=2, markersize=4, color=f"C{j}")
        top.axhline(0, **FAIR, label="fair share (no advantage)")
        for ax in (top, bottom):
            ax.axvline(HAND_SIZE[players], **USUAL_HAND)
        top.set_title(f"{players}p/{teams_}t: team 0's advantage (usual hand {HAND_SIZE[players]})", fontsize=9)
        top.set_ylabel("advantage (pp)", fontsize=8)
        bottom.set_title(f"{players}p/{teams_}t: game length", fontsize=9)
        bottom.set_ylabel("mean turns", fontsize=8)
        for ax in (top, bottom):
            ax.set_xlabel("cards in every hand", fontsize=8)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.tick_params(labelsize=8)
    used = [axes[b * block + i // ncols, i % ncols] for b in (0, 1) for i in range(len(tables))]
    for ax in axes.flat:
        if not any(ax is u for u in used):
            ax.set_visible(False)
    names = ", ".join(f"{p}p/{t}t" for p, t in tables)
    fig.suptitle(f"Hand size at {len(tables)} tables, {names}: the same cards in every hand", fontsize=10)
    return finish(fig, used, "both", legend_below=True)


def shifts(frame: pd.DataFrame, table: str) -> Figure:
    """Penalty and compensation: the shift of team 0's advantage (decided games) from the even game, with the
    interval its table uses (paired or unpaired, simkit.analysis.stats.shift), and for each line-up the shift that would
    cancel the even game's edge; `table` the table played (tables_text)."""
    frame = frame.reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(9, 0.55 * len(frame) + 1.8))
    y = np.arange(len(frame))[::-1]
    several = frame["policies"].nunique() > 1
    for j, (lineup, rows) in enumerate(frame.groupby("policies", sort=False)):
        colour = f"C{j}"
        ax.errorbar(
            100 * rows["shift"],
            y[rows.index],
            xerr=error_bars(rows["shift"], rows["shift_low"], rows["shift_high"]),
            fmt=MARKERS[j % len(MARKERS)],
            capsize=3,
            color=colour,
            label=f"{lineup} (95% CI)",
        )
        cancel = -100 * float(rows["even_advantage"].iloc[0])
        lineup_line(ax, cancel, j, f"{lineup}: the shift that cancels the even game's edge ({cancel:+.1f} pp)")
    ax.axvline(0, **FAIR, label="no change from the even game")
    ax.set_yticks(
        y,
        [f"{r.label} ({r.hand_size})" + (f", {r.policies}" if several else "") for r in frame.itertuples()],
        fontsize=8,
    )
    ax.set_xlabel("change in team 0's advantage, decided games (percentage points)")
    ax.set_title(f"Cards short and cards more at {table}: the shift from the even game")
    return finish(fig, (ax,), "x", legend_below=True)


def _shift_label(lineup: str, strength: str, note: str) -> str:
    """A shift figure's legend entry of one line-up: 'swift (strong play, 95% CI)' and a note."""
    return f"{lineup} ({strength} play, 95% CI){note}"


def shift_grid(
    frame: pd.DataFrame, what: str, title: str, scale: float = 100, unit: str = "pp", columns: int = 3
) -> Figure:
    """Every table at once: one panel per change (column `change`), `columns` panels a row, its tables along x,
    each line-up's shift (`shift`, `low`, `high`) with its 95% interval, casual play's line-ups beside strong
    play's at each table; a point is filled where its shift survives the study's Holm correction (`p_holm` below
    0.05), hollow where it does not. `frame` has players, teams, policies, strength, change, shift, low, high,
    p_holm (and, where panels differ, `what`: each change's y axis); `what` the y axis, `title` the figure's
    question (its tables are named after it)."""
    tables = sorted({(int(p), int(t)) for p, t in zip(frame["players"], frame["teams"])})
    changes = list(dict.fromkeys(frame["change"]))
    lineups = list(dict.fromkeys(frame["policies"]))
    strength = dict(zip(frame["policies"], frame["strength"]))
    hollow = " not surviving Holm"
    order = ["no shift"] + [_shift_label(lineup, strength[lineup], note) for lineup in lineups for note in ("", hollow)]
    ncols = min(columns, len(changes))
    nrows = -(-len(changes) // ncols)
    wide = max(4.2, 0.55 * len(tables) + 1.2)
    fig, axes = plt.subplots(nrows, ncols, figsize=(wide * ncols, 2.9 * nrows + 1.2), squeeze=False)
    width = 0.7 / max(len(lineups), 1)
    for ax, change in zip(axes.flat, changes):
        part = frame[frame["change"] == change]
        at = sorted({(int(p), int(t)) for p, t in zip(part["players"], part["teams"])})  # where it applies
        for j, lineup in enumerate(lineups):
            rows = part[part["policies"] == lineup]
            if not len(rows):
                continue
            x = np.array([at.index((int(p), int(t))) for p, t in zip(rows["players"], rows["teams"])], float)
            x += (j - (len(lineups) - 1) / 2) * width
            shown = (rows["p_holm"] < 0.05).to_numpy()
            kind = rows["strength"].iloc[0]
            for mask, face, note in ((shown, f"C{j}", ""), (~shown, "white", hollow)):
                if not mask.any():
                    continue
                ax.errorbar(
                    x[mask],
                    scale * rows["shift"].to_numpy()[mask],
                    yerr=error_bars(rows["shift"], rows["low"], rows["high"], scale)[:, mask],
                    fmt=MARKERS[j % len(MARKERS)],
                    markerfacecolor=face,
                    markersize=5,
                    capsize=2,
                    color=f"C{j}",
                    label=_shift_label(lineup, kind, note),
                )
        ax.axhline(0, **FAIR, label="no shift")
        ax.set_title(str(change), fontsize=9)
        ax.set_xticks(range(len(at)), [f"{p}p/{t}t" for p, t in at], fontsize=7, rotation=45)
        ax.set_xlim(-0.6, len(at) - 0.4)
        label = str(part["what"].iloc[0]) if "what" in part else (f"{what} ({unit})" if unit else what)
        ax.set_ylabel(label, fontsize=8)
        ax.tick_params(axis="y", labelsize=8)
    for ax in list(axes.flat)[len(changes) :]:
        ax.set_visible(False)
    named = (
        tables_text(frame)
        if len(tables) <= 3
        else f"{len(tables)} tables, {', '.join(f'{p}p/{t}t' for p, t in tables)}"
    )
    plays = "; ".join(
        f"{kind} play: {', '.join(dict.fromkeys(rows['policies']))}"
        for kind, rows in frame.groupby("strength", sort=False)
    )
    fig.suptitle(f"{title} at {named}\n({plays}; hollow: not surviving the study's Holm correction)", fontsize=10)
    return finish(fig, [a for a in axes.flat if a.get_visible()], "y", legend_below=True, order=order)


def teams(summary: pd.DataFrame) -> Figure:
    """Per variant: team 0's relative advantage (comparable between two and three teams), and stalemates."""
    labels = list(dict.fromkeys(summary["label"]))
    lineups = list(dict.fromkeys(summary["policies"]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    height = 0.7 / max(len(lineups), 1)
    for j, lineup in enumerate(lineups):
        rows = summary[summary["policies"] == lineup]
        y = len(labels) - 1 - np.array([labels.index(v) for v in rows["label"]]) + (j - (len(lineups) - 1) / 2) * height
        marker = MARKERS[j % len(MARKERS)]
        left.errorbar(
            100 * rows["relative_advantage"],
            y,
            xerr=error_bars(
                rows["relative_advantage"], rows["relative_advantage_low"], rows["relative_advantage_high"]
            ),
            fmt=marker,
            capsize=3,
            label=f"{lineup} (95% CI)",
        )
        right.errorbar(
            100 * rows["drawishness"],
            y,
            xerr=error_bars(rows["drawishness"], rows["drawishness_low"], rows["drawishness_high"]),
            fmt=marker,
            capsize=3,
            label=f"{lineup} (95% CI)",
        )
    left.axvline(0, **FAIR, label="fair share (no advantage)")
    left.set_yticks(range(len(labels))[::-1], labels, fontsize=8)
    left.set_xlabel("team 0's share of decided games / (1/teams) - 1 (%)")
    left.set_title("First player's team: relative advantage")
    right.set_xlabel("games ending in a stalemate (%)")
    right.set_title("Stalemates")
    fig.suptitle(f"Teams and sequences to win at {tables_text(summary)}")
    return finish(fig, (left, right), "x", legend_below=True)


def skill(ratings: pd.DataFrame, table: str) -> Figure:
    """Bradley-Terry ratings on the Elo scale with 95% intervals, the anchor = 0; `table` the table played
    (tables_text)."""
    r = ratings.sort_values("rating").reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(8, 0.6 * len(r) + 1.8))
    ax.errorbar(
        r["rating"],
        range(len(r)),
        xerr=error_bars(r["rating"], r["rating_low"], r["rating_high"], 1),
        fmt="o",
        capsize=3,
        label="rating (95% CI)",
    )
    ax.axvline(0, **FAIR, label=f"{r.loc[r['rating'].abs().idxmin(), 'policy']} (anchor, 0)")
    ax.set_yticks(range(len(r)), r["policy"], fontsize=8)
    ax.set_xlabel("rating (Elo points: +400 = 10 to 1 odds)")
    ax.set_title(f"Strength of each line-up at {table}, from a round robin with seats swapped")
    return finish(fig, (ax,), "x")


def save(figure: Figure, path: Path) -> None:
    """Write a figure as PNG (150 dpi, tight), whole or not at all, and free it."""

    with replacing(Path(path)) as tmp:
        figure.savefig(tmp, format="png", dpi=150, bbox_inches="tight", metadata={"Software": None})
    plt.close(figure)
