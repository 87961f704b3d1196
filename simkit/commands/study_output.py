"""A study on the terminal, for `simkit study` and `simkit confirm`: played under a progress display, then its
tables, notes and what was played."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console

from simkit.commands.output import err_console, out_console
from simkit.commands.progress import QuietEvents, TerminalEvents, progress_display


def study_with_progress(run_study, the_study, out, quiet, scheduler, overwrite=False, command=None, label=None):
    """run_study with a progress bar on a terminal (label: the bar's; default 'study KIND'), quiet notices
    elsewhere. command: the command recorded in study.json (default: this `simkit study` command)."""
    if command is None and "study" in sys.argv:
        command = ["simkit", "study", *sys.argv[sys.argv.index("study") + 1 :]]
    if quiet or not sys.stderr.isatty():
        return run_study(the_study, out, QuietEvents(notice=not quiet), scheduler, command, overwrite)
    with progress_display() as bar:
        return run_study(
            the_study,
            out,
            TerminalEvents(bar, scheduler, label or f"study {the_study.kind.name}"),
            scheduler,
            command,
            overwrite,
        )


def rich_table(frame, title: str | None = None):
    """A study table for the terminal: text columns left, numbers right; a terminal too narrow for a row folds
    its cells onto more lines, never cutting one short."""
    from rich.table import Table

    from simkit.presentation.render import looks_numeric

    table = Table(title=title, title_justify="left", header_style="bold", show_edge=False)
    cells = frame.astype(str)
    for c in frame.columns:
        numeric = all(looks_numeric(v) for v in cells[c])
        table.add_column(str(c), justify="right" if numeric else "left", overflow="fold")
    for row in cells.itertuples(index=False):
        table.add_row(*row)
    return table


def print_study(the_study, outcome, out: Path) -> None:
    tables = outcome.tables
    console = out_console if out_console.is_terminal else Console(width=200)  # a pipe gets the table whole
    title = f"{the_study.kind.name} study (seed {the_study.seed}); details in {out / 'summary.md'}"
    key = tables.terminal if tables.terminal is not None else tables.key
    if key is not None and len(key):
        console.print(rich_table(key, title))
        if tables.terminal is not None and tables.terminal_note:
            piped = console is not out_console  # a pipe gets the note on one line
            console.print(tables.terminal_note, highlight=False, soft_wrap=piped)
    for heading, more in tables.terminal_more.items():  # skill's ratings
        console.print()
        console.print(rich_table(more, heading))
    if outcome.added:
        err_console.print(f"added to the study: {', '.join(outcome.added)}", highlight=False)
    played = (
        f"{outcome.games_played:,} games played" if outcome.games_played else "nothing to play: every game was on disk"
    )
    err_console.print(f"{played}; summary.csv, summary.md, plots and study.json in {out}", highlight=False)
