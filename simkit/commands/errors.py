"""The command line's errors: bad input in one line, ``error: ...``, never a traceback.

Exit codes: 1 for bad input (``user_errors``), 2 for a malformed command line (Click's usage errors, said
by ``usage_message``), 3 (``EXIT_INCOMPLETE``) for a report of a dataset that lacks games, its lines saying
what is missing and the command that completes it.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

import typer

from simkit.commands.output import err_console, say_lines

EXIT_INCOMPLETE = 3
"""The exit code of a report (or a run's report) of a dataset that lacks games or has damaged parts."""


@contextmanager
def user_errors():
    """Turn the errors a user can cause into one line on stderr and exit code 1; a dataset that lacks games
    (simkit.running.reading.IncompleteDataset) into its lines (what is missing, the commands that complete it) and
    exit code 3."""
    from simkit.game.players import LineupError
    from simkit.game.rules import RulesError
    from simkit.running.dataset import DatasetError
    from simkit.running.reading import IncompleteDataset

    try:
        yield
    except RulesError as e:
        err_console.print(f"error: {e.for_command_line()}", highlight=False)
        raise typer.Exit(1) from None
    except IncompleteDataset as e:
        say_lines("error", e.lines)
        raise typer.Exit(EXIT_INCOMPLETE) from None
    except OSError as e:
        err_console.print(f"error: {os_error(e)}", highlight=False)
        raise typer.Exit(1) from None
    except (LineupError, DatasetError, ValueError) as e:
        err_console.print(f"error: {e}", highlight=False)
        raise typer.Exit(1) from None


def os_error(e: OSError) -> str:
    """An OSError in words: '/x: No such file or directory' ("[Errno 2] ..." is Python's, not the user's)."""
    what = " ".join(str(x) for x in (e.filename, e.filename2) if x is not None)
    why = e.strerror or str(e)
    return f"{what}: {why}" if what else why


def click_exceptions():
    """Click's exceptions, as typer raises them (typer 0.2x vendors its own copy of Click)."""
    try:
        # typer 0.2x exports none of its Click's usage errors, which the one-line errors catch by class;
        # tests/test_cli.py fails if they move.
        from typer._click import exceptions

        return exceptions
    except ImportError:  # a typer that uses Click itself
        from click import exceptions as click_exceptions

        return click_exceptions


def usage_message(e, args=None) -> str:
    """A Click usage error in one line: what is wrong, a close match if there is one, where --help is."""
    exceptions = click_exceptions()
    words = list(sys.argv[1:] if args is None else args)
    command = next((w for w in words if w in ("run", "study", "report", "play", "replay")), None)
    where = f"see `simkit {command} --help`" if command else "see `simkit --help`"
    if isinstance(e, exceptions.NoSuchOption):
        close = f" (did you mean {e.possibilities[0]}?)" if e.possibilities else ""
        return f"no such option {e.option_name}{close}; {where}"
    text = " ".join(e.format_message().split()).rstrip(".")
    param = getattr(e, "param", None)
    if isinstance(e, exceptions.BadParameter) and param is not None and "valid integer" in text:
        return f"{'/'.join(param.opts)} takes a whole number; {where}"
    if isinstance(e, exceptions.BadParameter) and param is not None and "valid boolean" in text:
        return f"{'/'.join(param.opts)} takes true or false; {where}"
    return f"{text[0].lower()}{text[1:]}; {where}"
