"""The figures of the rules card's evidence: the compensation study's searches (``compensation``,
``compensation_shares``) and the confirmation's verdicts (``confirmation``), drawn as every study figure is
(``simkit.presentation.plots``: its markers, error bars and last touches)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from simkit.presentation.plots import FAIR, MARKERS, error_bars, finish, lineup_line, points, tables_text


def _knobs(setting) -> tuple[int, int]:
    """A compensation setting as summary.csv writes it ('9' or '9,3') -> (team 0's knob, team 1's or 0)."""
    values = [int(x) for x in str(setting).split(",")]
    return values[0], values[1] if len(values) > 1 else 0


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
            xerr=error_bars(rows["advantage"], rows["advantage_low"], rows["advantage_high"]),
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
    return finish(fig, (ax,), "x", legend_below=True)


def _verdict_note(row) -> str:
    """A verdict the drawn interval alone would not tell: ' (not fair)', or for a rule Holm passed at a later
    step than the interval's (its first) while the interval reaches past the margin, ' (fair: Holm, later step)'."""
    if not row.fair:
        return " (not fair)"
    if row.advantage_low < -row.margin or row.advantage_high > row.margin:
        return " (fair: Holm, later step)"
    return ""


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
            points(
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
                    yerr=error_bars(refined["advantage"], refined["advantage_low"], refined["advantage_high"]),
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
                    yerr=error_bars(confirm["advantage"], confirm["advantage_low"], confirm["advantage_high"]),
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
                lineup_line(ax, v["crossing"].iloc[0], j, f"{lineup}: fitted crossing")
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
    return finish(fig, [a for a in axes.flat if a.get_visible()], "y", legend_below=True)


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
            points(
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
                    yerr=error_bars(refined[f"share_{t}"], refined[f"share_{t}_low"], refined[f"share_{t}_high"]),
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
                    yerr=error_bars(confirm[f"share_{t}"], confirm[f"share_{t}_low"], confirm[f"share_{t}_high"]),
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
    return finish(fig, [a for a in axes.flat if a.get_visible()], "y", legend_below=True)
