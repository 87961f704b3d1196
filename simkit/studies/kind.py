"""What a study is made of: its kinds, configurations, results so far and tables, and the kinds' shared texts.

A study answers one question with a set of runs, each a ``simkit run``
dataset in a folder of its own below the study directory
(``simkit.studies.directory``). A study *kind* (``StudyKind``, one entry of
``simkit.studies.registry.KINDS``) declares its configurations and what it
writes. Its ``plan`` is called with the results so far and returns every
configuration the study needs now: a fixed grid returns its grid; a search
(the compensation study) returns the settings tried so far plus the next
ones, then its confirmation run, and the same list once it is done.
``simkit.studies.loop.run_study`` plays what is missing until the plan asks
for nothing new.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis import stats
from simkit.analysis.aggregate import Aggregate, Pairs, paired, runs_of
from simkit.game import defaults
from simkit.game.options import OPTIONS
from simkit.game.players import Lineup
from simkit.game.rules import LEGAL_TEAMS, Rules
from simkit.running import dataset as ds
from simkit.running import manifest as mf
from simkit.running.reading import Run
from simkit.running.runner import run_folder_name
from simkit.studies.options import StudyError, StudyOption, options_of

LEGAL_TABLES = [(p, t) for p, ts in LEGAL_TEAMS.items() for t in ts]
PRECISE_HALF_WIDTH = 0.001  # random and greedy: a 95% half-width of 0.1 pp on team 0's share (~1,000,000 games)
STRONG_HALF_WIDTH = 0.01  # a lookahead (10-80 games/s per core): 1 pp (~10,000 games)


def round_games(n: int) -> int:
    """n rounded up to two significant figures (960,365 -> 970,000; 9,604 -> 9,700)."""
    scale = 10 ** max(0, int(math.log10(max(n, 1))) - 1)
    return int(math.ceil(n / scale) * scale)


SHIFT_HALF_WIDTH = 0.01
"""The shift studies (hand-size, teams, variants): every shift they report has a 95% interval within about
±1 pp. A shift is a difference of two shares near 1/2, sized as if independent (pairing on the same deals
narrows it where the paired games are positively correlated, widens it where they are anticorrelated), so it
needs 2 x z^2 x 0.25 / 0.01^2 = 19,208 decided games per configuration (shift_decided_games)."""


def shift_decided_games(half_width: float = SHIFT_HALF_WIDTH, share: float = 0.5) -> int:
    """Decided games per configuration for a 95% half-width of `half_width` on the difference of two independent
    shares near `share` (2 z^2 share (1 - share) / half_width^2: 19,208 at ±1 pp and 1/2; 17,074 at 1/3)."""
    return math.ceil(2 * stats.Z**2 * share * (1 - share) / half_width**2)


SHIFT_GAMES = round_games(shift_decided_games())
"""Games per configuration of a slow line-up (swift) in a shift study: 20,000, the 19,208 decided games of
±1 pp rounded up (at three teams, share 1/3, 17,074 decided games suffice: up to 14% of stalemates)."""


def shift_games(lineup: Lineup) -> int:
    """Games a configuration of a shift study plays when --games is not given: its players' declared study games
    (1,000,000 for random and greedy, ±0.1 pp), and at least SHIFT_GAMES (a slow line-up: swift, 20,000, each
    shift within about ±1 pp)."""
    return max(lineup.study_games, SHIFT_GAMES)


def strength(lineup: Lineup) -> str:
    """'casual' for a line-up of light players (random, greedy: thousands of games/s), 'strong' for one with a
    slow player (swift and beyond)."""
    return "strong" if lineup.slow else "casual"


SHIFT_POLICIES = ("random", "greedy", "swift")
"""The shift studies' default line-ups: casual play (random, greedy) and strong play (swift)."""


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

    def complete(self, config: Config) -> Aggregate:
        """The aggregate of a configuration whose run is complete on disk: the tables read only those
        (simkit.studies.loop.run_study plays every configuration first); StudyError for another."""
        agg = self.aggregate(config)
        if agg is None:
            raise StudyError(f"the run in {self.out / config.folder(self.seed)} is not complete ({config.label})")
        return agg

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
    terminal: pd.DataFrame | None = None  # the same for the terminal, within 100 columns (default: key)
    terminal_note: str = ""  # printed under the terminal's table: what its short headers stand for
    terminal_more: dict[str, pd.DataFrame] = field(default_factory=dict)  # more tables for the terminal, by title
    sections: list[str] = field(default_factory=list)  # further markdown, after the key table
    notes: list[str] = field(default_factory=list)  # bullet points at the end of summary.md
    headline: str = ""  # markdown at the top of summary.md, under its title: what changes and where


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


def every_table_text() -> str:
    """The tables of a study of every legal table, which --players and --teams narrow."""
    return f"every legal table, {table_list(LEGAL_TABLES)}; --players and --teams choose some"


def tables_of(study: Study) -> list[tuple[int, int]]:
    """The legal tables a study of every table plays: all of them (LEGAL_TABLES), or those of the --players (and
    --teams) given; StudyError, saying why, for a table that is not legal."""
    base = study.base
    chosen = [(p, t) for p, t in LEGAL_TABLES if base.get("players", p) == p and base.get("teams", t) == t]
    if not chosen:
        Rules.make(**{k: base[k] for k in ("players", "teams") if k in base})  # says why the table is not legal
        raise StudyError(f"no legal table has {base}")
    return chosen


def lineups_for(study: Study, rules: Rules, swap: bool = False) -> list[tuple[Lineup, int]]:
    """The study's line-ups parsed for the table `rules`, each with its games."""
    return [(Lineup.parse(spec, rules, swap), games) for spec, games in study.lineups.items()]


def refuse_varied(kind: StudyKind, rules_given: dict) -> None:
    """Refuse the rule options a kind sets itself (those it lets choose its tables excepted)."""
    for name in kind.varies:
        if name in rules_given and name not in kind.restricts:
            raise StudyError(f"the {kind.name} study sets {OPTIONS[name].flag} itself; leave it out")


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


# --- a configuration's run on disk -------------------------------------------------------


def manifest_in(directory: Path) -> dict | None:
    """The manifest of the dataset in `directory` (None if there is none, or none readable)."""
    try:
        return ds.read_manifest(directory)
    except ds.DatasetError:
        return None


def games_of_run(directory: Path, run_id: str) -> int:
    """Games in the finished chunks of run `run_id` in `directory` (0 if it holds none yet, or another run)."""
    manifest = manifest_in(directory)
    if manifest is None or manifest.get("run_id") != run_id:
        return 0
    return Run(Path(directory), manifest, []).games_on_disk


def config_run_id(c: Config, study_seed: int) -> str:
    """The run id of configuration c's dataset in a study of seed `study_seed`."""
    return ds.run_id(ds.identity_of(c.rules, c.lineup, c.seed_of(study_seed)))
