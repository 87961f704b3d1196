"""The loop that plays a study: every configuration its kind's plan asks for, until it asks for nothing new.

``run_study`` claims the study directory (``simkit.studies.directory``),
plays what is missing until the plan asks for nothing new, so a finished
study plays nothing, an interrupted one resumes at the step it was at, and
more games extend it; then it writes the summary (``simkit.studies.summary``).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from simkit.files.lock import DirectoryLock, LockedError
from simkit.game.play import simulate
from simkit.running.distributed import check_scheduler, opened
from simkit.running.executors import noting_compile
from simkit.running.runner import RunEvents, RunSpec, run
from simkit.studies.directory import claim, recorded_commands, stale_runs, write_study_file
from simkit.studies.kind import Config, Results, Study, Tables, canonical
from simkit.studies.options import StudyError
from simkit.studies.summary import write_summary


class StudyEvents(RunEvents):
    """Forwards each run's progress to one watcher of the whole study (one bar for every run)."""

    def __init__(self, watcher: RunEvents):
        self.watcher = watcher

    def started(self, total: int, already: int) -> None:
        pass  # the study says how many games it has in all

    def compiling(self, lineup: str) -> None:
        self.watcher.compiling(lineup)

    def compiled(self, seconds: float) -> None:
        self.watcher.compiled(seconds)

    def playing(self) -> None:
        self.watcher.playing()

    def advanced(self, games: int) -> None:
        self.watcher.advanced(games)

    def notice(self, message: str) -> None:
        self.watcher.notice(message)


@dataclass
class StudyOutcome:
    """What run_study did."""

    out: Path
    games_played: int = 0
    interrupted: bool = False
    tables: Tables | None = None
    configs: list[Config] = field(default_factory=list)
    added: list[str] = field(default_factory=list)  # line-ups new to the study directory
    replaced: str | None = None  # what overwrite replaced, in words
    # Configurations on record (study.json) that this command did not play and whose games are not
    # in the directory (a fresh clone holds the summaries, never the datasets): left out of the summary.
    left_out: list[Config] = field(default_factory=list)


def run_study(
    study: Study,
    out: Path,
    events: RunEvents | None = None,
    scheduler=None,
    command: Sequence[str] | None = None,
    overwrite: bool = False,
) -> StudyOutcome:
    """Play every configuration `study` needs into `out`, then write its summary, plots and study.json.

    scheduler: None (this machine), or as ``simkit.running.runner.run`` takes it.
    overwrite: replace a study directory holding another study, and replay the runs in it that the
    code would play differently (stale_runs). One writer
    at a time: a second run_study on `out` is refused at once, naming the other.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise StudyError(f"{out} exists and is not a directory")
    if isinstance(scheduler, str):  # a bad scheduler, or no Dask: refused before anything is written
        check_scheduler(scheduler)
    # a study that cannot be made is refused before anything is written
    first_plan = study.kind.plan(study, Results(out, study.seed))
    out.mkdir(parents=True, exist_ok=True)
    try:
        lock = DirectoryLock(out).__enter__()
    except LockedError as e:
        raise StudyError(str(e)) from None
    try:
        outcome = StudyOutcome(out)
        outcome.replaced, outcome.added, lineups, previous = claim(study, out, overwrite)
        asked = Study(study.kind, study.options, study.lineups, study.seed)
        study = Study(study.kind, study.options, lineups, study.seed)
        stale = stale_runs(first_plan + previous, out, study.seed)
        if stale and not overwrite:
            n = sum(map(len, stale.values()))
            raise StudyError(
                f"{out} holds {n} run{'s' if n > 1 else ''} that this simkit would play differently: "
                + "; ".join(f"{', '.join(folders)} ({why})" for why, folders in stale.items())
                + f". Use --overwrite to replay {'them' if n > 1 else 'it'} (the study's other runs are kept), "
                "or --out DIR"
            )
        stale_folders = {folder for folders in stale.values() for folder in folders}
        # the directory is the study's from now on: an interrupted study resumes, another is refused
        write_study_file(out, study, previous, recorded_commands(out, command))
        events = events or RunEvents()
        watcher = StudyEvents(events)
        results = Results(out, study.seed)
        with _cluster(scheduler) as cluster:  # one cluster for every run of the study
            if scheduler is None:
                warm_up(_distinct(study.kind.plan(asked, results), study.seed), results, events)
            while True:
                configs = _distinct(study.kind.plan(asked, results), study.seed)
                planned = {c.folder(study.seed) for c in configs}
                # with overwrite, the stale runs of earlier commands' configurations are replayed too
                replays = [c for c in previous if c.folder(study.seed) in stale_folders - planned]
                todo = [c for c in configs + replays if results.aggregate(c) is None]
                if not todo:
                    break
                total = sum(c.games for c in configs + replays)
                events.started(total, total - sum(c.games - results.played(c) for c in todo))
                for config in todo:
                    result = run(
                        out / config.folder(study.seed),
                        RunSpec(config.rules, config.lineup, config.seed_of(study.seed), config.games),
                        overwrite=overwrite,
                        events=watcher,
                        scheduler=cluster,
                    )
                    outcome.games_played += result.games_played
                    results.forget(config)
                    if result.interrupted:
                        outcome.interrupted = True
                        return outcome
        # a row of an earlier command stays unless this command plays it: one folder can be two rows (two
        # compensation families' setting 0), so a row is its folder and its label
        rows = {(c.folder(study.seed), c.group, c.label) for c in configs}
        earlier = [c for c in previous if (c.folder(study.seed), c.group, c.label) not in rows]
        outcome.left_out = [c for c in earlier if results.aggregate(c) is None]
        configs = [
            c for c in earlier if results.aggregate(c) is not None
        ] + configs  # configurations of earlier commands (other line-ups or tables) stay in the study
        configs = canonical(configs, study)
        # a line-up that plays no row of the summary (its rows left out) leaves the study, with the commands
        # that named it alone (a row that only checks another line-up's answer does not count)
        playing = {p.spec for c in configs if dict(c.facts).get("role") != "check" for p in c.lineup.per_team}
        gone = {spec for spec in study.lineups if spec not in playing}
        study = Study(study.kind, study.options, {k: v for k, v in study.lineups.items() if k not in gone}, study.seed)
        outcome.configs = configs
        outcome.tables = write_summary(study, configs, results, out, command, gone)
        return outcome
    finally:
        lock.__exit__(None, None, None)


def warm_up(configs: list[Config], results: Results, events: RunEvents) -> None:
    """Compile (first run) or load every kernel the configurations still to play need, before the first
    game; a compile says so in one notice that lists the line-ups ('random and greedy')."""

    todo = [c for c in configs if results.aggregate(c) is None]
    if not todo:
        return
    by_set: dict[frozenset, Config] = {}  # a line-up per set of players: each player's decision loaded once
    for c in todo:
        by_set.setdefault(frozenset(p.kind.id for p in c.lineup.per_team), c)
    lineups = list(dict.fromkeys(c.lineup.spec for c in todo))

    def load() -> None:
        for c in by_set.values():
            simulate(c.rules, c.lineup, 0, 0, 0)

    noting_compile(events, " and ".join(lineups), load)


def _distinct(configs: list[Config], seed: int) -> list[Config]:
    """The configurations, each folder once (a configuration may serve two rows: teams' 6p/2t)."""
    seen: dict[str, Config] = {}
    for c in configs:
        other = seen.setdefault(c.folder(seed), c)
        if (other.rules, other.lineup, other.seed_of(seed)) != (c.rules, c.lineup, c.seed_of(seed)):
            raise StudyError(f"two different configurations of the study share the folder {c.folder(seed)}")
    return configs


def _cluster(scheduler):
    """A context holding the study's Dask cluster open across its runs (simkit.running.distributed.opened)."""
    if scheduler is None:
        return nullcontext(None)

    return opened(scheduler)
