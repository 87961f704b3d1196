"""`simkit run`: play games into a dataset, then print its report."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from simkit.commands.errors import user_errors
from simkit.commands.options import PolicyOpt, Quiet, Scheduler, Seed, SwapSeats, Threads, rules_and_lineup
from simkit.commands.output import err_console
from simkit.commands.progress import QuietEvents, TerminalEvents, progress_display
from simkit.commands.report import print_report
from simkit.commands.stopping import say_stopped, stop_code, stop_signals, stop_word
from simkit.game import defaults


def run(
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = defaults.GAMES,
    policy: PolicyOpt = defaults.POLICY,
    swap_seats: SwapSeats = False,
    seed: Seed = defaults.SEED,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Dataset directory; default: runs/ (the workspace, ignored by git) and a name made "
            "of the configuration (the default configuration: runs/default-2p-random). The published results/ "
            "is written only when --out names it.",
        ),
    ] = None,
    threads: Threads = None,
    chunk_size: Annotated[
        int | None,
        typer.Option("--chunk-size", help="Games per part file; default 100,000 (1,000 when a lookahead plays)."),
    ] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace a different run already in --out.")] = False,
    quiet: Quiet = False,
    scheduler: Scheduler = None,
    rule_options: dict | None = None,  # every rule option, added when the command is built (options.with_options)
) -> None:
    """Play GAMES games into a Parquet dataset (resumable), then print its report.

    With no options: the default run, 1,000,000 two-player random games into
    runs/default-2p-random (runs/ is the workspace, ignored by git).
    """
    from simkit.game.play import set_threads
    from simkit.running.runner import RunSpec
    from simkit.running.runner import run as run_games

    with user_errors():
        if games < 1:
            raise ValueError(f"--games must be at least 1, got {games}")
        rules, lineup = rules_and_lineup(rule_options, policy, swap_seats)
        n_threads = set_threads(threads)
        spec = RunSpec(rules, lineup, seed, games, chunk_size)
        out = out if out is not None else default_out(spec)
        with stop_signals() as heard:
            try:
                outcome = _run_with_progress(run_games, out, spec, overwrite, quiet, scheduler)
            except KeyboardInterrupt:  # before the runner could answer it: what is on disk is whole all the same
                say_stopped(heard, f"the files in {out} are whole; run the same command again to resume")
        _say_outcome(outcome, n_threads, quiet, scheduler, stop_word(heard))
        if outcome.interrupted:
            raise typer.Exit(stop_code(heard))
        if not quiet:
            print_report(out, "rich")


def default_out(spec) -> Path:
    """runs/default-2p-random for the default configuration, else runs/<configuration> (the workspace)."""
    from simkit.running.runner import run_folder

    return run_folder(spec, Path(defaults.WORKSPACE), defaults.SEED)


def _run_with_progress(run_games, out, spec, overwrite, quiet, scheduler=None):
    if quiet or not sys.stderr.isatty():
        return run_games(out, spec, overwrite, events=QuietEvents(notice=not quiet), scheduler=scheduler)
    with progress_display() as bar:
        return run_games(out, spec, overwrite, events=TerminalEvents(bar, scheduler), scheduler=scheduler)


def _say_outcome(
    outcome, n_threads: int, quiet: bool, scheduler: str | None = None, stopped: str = "interrupted"
) -> None:
    if outcome.replaced:
        err_console.print(f"replaced {outcome.out}: it held {outcome.replaced}", highlight=False)
    if outcome.chunks_before == outcome.chunks and not outcome.chunks_written:
        err_console.print(f"{outcome.out}: all {outcome.games:,} games already played; nothing to do", highlight=False)
        return
    if outcome.interrupted:
        err_console.print(
            f"{stopped}: {outcome.chunks_before + outcome.chunks_written} of {outcome.chunks} chunks are "
            f"on disk in {outcome.out}; run the same command again to resume",
            highlight=False,
        )
        return
    if quiet:
        return
    resumed = f" (resumed: {outcome.chunks_before} chunks were already done)" if outcome.chunks_before else ""
    where = f"on the cluster {scheduler}" if scheduler else f"on {n_threads} thread(s)"
    err_console.print(
        f"{outcome.games_played:,} games in {outcome.seconds:.1f} s {where}: "
        f"{outcome.games_per_second:,.0f} games/s -> {outcome.out}{resumed}",
        highlight=False,
    )
