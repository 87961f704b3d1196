"""Studies: sets of runs that answer one question, summarised with intervals and plots.

A study is a list of configurations (rules and line-up), each played as a
``simkit run`` dataset in a folder of its own below the study directory::

    DIR/study.json          the command, seed, versions and configurations
    DIR/summary.csv         one row per configuration: every number with its interval
    DIR/summary.md          the key table for people, with the command that regenerates it
    DIR/*.png               the study's plots
    DIR/p2t2-random/        one dataset per configuration (simkit report reads any of them)

Every configuration plays games 0..N-1 of the study's seed, so its games
depend on (seed, configuration) alone: adding a table or a line-up leaves
the others' games unchanged. Re-running a finished study plays nothing and
rebuilds the summary and plots; an interrupted one resumes; more games
extend every configuration.

The studies (``STUDIES``): first-player (every legal table), hand-size (a
sweep, the table penalty, compensation), teams (two or three teams, 1-3
sequences to win) and skill (a round robin of line-ups with ratings).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep

from simkit import dataset as ds
from simkit.kernels.state import DECK_SIZE
from simkit.lock import DirectoryLock, LockedError
from simkit.metrics import measure, team_wins, wilson
from simkit.policies import Lineup
from simkit.rules import HAND_SIZE, LEGAL_TEAMS, MAX_HAND_SIZE, Rules
from simkit.runner import RunEvents, RunSpec, run, run_folder_name

STUDY_FORMAT = "simkit.study/1"
DEFAULT_SEED = 2026
DEFAULT_POLICIES = ("random", "greedy")
SKILL_POLICIES = ("random", "greedy", "lookahead:rollouts=32", "lookahead")
HALF_WIDTH = 0.005  # the default game count gives team 0's win rate this 95% half-width
SKILL_GAMES = 2_000  # per pair of line-ups
LEGAL_TABLES = [(p, t) for p, ts in LEGAL_TEAMS.items() for t in ts]


def games_for_half_width(half_width: float = HALF_WIDTH) -> int:
    """Games that give a proportion near 1/2 (the worst case) a 95% interval of +-half_width."""
    z = stats.norm.ppf(0.975)
    return math.ceil(z * z * 0.25 / half_width**2)


DEFAULT_GAMES = games_for_half_width()  # 38,415


class StudyError(ValueError):
    """A study that cannot be made; the message says what is allowed."""


@dataclass(frozen=True)
class Config:
    """One configuration of a study: a run's rules and line-up, and where it sits in the study."""

    rules: Rules
    lineup: Lineup
    group: str = ""  # a part of the study: "sweep", "penalty", "compensation", "split", "sequences", "pair"
    label: str = ""  # what the row is, in words

    @property
    def name(self) -> str:
        """The configuration's folder in the study directory."""
        return run_folder_name(self.rules, self.lineup, 0, 0)


@dataclass
class Study:
    """A study: its kind, its configurations, the games of each and the seed."""

    kind: str
    configs: list[Config]
    games: int
    seed: int = DEFAULT_SEED
    options: dict = field(default_factory=dict)


# --- making studies ----------------------------------------------------------

def _lineups(policies: Sequence[str] | None, rules: Rules, swap: bool = False) -> list[Lineup]:
    specs = list(policies or DEFAULT_POLICIES)
    if not specs:
        raise StudyError("no line-up: give --policy at least once")
    return [Lineup.parse(p, rules, swap) for p in specs]


def _refuse(study: str, base: dict | None, varied: Sequence[str]) -> dict:
    """The rule options given to a study (`base`), refusing those it varies itself."""
    base = dict(base or {})
    for name in varied:
        if name in base:
            from simkit.options import OPTIONS

            raise StudyError(f"the {study} study sets {OPTIONS[name].flag} itself; leave it out")
    return base


def first_player(policies: Sequence[str] | None = None, base: dict | None = None,
                 tables: Sequence[tuple[int, int]] | None = None) -> list[Config]:
    """Every legal table (players, teams) for every line-up; `base` (rule options) for each.

    A `base` with players (and teams) keeps only the tables of that player (and team) count.
    """
    base = dict(base or {})
    tables = list(tables or LEGAL_TABLES)
    if "players" in base or "teams" in base:
        tables = [(p, t) for p, t in tables if base.get("players", p) == p and base.get("teams", t) == t]
        if not tables:
            Rules.make(**base)  # says why the table is not legal
            raise StudyError(f"no legal table has {base}")
    base.pop("players", None)
    base.pop("teams", None)
    configs = []
    for players, teams in tables:
        rules = Rules.make(players, teams, **base)
        for lineup in _lineups(policies, rules):
            configs.append(Config(rules, lineup, "table", f"{players} players, {teams} teams"))
    return configs


def hand_size(sizes: Sequence[int] = range(3, 10), policies: Sequence[str] | None = None,
              base: dict | None = None) -> list[Config]:
    """A sweep of the common hand size, then the table penalty and compensation, at the table of `base`.

    Penalty: one seat (seat 0, seat 1), or a whole team, one card short of
    the table's size for the game. Compensation: every team after the first
    one card more. Each is compared with the even game at the table's size.
    """
    options = _refuse("hand-size", base, ["hand_size"])
    sizes = sorted(set(sizes))
    if not sizes:
        raise StudyError("the hand-size sweep is empty; give sizes such as 3..9")
    base = Rules.make(**options)
    players, teams = base.players, base.teams
    normal = HAND_SIZE[players]
    for h in sizes:
        if not 1 <= h <= MAX_HAND_SIZE or h * players > DECK_SIZE:
            raise StudyError(f"hand size {h} cannot be dealt to {players} players: each size must be "
                             f"1..{MAX_HAND_SIZE} and players x size <= {DECK_SIZE}")
    variants: list[tuple[str, str, tuple[int, ...]]] = [("sweep", f"{h} cards each", (h,) * players) for h in sizes]
    if normal not in sizes:
        variants.append(("sweep", f"{normal} cards each", (normal,) * players))
    short = normal - 1
    seats = range(base.players)
    variants.append(("penalty", "seat 0 (moves first) one card short",
                     tuple(short if s == 0 else normal for s in seats)))
    variants.append(("penalty", "seat 1 (moves second) one card short",
                     tuple(short if s == 1 else normal for s in seats)))
    if base.players > base.teams:  # partners: a whole team short
        for t in range(base.teams):
            variants.append(("penalty", f"team {t} one card short (every seat)",
                             tuple(short if s % base.teams == t else normal for s in seats)))
    variants.append(("compensation", "every later team one card more",
                     tuple(normal if s % base.teams == 0 else normal + 1 for s in seats)))
    configs = []
    for group, label, sizes_of_seats in variants:
        rules = base.replace(hand_size=sizes_of_seats)
        for lineup in _lineups(policies, rules):
            configs.append(Config(rules, lineup, group, label))
    return configs


def teams_study(policies: Sequence[str] | None = None, base: dict | None = None) -> list[Config]:
    """6 and 12 players in two or three teams; two teams needing 1, 2 or 3 sequences (2 and 6 players)."""
    base = _refuse("teams", base, ["players", "teams", "sequences_to_win"])
    configs = []
    for players in (6, 12):
        for teams in (2, 3):
            rules = Rules.make(players, teams, **base)
            for lineup in _lineups(policies, rules):
                configs.append(Config(rules, lineup, "split", f"{players} players in {teams} teams"))
    for players in (2, 6):
        for q in (1, 2, 3):
            rules = Rules.make(players, 2, sequences_to_win=q, **base)
            for lineup in _lineups(policies, rules):
                configs.append(Config(rules, lineup, "sequences",
                                      f"{players} players, {q} sequence{'s' if q > 1 else ''} to win"))
    return configs


def skill(policies: Sequence[str] | None = None, base: dict | None = None) -> list[Config]:
    """A round robin: every pair of line-ups on the table of `base`, seats swapped from game to game."""
    specs = list(policies or SKILL_POLICIES)
    if len(specs) < 2:
        raise StudyError("a skill study needs at least two --policy line-ups")
    if len(set(specs)) < len(specs):
        raise StudyError(f"a line-up is given twice in {', '.join(specs)}")
    rules = Rules.make(**(base or {}))
    if rules.teams != 2:
        raise StudyError(f"a skill study pits two line-ups against each other: a two-team table, not {rules.teams} teams")
    configs = []
    for i, a in enumerate(specs):
        for b in specs[i + 1:]:
            if "," in a or "," in b:
                raise StudyError(f"a skill study pits single policies against each other, got {a!r} and {b!r}")
            configs.append(Config(rules, Lineup.parse(f"{a},{b}", rules, swap_seats=True), "pair", f"{a} vs {b}"))
    return configs


# --- running -----------------------------------------------------------------

class StudyEvents(RunEvents):
    """Forwards each run's progress to one watcher of the whole study (one bar for every run)."""

    def __init__(self, watcher: RunEvents):
        self.watcher = watcher

    def started(self, total: int, already: int) -> None:
        pass  # the study said once how many games it has in all

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


def games_on_disk(directory: Path) -> int:
    """Games in the finished chunks of the run in `directory` (0 if there is none yet)."""
    try:
        manifest = ds.read_manifest(directory)
    except ds.DatasetError:
        return 0
    return 0 if manifest is None else sum(c["games"] for c in manifest.get("chunks", []) if c.get("done"))


@dataclass
class StudyOutcome:
    """What run_study did."""

    out: Path
    games_played: int = 0
    interrupted: bool = False
    summary: pd.DataFrame | None = None
    extra: dict[str, pd.DataFrame] = field(default_factory=dict)  # shifts (hand-size); pairs, ratings (skill)


def run_study(study: Study, out: Path, events: RunEvents | None = None, scheduler=None,
              command: Sequence[str] | None = None, overwrite: bool = False) -> StudyOutcome:
    """Play every configuration of `study` into `out`, then write its summary, plots and study.json.

    scheduler: None (this machine), or as ``simkit.runner.run`` takes it.
    overwrite: replace a configuration's dataset that holds a different run.
    One study at a time: the study holds `out`'s lock (``simkit.lock``) to the
    end, and a second one on `out` is refused at once, naming the first.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise StudyError(f"{out} exists and is not a directory")
    if isinstance(scheduler, str):  # a bad scheduler, or no Dask: refused before anything is written
        from simkit.distributed import check_scheduler

        check_scheduler(scheduler)
    runs: dict[str, Config] = {}  # one run per folder: a configuration may serve two rows (teams: 6p/2t)
    for c in study.configs:
        if runs.setdefault(c.name, c).rules != c.rules or runs[c.name].lineup != c.lineup:
            raise StudyError(f"two different configurations of the study share the folder {c.name}")
    out.mkdir(parents=True, exist_ok=True)
    try:
        lock = DirectoryLock(out).__enter__()
    except LockedError as e:
        raise StudyError(str(e)) from None
    try:
        return _run_locked(study, out, runs, events or RunEvents(), scheduler, command, overwrite)
    finally:
        lock.__exit__(None, None, None)


def _run_locked(study: Study, out: Path, runs: dict[str, Config], events: RunEvents, scheduler,
                command: Sequence[str] | None, overwrite: bool) -> StudyOutcome:
    """run_study's work, under the study directory's lock."""
    on_disk = sum(min(games_on_disk(out / name), study.games) for name in runs)
    events.started(study.games * len(runs), on_disk)
    watcher = StudyEvents(events)
    outcome = StudyOutcome(out)
    with _cluster(scheduler) as cluster:  # one cluster for every run of the study
        for config in runs.values():
            result = run(out / config.name, RunSpec(config.rules, config.lineup, study.seed, study.games),
                         overwrite=overwrite, events=watcher, scheduler=cluster)
            outcome.games_played += result.games_played
            if result.interrupted:
                outcome.interrupted = True
                return outcome
    outcome.summary, outcome.extra = write_summary(study, out, command)
    return outcome


def _cluster(scheduler):
    """A context holding the study's Dask cluster open across its runs (simkit.distributed.opened)."""
    if scheduler is None:
        from contextlib import nullcontext

        return nullcontext(None)
    from simkit.distributed import opened

    return opened(scheduler)


# --- summarising ---------------------------------------------------------------

def config_rows(study: Study, out: Path) -> list[tuple[Config, pd.DataFrame]]:
    """(configuration, its rows) of every configuration, read from its dataset (once for a
    dataset that serves two configurations, as 6 players in 2 teams does in the teams study)."""
    games = {name: ds.read_games(out / name) for name in dict.fromkeys(c.name for c in study.configs)}
    return [(c, games[c.name]) for c in study.configs]


def summary_row(config: Config, df: pd.DataFrame) -> dict:
    """One configuration's row of summary.csv: configuration, team win rates, metrics, advantage test."""
    rules = config.rules
    row: dict = {
        "study_group": config.group, "label": config.label,
        "players": rules.players, "teams": rules.teams, "hand_size": rules.hand_size_text,
        "sequences_to_win": rules.sequences_to_win, "policies": config.lineup.spec,
        "swap_seats": config.lineup.swap_seats, "games": len(df),
    }
    wins = team_wins(df)
    for t in range(3):
        if t < rules.teams:
            rate, low, high = wilson(int(wins[t]), len(df))
        else:
            rate = low = high = np.nan
        row[f"win_rate_{t}"], row[f"win_rate_{t}_low"], row[f"win_rate_{t}_high"] = rate, low, high
    row["draw_rate"] = float((df["winner_team"] < 0).mean())
    row["stalemate_rate"] = float((df["end"].astype(str) == "stalemate").mean())
    row["turn_cap_rate"] = float((df["end"].astype(str) == "turn_cap").mean())
    row["mean_turns"] = float(df["turns"].mean())
    row["median_turns"] = float(df["turns"].median())
    for name, est in measure(df).items():
        row[name], row[f"{name}_low"], row[f"{name}_high"], row[f"{name}_n"] = est.value, est.low, est.high, est.n
    decided = int(wins.sum())
    row["decided"] = decided
    row["p_value"] = (float(stats.binomtest(int(wins[0]), decided, 1 / rules.teams).pvalue)
                      if decided else np.nan)
    if rules.players > rules.teams:
        row["turn_order"] = "; ".join(
            f"team {t}: " + ",".join(_ordinal(s + 1) for s in range(t, rules.players, rules.teams))
            for t in range(rules.teams))
    else:
        row["turn_order"] = ""
    return row


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def holm(p_values: pd.Series) -> pd.Series:
    """Holm-adjusted p-values (the family: every advantage test of the study)."""
    p = p_values.to_numpy(np.float64)
    ok = np.isfinite(p)
    adjusted = np.full(len(p), np.nan)
    if ok.any():
        adjusted[ok] = multipletests(p[ok], method="holm")[1]
    return pd.Series(adjusted, index=p_values.index)


def shifts(summary: pd.DataFrame, rows: list[tuple[Config, pd.DataFrame]]) -> pd.DataFrame:
    """Penalty and compensation rows of a hand-size study: team 0's win-rate shift from the even game.

    The even game is the table's own hand size with the same line-up. The
    interval of a shift is Newcombe's for a difference of two independent
    proportions (statsmodels).
    """
    out = []
    by_policy_even = {}
    for config, df in rows:
        if config.group == "sweep" and config.rules.hand_size == HAND_SIZE[config.rules.players]:
            by_policy_even[config.lineup.spec] = df
    for config, df in rows:
        if config.group not in ("penalty", "compensation"):
            continue
        even = by_policy_even[config.lineup.spec]
        k1, n1 = int((df["winner_team"] == 0).sum()), len(df)
        k0, n0 = int((even["winner_team"] == 0).sum()), len(even)
        low, high = confint_proportions_2indep(k1, n1, k0, n0, method="newcomb", compare="diff")
        out.append({
            "study_group": config.group, "label": config.label, "policies": config.lineup.spec,
            "hand_size": config.rules.hand_size_text, "games": n1, "even_games": n0,
            "win_rate_0": k1 / n1, "even_win_rate_0": k0 / n0, "shift": k1 / n1 - k0 / n0,
            "shift_low": float(low), "shift_high": float(high),
            "fair_share": 1 / config.rules.teams,
        })
    return pd.DataFrame(out)


def ratings(rows: list[tuple[Config, pd.DataFrame]], anchor: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(pairs, ratings) of a skill study.

    pairs: per pair of line-ups, A's score (wins + draws/2 over games) with
    its Wilson interval. ratings: a Bradley-Terry model fitted by binomial
    GLM (statsmodels) on every pair's score, anchored at `anchor` = 0, on the
    Elo scale (400 log10 odds) with 95% intervals; a rating difference d
    means an expected score 1 / (1 + 10^(-d/400)).
    """
    import statsmodels.api as sm

    pair_rows, names = [], []
    for config, df in rows:
        a, b = (p.spec for p in config.lineup.per_team)
        names += [n for n in (a, b) if n not in names]
        position = (df["game"].to_numpy() % 2)  # rotation 1: b plays team 0
        winner = df["winner_team"].to_numpy()
        a_wins = int(np.count_nonzero(winner == position))  # a is team (0 - r) % 2 = r
        draws = int(np.count_nonzero(winner < 0))
        n = len(df)
        score = (a_wins + draws / 2) / n
        _, low, high = wilson(round(a_wins + draws / 2), n)
        pair_rows.append({"a": a, "b": b, "games": n, "a_wins": a_wins, "draws": draws, "b_wins": n - a_wins - draws,
                          "a_score": score, "a_score_low": low, "a_score_high": high})
    pairs = pd.DataFrame(pair_rows)
    if anchor not in names:
        anchor = names[0]
    others = [n for n in names if n != anchor]
    x = np.zeros((len(pairs), len(others)))
    for i, r in pairs.iterrows():
        if r["a"] != anchor:
            x[i, others.index(r["a"])] = 1
        if r["b"] != anchor:
            x[i, others.index(r["b"])] = -1
    successes = pairs["a_wins"] + pairs["draws"] / 2
    failures = pairs["games"] - successes
    with np.errstate(divide="ignore", invalid="ignore"):  # one pair: no residual degrees of freedom, no matter
        fit = sm.GLM(np.column_stack([successes, failures]), x, family=sm.families.Binomial()).fit()
    elo = 400 / np.log(10)
    ci = np.asarray(fit.conf_int(alpha=0.05))
    table = [{"policy": anchor, "rating": 0.0, "rating_low": 0.0, "rating_high": 0.0}]
    for j, name in enumerate(others):
        table.append({"policy": name, "rating": elo * fit.params[j],
                      "rating_low": elo * ci[j, 0], "rating_high": elo * ci[j, 1]})
    return pairs, pd.DataFrame(table).sort_values("rating").reset_index(drop=True)


def write_summary(study: Study, out: Path, command: Sequence[str] | None = None
                  ) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Read every configuration's games; write summary.csv, summary.md, the plots and study.json.

    Returns (summary, extra tables: shifts for hand-size, pairs and ratings for skill).
    """
    from simkit import plots

    rows = config_rows(study, out)
    summary = pd.DataFrame([summary_row(c, df) for c, df in rows])
    summary["p_holm"] = holm(summary["p_value"])
    extra: dict[str, pd.DataFrame] = {}
    if study.kind == "hand-size":
        extra["shifts"] = shifts(summary, rows)
    if study.kind == "skill":
        extra["pairs"], extra["ratings"] = ratings(rows, study.options.get("anchor", "random"))
    _write_csv(out / "summary.csv", summary)
    for name, frame in extra.items():
        _write_csv(out / f"{name}.csv", frame)
    figures = plots.study_figures(study.kind, summary, extra)
    for name, figure in figures.items():
        plots.save(figure, out / name)
    text = summary_markdown(study, summary, extra, command, list(figures))
    _write_text(out / "summary.md", text)
    _write_text(out / "study.json", json.dumps(study_json(study, command), indent=2, sort_keys=True) + "\n")
    return summary, extra


def study_json(study: Study, command: Sequence[str] | None) -> dict:
    """What study.json records: the command, seed, versions and every configuration with its run."""
    return {
        "format": STUDY_FORMAT,
        "study": study.kind,
        "command": _command_text(command),
        "seed": study.seed,
        "games_per_configuration": study.games,
        "options": study.options,
        "versions": {k: v for k, v in ds.versions().items()},
        "configurations": [
            {"folder": c.name, "group": c.group, "label": c.label, "rules": c.rules.as_dict(),
             "lineup": c.lineup.spec, "swap_seats": c.lineup.swap_seats,
             "run_id": ds.run_id(ds.identity_of(c.rules, c.lineup, study.seed))}
            for c in study.configs
        ],
    }


def _command_text(command: Sequence[str] | None) -> str:
    args = list(command) if command is not None else ["simkit", *sys.argv[1:]]
    return " ".join(_quote(a) for a in args)


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)


def _write_csv(path: Path, frame: pd.DataFrame) -> None:
    from simkit.atomic import replacing

    with ds.writing(path), replacing(path) as tmp:
        frame.to_csv(tmp, index=False, float_format="%.6g")


def _write_text(path: Path, text: str) -> None:
    from simkit.atomic import replacing

    with ds.writing(path), replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


# --- the key tables ------------------------------------------------------------

def pct(value: float, low: float | None = None, high: float | None = None, digits: int = 1) -> str:
    """'52.4% [51.9, 52.9]' (percent, with its interval)."""
    if value is None or not np.isfinite(value):
        return "—"
    text = f"{100 * value:.{digits}f}%"
    if low is not None and np.isfinite(low):
        text += f" [{100 * low:.{digits}f}, {100 * high:.{digits}f}]"
    return text


def pp(value: float, low: float, high: float, digits: int = 1) -> str:
    """'+2.4 pp [+1.9, +2.9]' (percentage points, with its interval)."""
    if not np.isfinite(value):
        return "—"
    return f"{100 * value:+.{digits}f} pp [{100 * low:+.{digits}f}, {100 * high:+.{digits}f}]"


def p_text(p: float) -> str:
    if not np.isfinite(p):
        return "—"
    return "< 1e-300" if p < 1e-300 else (f"{p:.1e}" if p < 1e-3 else f"{p:.3f}")


def key_table(study: Study, summary: pd.DataFrame, extra: dict[str, pd.DataFrame],
              compact: bool = False) -> pd.DataFrame:
    """The study's table for people: one row per configuration (per pair for skill).

    compact: the terminal's version, without the turn-cap, median and turn-order columns.
    """
    if study.kind == "skill":
        pairs = extra["pairs"]
        return pd.DataFrame({
            "pair (A vs B)": pairs["a"] + " vs " + pairs["b"],
            "games": pairs["games"].map("{:,}".format),
            "A's score [95% CI]": [pct(r.a_score, r.a_score_low, r.a_score_high) for r in pairs.itertuples()],
            "A wins / draws / B wins": [f"{r.a_wins:,} / {r.draws:,} / {r.b_wins:,}" for r in pairs.itertuples()],
        })
    table = pd.DataFrame({
        "table": [f"{r.players}p / {r.teams}t" for r in summary.itertuples()],
        "line-up": summary["policies"],
    })
    if study.kind == "hand-size":
        table.insert(1, "hand sizes", [f"{r.label} ({r.hand_size})" for r in summary.itertuples()])
    if study.kind == "teams":
        table.insert(1, "variant", summary["label"])
    table["games"] = summary["games"].map("{:,}".format)
    table["team 0 wins, all games [95% CI]"] = [pct(r.win_rate_0, r.win_rate_0_low, r.win_rate_0_high)
                                     for r in summary.itertuples()]
    table["advantage, decided games [95% CI]"] = [pp(r.advantage, r.advantage_low, r.advantage_high) for r in summary.itertuples()]
    table["p (Holm)"] = summary["p_holm"].map(p_text)
    if study.kind == "teams":
        table["balance [95% CI]"] = [f"{r.balance:.3f} [{r.balance_low:.3f}, {r.balance_high:.3f}]"
                                     for r in summary.itertuples()]
    table["stalemates"] = summary["stalemate_rate"].map(lambda v: pct(v, digits=2))
    if compact:
        table["mean turns"] = summary["duration"].map("{:.1f}".format)
        return table
    table["turn caps"] = summary["turn_cap_rate"].map(lambda v: pct(v, digits=2))
    table["mean turns [95% CI]"] = [f"{r.duration:.1f} [{r.duration_low:.1f}, {r.duration_high:.1f}]"
                                    for r in summary.itertuples()]
    table["median turns"] = summary["median_turns"].map("{:.0f}".format)
    if study.kind == "first-player" and (summary["turn_order"] != "").any():
        table["turn order (partners)"] = summary["turn_order"].replace("", "—")
    return table


def markdown(frame: pd.DataFrame) -> str:
    """A pipe table of text cells."""
    cells = frame.astype(str)
    lines = ["| " + " | ".join(frame.columns) + " |", "|" + "|".join("---" for _ in frame.columns) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in cells.itertuples(index=False)]
    return "\n".join(lines) + "\n"


TITLES = {
    "first-player": "How big is the first player's advantage, at every table?",
    "hand-size": "What does a card more or less in hand change?",
    "teams": "Are three teams fairer than two? How many sequences to win?",
    "skill": "How much does skill matter against luck?",
}


def summary_markdown(study: Study, summary: pd.DataFrame, extra: dict[str, pd.DataFrame],
                     command: Sequence[str] | None, figures: list[str]) -> str:
    """summary.md: the question, the command that regenerates it, the key table, the plots, the notes."""
    versions = ds.versions()
    parts = [
        f"# {study.kind} study: {TITLES[study.kind]}\n",
        f"Regenerate with `{_command_text(command)}` (simkit {versions['simkit']}, kernel "
        f"{versions['kernel_sources']}; seed {study.seed}; {study.games:,} games per "
        f"{'pair' if study.kind == 'skill' else 'configuration'}). Every configuration's dataset is in its own "
        "folder here (not committed: the same command re-creates it exactly); `simkit report` reads any of them.\n",
        markdown(key_table(study, summary, extra)),
    ]
    if study.kind == "hand-size" and len(extra.get("shifts", [])):
        s = extra["shifts"]
        parts.append("## Shifts from the even game\n\nTeam 0's win rate against the same line-up at the "
                     "table's own hand size; the interval is Newcombe's for a difference of two proportions.\n")
        parts.append(markdown(pd.DataFrame({
            "change": s["label"], "hand sizes": s["hand_size"], "line-up": s["policies"],
            "team 0 wins": [pct(v) for v in s["win_rate_0"]],
            "even game": [pct(v) for v in s["even_win_rate_0"]],
            "shift [95% CI]": [pp(r.shift, r.shift_low, r.shift_high) for r in s.itertuples()],
            "games": [f"{a:,} vs {b:,}" for a, b in zip(s["games"], s["even_games"])],
        })))
    if study.kind == "skill":
        r = extra["ratings"]
        parts.append("## Ratings (Bradley-Terry, Elo scale, random = 0)\n")
        parts.append(markdown(pd.DataFrame({
            "policy": r["policy"],
            "rating [95% CI]": [f"{v:+.0f} [{lo:+.0f}, {hi:+.0f}]" for v, lo, hi in
                                zip(r["rating"], r["rating_low"], r["rating_high"])],
        })))
        parts.append("Each rating's interval is against random, the anchor, whose few wins make it wide; "
                     "two line-ups are compared by their pair's score above, not by overlapping intervals.\n")
        parts.append(skill_sentence(extra["pairs"], r) + "\n")
    for name in figures:
        parts.append(f"![{name}]({name})\n")
    notes = ["Intervals are 95%: Wilson for rates, t for the mean length, bootstrap for balance."]
    if study.kind != "skill":
        notes.append(f"`advantage` is team 0's share of the decided games minus its fair share 1/teams; its "
                     f"p-value tests advantage = 0 (exact binomial test), adjusted for the {len(summary)} tests of "
                     "this study together by Holm's method (`p (Holm)`).")
    notes.append("The metrics are defined in README.md, 'Metrics'; summary.csv has every number with its "
                 "interval and the games behind it.")
    parts.append("\n".join(f"- {n}" for n in notes) + "\n")
    return "\n".join(parts)


def skill_sentence(pairs: pd.DataFrame, ratings: pd.DataFrame) -> str:
    """How far the best line-up is from a coin flip against the next best: the skill-versus-luck answer."""
    ordered = ratings.sort_values("rating", ascending=False)["policy"].tolist()
    if len(ordered) < 2:
        return ""
    best, second = ordered[0], ordered[1]
    row = pairs[((pairs["a"] == best) & (pairs["b"] == second)) | ((pairs["a"] == second) & (pairs["b"] == best))]
    if row.empty:
        return f"The best line-up is {best}."
    r = row.iloc[0]
    score, low, high = (r.a_score, r.a_score_low, r.a_score_high) if r.a == best else (
        1 - r.a_score, 1 - r.a_score_high, 1 - r.a_score_low)
    return (f"The best line-up, {best}, scores {pct(score, low, high)} against the next best, {second}: "
            f"{100 * (score - 0.5):+.1f} percentage points from a coin flip, over {r.games:,} games with seats "
            "swapped.")


STUDIES: dict[str, Callable[..., list[Config]]] = {
    "first-player": first_player, "hand-size": hand_size, "teams": teams_study, "skill": skill,
}
"""Every study by its name on the command line."""
