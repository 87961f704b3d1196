"""The machinery every study kind shares: configurations, the loop that plays them, the study directory.

A study answers one question with a set of runs, each a ``simkit run``
dataset in a folder of its own below the study directory::

    DIR/study.json          the study's identity, the commands that made it, every configuration and its run_id
    DIR/summary.csv         one row per configuration: every number with its interval and its games
    DIR/summary.md          the question, the commands that regenerate it, the key tables, the plots, the notes
    DIR/*.png, DIR/*.csv    the kind's figures and extra tables
    DIR/p2t2-random/        one dataset per configuration (simkit report reads any of them)

A study *kind* (``StudyKind``, one entry of ``simkit.studies.registry.KINDS``)
declares its configurations and what it writes. Its ``plan`` is called
with the results so far and returns every configuration the study needs
now: a fixed grid returns its grid; a search (the compensation study)
returns the settings tried so far plus the next ones, then its confirmation
run, and the same list once it is done. ``run_study`` plays what is missing
until the plan asks for nothing new, so a finished study plays nothing, an
interrupted one resumes at the step it was at, and more games extend it.

The study directory records the study's identity (kind, options, seed,
versions) and the games of each line-up: a study with other options is
refused in one line that names what differs, unless ``overwrite``; a new
line-up joins the study, more games extend it, fewer are refused.
"""

from __future__ import annotations

import json
import math
import shlex
import shutil
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis import stats
from simkit.analysis.aggregate import Aggregate, Pairs, paired, runs_of
from simkit.analysis.metrics import INTERVALS, measure
from simkit.files.atomic import replacing
from simkit.files.lock import DirectoryLock, LockedError
from simkit.game import defaults
from simkit.game.options import OPTIONS, is_default
from simkit.game.play import simulate
from simkit.game.players import Lineup
from simkit.game.rules import LEGAL_TEAMS, Rules
from simkit.presentation import plots
from simkit.presentation.render import markdown_table
from simkit.running import dataset as ds
from simkit.running import manifest as mf
from simkit.running.distributed import check_scheduler, opened
from simkit.running.executors import noting_compile
from simkit.running.runner import RunEvents, RunSpec, identity_differences, run, run_folder_name
from simkit.studies.options import StudyError, StudyOption, options_of

STUDY_FORMAT = "simkit.study/2"
STUDY_FILE = "study.json"
LEGAL_TABLES = [(p, t) for p, ts in LEGAL_TEAMS.items() for t in ts]
PRECISE_HALF_WIDTH = 0.001  # random and greedy: a 95% half-width of 0.1 pp on team 0's share (~1,000,000 games)
STRONG_HALF_WIDTH = 0.01  # a lookahead (10-80 games/s per core): 1 pp (~10,000 games)


def round_games(n: int) -> int:
    """n rounded up to two significant figures (960,365 -> 970,000; 9,604 -> 9,700)."""
    scale = 10 ** max(0, int(math.log10(max(n, 1))) - 1)
    return int(math.ceil(n / scale) * scale)


def default_games(lineup: Lineup) -> int:
    """Games a configuration plays when --games is not given: its players' declared study games, the
    fewest (kernels.players.player.Cost: 1,000,000 for random and greedy play, a 95% half-width of
    0.1 pp on team 0's share; 10,000 with a slow player, 1 pp: STRONG_HALF_WIDTH)."""
    return lineup.study_games


@dataclass(frozen=True)
class Config:
    """One configuration of a study: a run's rules, line-up, games and seed, and its place in the study.

    seed None: the study's seed. facts: the kind's own columns for this
    configuration's summary row (family, setting, role, ...).
    """

    rules: Rules
    lineup: Lineup
    games: int
    group: str = ""
    label: str = ""
    seed: int | None = None
    facts: tuple[tuple[str, Any], ...] = ()

    def folder(self, study_seed: int) -> str:
        """The configuration's folder in the study directory (the seed named when it is not the study's)."""
        seed = study_seed if self.seed is None else self.seed
        return run_folder_name(self.rules, self.lineup, seed, study_seed)

    def seed_of(self, study_seed: int) -> int:
        return study_seed if self.seed is None else self.seed


@dataclass
class Study:
    """A study as asked for: its kind, options, line-ups with their games, and seed.

    options: the rule options given (``rules``) and the kind's own options
    (hand-size: ``sizes``; compensation: ``families``, ...), as plain values.
    lineups: line-up spec -> games per configuration.
    """

    kind: StudyKind
    options: dict
    lineups: dict[str, int]
    seed: int = defaults.SEED

    @property
    def base(self) -> dict:
        """The rule options given to the study (each configuration's rules start from them)."""
        return dict(self.options.get("rules", {}))

    def identity(self) -> dict:
        """What a study directory holds only one of: kind, options, seed, versions. Not the line-ups and
        the options that choose among the kind's tables and parts (``StudyKind.choosing``), which may be
        added, nor their games, which may grow."""
        versions = ds.versions()
        options = {k: v for k, v in self.options.items() if k not in self.kind.choosing}
        options["rules"] = {k: v for k, v in self.base.items() if k not in self.kind.choosing}
        return {
            "study": self.kind.name,
            "options": options,
            "seed": self.seed,
            "simkit": versions["simkit"],
            "kernel": ds.GAMES_STAMP,
        }


@dataclass
class Results:
    """What the configurations played so far came to: their aggregates, read from the study directory."""

    out: Path
    seed: int
    _aggregates: dict[str, Aggregate] = field(default_factory=dict)

    def aggregate(self, config: Config) -> Aggregate | None:
        """The aggregate of a configuration whose run is complete on disk, else None (also when its folder
        holds another run: see stale_runs)."""
        name = config.folder(self.seed)
        if name not in self._aggregates or self._aggregates[name].games < config.games:  # (more asked of it)
            self._aggregates.pop(name, None)
            directory = self.out / name
            if games_of_run(directory, config_run_id(config, self.seed)) < config.games:
                return None
            (found,) = list(runs_of(directory))
            if found.aggregate.games < config.games:
                return None
            self._aggregates[name] = found.aggregate
        return self._aggregates[name]

    def played(self, config: Config) -> int:
        """Games of the configuration's own run on disk, at most its games (another run's count none)."""
        return min(games_of_run(self.out / config.folder(self.seed), config_run_id(config, self.seed)), config.games)

    def seconds(self, config: Config) -> float | None:
        """The wall time the configuration's run took to play on this machine (simkit.running.manifest's times
        log); None when it was played before the log existed or is not on disk."""
        return mf.played_seconds(self.out / config.folder(self.seed))

    def forget(self, config: Config) -> None:
        self._aggregates.pop(config.folder(self.seed), None)

    def pairs(self, a: Config, b: Config) -> Pairs:
        """The games of a and b paired by index (simkit.analysis.aggregate.paired)."""
        return paired(self.out / a.folder(self.seed), self.out / b.folder(self.seed), a.rules.teams)

    def joint(self, a: Config, b: Config) -> np.ndarray:
        """Games of a and b paired by index: (teams + 1, teams + 1) by winner + 1 (simkit.analysis.stats.shift)."""
        return self.pairs(a, b).winners


@dataclass
class Tables:
    """What a kind writes of a study: summary.csv, extra CSVs, the key table and markdown sections."""

    summary: pd.DataFrame
    extra: dict[str, pd.DataFrame] = field(default_factory=dict)
    key: pd.DataFrame | None = None  # the table for people (summary.md)
    terminal: pd.DataFrame | None = None  # the same for the terminal, narrower (default: key)
    terminal_more: dict[str, pd.DataFrame] = field(default_factory=dict)  # more tables for the terminal, by title
    sections: list[str] = field(default_factory=list)  # further markdown, after the key table
    notes: list[str] = field(default_factory=list)  # bullet points at the end of summary.md


@dataclass(frozen=True)
class StudyKind:
    """One kind of study: what it asks, which configurations it plays, what it writes.

    plan(study, results) -> every configuration needed now (see the module
    docstring); tables(study, configs, results) -> Tables; figures(tables)
    -> {file name: matplotlib Figure}. varies: the rule options the kind
    sets itself (refused on its command line, except where `restricts` lets
    them choose among the kind's tables). options: the kind's own options,
    declared in simkit.studies.options.STUDY_OPTIONS (the entries naming the
    kind); those that choose among its parts (compensation: ``families``)
    are, with `restricts`, the options ``choosing``: like the tables, they are
    not the study's identity nor its folder, so a command that asks for some
    of them joins the study. games: the default games of a line-up's
    configurations.
    """

    name: str
    question: str
    help: str
    plan: Callable[[Study, Results], list[Config]]
    tables: Callable[[Study, list[Config], Results], Tables]
    figures: Callable[[Tables], dict[str, Any]]
    default_policies: tuple[str, ...] = ("random", "greedy")
    varies: tuple[str, ...] = ()
    restricts: tuple[str, ...] = ()
    games: Callable[[Lineup], int] = default_games
    unit: str = "configuration"  # what --games counts: games per configuration (per pair for skill)
    tables_text: Callable[[], str] = lambda: ""  # the tables it plays, in words made from the constants it plays
    inputs: tuple[str, ...] = ()  # files the kind reads from its study directory (the confirmation's protocol)

    @property
    def options(self) -> dict[str, StudyOption]:
        """The kind's own options by name (simkit.studies.options.STUDY_OPTIONS)."""
        return options_of(self.name)

    @property
    def choosing(self) -> tuple[str, ...]:
        """The options that choose among the kind's tables and parts: `restricts` and its own options that
        choose (StudyOption.chooses); not the study's identity nor its folder."""
        return (*self.restricts, *(name for name, o in self.options.items() if o.chooses))

    def accepts(self) -> str:
        """What the study takes, in words made from the fields that decide it (refuse_varied, make_study,
        the kind's tables): its tables, the rule options it sets itself (refused), its own options."""
        parts = [f"Tables: {self.tables_text()}."]
        own = [OPTIONS[name].flag for name in self.varies if name not in self.restricts]
        choose = [OPTIONS[name].flag for name in self.varies if name in self.restricts]
        rules = "Rule options: every one"
        if own:
            rules += f" but {_and(own)}, which it sets itself"
        if choose:
            rules += f"; {_and(choose)} choose among its tables (one or some of them)"
        parts.append(rules + ".")
        if self.options:
            parts.append("Its own options: " + "; ".join(f"{o.flag} ({o.help})" for o in self.options.values()) + ".")
        return " ".join(parts)


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def table_list(tables: Sequence[tuple[int, int]]) -> str:
    """'2p/2t, 3p/3t and 4p/2t'."""
    return _and([f"{p}p/{t}t" for p, t in tables])


def one_table_text() -> str:
    """The tables of a study of one table: the default one, or any legal one by --players and --teams."""
    base = Rules.make()
    return (
        f"one table, {base.players}p/{base.teams}t by default; --players and --teams choose another "
        f"({table_list(LEGAL_TABLES)})"
    )


# --- the loop ---------------------------------------------------------------------------


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


def _manifest(directory: Path) -> dict | None:
    """The manifest of the dataset in `directory` (None if there is none, or none readable)."""
    try:
        return ds.read_manifest(directory)
    except ds.DatasetError:
        return None


def stale_runs(configs: list[Config], out: Path, seed: int) -> dict[str, list[str]]:
    """The folders (values) of the configurations whose folder in `out` holds another run than the one the
    code makes of them, by what differs (keys): played before a player's defaults or parameters changed,
    say. Their games are not the configurations', so a study neither counts nor resumes them."""
    stale: dict[str, set[str]] = {}
    for c in configs:
        manifest = _manifest(out / c.folder(seed))
        mine = ds.identity_of(c.rules, c.lineup, c.seed_of(seed))
        if manifest is not None and manifest.get("run_id") != ds.run_id(mine):
            stale.setdefault(identity_differences(mine, manifest.get("identity", {})), set()).add(c.folder(seed))
    return {why: sorted(folders) for why, folders in stale.items()}


def games_of_run(directory: Path, run_id: str) -> int:
    """Games in the finished chunks of run `run_id` in `directory` (0 if it holds none yet, or another run)."""
    manifest = _manifest(directory)
    if manifest is None or manifest.get("run_id") != run_id:
        return 0
    return ds.Run(Path(directory), manifest, []).games_on_disk


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
        outcome.replaced, outcome.added, lineups, previous = _claim(study, out, overwrite)
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
        _write_text(
            out / STUDY_FILE,
            json.dumps(study_json(study, previous, _commands(out, command)), indent=2, sort_keys=True) + "\n",
        )
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
    by_set: dict[type, Config] = {}
    for c in todo:
        by_set.setdefault(type(c.lineup.player_set()), c)
    lineups = list(dict.fromkeys(c.lineup.spec for c in todo))

    def load() -> None:
        for c in by_set.values():
            simulate(c.rules, c.lineup, 0, 0, 0)

    noting_compile(events, " and ".join(lineups), load)


def canonical(configs: list[Config], study: Study) -> list[Config]:
    """The study's configurations in one order whatever the commands that made them: by table (players,
    then teams), then by row (as the kind first lists it), then by line-up (as the study lists them)."""
    rows: dict[tuple, int] = {}
    for c in configs:
        rows.setdefault((c.group, c.label), len(rows))
    order = {spec: i for i, spec in enumerate(study.lineups)}
    return sorted(
        configs,
        key=lambda c: (
            c.rules.players,
            c.rules.teams,
            rows[c.group, c.label],
            order.get(c.lineup.spec, len(order)),
            c.seed_of(study.seed),
            c.games,
        ),
    )


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


# --- the study directory ------------------------------------------------------------------


def _claim(study: Study, out: Path, overwrite: bool) -> tuple[str | None, list[str], dict[str, int], list[Config]]:
    """Check `out` may hold `study`: (what was replaced, the line-ups added, every line-up's games, the
    configurations on record).

    Another study (other kind, options, seed or version) is refused naming
    what differs, unless overwrite, which clears it. A line-up on disk keeps
    its games unless more are asked; fewer are refused.
    """
    path = out / STUDY_FILE
    if not path.exists():
        foreign = [p.name for p in out.iterdir() if p.name not in (".simkit.lock", *study.kind.inputs)]
        if foreign and not overwrite:
            raise StudyError(
                f"{out} is not empty and holds no simkit study ({', '.join(sorted(foreign)[:3])}, ...); "
                "choose a new or empty directory, or --overwrite"
            )
        return None, [], dict(study.lineups), []
    try:
        on_disk = json.loads(path.read_text(encoding="utf-8"))
        theirs = on_disk["identity"]
    except (OSError, ValueError, KeyError, TypeError):
        if not overwrite:
            raise StudyError(
                f"{path} is not a readable simkit {STUDY_FORMAT} study file (written by an older "
                "simkit?); use --overwrite to replace the study or choose another --out"
            ) from None
        return _clear(out, "a study of an older format"), [], dict(study.lineups), []
    mine = study.identity()
    if theirs != mine:
        if not overwrite:
            raise StudyError(
                f"{out} holds another study: {differences(mine, theirs)}; use --overwrite to replace "
                f"it, or --out DIR (without --out these options write to "
                f"{defaults.WORKSPACE}/{default_folder(study)})"
            )
        return _clear(out, describe_identity(theirs)), [], dict(study.lineups), []
    games = dict(on_disk.get("lineups", {}))
    why = {spec: _why_unknown(spec, study) for spec in games}
    unknown = sorted(spec for spec, reason in why.items() if reason)
    if unknown:
        if not overwrite:
            raise StudyError(
                f"{out} holds line-ups this simkit cannot play ({', '.join(unknown)}: "
                f"{why[unknown[0]]}); use --overwrite to go on without them (their "
                "rows leave the study), or --out DIR"
            )
        games = {spec: n for spec, n in games.items() if spec not in unknown}
    added = []
    for lineup, n in study.lineups.items():
        if lineup in games and n < games[lineup]:
            raise StudyError(
                f"{out} already holds {games[lineup]:,} games per {study.kind.unit} of {lineup}; "
                f"ask for at least that many (--games {games[lineup]}) or use --overwrite"
            )
        if lineup not in games:
            added.append(lineup)
        games[lineup] = max(n, games.get(lineup, 0))
    previous = []
    for record in on_disk.get("configurations", []):
        try:
            previous.append(config_from_json(record))
        except ValueError as e:  # a line-up of a player this simkit no longer has
            if not overwrite:
                raise StudyError(
                    f"{out} holds line-ups this simkit cannot play ({record.get('lineup')}: {e}); use "
                    "--overwrite to go on without them (their rows leave the study), or --out DIR"
                ) from None
            unknown.append(record.get("lineup"))
    unknown = sorted(set(unknown))
    replaced = f"the rows of line-ups this simkit cannot play ({', '.join(unknown)})" if unknown else None
    return replaced, added, line_up_order(games, study.kind.default_policies), previous


def _why_unknown(spec: str, study: Study) -> str | None:
    """Why this simkit cannot play the line-up `spec` (a retired player's), or None when it can."""
    try:
        Lineup.parse(spec, Rules.make(**{k: v for k, v in study.base.items() if k in ("players", "teams")}))
    except ValueError as e:
        return str(e)
    return None


def line_up_order(games: dict[str, int], defaults: tuple[str, ...]) -> dict[str, int]:
    """The line-ups in one order whatever the commands that joined them (study.json stores them sorted by
    name): the kind's default line-ups in their order (random, greedy, ...), then the others by name."""
    rank = {spec: i for i, spec in enumerate(defaults)}
    return dict(sorted(games.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))


def config_to_json(c: Config, study_seed: int) -> dict:
    """A configuration as study.json records it (config_from_json reads it back)."""
    return {
        "folder": c.folder(study_seed),
        "group": c.group,
        "label": c.label,
        "rules": c.rules.as_dict(),
        "lineup": c.lineup.spec,
        "swap_seats": c.lineup.swap_seats,
        "games": c.games,
        "seed": c.seed,
        "facts": dict(c.facts),
        "run_id": config_run_id(c, study_seed),
    }


def config_run_id(c: Config, study_seed: int) -> str:
    """The run id of configuration c's dataset in a study of seed `study_seed`."""
    return ds.run_id(ds.identity_of(c.rules, c.lineup, c.seed_of(study_seed)))


def config_from_json(record: dict) -> Config:
    rules = Rules.make(**record["rules"])
    return Config(
        rules,
        Lineup.parse(record["lineup"], rules, record.get("swap_seats", False)),
        int(record["games"]),
        record.get("group", ""),
        record.get("label", ""),
        record.get("seed"),
        tuple((k, v) for k, v in record.get("facts", {}).items()),
    )


def _clear(out: Path, what: str) -> str:
    """Remove a study's files and datasets from `out` (overwrite); what it held, in words."""
    for child in out.iterdir():
        if child.name == ".simkit.lock":
            continue
        if child.is_dir() and (child / ds.MANIFEST).exists():
            shutil.rmtree(child)
        elif child.is_file() and (child.suffix in (".csv", ".md", ".png") or child.name == STUDY_FILE):
            child.unlink()
    return what


def differences(mine: dict, theirs: dict) -> str:
    """'seed 7 asked, 2026 on disk; players 4 asked, 2 on disk' for a refused study directory."""
    out = []
    for key in ("study", "seed", "simkit", "kernel"):
        if mine.get(key) != theirs.get(key):
            out.append(f"{key} {mine.get(key)} asked, {theirs.get(key)} on disk")
    a, b = mine.get("options", {}), theirs.get("options", {})
    for key in sorted(set(a) | set(b)):
        if key == "rules":
            ra, rb = a.get("rules", {}), b.get("rules", {})
            for name in sorted(set(ra) | set(rb)):
                if ra.get(name) != rb.get(name):
                    out.append(f"{name} {_said(ra.get(name))} asked, {_said(rb.get(name))} on disk")
        elif a.get(key) != b.get(key):
            out.append(f"{key} {_said(a.get(key))} asked, {_said(b.get(key))} on disk")
    return "; ".join(out) or "its identity differs"


def _said(value: Any) -> str:
    return "(default)" if value is None else str(value)


def describe_identity(identity: dict) -> str:
    """'the hand-size study with players 4, seed 2026' for messages."""
    options = identity.get("options", {})
    given = [f"{k} {v}" for k, v in options.get("rules", {}).items()]
    given += [f"{k} {v}" for k, v in options.items() if k != "rules"]
    return (
        f"the {identity.get('study')} study"
        + (f" with {', '.join(given)}" if given else "")
        + f", seed {identity.get('seed')}"
    )


def default_folder(study: Study) -> str:
    """The study's folder in the workspace (runs/) without --out: its kind, then the options not at their default
    ('hand-size-p4', 'first-player-noreshuffle', 'compensation-greedy-s7')."""
    parts = [study.kind.name]
    rules = {k: v for k, v in study.base.items() if k not in study.kind.choosing}
    if rules:
        values = Rules.make(**study.base).values()  # at the table chosen: a per-seat option needs its seats
        parts += [OPTIONS[k].tag(values[k]) for k in OPTIONS if k in rules and not is_default(k, values[k], values)]
    for name, option in study.kind.options.items():
        if name in study.kind.choosing:
            continue
        value = study.options.get(name, option.default)
        if value != option.default and value is not None:
            parts.append(f"{name}-{_tag(value)}")
    if study.seed != defaults.SEED:
        parts.append(f"s{study.seed}")
    return "-".join(parts)


def _tag(value: Any) -> str:
    text = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
    return text.replace(":", "_").replace("/", "_").replace(" ", "")


# --- summaries ------------------------------------------------------------------------


def summary_row(config: Config, agg: Aggregate) -> dict:
    """One configuration's row of summary.csv: configuration, team win rates and shares, metrics, the test
    of the first mover's advantage."""
    rules = config.rules
    row: dict = {"study_group": config.group, "label": config.label, **dict(config.facts)}
    row.update({name: OPTIONS[name].column_value(v) for name, v in rules.values().items()})
    row.update({"policies": config.lineup.spec, "swap_seats": config.lineup.swap_seats, "games": agg.games})
    wins = agg.wins()
    shares = stats.team_shares(wins)
    for t in range(3):
        rate = stats.proportion(int(wins[t]), agg.games) if t < rules.teams else stats.Estimate.undefined()
        share = shares[t] if t < rules.teams else stats.Estimate.undefined()
        row[f"win_rate_{t}"], row[f"win_rate_{t}_low"], row[f"win_rate_{t}_high"] = rate.value, rate.low, rate.high
        row[f"share_{t}"], row[f"share_{t}_low"], row[f"share_{t}_high"] = share.value, share.low, share.high
    gap = stats.max_gap(wins)
    row["max_gap"], row["max_gap_low"], row["max_gap_high"] = gap.value, gap.low, gap.high
    ends = agg.ends()
    row["draw_rate"] = agg.draws / agg.games
    row["stalemate_rate"] = ends[1] / agg.games
    row["turn_cap_rate"] = ends[2] / agg.games
    row["mean_turns"] = stats.mean_length(agg.length).value
    row["median_turns"] = stats.quantile(agg.length, 50)
    for name, est in measure(agg).items():
        row[name], row[f"{name}_low"], row[f"{name}_high"], row[f"{name}_n"] = est.value, est.low, est.high, est.n
    row["decided"] = agg.decided
    row["p_value"] = stats.first_mover_test(wins)
    row["turn_order"] = turn_order(rules) if rules.players > rules.teams else ""
    return row


def turn_order(rules: Rules) -> str:
    """'team 0: 1st,3rd; team 1: 2nd,4th': when each team's seats move (partner tables)."""
    return "; ".join(
        f"team {t}: " + ",".join(_ordinal(s + 1) for s in range(t, rules.players, rules.teams))
        for t in range(rules.teams)
    )


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def summary_frame(configs: list[Config], results: Results) -> pd.DataFrame:
    """summary.csv's rows: one per configuration, with Holm's adjustment over the study's advantage tests."""
    rows = [summary_row(c, results.aggregate(c)) for c in configs]
    frame = pd.DataFrame(rows)
    frame["p_holm"] = stats.holm(frame["p_value"])
    return frame


def write_summary(
    study: Study,
    configs: list[Config],
    results: Results,
    out: Path,
    command: Sequence[str] | None = None,
    gone: set[str] = frozenset(),
) -> Tables:
    """Write summary.csv, the extra tables, the plots, summary.md and study.json; the tables."""

    tables = study.kind.tables(study, configs, results)
    _write_csv(out / "summary.csv", tables.summary)
    for name, frame in tables.extra.items():
        _write_csv(out / f"{name}.csv", frame)
    figures = study.kind.figures(tables)
    for name, figure in figures.items():
        plots.save(figure, out / name)
    _remove_stale(out, {"summary.csv", *(f"{name}.csv" for name in tables.extra), *figures})
    commands = [c for c in _commands(out, command) if not set(_policies(c, study.kind)) <= gone]
    _write_text(out / "summary.md", summary_markdown(study, tables, commands, list(figures)))
    _write_text(out / STUDY_FILE, json.dumps(study_json(study, configs, commands), indent=2, sort_keys=True) + "\n")
    return tables


def _remove_stale(out: Path, written: set[str]) -> None:
    """Remove the tables and figures of `out` this summary no longer makes (its *.csv and *.png
    outside `written`): a figure left from an earlier summary would show what summary.md no longer
    says (a family whose searches are not on disk, a section gone)."""
    for path in sorted([*out.glob("*.csv"), *out.glob("*.png")]):
        if path.name not in written:
            path.unlink()


def _commands(out: Path, command: Sequence[str] | None) -> list[str]:
    """The commands that made the study: those on record, then this one unless one on record plays the
    same (differs only in how it runs: --quiet, --threads, --scheduler)."""
    text = _command_text(command)
    try:
        known = json.loads((out / STUDY_FILE).read_text(encoding="utf-8")).get("commands", [])
    except (OSError, ValueError):
        known = []
    if _what_it_plays(text) in {_what_it_plays(k) for k in known}:
        return list(known)
    return [*known, text]


# Options of `simkit study` that change how a study runs, not what it plays, with how many values follow.
# --out too: the same study written elsewhere (`make results` writes the published ones with --out results/...)
HOW_IT_RUNS = {"-q": 0, "--quiet": 0, "--threads": 1, "--scheduler": 1, "--overwrite": 0, "--out": 1, "-o": 1}


def _policies(text: str, kind: StudyKind) -> list[str]:
    """The line-ups a recorded command names with --policy (the kind's defaults when it names none)."""

    words = shlex.split(text)
    named = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--policy"]
    named += [w.split("=", 1)[1] for w in words if w.startswith("--policy=")]
    return named or list(kind.default_policies)


def _what_it_plays(text: str) -> tuple[str, ...]:
    """A recorded command's words without the options of HOW_IT_RUNS (and their values)."""

    words, kept = shlex.split(text), []
    i = 0
    while i < len(words):
        name = words[i].split("=", 1)[0]
        if name in HOW_IT_RUNS:
            i += 1 + (HOW_IT_RUNS[name] if "=" not in words[i] else 0)
            continue
        kept.append(words[i])
        i += 1
    return tuple(kept)


def study_json(study: Study, configs: list[Config], commands: list[str]) -> dict:
    """What study.json records: the identity, the commands, every line-up's games, every configuration."""
    return {
        "format": STUDY_FORMAT,
        "identity": study.identity(),
        "commands": commands,
        "lineups": study.lineups,
        "versions": ds.versions(),
        "configurations": [config_to_json(c, study.seed) for c in configs],
    }


def _command_text(command: Sequence[str] | None) -> str:

    args = list(command) if command is not None else ["simkit", *sys.argv[1:]]
    return " ".join(shlex.quote(a) for a in args)


def summary_markdown(study: Study, tables: Tables, commands: list[str], figures: list[str]) -> str:
    """summary.md: the question, the commands that regenerate it, the key table, the sections, the plots, notes."""

    versions = ds.versions()
    lineups = "; ".join(f"{lineup}: {games:,} games per {study.kind.unit}" for lineup, games in study.lineups.items())
    regenerate = "\n".join(f"    {c}" for c in commands)
    parts = [
        f"# {study.kind.name} study: {study.kind.question}\n",
        f"Regenerate with (simkit {versions['simkit']}, kernel {ds.GAMES_STAMP}; seed {study.seed}; "
        f"{lineups}):\n\n{regenerate}\n\nEvery configuration's dataset is in its own folder here (not committed: "
        "the same commands re-create it exactly); `simkit report` reads any of them.\n",
    ]
    if tables.key is not None:
        parts.append(markdown_table(list(tables.key.columns), tables.key.astype(str).itertuples(index=False)))
    parts += tables.sections
    for name in figures:
        parts.append(f"![{name}]({name})\n")

    notes = [
        INTERVALS,
        *tables.notes,
        "The metrics are defined in docs/guide/reports.md, 'Metrics'; summary.csv has every number with its "
        "interval and the games behind it.",
    ]
    parts.append("\n".join(f"- {n}" for n in notes) + "\n")
    return "\n".join(parts)


def _write_csv(path: Path, frame: pd.DataFrame) -> None:

    with ds.writing(path), replacing(path) as tmp:
        frame.to_csv(tmp, index=False, float_format="%.6g")


def _write_text(path: Path, text: str) -> None:

    with ds.writing(path), replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def lineups_for(study: Study, rules: Rules, swap: bool = False) -> list[tuple[Lineup, int]]:
    """The study's line-ups parsed for the table `rules`, each with its games."""
    return [(Lineup.parse(spec, rules, swap), games) for spec, games in study.lineups.items()]


def refuse_varied(kind: StudyKind, rules_given: dict) -> None:
    """Refuse the rule options a kind sets itself (those it lets choose its tables excepted)."""
    for name in kind.varies:
        if name in rules_given and name not in kind.restricts:
            raise StudyError(f"the {kind.name} study sets {OPTIONS[name].flag} itself; leave it out")
