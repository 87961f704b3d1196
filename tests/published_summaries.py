"""What a shift study's summary.md says in words, made again by the study's code from its published files
(shifts.csv and summary.csv), no game replayed: tests/test_published_results.py checks that the published
summaries say it, so their words follow the code. Only words are made again, never a figure the summary
printed from the games themselves: the CSV files keep six significant figures, which can move a printed
last digit."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from simkit.studies import hand_size, teams, variants

KINDS = {"hand-size": hand_size, "teams": teams, "variants": variants}
WORDS = ("Each figure is an estimate", "Each number of sequences to win against")  # the paragraphs of words


def paragraphs(folder: Path, name: str) -> list[str]:
    """The paragraphs of words the code writes into the study's summary.md: What changes and where's opening
    paragraphs (what each shift is, the resolution, the line-ups' shared deals); for teams also Which measure
    to read, the shifts' opening paragraph and the note on the fair shares."""
    s = pd.read_csv(folder / "shifts.csv")
    made = KINDS[name].headline(s)
    if name == "teams":
        made += "\n" + teams.shifts_section(s)
    out = [line for line in made.split("\n") if line.startswith(WORDS)]
    if name == "teams":
        out += [teams.reading(pd.read_csv(folder / "summary.csv"), s).rstrip("\n"), f"- {teams.FAIR_SHARES_NOTE}"]
    return out
