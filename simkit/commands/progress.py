"""The progress display of a run, a study or a fair test: on a terminal a bar (games done, games/s, time
left) and, while the kernels compile, a moving line; elsewhere, or with --quiet, fixed lines only."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.console import Console

from simkit.commands.output import err_console

if TYPE_CHECKING:
    from simkit.running.executors import RunEvents as _RunEvents
else:
    _RunEvents = object  # the runner imported only when a command runs (it loads the kernels)


def compiling_text(lineup: str, where: str = "") -> str:
    """What the compile notice says (simkit.running.runner.compile_notice)."""
    from simkit.running.runner import compile_notice

    return compile_notice(lineup, where)


def progress_display(console: Console | None = None):
    """The progress bar of a run or a study: games done, games/s, time left; while the kernels compile, a
    line of its own with a spinner and the seconds so far (TerminalEvents.compiling). On stderr, gone at the
    end."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
    from rich.spinner import Spinner
    from rich.text import Text

    class Line(ProgressColumn):
        """The task's description; on the compile line, a spinner before it and the seconds so far after it."""

        def __init__(self):
            super().__init__()
            self.spinner = Spinner("dots", style="progress.spinner")

        def render(self, task):
            if not task.fields.get("compiling"):
                return Text(task.description, style="progress.description")
            spin = self.spinner.render(task.get_time())
            assert isinstance(spin, Text)  # a spinner without text renders its frame as a Text
            return Text.assemble(spin, f" {task.description}: {task.elapsed or 0:.0f} s")

    class GamesOnly(ProgressColumn):
        """A column of the games' bar, empty on the compile line."""

        def __init__(self, column: ProgressColumn):
            super().__init__()
            self.column = column

        def render(self, task):
            return Text("") if task.fields.get("compiling") else self.column(task)

    columns = (
        Line(),
        GamesOnly(BarColumn()),
        GamesOnly(MofNCompleteColumn()),
        GamesOnly(TextColumn("games  {task.fields[rate]:>10}")),
        GamesOnly(TimeRemainingColumn()),
    )
    return Progress(*columns, console=console or err_console, transient=True)


class TerminalEvents(_RunEvents):
    """The runner's events shown on the terminal: a moving line while compiling (a spinner, the seconds so far),
    which turns into 'compiled in N s', then a progress bar."""

    def __init__(self, bar, scheduler: str | None, description: str = "playing"):
        self.bar, self.scheduler = bar, scheduler
        # hidden until the games start: while the kernels compile, the compile line speaks alone
        self.task = bar.add_task(description, total=None, rate="", start=False, visible=False)
        self.compile_task = None  # the compile line's task while the kernels compile
        self.t0: float | None = None
        self.played = 0

    def started(self, total: int, already: int) -> None:
        self.bar.update(self.task, total=total, completed=already)

    def compiling(self, lineup: str) -> None:
        text = compiling_text(lineup, " on each worker" if self.scheduler else "")
        self.compile_task = self.bar.add_task(text, total=None, rate="", compiling=True)

    def compiled(self, seconds: float) -> None:
        if self.compile_task is not None:
            self.bar.remove_task(self.compile_task)
            self.compile_task = None
        from simkit.running.runner import compiled_notice

        self.bar.console.print(compiled_notice(seconds), highlight=False)

    def playing(self) -> None:
        if self.t0 is None:  # the first run of a study: the rate counts from here
            self.t0 = time.perf_counter()
            self.bar.start_task(self.task)
        self.bar.update(self.task, visible=True)

    def notice(self, message: str) -> None:
        err_console.print(message, highlight=False)

    def advanced(self, games: int) -> None:
        if self.t0 is None:  # a watcher that never heard playing(): count from the first games
            self.playing()
        assert self.t0 is not None  # set by playing()
        self.played += games
        seconds = time.perf_counter() - self.t0
        rate = f"{self.played / seconds:,.0f}/s" if seconds >= 0.5 else ""  # too early to tell
        self.bar.update(self.task, advance=games, rate=rate)


class QuietEvents(_RunEvents):
    """Events that print the compile notice as one fixed line (not with --quiet) and the runner's notices, nothing
    else: a run's or a study's on a stderr that is not a terminal or with --quiet, and simkit play's."""

    def __init__(self, notice: bool):
        self.compile_notice = notice

    def started(self, total: int, already: int) -> None:
        pass

    def compiling(self, lineup: str) -> None:
        if self.compile_notice:  # one fixed line, for a stderr that is not a terminal (a pipe, a log)
            err_console.print(compiling_text(lineup) + " ...", highlight=False)

    def compiled(self, seconds: float) -> None:
        pass

    def playing(self) -> None:
        pass

    def advanced(self, games: int) -> None:
        pass

    def notice(self, message: str) -> None:  # printed even with --quiet: a part set aside, an option not used
        err_console.print(message, highlight=False)
