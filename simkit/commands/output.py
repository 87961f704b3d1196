"""The command line's consoles, stdout's and stderr's.

soft_wrap: a message is one line, never cut at rich's 80 columns when piped. Markup is off: a path or a
spec with brackets ("simkit[distributed]") prints as it is.
"""

from __future__ import annotations

from rich.console import Console

out_console = Console(soft_wrap=True, markup=False)
err_console = Console(stderr=True, soft_wrap=True, markup=False)


def say_lines(word: str, lines: list[str]) -> None:
    """`word`: the first line, then the others as they are (a dataset's shortfall,
    simkit.running.dataset.shortfall_lines)."""
    err_console.print(f"{word}: {lines[0]}", highlight=False, markup=False, soft_wrap=True)
    for line in lines[1:]:
        err_console.print(line, highlight=False, markup=False, soft_wrap=True)
