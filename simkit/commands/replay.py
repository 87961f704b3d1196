"""`simkit replay`: a recorded game on the board, turn by turn, every move checked against the rules."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from simkit.commands.output import err_console, out_console


def replay(
    record: Annotated[
        Path,
        typer.Argument(
            help="A record file written by `simkit play --record` (JSON Lines, docs/RECORD.md).", show_default=False
        ),
    ],
    game: Annotated[
        int | None,
        typer.Option(
            "--game", "-g", help="The game to replay, by its index (the record's game); default: the file's first."
        ),
    ] = None,
    turn: Annotated[
        int | None,
        typer.Option(
            "--turn",
            min=0,
            help="Show the board after this turn (0: the deal) and stop (no short flag: -t is "
            "--teams in run, study and play).",
        ),
    ] = None,
) -> None:
    """Replay a recorded game on the board, turn by turn, checking every move against the rules.

    On a terminal, Enter shows the next turn (q and Enter stops); otherwise every turn is printed at once.
    Cells are named by column letter and row number (D3: column D, row 3, row 1 at the top). A record
    that does not replay (a card the seat does not hold, a cell the card cannot take, a bad format) is
    refused in one line.
    """
    from simkit.game.replay import ReplayError, dealt, read_record
    from simkit.game.replay import replay as steps_of
    from simkit.presentation.display import render_board, result_line

    try:
        found = read_record(record, game)
    except ReplayError as e:
        err_console.print(f"error: {e}", highlight=False)
        raise typer.Exit(1) from None
    rec, in_file = found.record, found.in_file
    try:
        steps = steps_of(rec)
    except ReplayError as e:
        err_console.print(f"error: {found.where} does not replay: {e}", highlight=False)
        raise typer.Exit(1) from None
    if turn is not None and turn > len(steps):
        err_console.print(
            f"error: --turn {turn} is beyond the game's last turn, {len(steps)}; see `simkit replay --help`",
            highlight=False,
        )
        raise typer.Exit(1)
    rules = rec["rules"]
    others = (
        f" (the first of {in_file} games in {record}; --game chooses another)" if game is None and in_file > 1 else ""
    )
    name = f"game {rec['game']}" if isinstance(rec.get("game"), int) else f"the record on line {found.line}"
    seed = f" of seed {rec['seed']}" if isinstance(rec.get("seed"), int) else ""
    out_console.print(
        f"{name}{others}{seed}: {rules['players']} players in "
        f"{rules['teams']} teams ({', '.join(map(str, rec.get('policies', [])))}); "
        f"{len(steps)} turns in all",
        highlight=False,
    )
    empty: list[int | None] = [None] * 100
    names = tuple(rec["board"])  # the layout the game was played on
    if turn is not None:
        if turn == 0:
            out_console.print(f"the deal:\n{dealt(rec)}", highlight=False)
            out_console.print(render_board(empty, set(), names=names), end="")
            return
        step = steps[turn - 1]
        out_console.print(step.words, highlight=False)
        out_console.print(render_board(step.owner, step.locked, step.turn.get("cell"), names), end="")
        if turn == len(steps):
            out_console.print(result_line(rec), highlight=False)
        return
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    out_console.print(f"the deal:\n{dealt(rec)}", highlight=False)
    out_console.print(render_board(empty, set(), names=names), end="")
    for step in steps:
        if interactive:
            try:
                answer = input("Enter: next turn, q: stop > ")
            except (EOFError, KeyboardInterrupt):
                out_console.print()
                return
            if answer.strip().lower().startswith("q"):
                return
        out_console.print()
        out_console.print(step.words, highlight=False)
        out_console.print(f"  seat {step.turn['seat']} held {' '.join(step.hand) or 'no card'}", highlight=False)
        out_console.print(render_board(step.owner, step.locked, step.turn.get("cell"), names), end="")
    out_console.print(result_line(rec), highlight=False)
