"""The options several commands share, and the rule options and study options every command that takes them
gets from their registries (simkit.game.options.OPTIONS, simkit.studies.options.STUDY_OPTIONS)."""

from __future__ import annotations

import functools
import inspect
from typing import Annotated

import typer

from simkit.game.options import OPTIONS
from simkit.studies.options import STUDY_OPTIONS

PolicyOpt = Annotated[
    str,
    typer.Option(
        "--policy",
        help="One policy per team, NAME[:KEY=VALUE...][,NAME...]: 'greedy,random' gives team 0 greedy and "
        "team 1 random; a shorter list cycles over the teams, a longer one is refused.",
    ),
]
SwapSeats = Annotated[
    bool,
    typer.Option(
        "--swap-seats",
        help="Rotate the line-up from game to game (two teams: swap seats every other game), "
        "so each policy takes every place at the table equally often.",
    ),
]
Seed = Annotated[int, typer.Option("--seed", "-s", min=0, help="Master seed (0 .. 2**63-1).")]
Threads = Annotated[int | None, typer.Option("--threads", help="Kernel threads; default: all cores.")]
Quiet = Annotated[
    bool, typer.Option("--quiet", "-q", help="Print nothing but errors and warnings: no progress bar, no report.")
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Play on a Dask cluster: tcp://HOST:PORT of a running scheduler, or local:N for N "
        "single-threaded workers on this machine (needs pip install 'simkit[distributed]').",
    ),
]


def with_options(command):
    """`command` with the rule options where it has a parameter ``rule_options`` (with_rule_options) and the
    study options where it has ``study_options`` (with_study_options): read from the registries as they are
    when the command is built."""
    parameters = inspect.signature(command).parameters
    if "rule_options" in parameters:
        command = with_rule_options(command)
    if "study_options" in parameters:
        command = with_study_options(command)
    return command


def _options_as_one_keyword(command, keyword: str, added: dict, keep=lambda value: True):
    """`command` with its parameter `keyword` replaced, where it stands, by the command-line options `added`
    (name -> (typer.Option, type)); the command takes their values as that one keyword, a dict name -> value
    of the values `keep` accepts."""
    signature = inspect.signature(command, eval_str=True)
    params = []
    for p in signature.parameters.values():
        if p.name != keyword:
            params.append(p)
            continue
        params += [inspect.Parameter(name, p.kind, default=info, annotation=typ) for name, (info, typ) in added.items()]

    @functools.wraps(command)
    def with_options(**kwargs):
        given = {name: kwargs.pop(name) for name in added}
        return command(**kwargs, **{keyword: {k: v for k, v in given.items() if keep(v)}})

    del with_options.__wrapped__  # typer reads __signature__, not the wrapped function's
    with_options.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]  # typer reads it
    with_options.__annotations__ = {p.name: p.annotation for p in params}
    return with_options


def with_rule_options(command):
    """Give `command` every rule option of simkit.game.options.OPTIONS as a command-line option.

    `command` takes them as one keyword, ``rule_options``: name -> value for
    the options given on the command line (the others are left out, so the
    table's defaults apply). Declared once in OPTIONS: adding an option there
    adds it to run, study, play and fair.
    """
    added = {}
    for name, option in OPTIONS.items():
        typ = {"int": int, "bool": bool, "sizes": str, "counts": str, "text": str}[option.kind]
        decls = [option.flags] + ([option.short] if option.short else [])
        default = option.default_text or (
            ("on" if option.default else "off")
            if option.kind == "bool"
            else option.default
            if option.kind == "text"
            else f"{option.default:,}"
        )
        info = typer.Option(
            None,
            *decls,
            help=f"{option.help} Default: {default}.",
            metavar=option.metavar,
            show_default=False,
            rich_help_panel="Rule options",
        )
        added[name] = (info, typ | None)
    return _options_as_one_keyword(command, "rule_options", added, keep=lambda value: value is not None)


def with_study_options(command):
    """Give `command` every study kind's own option (simkit.studies.options.STUDY_OPTIONS) as a command-line
    option, with its help, where its parameter ``study_options`` stands.

    `command` takes them as that one keyword: name -> what the command line
    gave (a text, a list of texts for a repeated flag, or None), for the
    option to read (StudyOption.read). Declared once in STUDY_OPTIONS: adding
    an option there adds it to `simkit study`.
    """
    added = {
        name: (
            typer.Option(None, option.flag, help=option.command_help),
            (list[str] | None) if option.repeat else (str | None),
        )
        for name, option in STUDY_OPTIONS.items()
    }
    return _options_as_one_keyword(command, "study_options", added)


def rules_and_lineup(rule_options: dict | None, policy: str, swap_seats: bool = False):
    """(Rules, Lineup) from the command line's rule options and line-up."""
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules

    rules = Rules.make(**(rule_options or {}))
    return rules, Lineup.parse(policy, rules, swap_seats)
