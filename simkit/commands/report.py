"""`simkit report`: a dataset's report, on the terminal or as markdown, CSV or JSON."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from simkit.commands.errors import user_errors
from simkit.commands.output import err_console, out_console, say_lines


class Format(StrEnum):
    rich = "rich"
    markdown = "markdown"
    csv = "csv"
    json = "json"


FORMATS = [f.value for f in Format]


def report(
    directory: Annotated[Path, typer.Argument(help="A dataset written by `simkit run` (or a folder of them).")],
    fmt: Annotated[
        str,
        typer.Option(
            "--format", "-f", metavar="|".join(FORMATS), help="rich (terminal tables), markdown, csv or json."
        ),
    ] = "rich",
    explain: Annotated[
        bool,
        typer.Option(
            "--explain", help="After the tables, print what every term in them means (rich and markdown only)."
        ),
    ] = False,
    allow_incomplete: Annotated[
        bool,
        typer.Option(
            "--allow-incomplete",
            help="Print the report of a dataset that lacks games (a run interrupted or still "
            "running, a damaged part left out) on purpose, after the lines saying what is missing; exit code 0. "
            "Without it such a dataset gets only those lines, and exit code 3.",
        ),
    ] = False,
) -> None:
    """Summarise a dataset: win rates with 95% intervals, game lengths, first sequences.

    Every part is checked as it is read. A dataset that lacks games (a run interrupted or still running, a
    part damaged or unreadable) is not reported: its first lines say what is missing and the `simkit run`
    command that completes it, and the exit code is 3 (--allow-incomplete prints the partial report).
    Exit codes: 0 reported; 1 bad input; 2 a malformed command line; 3 the dataset lacks games.
    """
    if fmt not in FORMATS:
        err_console.print(
            f"error: --format must be {', '.join(FORMATS[:-1])} or {FORMATS[-1]}, got {fmt!r}; "
            "see `simkit report --help`",
            highlight=False,
        )
        raise typer.Exit(2)
    if explain and fmt in ("csv", "json"):
        raise typer.BadParameter(
            f"the glossary goes with --format rich or markdown; {fmt} stays machine-readable "
            "(the glossary is in docs/guide/reports.md, 'Glossary')",
            param_hint="'--explain'",
        )
    with user_errors():
        print_report(directory, fmt, explain, allow_incomplete)


def print_report(directory: Path, fmt: str, explain: bool = False, allow_incomplete: bool = False) -> None:
    """The report of `directory` on stdout. A dataset that lacks games is refused
    (simkit.running.reading.IncompleteDataset:
    exit code 3 through user_errors), or, allow_incomplete, said first on stderr and reported all the same."""
    import shlex
    import warnings

    from simkit.analysis.report import check_whole, summarise_dataset
    from simkit.presentation.report import render, render_rich
    from simkit.running.reading import IncompleteDatasetWarning

    summaries = summarise_dataset(directory)
    then = (
        f"`simkit report --allow-incomplete {shlex.quote(str(directory))}` prints the partial report on "
        "purpose (exit code 0)"
        if not allow_incomplete
        else "the report below is partial: printed on purpose (--allow-incomplete)"
    )
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", IncompleteDatasetWarning)
        check_whole(directory, summaries, allow_incomplete, then)
    for w in heard:
        say_lines("warning", [*str(w.message).splitlines(), f"  {then}"])
    if fmt == "rich":
        render_rich(summaries, out_console, explain=explain)
    else:
        text = render(summaries, fmt, explain=explain)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
