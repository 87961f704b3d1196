"""The command line's consoles, stdout's and stderr's.

On a terminal, prose wraps at the terminal's width at word boundaries (rich's wrapping); elsewhere (a pipe,
a file, a log) a message is one line, never cut at the 80 columns rich assumes off a terminal. Markup is
off: a path or a spec with brackets ("simkit[distributed]") prints as it is.
"""

from __future__ import annotations

from rich.console import Console


def _console(stderr: bool) -> Console:
    console = Console(stderr=stderr, markup=False)
    console.soft_wrap = not console.is_terminal
    return console


out_console = _console(stderr=False)
err_console = _console(stderr=True)


def say_lines(word: str, lines: list[str]) -> None:
    """`word`: the first line, then the others as they are (a dataset's shortfall,
    simkit.running.reading.shortfall_lines)."""
    err_console.print(f"{word}: {lines[0]}", highlight=False)
    for line in lines[1:]:
        err_console.print(line, highlight=False)
