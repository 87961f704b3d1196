"""The studies' figures: one function per figure, a summary DataFrame in, a matplotlib Figure out.

The caller saves them (``save``: PNG, 150 dpi, Agg backend). Every figure has
labelled axes with units, a legend, 95% error bars and, where a win rate is
shown, the fair share it should be compared with.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no screen

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

FAIR = dict(color="0.35", linestyle="--", linewidth=1)
MARKERS = "osD^v<>"


def _errors(value: pd.Series, low: pd.Series, high: pd.Series, scale: float = 100) -> np.ndarray:
    """(2, n) distances below and above each value, for errorbar's yerr."""
    return np.vstack([(value - low).to_numpy(), (high - value).to_numpy()]) * scale


def _finish(fig: Figure, axes, grid: str = "both", legend_below: bool = False) -> Figure:
    """The common last touches: a light grid, small legends, a tight layout.

    legend_below: one legend for the figure, under the plots (where the
    points fill the axes and a legend inside would hide some), else one per axes.
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
        fig.legend([handles[k] for k in labels], labels, loc="lower center", ncol=len(labels), fontsize=8)
        fig.tight_layout(rect=(0, 0.07, 1, 1))
    else:
        fig.tight_layout()
    return fig


def _decided_share(summary: pd.DataFrame) -> tuple[pd.Series, pd.Series, pd.Series]:
    """Team 0's share of the decided games with its interval: fair share + advantage."""
    fair = 1 / summary["teams"]
    return fair + summary["advantage"], fair + summary["advantage_low"], fair + summary["advantage_high"]


def first_player(summary: pd.DataFrame) -> Figure:
    """Team 0's share of the decided games at every table, one series per line-up, against its fair share.

    Two panels: the two-team tables (fair share 50%) and the three-team tables (33.3%).
    """
    panels = [t for t in (2, 3) if (summary["teams"] == t).any()]
    sizes = [len(set(summary[summary["teams"] == t]["players"])) for t in panels]
    fig, axes = plt.subplots(1, len(panels), figsize=(11, 4.8), squeeze=False,
                             gridspec_kw={"width_ratios": sizes})
    lineups = list(dict.fromkeys(summary["policies"]))
    width = 0.7 / max(len(lineups), 1)
    for ax, teams in zip(axes[0], panels):
        part = summary[summary["teams"] == teams]
        tables = list(dict.fromkeys(part["players"]))
        for j, lineup in enumerate(lineups):
            rows = part[part["policies"] == lineup]
            x = np.array([tables.index(p) for p in rows["players"]]) + (j - (len(lineups) - 1) / 2) * width
            share, low, high = _decided_share(rows)
            ax.errorbar(x, 100 * share, yerr=_errors(share, low, high), fmt=MARKERS[j % len(MARKERS)],
                        capsize=3, label=f"{lineup} (95% CI)")
        ax.axhline(100 / teams, **FAIR, label=f"fair share ({100 / teams:.1f}%)")
        ax.set_xticks(range(len(tables)), [f"{p} players" for p in tables], fontsize=8)
        ax.set_xlim(-0.6, len(tables) - 0.4)
        ax.set_xlabel(f"table ({teams} teams)")
        ax.set_ylabel("team 0's share of decided games (%)")
        ax.set_title(f"{teams} teams")
    fig.suptitle("The first player's team: its share of the games with a winner, against its fair share")
    return _finish(fig, axes[0], "y", legend_below=True)


def hand_size(summary: pd.DataFrame) -> Figure:
    """Team 0's share of the decided games and the mean game length against the common hand size."""
    sweep = summary[summary["study_group"] == "sweep"].copy()
    sweep["size"] = sweep["hand_size"].astype(int)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    groups = list(sweep.groupby("policies", sort=False))
    for j, (lineup, rows) in enumerate(groups):
        rows = rows.sort_values("size")
        x = rows["size"] + (j - (len(groups) - 1) / 2) * 0.08  # side by side, so the error bars do not hide
        share, low, high = _decided_share(rows)
        marker = MARKERS[j % len(MARKERS)]
        left.errorbar(x, 100 * share, yerr=_errors(share, low, high), fmt=f"-{marker}", capsize=3,
                      label=f"{lineup} (95% CI)")
        right.errorbar(x, rows["duration"], yerr=_errors(rows["duration"], rows["duration_low"],
                                                         rows["duration_high"], 1),
                       fmt=f"-{marker}", capsize=3, label=f"{lineup} (95% CI)")
    teams = int(sweep["teams"].iloc[0])
    left.axhline(100 / teams, **FAIR, label=f"fair share ({100 / teams:.1f}%)")
    players = int(sweep["players"].iloc[0])
    left.set_title(f"{players} players, {teams} teams: first player's team")
    left.set_xlabel("cards in every hand")
    left.set_ylabel("team 0's share of decided games (%)")
    right.set_title("Game length")
    right.set_xlabel("cards in every hand")
    right.set_ylabel("mean game length (turns)")
    return _finish(fig, (left, right))


def shifts(frame: pd.DataFrame) -> Figure:
    """Penalty and compensation: the shift of team 0's win rate from the even game, with intervals."""
    frame = frame.reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(9, 0.55 * len(frame) + 1.6))
    y = np.arange(len(frame))[::-1]
    for j, (lineup, rows) in enumerate(frame.groupby("policies", sort=False)):
        ax.errorbar(100 * rows["shift"], y[rows.index], xerr=_errors(rows["shift"], rows["shift_low"],
                                                                    rows["shift_high"]),
                    fmt=MARKERS[j % len(MARKERS)], capsize=3, label=f"{lineup} (95% CI)")
    ax.axvline(0, **FAIR, label="no change from the even game")
    ax.set_yticks(y, [f"{r.label} ({r.hand_size})" for r in frame.itertuples()], fontsize=8)
    ax.set_xlabel("change in team 0's win rate (percentage points)")
    ax.set_title("Cards short and cards more: the shift from the even game")
    return _finish(fig, (ax,), "x")


def teams(summary: pd.DataFrame) -> Figure:
    """Per variant: team 0's advantage over its fair share (two and three teams on one scale), and stalemates."""
    labels = list(dict.fromkeys(summary["label"]))
    lineups = list(dict.fromkeys(summary["policies"]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    height = 0.7 / max(len(lineups), 1)
    for j, lineup in enumerate(lineups):
        rows = summary[summary["policies"] == lineup]
        y = len(labels) - 1 - np.array([labels.index(v) for v in rows["label"]]) + (j - (len(lineups) - 1) / 2) * height
        marker = MARKERS[j % len(MARKERS)]
        left.errorbar(100 * rows["advantage"], y, xerr=_errors(rows["advantage"], rows["advantage_low"],
                                                               rows["advantage_high"]),
                      fmt=marker, capsize=3, label=f"{lineup} (95% CI)")
        right.errorbar(100 * rows["drawishness"], y, xerr=_errors(rows["drawishness"], rows["drawishness_low"],
                                                                  rows["drawishness_high"]),
                       fmt=marker, capsize=3, label=f"{lineup} (95% CI)")
    left.axvline(0, **FAIR, label="fair share (no advantage)")
    left.set_yticks(range(len(labels))[::-1], labels, fontsize=8)
    left.set_xlabel("team 0's share of decided games minus 1/teams (percentage points)")
    left.set_title("First player's team: advantage over its fair share")
    right.set_xlabel("games ending in a stalemate (%)")
    right.set_title("Stalemates")
    return _finish(fig, (left, right), "x", legend_below=True)


def skill(ratings: pd.DataFrame) -> Figure:
    """Bradley-Terry ratings on the Elo scale with 95% intervals, random = 0."""
    r = ratings.sort_values("rating").reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(8, 0.6 * len(r) + 1.8))
    ax.errorbar(r["rating"], range(len(r)), xerr=_errors(r["rating"], r["rating_low"], r["rating_high"], 1),
                fmt="o", capsize=3, label="rating (95% CI)")
    ax.axvline(0, **FAIR, label=f"{r.loc[r['rating'].abs().idxmin(), 'policy']} (anchor, 0)")
    ax.set_yticks(range(len(r)), r["policy"], fontsize=8)
    ax.set_xlabel("rating (Elo points: +400 = 10 to 1 odds)")
    ax.set_title("Strength of each line-up, from a round robin with seats swapped")
    return _finish(fig, (ax,), "x")


def study_figures(kind: str, summary: pd.DataFrame, extra: dict[str, pd.DataFrame]) -> dict[str, Figure]:
    """The figures of a study, by file name."""
    if kind == "first-player":
        return {"first_player.png": first_player(summary)}
    if kind == "hand-size":
        figures = {"hand_size.png": hand_size(summary)}
        if len(extra.get("shifts", [])):
            figures["hand_size_shifts.png"] = shifts(extra["shifts"])
        return figures
    if kind == "teams":
        return {"teams.png": teams(summary)}
    if kind == "skill":
        return {"skill.png": skill(extra["ratings"])}
    return {}


def save(figure: Figure, path: Path) -> None:
    """Write a figure as PNG (150 dpi, tight), whole or not at all, and free it."""
    from simkit.atomic import replacing

    with replacing(Path(path)) as tmp:
        figure.savefig(tmp, format="png", dpi=150, bbox_inches="tight", metadata={"Software": None})
    plt.close(figure)
