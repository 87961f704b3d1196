"""`simkit card`: the fair-Sequence rules card, in markdown and as a printable page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from simkit.commands.errors import user_errors
from simkit.commands.options import Quiet
from simkit.commands.output import out_console
from simkit.game import defaults


def card(
    results: Annotated[
        Path,
        typer.Option(
            "--results",
            help="The published studies the card is made from: their compensation*/verdicts.csv and "
            "first-player/summary.csv.",
        ),
    ] = Path("results"),
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Where to write fair-sequence-card.md, .png and .pdf (runs/ is the workspace, "
            "ignored by git; the published results/ is written only when --out names it).",
        ),
    ] = Path(defaults.WORKSPACE),
    quiet: Quiet = False,
) -> None:
    """Make the fair-Sequence rules card: at every table, the rule that brings the first player's edge within
    the margin for casual play (greedy) and strong play (swift), as the confirmation decided it, in words,
    with the edge it leaves and the edge without it; markdown and a printable one-page PNG and PDF."""
    from simkit.studies.rules_card_page import write

    with user_errors():
        paths = write(results, out)
    if not quiet:
        out_console.print(f"wrote {', '.join(str(p) for p in paths)}", highlight=False)
