"""`simkit confirm`: the rules card's verdicts, decided under a protocol declared before its games."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from simkit.commands.errors import user_errors
from simkit.commands.options import Quiet, Threads
from simkit.commands.output import out_console
from simkit.commands.stopping import say_stopped, stop_signals
from simkit.commands.study_output import print_study, study_with_progress


def confirm(
    folder: Annotated[
        Path,
        typer.Argument(
            help="The confirmation's folder: its protocol.toml, and the games, verdicts and plots it plays.",
            show_default=False,
        ),
    ],
    plan: Annotated[
        bool,
        typer.Option(
            "--plan",
            help="Write the folder's protocol.toml from the rules card's studies (--results) and stop: "
            "commit it, then run the same command without --plan.",
        ),
    ] = False,
    results: Annotated[
        Path, typer.Option("--results", help="The published studies: the card's rules, and the seeds already played.")
    ] = Path("results"),
    seed: Annotated[
        int,
        typer.Option(
            "--seed", help="With --plan: the verdicts' seed (the estimates play seed + 1); one no study used."
        ),
    ] = 20261208,
    prior: Annotated[
        str,
        typer.Option(
            "--prior",
            help="With --plan: the folder in --results of the confirmation whose games, pooled with the "
            "searches', the power calculation is planned at.",
        ),
    ] = "confirmation",
    threads: Threads = None,
    quiet: Quiet = False,
) -> None:
    """Decide the rules card's verdicts under a protocol declared before its games: its games and seeds fixed
    by a power calculation, one look, family-wise error 5% (simkit.studies.confirmation)."""
    from simkit.game.play import set_threads
    from simkit.studies import confirmation as cf
    from simkit.studies import confirmation_protocol as cp
    from simkit.studies.loop import run_study

    path = folder / cp.PROTOCOL_FILE
    with user_errors():
        if plan:
            from simkit.studies.rules_card import LINEUPS, make_card

            if LINEUPS != cp.LINEUP:
                raise cp.ProtocolError(f"the card's line-ups {LINEUPS} are not the protocol's {cp.LINEUP}")
            protocol = cp.plan(make_card(results), results, seed, prior)
            cp.write_protocol(path, protocol)
            if not quiet:
                out_console.print(
                    f"wrote {path}: {len(protocol['verdict'])} verdicts (all pass with a chance of "
                    f"{protocol['all_pass']:.1%} at the planning estimates), {len(protocol['estimate'])} estimates; "
                    f"commit it, then run `simkit confirm {folder}`",
                    highlight=False,
                )
            return
        protocol = cp.read_protocol(path)
        cp.check_committed(path)
        cp.check_seeds(protocol, results, folder)
        set_threads(threads)
        the_study = cf.study_of(protocol)
        with stop_signals() as heard:
            try:
                outcome = study_with_progress(
                    run_study,
                    the_study,
                    folder,
                    quiet,
                    None,
                    command=["simkit", "confirm", str(folder)],
                    label="confirmation",
                )
            except KeyboardInterrupt:
                outcome = None
        if outcome is None or outcome.interrupted:
            say_stopped(heard, f"run the same command again to resume the confirmation in {folder}")
        if not quiet:
            print_study(the_study, outcome, folder)
