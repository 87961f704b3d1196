"""The `simkit` command line: the Typer app and its commands.

Installed as ``simkit.cli`` (``simkit/cli.py`` links here) and as the ``simkit`` console script. Each
command's body is a function of its own module in ``simkit.commands``, imported only when that command
runs or shows its help (``simkit.commands.group``): `simkit --help` lists the commands without loading
any of them. Bad input ends in a one-line ``error: ...`` and exit code 1 (2 for malformed options), never
a traceback; a report of a dataset that lacks games ends with exit code 3
(simkit.commands.errors.EXIT_INCOMPLETE).
"""

from __future__ import annotations

from typing import Annotated

import typer

import simkit
from simkit.commands.group import CommandGroup

COMMANDS = {
    "run": "simkit.commands.run:run",
    "study": "simkit.commands.study:study",
    "report": "simkit.commands.report:report",
    "play": "simkit.commands.play:play",
    "confirm": "simkit.commands.confirm:confirm",
    "fair": "simkit.commands.fair:fair",
    "card": "simkit.commands.card:card",
    "replay": "simkit.commands.replay:replay",
    "serve": "simkit.commands.serve:serve",
}
"""Each command, in the order `simkit --help` lists them: its name -> "module:function" of its body."""


class Commands(CommandGroup):
    LAZY = COMMANDS


app = typer.Typer(
    cls=Commands,
    help="Monte Carlo simulator for the board game Sequence: exactly reproducible games, fast.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # Click's plain help: wrapped to the terminal, never an option's name cut short
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"simkit {simkit.__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Monte Carlo simulator for the board game Sequence."""


if __name__ == "__main__":
    app()
