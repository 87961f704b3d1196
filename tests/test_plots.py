"""The studies' figures read on their own (simkit.presentation.plots and compensation_plots): each title names
the tables it shows, lines that coincide stay told apart, and an axis of whole numbers has whole-number ticks.
Drawn from the published studies' own files, nothing played."""

from __future__ import annotations

from pathlib import Path

import matplotlib.colors
import numpy as np
import pandas as pd
import pytest

from simkit.presentation import compensation_plots, plots
from simkit.studies import variants

RESULTS = Path(__file__).resolve().parents[1] / "results"


def csv(path: str) -> pd.DataFrame:
    return pd.read_csv(RESULTS / path)


def titles(fig) -> str:
    """The figure's title and every axes' title, in one text."""
    said = [fig.get_suptitle(), *(ax.get_title() for ax in fig.axes)]
    plots.plt.close(fig)
    return " | ".join(said)


def at_2p(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of a published study at 2p/2t: what a study played at one table draws."""
    return frame[(frame["players"].astype(int) == 2) & (frame["teams"].astype(int) == 2)]


FIGURES = {
    "first_player": (lambda: plots.first_player(csv("first-player/summary.csv")), "10 tables, 2p/2t to 12p/3t"),
    "hand_size": (lambda: plots.hand_size(csv("hand-size/summary.csv")), "10 tables, 2p/2t, 3p/3t"),
    "shifts": (lambda: plots.shifts(at_2p(csv("hand-size/shifts.csv")), "2p/2t"), "2p/2t"),
    "teams": (lambda: plots.teams(csv("teams/summary.csv")), "8 tables, 2p/2t to 12p/3t"),
    "variants": (lambda: variants.effects_figure(csv("variants/shifts.csv")), "10 tables, 2p/2t, 3p/3t"),
    "confirmation": (
        lambda: compensation_plots.confirmation(csv("confirmation/verdicts.csv")),
        "10 tables, 2p/2t to 12p/3t",
    ),
    "compensation": (
        lambda: compensation_plots.compensation(
            csv("compensation/summary.csv"), csv("compensation/verdicts.csv"), "late_card"
        ),
        "10 tables, 2p/2t to 12p/3t",
    ),
    "compensation_shares": (
        lambda: compensation_plots.compensation_shares(
            csv("compensation/summary.csv"), csv("compensation/verdicts.csv")
        ),
        "3p/3t",
    ),
    "skill": (lambda: plots.skill(csv("skill/ratings.csv"), plots.tables_text(csv("skill/summary.csv"))), "2p/2t"),
}


def test_tables_text_names_one_a_few_or_a_range():
    frame = pd.DataFrame({"players": [6, 2, 6, 3], "teams": [2, 2, 2, 3]})
    assert plots.tables_text(frame.iloc[[0]]) == "6p/2t"
    assert plots.tables_text(frame.iloc[[0, 1]]) == "2p/2t and 6p/2t"
    assert plots.tables_text(frame) == "2p/2t, 3p/3t and 6p/2t"
    more = pd.DataFrame({"players": [2, 3, 4, 6, 12], "teams": [2, 3, 2, 2, 3]})
    assert plots.tables_text(more) == "5 tables, 2p/2t to 12p/3t"


@pytest.mark.parametrize("name", list(FIGURES))
def test_every_figure_names_its_tables_in_its_title(name):
    make, tables = FIGURES[name]
    assert tables in titles(make())


def test_the_hand_size_axis_has_whole_cards():
    """Two hand sizes (4 and 5 cards) were ticked at 4.2, 4.4, ... cards."""
    summary = csv("hand-size/summary.csv")
    sweep = summary[(summary["study_group"] == "sweep") & summary["hand_size"].isin(["4", "5"])]
    fig = plots.hand_size(pd.concat([sweep, summary[summary["study_group"] != "sweep"]]))
    for ax in fig.axes:
        ticks = ax.get_xticks()
        assert len(ticks) and np.allclose(ticks, np.round(ticks)), ticks
    plots.plt.close(fig)


def test_two_line_ups_whose_lines_coincide_stay_told_apart():
    """greedy and a line-up whose even game's edge is greedy's: each line its own dash and its own marker."""
    shifts = at_2p(csv("hand-size/shifts.csv"))
    twin = shifts[shifts["policies"] == "greedy"].assign(policies="fast")  # a line-up the study did not play
    fig = plots.shifts(pd.concat([shifts, twin], ignore_index=True), "2p/2t")
    ax = fig.axes[0]
    cancel = -100 * float(shifts.loc[shifts["policies"] == "greedy", "even_advantage"].iloc[0])
    lines = [line for line in ax.get_lines() if np.allclose(line.get_xdata(), cancel)]
    vertical = [line for line in lines if np.asarray(line.get_xdata()).size == 2]  # axvline: two points
    assert len(vertical) == 2 and vertical[0].get_linestyle() != vertical[1].get_linestyle()
    marks = [
        line for line in lines if np.asarray(line.get_xdata()).size == 1 and line.get_marker() not in (None, "None", "")
    ]
    assert len({line.get_marker() for line in marks}) == 2  # one marker each, at the top
    assert len({matplotlib.colors.to_hex(line.get_color()) for line in marks}) == 2
    assert len({float(np.asarray(line.get_ydata())[0]) for line in marks}) == 2  # one a little below the other
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert any(label.endswith(", swift") for label in labels) and any(label.endswith(", greedy") for label in labels)
    plots.plt.close(fig)


def test_the_confirmation_figure_says_a_verdict_its_interval_does_not_show():
    """A rule not fair, and a rule Holm passed at a later step while its drawn (first-step) interval reaches
    past its margin, say so beside their name; a rule whose interval lies inside says nothing more."""
    from types import SimpleNamespace

    from simkit.presentation.compensation_plots import _verdict_note

    def row(fair, low, high):
        return SimpleNamespace(fair=fair, advantage_low=low, advantage_high=high, margin=0.01)

    assert _verdict_note(row(False, -0.002, 0.012)) == " (not fair)"
    assert _verdict_note(row(True, 0.0019, 0.0118)) == " (fair: Holm, later step)"
    assert _verdict_note(row(True, -0.008, 0.0005)) == ""


def test_the_variants_figure_has_each_variants_length_beside_its_stalemates():
    """A row per variant: its shift of the game's length, then of its stalemates; the legend lists each line-up's
    filled and hollow points together, in the line-ups' order."""
    shifts = csv("variants/shifts.csv")
    fig = variants.effects_figure(shifts)
    names = list(dict.fromkeys(shifts["variant"]))
    shown = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert shown == [f"{v}: {what}" for v in names for what in ("the game length", "the stalemates")]
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels[0] == "no shift"
    lineups = [label.split(" ")[0] for label in labels[1:]]
    order = list(dict.fromkeys(shifts["policies"]))
    assert lineups == sorted(lineups, key=order.index)
    plots.plt.close(fig)
