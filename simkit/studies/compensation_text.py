"""The compensation study in words: how each search ended, its tables, sections and notes for summary.md.

The search (``simkit.studies.compensation_search``) returns how it ended as
data (``Outcome``); ``outcome_text`` says it, as verdicts.csv's `outcome`
column and summary.md's sections and key table show it.
"""

from __future__ import annotations

import math

import pandas as pd

from simkit.analysis import stats
from simkit.presentation.render import count, pct, pp
from simkit.studies.compensation_plan import CHECK_BAND, CHECK_GAP, CHECK_SEED_OFFSET, CONFIRMATION_SEED_OFFSET, LOOKS
from simkit.studies.compensation_search import (
    FAIR_BAND,
    FIRST_CONFIRMATION,
    GAP_TARGET,
    REFINE_GAMES,
    REFINE_ROUNDS,
    REFINE_SEED_OFFSET,
    SEARCH_GAMES,
    Ending,
    Outcome,
    Steps,
    setting_text,
)
from simkit.studies.kind import LEGAL_TABLES, table_list
from simkit.studies.options import CHECK_GAMES

NO_EDGE_AT_0 = "no edge at 0: its interval holds zero"  # the search's word; fair is the confirmation's verdict
NOT_FAIR = "the closest setting found"  # the verdict of a family that did not reach fair at a table


def steps_text(steps: Steps) -> str:
    """How the steps along a knob ended: 'bracketed', 'steps too coarse: 9 is above zero, 10 below', ..."""
    e = steps.ending
    if e is Ending.NO_EDGE_AT_0:
        return NO_EDGE_AT_0
    if e is Ending.BEHIND_AT_0:
        return "team 0 already behind"
    if e is Ending.CANNOT_REACH:
        return f"cannot reach zero: still above at the largest setting, {steps.last_above}"
    if e is Ending.NEVER_BELOW:
        return "reaches zero, never below it"
    if e is Ending.TOO_COARSE:
        return f"steps too coarse: {steps.last_above} is above zero, {steps.first_below} below"
    return "bracketed"


def outcome_text(outcome: Outcome) -> str:
    """How a search ended, in words (verdicts.csv's `outcome`): its steps, then the setting visited chosen
    over them and the refinement, each after '; '."""
    text = steps_text(outcome.steps) if outcome.steps is not None else ""
    n = outcome.nearer
    if n is not None:
        text += (
            f"; of the {n.visited} settings visited, {setting_text(n.chosen)} is nearest "
            f"fair (the steps ended at {setting_text(n.steps)})"
        )
    r = outcome.refinement
    if r is not None:
        gap = f", largest gap {pp(r.gap, digits=2)}" if r.gap is not None else ""
        moved = (
            f", then around {setting_text(r.centre)} ({r.rounds} rounds, {r.settings} settings),"
            if r.rounds > 1
            else ""
        )
        text += (
            f"; its confirmation was not fair (advantage {pp(r.advantage, digits=2)}"
            f"{gap}), so the settings around {setting_text(r.first)}{moved} were played again, "
            f"{count(r.games)} games each on seed {r.seed}: "
            f"{setting_text(r.chosen)} is nearest fair on the {'plane' if r.plane else 'line'}"
            " fitted through the last of them"
        )
    return text


def tables_text() -> str:
    return (
        f"every legal table, {table_list(LEGAL_TABLES)}; a per-seat rule option (--hand-size 6,7,7) keeps "
        "the tables it fits"
    )


def looks_text(kind: str) -> str:
    """The further looks of LOOKS[kind] in words: '4 times', '2, then 4 times'."""
    return ", then ".join(str(times) for times in LOOKS[kind][1:]) + " times"


def checks_section(frame: pd.DataFrame) -> str:
    """The checks as markdown: each answer played by another line-up, and whether it holds."""
    if not len(frame):
        return ""
    lines = [
        "## Checked by another player\n",
        f"Each answer below was played again by another line-up on a fresh seed ({count(CHECK_GAMES)} games, "
        f"the study's seed + {CHECK_SEED_OFFSET}). It holds when team 0's advantage is within "
        f"±{100 * CHECK_BAND:g} pp and, with three teams, the largest gap at most {100 * CHECK_GAP:g} pp "
        "(point estimates, with their 95% intervals). A check of an earlier answer (before a refinement "
        "chose another) stays on record.\n",
        "| table | found by | family | setting | the answer | checked by | advantage [95% CI] "
        "| largest gap [95% CI] | games | wall time | holds |",
        "| --- | --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in frame.itertuples():
        say = (
            "yes"
            if r.holds
            else f"no: {pp(r.advantage, digits=2)} from even"
            if abs(r.advantage) > CHECK_BAND
            else f"no: largest gap {pp(r.max_gap, digits=2)}"
        )
        lines.append(
            f"| {r.players}p / {r.teams}t | {r.found_by} | {r.family} | {r.setting} | "
            f"{'yes' if r.answer else 'an earlier one'} | {r.checked_by} | "
            f"{pp(r.advantage, r.advantage_low, r.advantage_high, 2)} | "
            f"{pp(r.max_gap, r.max_gap_low, r.max_gap_high, 2)} | {count(r.games)} | "
            f"{'not recorded' if math.isnan(r.wall_seconds) else _duration(r.wall_seconds)} | {say} |"
        )
    return "\n".join(lines) + "\n"


def wall_time_section(rows: list[tuple[int, int, str, int, int, float]]) -> str:
    """Per table and line-up: the settings and confirmations played, their games and the wall time they took
    on this machine. rows: (players, teams, line-up, runs, games, seconds; NaN: not recorded)."""
    lines = [
        "## Wall time per table\n",
        "What each table's searches and confirmations took to play on the machine that played them "
        "(the runs' times logs, the compile excluded), with whatever else ran beside them.\n",
        "| table | line-up | settings and confirmations | games | wall time |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for players, teams, lineup, runs, games, seconds in rows:
        took = "not recorded" if math.isnan(seconds) else _duration(seconds)
        lines.append(f"| {players}p / {teams}t | {lineup} | {runs} | {count(games)} | {took} |")
    return "\n".join(lines) + "\n"


def _duration(seconds: float) -> str:
    """'42 s', '12.5 min', '1.6 h'."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def key_table(v: pd.DataFrame) -> pd.DataFrame:
    """summary.md's key table, from verdicts.csv's rows `v`: each search's answer and its confirmation."""
    if not len(v):
        return pd.DataFrame()
    rows = []
    for r in v.itertuples():
        shares = " / ".join(
            pct(getattr(r, f"share_{t}"), getattr(r, f"share_{t}_low"), getattr(r, f"share_{t}_high"))
            for t in range(r.teams)
        )
        rows.append(
            {
                "table": f"{r.players}p / {r.teams}t",
                "line-up": r.policies,
                "family": r.family,
                "setting": r.setting,
                "search ended": r.outcome,
                "confirmation: advantage [95% CI]": pp(r.advantage, r.advantage_low, r.advantage_high, 2),
                "shares of decided games [95% CI]": shares,
                "largest gap [95% CI]": pp(r.max_gap, r.max_gap_low, r.max_gap_high, 2),
                "games": count(r.games),
                "fair (within the margin)": "yes" if r.fair else f"no: {NOT_FAIR}",
            }
        )
    return pd.DataFrame(rows)


def terminal_table(v: pd.DataFrame) -> pd.DataFrame:
    """The key table within TERMINAL_WIDTH columns: each search's setting, its confirmation and the verdict."""
    if not len(v):
        return pd.DataFrame()
    return pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "line-up": r.policies,
                "family": r.family,
                "setting": r.setting,
                "advantage": pp(r.advantage, r.advantage_low, r.advantage_high, 2),
                "largest gap": pp(r.max_gap, r.max_gap_low, r.max_gap_high),
                "fair": "yes" if r.fair else "no",
            }
            for r in v.itertuples()
        ]
    )


TERMINAL_NOTE = (
    "advantage: team 0's share of the decided games minus its fair share in the confirmation, 95% CI in brackets; "
    "largest gap: between two teams' shares; fair: within the margin; how each search ended is in summary.md"
)


def search_section(found: list) -> str:
    """Every search's path: the settings played, their advantage, and how the search ended."""

    def cells(points: dict) -> str:
        return ", ".join(
            f"{setting_text(k)}: {pp(stats.advantage(p.agg.wins()).value, digits=2)}" for k, p in sorted(points.items())
        )

    lines = ["## The searches\n"]
    for search, confirm in found:
        cells_text = cells(search.points) + (f"; refined: {cells(search.refined)}" if search.refined else "")
        state = (
            outcome_text(search.outcome)
            if confirm is not None
            else "unfinished (the confirmation is still to play)"
            if search.need is None
            else "unfinished"
        )
        lines.append(
            f"- {search.rules.players}p / {search.rules.teams}t, {search.lineup.spec}, {search.family}: "
            f"{state}; chose {setting_text(search.chosen) if search.chosen else '—'}"
            f" (fitted crossing {search.crossing:.2f}); advantage by setting: {cells_text}."
        )
    return "\n".join(lines) + "\n"


def notes() -> list[str]:
    """The bullet points that end summary.md: the deals, what fair means, how to read the columns, the
    refinement and the further looks."""
    return [
        "Each search plays its settings on the same deals (the study's seed, games 0..N-1), so "
        "neighbouring settings differ by the rule alone; a confirmation replays the chosen setting "
        f"on seed + {CONFIRMATION_SEED_OFFSET}, games the search never saw.",
        f"Fair is an equivalence margin, not a zero edge: a setting is fair when its confirmation's "
        f"95% interval of team 0's advantage lies within ±{100 * FAIR_BAND['casual']:g} pp (random and "
        f"greedy play) or ±{100 * FAIR_BAND['strong']:g} pp (with a lookahead). With three teams "
        "also every team's share: the largest gap between two teams' shares, with an interval from "
        "Goodman's simultaneous intervals (which allows for the maximum's upward bias), at most "
        f"{100 * GAP_TARGET['casual']:.1f} pp (random and greedy) or {100 * GAP_TARGET['strong']:.1f} "
        "pp (lookahead).",
        "The column search ended says how the search ended, on the search's own games; the column "
        "fair (within the margin) is the confirmation's verdict, on fresh games. They are separate: "
        '"steps too coarse: 9 is '
        'above zero, 10 below" means no whole setting lies between the last setting whose interval '
        "is above zero and the first below it, so the search chose the nearer of the two; that "
        'setting can still be fair (its confirmation within the margin) or not. "'
        + NO_EDGE_AT_0
        + "\" means the standard game's interval already held zero on the search's games; the "
        "confirmation's larger sample can still find an edge beyond the margin (fair: no).",
        "The answer is the setting nearest fair of every setting the search visited, not only "
        "where its steps ended (three teams: the steps' answer and its eight neighbours, each knob "
        "one step either way, are visited too): the one whose interval would pass the fair test "
        "with the narrowest margins, that is the smallest m such that its 95% interval of team 0's "
        "advantage lies within ±m times the fair band and the largest gap's upper bound within m "
        "times its target (at two teams the two say the same). `steps` in verdicts.csv is where "
        "the steps ended.",
        f'Fair "no: {NOT_FAIR}": the family does not reach fair at that table in this search; '
        "the setting shown is the closest to fair of those it visited, and its confirmation says "
        "how far from fair it leaves the table.",
        f"A refined search (a line-up playing {count(SEARCH_GAMES['strong'])} games per setting, "
        "whose answer's confirmation was not fair): the settings around its answer (two either side; "
        f"three teams, one either side of each knob) were played again, {count(REFINE_GAMES['strong'])} "
        f"games each on seed + {REFINE_SEED_OFFSET}; a weighted line (a plane with two knobs) fitted "
        "through each team's share chose the setting nearest fair (when the fit put it beyond "
        "the settings played, those around it were played too, up to "
        f"{REFINE_ROUNDS} rounds), confirmed on seed + "
        f"{REFINE_SEED_OFFSET + 1}. The first confirmation is the row '{FIRST_CONFIRMATION}' of "
        "summary.csv, the first answer `first_setting` in verdicts.csv.",
        f"A confirmation whose point estimates are fair but whose interval is not within the targets "
        "takes a further look on the same seed, and another while it stays so: "
        f"{looks_text('casual')} its "
        f"first games (greedy), {looks_text('strong')} (lookahead); `looks` in verdicts.csv says how "
        "many it took.",
    ]
