"""`simkit play`: games one by one, each with its final board and result line, their records if asked."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from simkit.commands.errors import user_errors
from simkit.commands.options import PolicyOpt, Quiet, Seed, SwapSeats, rules_and_lineup
from simkit.commands.output import err_console, out_console
from simkit.commands.progress import QuietEvents
from simkit.game import defaults


def play(
    policy: PolicyOpt = defaults.POLICY,
    swap_seats: SwapSeats = False,
    seed: Seed = defaults.SEED,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games.")] = 1,
    first_game: Annotated[int, typer.Option("--first-game", min=0, help="Index of the first game.")] = 0,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write the games as simkit.game/1 JSON Lines.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --record file.")] = False,
    board: Annotated[bool, typer.Option("--board/--no-board", help="Print each game's final board.")] = True,
    quiet: Quiet = False,
    rule_options: dict | None = None,  # every rule option, added when the command is built (options.with_options)
) -> None:
    """Play games one by one: final board, one result line per game, optional records.

    Ctrl-C keeps the records of the games already finished.
    """
    from simkit.game.play import check_games
    from simkit.game.records import check_writable, game_record, write_records
    from simkit.presentation.display import board_from_record, render_board, result_line
    from simkit.running.executors import noting_compile

    with user_errors():
        rules, lineup = rules_and_lineup(rule_options, policy, swap_seats)
        check_games(seed, first_game, games)
        if record is not None:
            check_writable(record, force)
        events = QuietEvents(notice=not quiet)

        def games_played():
            for g in range(first_game, first_game + games):
                if g == first_game:  # the first game compiles the kernels on a first run
                    rec = noting_compile(events, lineup.spec, game_record, rules, lineup, seed, g)
                else:
                    rec = game_record(rules, lineup, seed, g)
                if not quiet:
                    if board:
                        out_console.print(render_board(*board_from_record(rec), names=tuple(rec["board"])), end="")
                    out_console.print(result_line(rec), highlight=False)
                yield rec

        if record is None:
            try:
                for _ in games_played():
                    pass
            except KeyboardInterrupt:
                raise typer.Exit(130) from None
            return
        try:
            n, interrupted = write_records(record, games_played())
        except KeyboardInterrupt:
            err_console.print(
                f"interrupted before the first game finished: nothing written to {record}", highlight=False
            )
            raise typer.Exit(130) from None
        if interrupted:
            err_console.print(f"interrupted: kept the {n} finished game record(s) in {record}", highlight=False)
            raise typer.Exit(130)
        if not quiet:
            err_console.print(f"wrote {n} record(s) to {record}", highlight=False)
