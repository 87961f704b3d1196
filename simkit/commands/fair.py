"""`simkit fair`: is a rule fair? A sequential test plays it in growing looks until it decides."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer

from simkit.commands.errors import user_errors
from simkit.commands.options import PolicyOpt, Quiet, Seed, Threads, rules_and_lineup
from simkit.commands.output import out_console
from simkit.commands.progress import QuietEvents, TerminalEvents, progress_display
from simkit.commands.stopping import say_stopped, stop_signals
from simkit.game import defaults


def fair(
    policy: PolicyOpt = "greedy",
    seed: Seed = defaults.SEED,
    margin: Annotated[
        float | None,
        typer.Option(
            "--margin",
            help="The margin in percentage points: the rule is fair when team 0's edge lies within ±margin "
            "(and at three teams every gap between two teams within twice that). Default: 0.5 for casual "
            "play (random, greedy), 1 for strong play (a slow player such as swift).",
            show_default=False,
        ),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option(
            "--max-games",
            help="Play no look beyond this many games (then: undecided); default: every look of the design. "
            "The same command with a larger cap goes on where it stopped.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="The test's folder (its games and design); default: runs/fair/<configuration>."
        ),
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", help="text: a line per look and the verdict; json: the verdict as JSON.")
    ] = "text",
    threads: Threads = None,
    quiet: Quiet = False,
    rule_options: dict | None = None,  # every rule option, added when the command is built (options.with_options)
) -> None:
    """Is a rule fair? Play it in growing looks until a sequential test decides: fair (team 0's edge within
    ±margin), not fair, or undecided at --max-games; at most a 5% chance of calling a rule fair whose edge
    sits at the margin, whatever look it stops at (simkit.analysis.sequential)."""
    import json as json_module

    from simkit.game.play import set_threads
    from simkit.running.runner import RunSpec
    from simkit.studies import fair as fr

    with user_errors():
        if output_format not in ("text", "json"):
            raise ValueError(f"--format must be text or json, got {output_format!r}")
        if max_games is not None and max_games < 1:
            raise ValueError(f"--max-games must be at least 1, got {max_games}")
        rules, lineup = rules_and_lineup(rule_options, policy)
        the_plan = fr.plan(rules, lineup, seed, None if margin is None else margin / 100)
        set_threads(threads)
        folder = out if out is not None else Path(defaults.WORKSPACE) / "fair" / fr.folder_name(the_plan, defaults.SEED)
        fr.check_out(folder)
        fr.claim(folder, the_plan)
        talk = not quiet and output_format == "text"
        m = 100 * the_plan.design.margin
        command = fr.command(the_plan, policy, defaults.SEED, max_games, out)

        def said(k) -> None:
            if talk:
                out_console.print(fr.look_line(the_plan, k), highlight=False)

        if talk:
            out_console.print(
                f"testing {RunSpec(rules, lineup, seed, 1).describe()}: fair within ±{m:g} pp, looks at "
                f"{', '.join(f'{n:,}' for n in the_plan.looks)} games; folder {folder}",
                highlight=False,
            )
        with stop_signals() as heard, progress_display() if talk else nullcontext() as bar:

            def watcher():
                return TerminalEvents(bar, None, "look") if bar is not None else QuietEvents(talk)

            try:
                outcome = fr.test(the_plan, folder, max_games, watcher, said)
            except KeyboardInterrupt:
                outcome = None
        if outcome is None or outcome.interrupted:
            say_stopped(heard, f"the games in {folder} are whole; run the same command again to go on")
        assert outcome is not None
        if output_format == "json":
            out_console.print_json(json_module.dumps(fr.as_json(the_plan, outcome, command)))
            return
        if not quiet:
            out_console.print(fr.sentence(the_plan, outcome, command), highlight=False)
