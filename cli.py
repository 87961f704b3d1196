"""The `simkit` command line: parse, call simkit, print.

Installed as ``simkit.cli`` (``simkit/cli.py`` links here) and as the
``simkit`` console script. Bad input ends in a one-line ``error: ...`` and
exit code 1 (2 for malformed options), never a traceback; a report of a
dataset that lacks games (a run interrupted or still running, a part
damaged or unreadable) ends with exit code 3 (EXIT_INCOMPLETE), its first
lines saying what is missing and the command that completes it.

One cohesive thing in one module: one function per command, each parsing
its options and printing what simkit returns. Each command imports the
modules it runs inside its function, so that `simkit --help` and a bad
option's error load 0.8 s of modules instead of every command's 3.0 s
(pandas, pyarrow, the runner, the studies; measured with a warm disk).
"""

from __future__ import annotations

import functools
import inspect
import signal
import sys
import time
from contextlib import contextmanager, nullcontext
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

import simkit
from simkit.game import defaults
from simkit.game.options import OPTIONS
from simkit.studies.options import STUDY_OPTIONS


class _OneLineErrors(typer.core.TyperGroup):
    """The app's group: a usage error (an unknown option, a missing value, a value of the wrong type) ends
    in one line, ``error: ...`` naming the option and pointing to --help, and exit code 2 (Click's)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]  # windows_expand_args comes in **extra
        exceptions = _click_exceptions()
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
        except exceptions.NoArgsIsHelpError as e:  # `simkit` alone: the help, as asked
            typer.echo(e.ctx.get_help())
            code = 0
        except exceptions.UsageError as e:
            err_console.print(f"error: {usage_message(e, args)}", highlight=False)
            code = 2
        except typer.Abort:  # (typer's own class: typer 0.29's copy of Click has none)
            code = 130
        if standalone_mode:
            sys.exit(code)
        return code


def _click_exceptions():
    """Click's exceptions, as typer raises them (typer 0.2x vendors its own copy of Click)."""
    try:
        # typer 0.2x exports none of its Click's usage errors, which the one-line errors catch by class;
        # tests/test_cli.py fails if they move.
        from typer._click import exceptions

        return exceptions
    except ImportError:  # a typer that uses Click itself
        from click import exceptions as click_exceptions

        return click_exceptions


def usage_message(e, args=None) -> str:
    """A Click usage error in one line: what is wrong, a close match if there is one, where --help is."""
    exceptions = _click_exceptions()
    words = list(sys.argv[1:] if args is None else args)
    command = next((w for w in words if w in ("run", "study", "report", "play", "replay")), None)
    where = f"see `simkit {command} --help`" if command else "see `simkit --help`"
    if isinstance(e, exceptions.NoSuchOption):
        close = f" (did you mean {e.possibilities[0]}?)" if e.possibilities else ""
        return f"no such option {e.option_name}{close}; {where}"
    text = " ".join(e.format_message().split()).rstrip(".")
    param = getattr(e, "param", None)
    if isinstance(e, exceptions.BadParameter) and param is not None and "valid integer" in text:
        return f"{'/'.join(param.opts)} takes a whole number; {where}"
    if isinstance(e, exceptions.BadParameter) and param is not None and "valid boolean" in text:
        return f"{'/'.join(param.opts)} takes true or false; {where}"
    return f"{text[0].lower()}{text[1:]}; {where}"


app = typer.Typer(
    cls=_OneLineErrors,
    help="Monte Carlo simulator for the board game Sequence: exactly reproducible games, fast.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # Click's plain help: wrapped to the terminal, never an option's name cut short
)
# soft_wrap: a message is one line, never cut at rich's 80 columns when piped.
# markup off: a path or a spec with brackets ("simkit[distributed]") prints as it is
out_console = Console(soft_wrap=True, markup=False)
err_console = Console(stderr=True, soft_wrap=True, markup=False)

DEFAULT_RUN_OUT = Path(defaults.WORKSPACE) / "default-2p-random"
EXIT_INCOMPLETE = 3
"""The exit code of a report (or a run's report) of a dataset that lacks games or has damaged parts."""


@contextmanager
def user_errors():
    """Turn the errors a user can cause into one line on stderr and exit code 1; a dataset that lacks games
    (simkit.running.dataset.IncompleteDataset) into its lines (what is missing, the commands that complete it) and
    exit code 3."""
    from simkit.game.players import LineupError
    from simkit.game.rules import RulesError
    from simkit.running.dataset import DatasetError, IncompleteDataset

    try:
        yield
    except RulesError as e:
        err_console.print(f"error: {e.for_command_line()}", highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(1) from None
    except IncompleteDataset as e:
        _say_lines("error", e.lines)
        raise typer.Exit(EXIT_INCOMPLETE) from None
    except OSError as e:
        err_console.print(f"error: {os_error(e)}", highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(1) from None
    except (LineupError, DatasetError, ValueError) as e:
        err_console.print(f"error: {e}", highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(1) from None


def os_error(e: OSError) -> str:
    """An OSError in words: '/x: No such file or directory' ("[Errno 2] ..." is Python's, not the user's)."""
    what = " ".join(str(x) for x in (e.filename, e.filename2) if x is not None)
    why = e.strerror or str(e)
    return f"{what}: {why}" if what else why


def _say_lines(word: str, lines: list[str]) -> None:
    """`word`: the first line, then the others as they are (a dataset's shortfall,
    simkit.running.dataset.shortfall_lines)."""
    err_console.print(f"{word}: {lines[0]}", highlight=False, markup=False, soft_wrap=True)
    for line in lines[1:]:
        err_console.print(line, highlight=False, markup=False, soft_wrap=True)


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
    adds it to run, study and play.
    """
    added = {}
    for name, option in OPTIONS.items():
        typ = {"int": int, "bool": bool, "sizes": str, "counts": str}[option.kind]
        decls = [option.flags] + ([option.short] if option.short else [])
        default = option.default_text or (
            ("on" if option.default else "off") if option.kind == "bool" else f"{option.default:,}"
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


def _config(rule_options: dict | None, policy: str, swap_seats: bool = False):
    """(Rules, Lineup) from the command line's rule options and line-up."""
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules

    rules = Rules.make(**(rule_options or {}))
    return rules, Lineup.parse(policy, rules, swap_seats)


@app.command()
@with_rule_options
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
    threads: Annotated[int | None, typer.Option("--threads", help="Kernel threads; default: all cores.")] = None,
    chunk_size: Annotated[
        int | None,
        typer.Option("--chunk-size", help="Games per part file; default 100,000 (1,000 when a lookahead plays)."),
    ] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace a different run already in --out.")] = False,
    quiet: Quiet = False,
    scheduler: Scheduler = None,
    rule_options: dict | None = None,
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
        rules, lineup = _config(rule_options, policy, swap_seats)
        n_threads = set_threads(threads)
        spec = RunSpec(rules, lineup, seed, games, chunk_size)
        out = out if out is not None else default_out(spec)
        with _stop_signals() as heard:
            try:
                outcome = _run_with_progress(run_games, out, spec, overwrite, quiet, scheduler)
            except KeyboardInterrupt:  # before the runner could answer it: what is on disk is whole all the same
                _say_stopped(heard, f"the files in {out} are whole; run the same command again to resume")
        _say_outcome(outcome, n_threads, quiet, scheduler, _stop_word(heard))
        if outcome.interrupted:
            raise typer.Exit(_stop_code(heard))
        if not quiet:
            _print_report(out, "rich")


@contextmanager
def _stop_signals():
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


def _stop_word(heard: list[int]) -> str:
    return "terminated (SIGTERM)" if heard else "interrupted"


def _stop_code(heard: list[int]) -> int:
    """143 after SIGTERM, 130 after Ctrl-C (128 + the signal's number, as a shell reports it)."""
    return 128 + (signal.SIGTERM if heard else signal.SIGINT)


def _say_stopped(heard: list[int], what: str) -> None:
    """One line: stopped by Ctrl-C or SIGTERM, and `what` (how to resume); then exit 130 or 143."""
    err_console.print(f"{_stop_word(heard)}: {what}", highlight=False)
    raise typer.Exit(_stop_code(heard))


def default_out(spec) -> Path:
    """runs/default-2p-random for the default configuration, else runs/<configuration> (the workspace)."""
    from simkit.running.runner import run_folder_name

    name = run_folder_name(spec.rules, spec.lineup, spec.seed, defaults.SEED)
    return DEFAULT_RUN_OUT if name == "p2t2-random" else Path(defaults.WORKSPACE) / name


def _compiling_text(lineup: str, where: str = "") -> str:
    """What the compile notice says: the line-up, first run only, its players' compile estimate."""
    from simkit.running.runner import compile_estimate

    return f"compiling the kernels for {lineup}{where} (first run only, about {compile_estimate(lineup)} s)"


def _say_compiling(lineup: str, where: str = "") -> None:
    """The compile notice as one fixed line, for stderr that is not a terminal (a pipe, a log)."""
    err_console.print(_compiling_text(lineup, where) + " ...", highlight=False)


def _progress(console: Console | None = None):
    """The progress bar of a run or a study: games done, games/s, time left; while the kernels compile, a
    line of its own with a spinner and the seconds so far (_Bar.compiling). On stderr, gone at the end."""
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


if TYPE_CHECKING:
    from simkit.running.executors import RunEvents as _RunEvents
else:
    _RunEvents = object  # the runner imported only when a command runs (it loads the kernels)


class _Bar(_RunEvents):
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
        text = _compiling_text(lineup, " on each worker" if self.scheduler else "")
        self.compile_task = self.bar.add_task(text, total=None, rate="", compiling=True)

    def compiled(self, seconds: float) -> None:
        if self.compile_task is not None:
            self.bar.remove_task(self.compile_task)
            self.compile_task = None
        self.bar.console.print(f"compiled in {seconds:.0f} s; they are cached for later runs", highlight=False)

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


class _Quiet(_RunEvents):
    """Events that print the compile notice as one fixed line (not with --quiet) and the runner's notices, nothing
    else: a run's or a study's on a stderr that is not a terminal or with --quiet, and simkit play's."""

    def __init__(self, notice: bool):
        self.compile_notice = notice

    def started(self, total: int, already: int) -> None:
        pass

    def compiling(self, lineup: str) -> None:
        if self.compile_notice:
            _say_compiling(lineup)

    def compiled(self, seconds: float) -> None:
        pass

    def playing(self) -> None:
        pass

    def advanced(self, games: int) -> None:
        pass

    def notice(self, message: str) -> None:  # printed even with --quiet: a part set aside, an option not used
        err_console.print(message, highlight=False)


def _run_with_progress(run_games, out, spec, overwrite, quiet, scheduler=None):
    if quiet or not sys.stderr.isatty():
        return run_games(out, spec, overwrite, events=_Quiet(notice=not quiet), scheduler=scheduler)
    with _progress() as bar:
        return run_games(out, spec, overwrite, events=_Bar(bar, scheduler), scheduler=scheduler)


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
    and --policy's default (the kinds' line-ups) are read from the study registry when the help is shown:
    importing it (pandas, scipy) would slow the start-up of every other command, and of `simkit --help`,
    which shows the help's first line alone."""

    def format_help_text(self, ctx, formatter) -> None:
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(inspect.cleandoc(self.help or "").replace("{kinds}", _study_kinds_help()))

    def format_options(self, ctx, formatter) -> None:
        for p in self.get_params(ctx):
            if p.name == "policy" and isinstance(p, typer.core.TyperOption) and "Default:" not in (p.help or ""):
                p.help = f"{p.help} {_study_policy_default()}"
        super().format_options(ctx, formatter)


@app.command(cls=_StudyCommand)
@with_study_options
@with_rule_options
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
    threads: Annotated[int | None, typer.Option("--threads", help="Kernel threads; default: all cores.")] = None,
    study_options: dict | None = None,
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
    rule_options: dict | None = None,
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
        with _stop_signals() as heard:
            try:
                outcome = _study_with_progress(run_study, the_study, out, quiet, scheduler, overwrite)
            except KeyboardInterrupt:  # before a run could answer it
                outcome = None
            except OSError as e:  # the study's folder or a file in it cannot be written: said as `simkit run` says it
                if _within(e.filename, out):
                    raise _Unwritable(f"cannot write to {out}: {e.strerror or e}") from None
                raise
        if outcome is not None and outcome.replaced:
            err_console.print(f"replaced {out}: it held {outcome.replaced}", highlight=False)
        if outcome is None or outcome.interrupted:
            _say_stopped(heard, f"run the same command again to resume the study in {out}")
        if not quiet:
            _print_study(the_study, outcome, out)
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


def _study_with_progress(run_study, the_study, out, quiet, scheduler, overwrite=False, command=None, label=None):
    """run_study with a progress bar on a terminal (label: the bar's; default 'study KIND'), quiet notices
    elsewhere. command: the command recorded in study.json (default: this `simkit study` command)."""
    if command is None and "study" in sys.argv:
        command = ["simkit", "study", *sys.argv[sys.argv.index("study") + 1 :]]
    if quiet or not sys.stderr.isatty():
        return run_study(the_study, out, _Quiet(notice=not quiet), scheduler, command, overwrite)
    with _progress() as bar:
        return run_study(
            the_study, out, _Bar(bar, scheduler, label or f"study {the_study.kind.name}"), scheduler, command, overwrite
        )


def _rich_table(frame, title: str | None = None):
    """A study table for the terminal: text columns left, numbers right; a terminal too narrow for a row folds
    its cells onto more lines, never cutting one short."""
    from rich.table import Table

    from simkit.presentation.render import looks_numeric

    table = Table(title=title, title_justify="left", header_style="bold", show_edge=False)
    cells = frame.astype(str)
    for c in frame.columns:
        numeric = all(looks_numeric(v) for v in cells[c])
        table.add_column(str(c), justify="right" if numeric else "left", overflow="fold")
    for row in cells.itertuples(index=False):
        table.add_row(*row)
    return table


def _print_study(the_study, outcome, out: Path) -> None:
    tables = outcome.tables
    console = out_console if out_console.is_terminal else Console(width=200)  # a pipe gets the table whole
    title = f"{the_study.kind.name} study (seed {the_study.seed}); details in {out / 'summary.md'}"
    key = tables.terminal if tables.terminal is not None else tables.key
    if key is not None and len(key):
        console.print(_rich_table(key, title))
        if tables.terminal is not None and tables.terminal_note:
            piped = console is not out_console  # a pipe gets the note on one line
            console.print(tables.terminal_note, highlight=False, soft_wrap=piped)
    for heading, more in tables.terminal_more.items():  # skill's ratings
        console.print()
        console.print(_rich_table(more, heading))
    if outcome.added:
        err_console.print(f"added to the study: {', '.join(outcome.added)}", highlight=False)
    played = (
        f"{outcome.games_played:,} games played" if outcome.games_played else "nothing to play: every game was on disk"
    )
    err_console.print(f"{played}; summary.csv, summary.md, plots and study.json in {out}", highlight=False)


class Format(StrEnum):
    rich = "rich"
    markdown = "markdown"
    csv = "csv"
    json = "json"


FORMATS = [f.value for f in Format]


def _print_report(directory: Path, fmt: str, explain: bool = False, allow_incomplete: bool = False) -> None:
    """The report of `directory` on stdout. A dataset that lacks games is refused
    (simkit.running.dataset.IncompleteDataset:
    exit code 3 through user_errors), or, allow_incomplete, said first on stderr and reported all the same."""
    import shlex
    import warnings

    from simkit.analysis.report import check_whole, summarise_dataset
    from simkit.presentation.report import render, render_rich
    from simkit.running.dataset import IncompleteDatasetWarning

    summaries = summarise_dataset(directory)
    then = (
        f"`simkit report --allow-incomplete {shlex.quote(str(directory))}` prints the partial report on "
        "purpose (exit code 0)"
        if not allow_incomplete
        else "the report below is partial: printed on purpose (--allow-incomplete)"
    )
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", IncompleteDatasetWarning)
        check_whole(directory, summaries, allow_incomplete, then)
    for w in heard:
        _say_lines("warning", [*str(w.message).splitlines(), f"  {then}"])
    if fmt == "rich":
        render_rich(summaries, out_console, explain=explain)
    else:
        text = render(summaries, fmt, explain=explain)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


@app.command()
def report(
    directory: Annotated[Path, typer.Argument(help="A dataset written by `simkit run` (or a folder of them).")],
    fmt: Annotated[
        str,
        typer.Option(
            "--format", "-f", metavar="|".join(FORMATS), help="rich (terminal tables), markdown, csv or json."
        ),
    ] = "rich",
    explain: Annotated[
        bool,
        typer.Option(
            "--explain", help="After the tables, print what every term in them means (rich and markdown only)."
        ),
    ] = False,
    allow_incomplete: Annotated[
        bool,
        typer.Option(
            "--allow-incomplete",
            help="Print the report of a dataset that lacks games (a run interrupted or still "
            "running, a damaged part left out) on purpose, after the lines saying what is missing; exit code 0. "
            "Without it such a dataset gets only those lines, and exit code 3.",
        ),
    ] = False,
) -> None:
    """Summarise a dataset: win rates with 95% intervals, game lengths, first sequences.

    Every part is checked as it is read. A dataset that lacks games (a run interrupted or still running, a
    part damaged or unreadable) is not reported: its first lines say what is missing and the `simkit run`
    command that completes it, and the exit code is 3 (--allow-incomplete prints the partial report).
    Exit codes: 0 reported; 1 bad input; 2 a malformed command line; 3 the dataset lacks games.
    """
    if fmt not in FORMATS:
        err_console.print(
            f"error: --format must be {', '.join(FORMATS[:-1])} or {FORMATS[-1]}, got {fmt!r}; "
            "see `simkit report --help`",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
        raise typer.Exit(2)
    if explain and fmt in ("csv", "json"):
        raise typer.BadParameter(
            f"the glossary goes with --format rich or markdown; {fmt} stays machine-readable "
            "(the glossary is in docs/guide/reports.md, 'Glossary')",
            param_hint="'--explain'",
        )
    with user_errors():
        _print_report(directory, fmt, explain, allow_incomplete)


@app.command()
@with_rule_options
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
    rule_options: dict | None = None,
) -> None:
    """Play games one by one: final board, one result line per game, optional records.

    Ctrl-C keeps the records of the games already finished.
    """
    from simkit.game.play import check_games
    from simkit.game.records import check_writable, game_record, write_records
    from simkit.presentation.display import board_from_record, render_board, result_line
    from simkit.running.executors import noting_compile

    with user_errors():
        rules, lineup = _config(rule_options, policy, swap_seats)
        check_games(seed, first_game, games)
        if record is not None:
            check_writable(record, force)
        events = _Quiet(notice=not quiet)

        def games_played():
            for g in range(first_game, first_game + games):
                if g == first_game:  # the first game compiles the kernels on a first run
                    rec = noting_compile(events, lineup.spec, game_record, rules, lineup, seed, g)
                else:
                    rec = game_record(rules, lineup, seed, g)
                if not quiet:
                    if board:
                        out_console.print(render_board(*board_from_record(rec)), end="")
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


@app.command()
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
    threads: Annotated[int | None, typer.Option("--threads", help="Kernel threads; default: all cores.")] = None,
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
        with _stop_signals() as heard:
            try:
                outcome = _study_with_progress(
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
            _say_stopped(heard, f"run the same command again to resume the confirmation in {folder}")
        if not quiet:
            _print_study(the_study, outcome, folder)


@app.command()
@with_rule_options
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
    threads: Annotated[int | None, typer.Option("--threads", help="Kernel threads; default: all cores.")] = None,
    quiet: Quiet = False,
    rule_options: dict | None = None,
) -> None:
    """Is a rule fair? Play it in growing looks until a sequential test decides: fair (team 0's edge within
    ±margin), not fair, or undecided at --max-games; at most a 5% chance of calling a rule fair whose edge
    sits at the margin, whatever look it stops at (simkit.analysis.sequential)."""
    import json as json_module

    from simkit.game.options import flags_text
    from simkit.game.play import set_threads
    from simkit.presentation.render import pp
    from simkit.running.runner import RunSpec
    from simkit.studies import fair as fr

    with user_errors():
        if output_format not in ("text", "json"):
            raise ValueError(f"--format must be text or json, got {output_format!r}")
        if max_games is not None and max_games < 1:
            raise ValueError(f"--max-games must be at least 1, got {max_games}")
        rules, lineup = _config(rule_options, policy)
        the_plan = fr.plan(rules, lineup, seed, None if margin is None else margin / 100)
        set_threads(threads)
        folder = out if out is not None else Path(defaults.WORKSPACE) / "fair" / fr.folder_name(the_plan, defaults.SEED)
        fr.check_out(folder)
        fr.claim(folder, the_plan)
        talk = not quiet and output_format == "text"
        m = 100 * the_plan.design.margin
        words = ["simkit fair", f"--players {rules.players} --teams {rules.teams}", flags_text(rules.changed())]
        words += [f"--policy {policy}", f"--margin {m:g}"]
        words += [f"--seed {seed}"] if seed != defaults.SEED else []
        words += [f"--max-games {max_games}"] if max_games is not None else []
        words += [f"--out {out}"] if out is not None else []
        command = " ".join(w for w in words if w)

        def said(k) -> None:
            if not talk:
                return
            gap = (
                f"; largest gap {pp(k.max_gap, k.max_gap_low, k.max_gap_high, digits=2)}"
                if k.max_gap is not None
                else ""
            )
            word = {"continue": "go on", "fair": "fair", "not fair": "not fair"}[k.verdict]
            out_console.print(
                f"look {k.look} of {len(the_plan.looks)}: {k.games:,} games, edge "
                f"{pp(k.advantage, k.low, k.high, digits=2)} (margin ±{m:g} pp){gap}: {word}",
                highlight=False,
            )

        if talk:
            out_console.print(
                f"testing {RunSpec(rules, lineup, seed, 1).describe()}: fair within ±{m:g} pp, looks at "
                f"{', '.join(f'{n:,}' for n in the_plan.looks)} games; folder {folder}",
                highlight=False,
            )
        with _stop_signals() as heard, _progress() if talk else nullcontext() as bar:

            def watcher():
                return _Bar(bar, None, "look") if bar is not None else _Quiet(talk)

            try:
                outcome = fr.test(the_plan, folder, max_games, watcher, said)
            except KeyboardInterrupt:
                outcome = None
        if outcome is None or outcome.interrupted:
            _say_stopped(heard, f"the games in {folder} are whole; run the same command again to go on")
        assert outcome is not None
        if output_format == "json":
            out_console.print_json(json_module.dumps(fr.as_json(the_plan, outcome, command)))
            return
        if not quiet:
            out_console.print(fr.sentence(the_plan, outcome, command), highlight=False, soft_wrap=True)


@app.command()
def card(
    results: Annotated[
        Path,
        typer.Option(
            "--results",
            help="The published studies the card is made from: their compensation*/verdicts.csv and "
            "first-player/summary.csv.",
        ),
    ] = Path("results"),
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Where to write fair-sequence-card.md, .png and .pdf (runs/ is the workspace, "
            "ignored by git; the published results/ is written only when --out names it).",
        ),
    ] = Path(defaults.WORKSPACE),
    quiet: Quiet = False,
) -> None:
    """Make the fair-Sequence rules card: at every table, the rule that brings the first player's edge within
    the margin for casual play (greedy) and strong play (swift), as the confirmation decided it, in words,
    with the edge it leaves and the edge without it; markdown and a printable one-page PNG and PDF."""
    from simkit.studies.rules_card import write

    with user_errors():
        paths = write(results, out)
    if not quiet:
        out_console.print(f"wrote {', '.join(str(p) for p in paths)}", highlight=False)


@app.command()
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
    if turn is not None:
        if turn == 0:
            out_console.print(f"the deal:\n{dealt(rec)}", highlight=False)
            out_console.print(render_board(empty, set()), end="")
            return
        step = steps[turn - 1]
        out_console.print(step.words, highlight=False)
        out_console.print(render_board(step.owner, step.locked, step.turn.get("cell")), end="")
        if turn == len(steps):
            out_console.print(result_line(rec), highlight=False)
        return
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    out_console.print(f"the deal:\n{dealt(rec)}", highlight=False)
    out_console.print(render_board(empty, set()), end="")
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
        out_console.print(render_board(step.owner, step.locked, step.turn.get("cell")), end="")
    out_console.print(result_line(rec), highlight=False)


if __name__ == "__main__":
    app()
