"""`simkit study`: a set of runs that answers one question, summarised with intervals and plots."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated

import typer

from simkit.commands.errors import user_errors
from simkit.commands.group import command_class
from simkit.commands.options import Quiet, Scheduler, Seed, Threads
from simkit.commands.output import err_console
from simkit.commands.stopping import say_stopped, stop_signals
from simkit.commands.study_output import print_study, study_with_progress
from simkit.game import defaults
from simkit.studies.options import STUDY_OPTIONS


def _study_kinds_help() -> str:
    """Each study kind, with the tables and options it takes (simkit.studies.registry.KINDS)."""
    from simkit.studies.registry import KINDS

    return "\n\n".join(f"{k.name}: {k.help}. {k.accepts()}" for k in KINDS.values())


def _study_policy_default() -> str:
    """--policy's default: the kinds' default line-ups (simkit.studies.registry.KINDS)."""
    from simkit.studies.kind import StudyKind
    from simkit.studies.registry import KINDS

    usual = StudyKind.default_policies  # the field's default
    others = "; ".join(
        f"{k.name}: {', '.join(k.default_policies)}" for k in KINDS.values() if k.default_policies != usual
    )
    return f"Default: {' and '.join(usual)}" + (f" ({others})." if others else ".")


class _StudyCommand(typer.core.TyperCommand):
    """The study command. The {kinds} of its help (each study kind, with the tables and options it takes)
    and --policy's default (the kinds' line-ups) are read from the study registry when the help is shown, not
    when the command is built: a malformed `simkit study` command line is refused without importing it (pandas,
    scipy)."""

    def format_help_text(self, ctx, formatter) -> None:
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(inspect.cleandoc(self.help or "").replace("{kinds}", _study_kinds_help()))

    def format_options(self, ctx, formatter) -> None:
        for p in self.get_params(ctx):
            if p.name == "policy" and isinstance(p, typer.core.TyperOption) and "Default:" not in (p.help or ""):
                p.help = f"{p.help} {_study_policy_default()}"
        super().format_options(ctx, formatter)


@command_class(_StudyCommand)
def study(
    name: Annotated[str, typer.Argument(help="The study (see above).", show_default=False)],
    policy: Annotated[
        list[str] | None, typer.Option("--policy", help="A line-up, as in `simkit run --policy`; repeat for several.")
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            help="Games per configuration (skill: per pair; compensation: per setting searched). "
            "Default: 1,000,000 for random and greedy play (a 95% half-width of 0.1 pp), 10,000 with a lookahead; "
            "skill 2,000 per pair; compensation 100,000 (5,000 with a lookahead).",
        ),
    ] = None,
    seed: Seed = defaults.SEED,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Study directory; default: runs/NAME and the options not at their default (runs/ is "
            "the workspace, ignored by git; the published results/ is written only when --out names it).",
        ),
    ] = None,
    threads: Threads = None,
    study_options: dict | None = None,  # every study kind's own option, added likewise
    overwrite: Annotated[
        bool,
        typer.Option(
            "--overwrite",
            help="Replace a study directory that holds another study, or replay the runs of "
            "this one that this simkit would play differently.",
        ),
    ] = False,
    quiet: Quiet = False,
    scheduler: Scheduler = None,
    rule_options: dict | None = None,  # every rule option, added when the command is built (options.with_options)
) -> None:
    """Run a study: a set of runs that answers one question, summarised with intervals and plots.

    NAME is one of (each with the tables and options it takes):

    {kinds}

    Writes DIR/summary.csv, summary.md, PNG plots and study.json, and one dataset per
    configuration below DIR (default: runs/NAME, plus the options that differ from
    their default: runs/hand-size-late2; runs/ is the workspace, ignored by git, and the
    published results/ is written only when --out names it). Re-running plays only
    what is missing; more --games extends every configuration; another --policy joins
    the study.
    """
    from simkit.game.play import set_threads
    from simkit.studies.directory import default_folder
    from simkit.studies.loop import run_study
    from simkit.studies.options import StudyError
    from simkit.studies.registry import KINDS, make_study, unknown_study

    with user_errors():
        if name not in KINDS:
            raise StudyError(unknown_study(name))
        given = {k: STUDY_OPTIONS[k].read(v) for k, v in (study_options or {}).items()}
        given = {k: v for k, v in given.items() if v is not None}
        for option in given:  # a kind's own option given to another kind is refused
            if STUDY_OPTIONS[option].study != name:
                raise StudyError(
                    f"{STUDY_OPTIONS[option].flag} applies to the {STUDY_OPTIONS[option].study} study, not to {name}"
                )
        set_threads(threads)
        the_study = make_study(name, policy, games, seed, rule_options, **given)
        out = out or Path(defaults.WORKSPACE) / default_folder(the_study)
        _check_writable(out)
        with stop_signals() as heard:
            try:
                outcome = study_with_progress(run_study, the_study, out, quiet, scheduler, overwrite)
            except KeyboardInterrupt:  # before a run could answer it
                outcome = None
            except OSError as e:  # the study's folder or a file in it cannot be written: said as `simkit run` says it
                if _within(e.filename, out):
                    raise _Unwritable(f"cannot write to {out}: {e.strerror or e}") from None
                raise
        if outcome is not None and outcome.replaced:
            err_console.print(f"replaced {out}: it held {outcome.replaced}", highlight=False)
        if outcome is None or outcome.interrupted:
            say_stopped(heard, f"run the same command again to resume the study in {out}")
        if not quiet:
            print_study(the_study, outcome, out)
        if outcome is not None and not outcome.interrupted and outcome.left_out:
            _say_left_out(outcome.left_out, out)


class _Unwritable(ValueError):
    """A study's folder that cannot be written, in `simkit run`'s words (cannot write to DIR: why)."""


def _check_writable(out: Path) -> None:
    """Refuse a study folder that cannot be written before anything is played, in `simkit run`'s words
    (simkit.running.runner: cannot write to DIR: why), leaving nothing behind: a folder that exists is probed with a
    file, one that does not with a folder made and removed where it would be made."""
    import os
    import tempfile

    where = Path(out).absolute()
    while not where.exists() and where != where.parent:
        where = where.parent
    if not where.is_dir():
        return  # a file on the way: run_study refuses it in its own words
    try:
        if where == Path(out).absolute():
            fd, probe = tempfile.mkstemp(dir=where, prefix=".simkit-write-test-")
            os.close(fd)
            os.unlink(probe)
        else:
            os.rmdir(tempfile.mkdtemp(dir=where, prefix=".simkit-write-test-"))
    except OSError as e:
        raise _Unwritable(f"cannot write to {out}: {e.strerror or e}") from None


def _within(filename, folder: Path) -> bool:
    """Whether the file an OSError names is `folder`, inside it, or a folder above it (made on the way)."""
    if filename is None:
        return False
    path, folder = Path(filename).absolute(), Path(folder).absolute()
    return path == folder or folder in path.parents or path in folder.parents


def _say_left_out(left_out, out: Path) -> None:
    """Warn that configurations on record without games here were left out of the summary (even with --quiet)."""
    lineups = ", ".join(sorted({c.lineup.spec for c in left_out}))
    err_console.print(
        f"left out of the summary: {len(left_out)} configuration{'s' if len(left_out) != 1 else ''} of {out} "
        f"({lineups}) whose games are not on this machine (a clone holds summaries, not datasets); "
        f"summary.md and study.json now cover only what is here. The commands its earlier summary.md "
        f"listed play them again; in a clone of simkit, `git checkout -- {out}` restores the published "
        f"files.",
        highlight=False,
    )
