"""The studies' figures: one function per figure, a summary DataFrame in, a matplotlib Figure out.

The caller saves them (``save``: PNG, 150 dpi, Agg backend). Every figure has
labelled axes with units, a legend, 95% error bars and, where a win rate is
shown, the fair share it should be compared with. Its title names the tables
it shows (``6p/2t``), so it reads on its own; each line-up keeps its marker and
its dash, so lines that coincide stay apart; an axis of whole numbers (cards,
settings) has whole-number ticks.

One module for every figure, as each is a short function of the same kind and style.
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


def _vline(ax, x: float, j: int, label: str | None) -> None:
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


def _knobs(setting) -> tuple[int, int]:
    """A compensation setting as summary.csv writes it ('9' or '9,3') -> (team 0's knob, team 1's or 0)."""
    values = [int(x) for x in str(setting).split(",")]
    return values[0], values[1] if len(values) > 1 else 0


def _errors(value: pd.Series, low: pd.Series, high: pd.Series, scale: float = 100) -> np.ndarray:
    """(2, n) distances below and above each value, for errorbar's yerr."""
    return np.vstack([(value - low).to_numpy(), (high - value).to_numpy()]) * scale


def _finish(fig: Figure, axes, grid: str = "both", legend_below: bool = False, order: Sequence[str] = ()) -> Figure:
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


def _series(ax, x, value, low, high, scale, marker, label, line=False):
    """Points with 95% error bars (value, low, high in proportions; shown times `scale`)."""
    ax.errorbar(
        x,
        scale * np.asarray(value, float),
        yerr=_errors(pd.Series(value), pd.Series(low), pd.Series(high), scale),
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
        _series(
            left, x, rows["advantage"], rows["advantage_low"], rows["advantage_high"], 100, marker, f"{lineup} (95% CI)"
        )
        _series(
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
    return _finish(fig, (left, right), "y", legend_below=True)


def _sweep_series(advantage, length, rows: pd.DataFrame, lineup: str, j: int, n: int, step: float, **bars) -> None:
    """One line-up's sweep (rows by hand size): team 0's advantage on the axes `advantage`, the mean game length
    on `length`, each with its 95% interval; the j-th of n line-ups shifted by `step` cards beside the others,
    so the error bars do not hide one another. bars: matplotlib's errorbar options for the length."""
    x = rows["size"] + (j - (n - 1) / 2) * step
    marker = MARKERS[j % len(MARKERS)]
    label = f"{lineup} (95% CI)"
    low, high = rows["advantage_low"], rows["advantage_high"]
    _series(advantage, x, rows["advantage"], low, high, 100, marker, label, line=True)
    length.errorbar(
        x,
        rows["duration"],
        yerr=_errors(rows["duration"], rows["duration_low"], rows["duration_high"], 1),
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
    return _finish(fig, (left, right))


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
    return _finish(fig, used, "both", legend_below=True)


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
            xerr=_errors(rows["shift"], rows["shift_low"], rows["shift_high"]),
            fmt=MARKERS[j % len(MARKERS)],
            capsize=3,
            color=colour,
            label=f"{lineup} (95% CI)",
        )
        cancel = -100 * float(rows["even_advantage"].iloc[0])
        _vline(ax, cancel, j, f"{lineup}: the shift that cancels the even game's edge ({cancel:+.1f} pp)")
    ax.axvline(0, **FAIR, label="no change from the even game")
    ax.set_yticks(
        y,
        [f"{r.label} ({r.hand_size})" + (f", {r.policies}" if several else "") for r in frame.itertuples()],
        fontsize=8,
    )
    ax.set_xlabel("change in team 0's advantage, decided games (percentage points)")
    ax.set_title(f"Cards short and cards more at {table}: the shift from the even game")
    return _finish(fig, (ax,), "x", legend_below=True)


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
                    yerr=_errors(rows["shift"], rows["low"], rows["high"], scale)[:, mask],
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
    return _finish(fig, [a for a in axes.flat if a.get_visible()], "y", legend_below=True, order=order)


def confirmation(verdicts: pd.DataFrame) -> Figure:
    """The confirmatory verdicts: team 0's advantage under each table's rule with its family-adjusted
    interval (simkit.studies.confirmation), against the margin of its strength."""
    frame = verdicts.reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(9, 0.4 * len(frame) + 2.0))
    y = np.arange(len(frame))[::-1]
    width = f"{100 * (1 - 2 * float(frame['level'].iloc[0])):.2f}%" if len(frame) else ""
    for j, (strength, rows) in enumerate(frame.groupby("strength", sort=False)):
        colour = f"C{j}"
        margin = 100 * float(rows["margin"].iloc[0])
        ax.errorbar(
            100 * rows["advantage"],
            y[rows.index],
            xerr=_errors(rows["advantage"], rows["advantage_low"], rows["advantage_high"]),
            fmt=MARKERS[j % len(MARKERS)],
            capsize=3,
            color=colour,
            label=f"{strength} play ({rows['lineup'].iloc[0]}), {width} interval",
        )
        for side in (-margin, margin):
            ax.axvline(
                side,
                color=colour,
                linestyle=":",
                linewidth=1.2,
                label=f"{strength} margin ±{margin:g} pp" if side > 0 else None,
            )
    ax.axvline(0, **FAIR, label="no edge")
    ax.set_yticks(
        y, [f"{r.players}p/{r.teams}t {r.strength}: {r.rule}{_verdict_note(r)}" for r in frame.itertuples()], fontsize=8
    )
    ax.set_xlabel("team 0's advantage, decided games (percentage points)")
    ax.set_title(
        f"The confirmation's verdicts at {tables_text(frame)}: each rule's edge and its interval (gaps not drawn)"
    )
    return _finish(fig, (ax,), "x", legend_below=True)


def _verdict_note(row) -> str:
    """A verdict the drawn interval alone would not tell: ' (not fair)', or for a rule Holm passed at a later
    step than the interval's (its first) while the interval reaches past the margin, ' (fair: Holm, later step)'."""
    if not row.fair:
        return " (not fair)"
    if row.advantage_low < -row.margin or row.advantage_high > row.margin:
        return " (fair: Holm, later step)"
    return ""


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
            xerr=_errors(rows["relative_advantage"], rows["relative_advantage_low"], rows["relative_advantage_high"]),
            fmt=marker,
            capsize=3,
            label=f"{lineup} (95% CI)",
        )
        right.errorbar(
            100 * rows["drawishness"],
            y,
            xerr=_errors(rows["drawishness"], rows["drawishness_low"], rows["drawishness_high"]),
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
    return _finish(fig, (left, right), "x", legend_below=True)


def compensation(summary: pd.DataFrame, verdicts: pd.DataFrame, family: str) -> Figure:
    """One family: team 0's advantage against the knob at each table, search settings, a refinement's
    settings (hollow, beside them) and the confirmation, with the fitted crossing and the ±0.5 pp band (±1 pp for
    a strong player). A check of an answer by another line-up is not drawn."""
    rows = summary[(summary["family"] == family) & summary["role"].isin(["search", "refinement", "confirmation"])]
    tables = sorted({(int(p), int(t)) for p, t in zip(rows["players"], rows["teams"])})
    ncols = min(5, len(tables))
    nrows = -(-len(tables) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.4 * ncols, 3.0 * nrows + 0.8), squeeze=False)
    lineups = list(dict.fromkeys(rows["policies"]))
    for ax, (players, teams_) in zip(axes.flat, tables):
        at = rows[(rows["players"] == players) & (rows["teams"] == teams_)]
        h1 = ""  # two knobs (three teams): the settings with team 1's knob at its chosen value
        for j, lineup in enumerate(lineups):
            part = at[at["policies"] == lineup]
            confirm = part[part["role"] == "confirmation"]
            search, refined = (_at_h1(part[part["role"] == role], confirm) for role in ("search", "refinement"))
            if len(confirm) and any(_knobs(v)[1] for v in part["setting"]):
                h1 += f"{'; ' if h1 else ''}{lineup} H1 = {_knobs(confirm['setting'].iloc[0])[1]}"
            _series(
                ax,
                search["x"],
                search["advantage"],
                search["advantage_low"],
                search["advantage_high"],
                100,
                MARKERS[j % len(MARKERS)],
                f"{lineup}: search (95% CI)",
            )
            if len(refined):
                ax.errorbar(
                    refined["x"] - 0.3,
                    100 * refined["advantage"],
                    yerr=_errors(refined["advantage"], refined["advantage_low"], refined["advantage_high"]),
                    fmt=MARKERS[j % len(MARKERS)],
                    markerfacecolor="white",
                    markersize=5,
                    capsize=2,
                    color=f"C{j}",
                    label=f"{lineup}: refinement (fresh seed)",
                )
            if len(confirm):
                x = [_knobs(v)[0] + 0.35 for v in confirm["setting"]]  # beside its search point
                ax.errorbar(
                    x,
                    100 * confirm["advantage"],
                    yerr=_errors(confirm["advantage"], confirm["advantage_low"], confirm["advantage_high"]),
                    fmt="*",
                    markersize=11,
                    capsize=3,
                    color=f"C{j}",
                    label=f"{lineup}: confirmation",
                )
            v = (
                verdicts[
                    (verdicts["family"] == family)
                    & (verdicts["players"] == players)
                    & (verdicts["teams"] == teams_)
                    & (verdicts["policies"] == lineup)
                ]
                if len(verdicts)
                else verdicts  # empty
            )
            if len(v) and np.isfinite(v["crossing"].iloc[0]):
                _vline(ax, v["crossing"].iloc[0], j, f"{lineup}: fitted crossing")
        if any(lu not in ("random", "greedy") for lu in at["policies"]):  # a strong player's band, then greedy's
            ax.axhspan(-1.0, 1.0, color="0.93", alpha=0.6, label="±1 pp (a strong player's target)")
        ax.axhspan(-0.5, 0.5, color="0.85", alpha=0.6, label="±0.5 pp (greedy's target)")
        ax.axhline(0, **FAIR)
        ax.set_title(f"{players} players, {teams_} teams", fontsize=9)
        ax.set_xlabel(f"{family} setting" + (f"\n(team 0's H; {h1})" if h1 else ""), fontsize=8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("team 0's advantage, decided games (pp)", fontsize=8)
        ax.tick_params(labelsize=8)
    for ax in list(axes.flat)[len(tables) :]:
        ax.set_visible(False)
    fig.suptitle(f"Compensation by {family} at {tables_text(rows)}: team 0's advantage against the knob")
    return _finish(fig, [a for a in axes.flat if a.get_visible()], "y", legend_below=True)


def _at_h1(rows: pd.DataFrame, confirm: pd.DataFrame) -> pd.DataFrame:
    """Search or refinement rows with x (team 0's knob), sorted; with two knobs, those at the confirmed
    setting's H1 only."""
    rows = rows.copy()
    knobs = [_knobs(v) for v in rows["setting"]]
    rows["x"] = [k[0] for k in knobs]
    if len(confirm):
        c1 = _knobs(confirm["setting"].iloc[0])[1]
        rows = rows[np.array([k[1] == c1 for k in knobs], bool)]
    return rows.sort_values("x")


def compensation_shares(summary: pd.DataFrame, verdicts: pd.DataFrame) -> Figure:
    """Three-team tables: every team's share of the decided games against each knob (a refinement's settings
    hollow, beside them), the confirmation beside the chosen setting, with the fair share. A family with two knobs
    (handicap H0,H1) gets two panels: against H0 with H1 at its chosen value, and against H1 with H0 at its chosen
    value."""
    rows = summary[(summary["teams"] == 3) & summary["role"].isin(["search", "refinement", "confirmation"])].copy()
    knobs = [_knobs(v) for v in rows["setting"]]
    rows["h0"], rows["h1"] = [k[0] for k in knobs], [k[1] for k in knobs]
    panels = []  # (title, search rows, refinement rows, knob index, confirmation rows, chosen x)
    for players, family, lineup in dict.fromkeys(zip(rows["players"], rows["family"], rows["policies"])):
        part = rows[(rows["players"] == players) & (rows["family"] == family) & (rows["policies"] == lineup)]
        search, refined = part[part["role"] == "search"], part[part["role"] == "refinement"]
        confirm = part[part["role"] == "confirmation"]
        c0, c1 = _knobs(confirm["setting"].iloc[0]) if len(confirm) else (0, 0)
        name = "H0" if family == "handicap" else "K"
        panels.append(
            (
                f"{players}p/3t, {lineup}, {family}: against {name}" + (f" (H1 = {c1})" if c1 else ""),
                search[search["h1"] == c1].sort_values("h0"),
                refined[refined["h1"] == c1].sort_values("h0"),
                "h0",
                confirm,
                c0,
            )
        )
        if (search["h1"] > 0).any():
            panels.append(
                (
                    f"{players}p/3t, {lineup}, {family}: against H1 (H0 = {c0})",
                    search[search["h0"] == c0].sort_values("h1"),
                    refined[refined["h0"] == c0].sort_values("h1"),
                    "h1",
                    confirm,
                    c1,
                )
            )
    ncols = min(4, len(panels))
    nrows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.4 * ncols, 3.4 * nrows + 0.8), squeeze=False)
    for ax, (title, line, refined, knob, confirm, chosen) in zip(axes.flat, panels):
        for t in range(3):
            _series(
                ax,
                line[knob] + (t - 1) * 0.15,
                line[f"share_{t}"],
                line[f"share_{t}_low"],
                line[f"share_{t}_high"],
                100,
                MARKERS[t],
                f"team {t}, search (95% CI)",
            )
            if len(refined):
                ax.errorbar(
                    refined[knob] - 0.45 + (t - 1) * 0.15,
                    100 * refined[f"share_{t}"],
                    yerr=_errors(refined[f"share_{t}"], refined[f"share_{t}_low"], refined[f"share_{t}_high"]),
                    fmt=MARKERS[t],
                    markerfacecolor="white",
                    markersize=5,
                    capsize=2,
                    color=f"C{t}",
                    label=f"team {t}, refinement (fresh seed)",
                )
            if len(confirm):
                ax.errorbar(
                    [chosen + 0.45 + (t - 1) * 0.15],
                    100 * confirm[f"share_{t}"],
                    yerr=_errors(confirm[f"share_{t}"], confirm[f"share_{t}_low"], confirm[f"share_{t}_high"]),
                    fmt="*",
                    markersize=10,
                    capsize=3,
                    color=f"C{t}",
                    label=f"team {t}, confirmation",
                )
        ax.axhline(100 / 3, **FAIR, label="fair share (33.3%)")
        ax.set_title(title, fontsize=8)
        ax.set_xlabel(knob.upper() if knob == "h1" else "team 0's setting", fontsize=8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("share of decided games (%)", fontsize=8)
        ax.tick_params(labelsize=8)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    fig.suptitle(
        f"Three teams at {tables_text(rows)}: every team's share of the decided games against the compensation"
    )
    return _finish(fig, [a for a in axes.flat if a.get_visible()], "y", legend_below=True)


def skill(ratings: pd.DataFrame, table: str) -> Figure:
    """Bradley-Terry ratings on the Elo scale with 95% intervals, the anchor = 0; `table` the table played
    (tables_text)."""
    r = ratings.sort_values("rating").reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(8, 0.6 * len(r) + 1.8))
    ax.errorbar(
        r["rating"],
        range(len(r)),
        xerr=_errors(r["rating"], r["rating_low"], r["rating_high"], 1),
        fmt="o",
        capsize=3,
        label="rating (95% CI)",
    )
    ax.axvline(0, **FAIR, label=f"{r.loc[r['rating'].abs().idxmin(), 'policy']} (anchor, 0)")
    ax.set_yticks(range(len(r)), r["policy"], fontsize=8)
    ax.set_xlabel("rating (Elo points: +400 = 10 to 1 odds)")
    ax.set_title(f"Strength of each line-up at {table}, from a round robin with seats swapped")
    return _finish(fig, (ax,), "x")


def save(figure: Figure, path: Path) -> None:
    """Write a figure as PNG (150 dpi, tight), whole or not at all, and free it."""

    with replacing(Path(path)) as tmp:
        figure.savefig(tmp, format="png", dpi=150, bbox_inches="tight", metadata={"Software": None})
    plt.close(figure)
