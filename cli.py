"""The `simkit` command line: parse, call simkit, print.

Installed as ``simkit.cli`` (``simkit/cli.py`` links here) and as the
``simkit`` console script. Bad input ends in a one-line ``error: ...`` and
exit code 1 (2 for malformed options), never a traceback.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

import simkit

app = typer.Typer(
    help="Monte Carlo simulator for the board game Sequence: exactly reproducible games, fast.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out_console = Console()
err_console = Console(stderr=True)

DEFAULT_STUDY_GAMES = 1_000_000
DEFAULT_SEED = 2026
DEFAULT_OUT = Path("results") / "default-2p-random"


@contextmanager
def user_errors():
    """Turn the errors a user can cause into one line on stderr and exit code 1."""
    from simkit.dataset import DatasetError
    from simkit.policies import PolicyError
    from simkit.rules import RulesError

    try:
        yield
    except (RulesError, PolicyError, DatasetError, ValueError, OSError) as e:
        err_console.print(f"error: {e}", highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(1) from None


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


Players = Annotated[int, typer.Option("--players", "-p", help="Players: 2, 3, 4, 6, 8, 9, 10 or 12.")]
Teams = Annotated[int | None, typer.Option("--teams", "-t", help="Teams (2 or 3); default: the only legal count, 2 for 6 and 12 players.")]
PolicyOpt = Annotated[str, typer.Option("--policy", help="Policy per team, cycling: NAME[:KEY=VALUE...][,NAME...]; e.g. random.")]
Seed = Annotated[int, typer.Option("--seed", "-s", min=0, help="Master seed (0 .. 2**63-1).")]
HandSize = Annotated[int | None, typer.Option("--hand-size", help="Cards per hand; default from the RULES.md table.")]
SeqToWin = Annotated[int | None, typer.Option("--sequences-to-win", help="Sequences a team needs; default 2 (2 teams) or 1 (3 teams).")]
MaxTurns = Annotated[int | None, typer.Option("--max-turns", help="Turn cap; a game reaching it is a draw (default 1000).")]
ChipLimit = Annotated[bool, typer.Option("--chip-limit/--no-chip-limit", help="Enforce the 50/50/35 chip supply.")]


def _config(players, teams, policy, hand_size, sequences_to_win, max_turns, chip_limit):
    from simkit.policies import Lineup
    from simkit.rules import Rules

    rules = Rules.make(players, teams, hand_size, sequences_to_win, max_turns, chip_limit)
    return rules, Lineup.parse(policy, rules)


@app.command()
def run(
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = DEFAULT_STUDY_GAMES,
    players: Players = 2,
    teams: Teams = None,
    policy: PolicyOpt = "random",
    seed: Seed = DEFAULT_SEED,
    out: Annotated[Path, typer.Option("--out", "-o", help="Dataset directory.")] = DEFAULT_OUT,
    threads: Annotated[int | None, typer.Option("--threads", help="Kernel threads; default: all cores.")] = None,
    chunk_size: Annotated[int, typer.Option("--chunk-size", help="Games per part file.")] = 100_000,
    hand_size: HandSize = None,
    sequences_to_win: SeqToWin = None,
    max_turns: MaxTurns = None,
    chip_limit: ChipLimit = False,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace a different run already in --out.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no report.")] = False,
) -> None:
    """Play GAMES games into a Parquet dataset (resumable), then print its report.

    With no options: the default study, 1,000,000 two-player random games into
    results/default-2p-random.
    """
    from simkit.runner import RunSpec, run as run_games, set_threads

    with user_errors():
        if games < 1:
            raise ValueError(f"--games must be at least 1, got {games}")
        rules, lineup = _config(players, teams, policy, hand_size, sequences_to_win, max_turns, chip_limit)
        n_threads = set_threads(threads)
        spec = RunSpec(rules, lineup, seed, games, chunk_size)
        outcome = _run_with_progress(run_games, out, spec, overwrite, quiet)
        _say_outcome(outcome, n_threads, quiet)
        if outcome.interrupted:
            raise typer.Exit(130)
        if not quiet:
            _print_report(out, "rich")


def _run_with_progress(run_games, out, spec, overwrite, quiet):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    show = not quiet and sys.stderr.isatty()
    if not show:
        return run_games(out, spec, overwrite)
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games  {task.fields[rate]:>10}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task("playing", total=spec.games, rate="")
        t0 = time.perf_counter()
        played = 0

        def on_chunk(n: int) -> None:
            nonlocal played
            played += n
            rate = played / max(time.perf_counter() - t0, 1e-9)
            bar.update(task, advance=n, rate=f"{rate:,.0f}/s")

        def on_start(already: int) -> None:
            bar.update(task, completed=already)

        return run_games(out, spec, overwrite, on_chunk=on_chunk, on_start=on_start)


def _say_outcome(outcome, n_threads: int, quiet: bool) -> None:
    if outcome.chunks_before == outcome.chunks and not outcome.chunks_written:
        err_console.print(f"{outcome.out}: all {outcome.games:,} games already played; nothing to do", highlight=False)
        return
    if outcome.interrupted:
        err_console.print(
            f"interrupted: {outcome.chunks_before + outcome.chunks_written} of {outcome.chunks} chunks are "
            f"on disk in {outcome.out}; run the same command again to resume",
            highlight=False,
        )
        return
    if quiet:
        return
    resumed = f" (resumed: {outcome.chunks_before} chunks were already done)" if outcome.chunks_before else ""
    err_console.print(
        f"{outcome.games_played:,} games in {outcome.seconds:.1f} s on {n_threads} thread(s): "
        f"{outcome.games_per_second:,.0f} games/s -> {outcome.out}{resumed}",
        highlight=False,
    )


class Format(str, Enum):
    rich = "rich"
    markdown = "markdown"
    csv = "csv"
    json = "json"


def _print_report(directory: Path, fmt: str, explain: bool = False) -> None:
    from simkit.dataset import read_games
    from simkit.report import render, render_rich, summarise

    summaries = summarise(read_games(directory))
    if fmt == "rich":
        render_rich(summaries, out_console, explain=explain)
    else:
        text = render(summaries, fmt, explain=explain)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


@app.command()
def report(
    directory: Annotated[Path, typer.Argument(help="A dataset written by `simkit run` (or a folder of them).")],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="rich (terminal tables), markdown, csv or json.")] = Format.rich,
    explain: Annotated[bool, typer.Option(
        "--explain", help="After the tables, print what every term in them means (rich and markdown only).",
    )] = False,
) -> None:
    """Summarise a dataset: win rates with 95% intervals, game lengths, first sequences."""
    if explain and fmt in (Format.csv, Format.json):
        raise typer.BadParameter(
            f"the glossary goes with --format rich or markdown; {fmt.value} stays machine-readable "
            "(the glossary is in README.md, 'Reading a report')",
            param_hint="'--explain'",
        )
    with user_errors():
        _print_report(directory, fmt.value, explain)


@app.command()
def play(
    players: Players = 2,
    teams: Teams = None,
    policy: PolicyOpt = "random",
    seed: Seed = 0,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games.")] = 1,
    first_game: Annotated[int, typer.Option("--first-game", min=0, help="Index of the first game.")] = 0,
    record: Annotated[Path | None, typer.Option("--record", help="Write the games as simkit.game/1 JSON Lines.")] = None,
    board: Annotated[bool, typer.Option("--board/--no-board", help="Print each game's final board.")] = True,
    hand_size: HandSize = None,
    sequences_to_win: SeqToWin = None,
    max_turns: MaxTurns = None,
    chip_limit: ChipLimit = False,
) -> None:
    """Play games one by one: final board, one result line per game, optional records."""
    from simkit.display import board_from_record, render_board, result_line
    from simkit.records import game_record, write_records

    with user_errors():
        rules, lineup = _config(players, teams, policy, hand_size, sequences_to_win, max_turns, chip_limit)
        from simkit.play import check_games

        check_games(seed, first_game, games)
        if record is not None and record.parent and not record.parent.is_dir():
            raise ValueError(f"cannot write {record}: {record.parent} is not a directory")

        def games_played():
            for g in range(first_game, first_game + games):
                rec = game_record(rules, lineup, seed, g)
                if board:
                    out_console.print(render_board(*board_from_record(rec)), end="")
                out_console.print(result_line(rec), highlight=False)
                yield rec

        if record is None:
            for _ in games_played():
                pass
        else:
            n = write_records(record, games_played())
            err_console.print(f"wrote {n} record(s) to {record}", highlight=False)


if __name__ == "__main__":
    app()
