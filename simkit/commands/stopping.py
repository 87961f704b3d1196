"""Ctrl-C and SIGTERM: a command that plays games stops as one does, keeps what is on disk whole, says so in
one line and exits with 130 or 143."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

import typer

from simkit.commands.output import err_console


@contextmanager
def stop_signals() -> Iterator[list[int]]:
    """SIGTERM (kill, a batch scheduler) stops what runs inside as Ctrl-C does; yields a list that then holds it.

    The first SIGTERM raises KeyboardInterrupt (the chunk in play is dropped,
    the parts on disk stay whole); later ones are ignored while the run winds
    down. The handler before is restored at the end.
    """
    heard: list[int] = []

    def on_term(signum, frame):
        if not heard:
            heard.append(signum)
            raise KeyboardInterrupt

    try:
        before = signal.signal(signal.SIGTERM, on_term)
    except ValueError:  # not the main thread: SIGTERM keeps its default
        yield heard
        return
    try:
        yield heard
    finally:
        signal.signal(signal.SIGTERM, before)


def stop_word(heard: list[int]) -> str:
    return "terminated (SIGTERM)" if heard else "interrupted"


def stop_code(heard: list[int]) -> int:
    """143 after SIGTERM, 130 after Ctrl-C (128 + the signal's number, as a shell reports it)."""
    return 128 + (signal.SIGTERM if heard else signal.SIGINT)


def say_stopped(heard: list[int], what: str) -> None:
    """One line: stopped by Ctrl-C or SIGTERM, and `what` (how to resume); then exit 130 or 143."""
    err_console.print(f"{stop_word(heard)}: {what}", highlight=False)
    raise typer.Exit(stop_code(heard))
