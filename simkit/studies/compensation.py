"""compensation: a fair Sequence. Search each compensation family's knob for zero first-player edge.

As Go found its komi, for each table, line-up (default greedy) and family,
the search plays settings of the knob on the same deals (the study's seed,
games 0..N-1), chooses each next setting from the results so far, and stops
when the crossing of zero is bracketed by settings whose intervals exclude
zero on both sides (or the family cannot reach it). At three-team tables
the `handicap` family has a second knob, team 1's handicap, searched in
turn with team 0's (a coordinate search) so that every team's share nears
its fair share. The answer is the setting nearest fair of every setting
visited (``Search.nearest_fair``), confirmed on a fresh seed with enough
games for the target precision.

A strong line-up's search plays few games per setting, so its answer can
lie a step off. When its confirmation is not fair, the search is refined
(``Search.refine``): the settings around the answer are played again with
REFINE_GAMES games each on a fresh seed, a line (one knob) or a plane (two
knobs) is fitted through them (and through the settings around the one it
points to, when that lies beyond them), and the setting the fit puts
nearest fair is confirmed on another fresh seed. The first confirmation
stays in the summary, as ``first confirmation``.

The families are rule options (simkit.game.options.OPTIONS): ``late_card`` (K:
team 0 short until its K-th turn) and ``handicap`` (H: team 0's seats short
for H turns in all, spread over its seats; H0,H1 with three teams).

With ``--check LINEUP`` each confirmed answer is played again by another
line-up (the reference lookahead, for a setting found under swift) on a
fresh seed, CHECK_GAMES games: whether the setting found with one player
holds for another.

Searching is replayed from the datasets on disk at every call of ``plan``:
a re-run plays nothing, an interrupted search resumes at its step, and
more games per setting extend it.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from simkit.analysis import stats
from simkit.game.options import OPTIONS, RulesError, is_default
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.presentation import plots
from simkit.presentation.render import count, pct, pp
from simkit.studies.directory import STUDY_FILE, config_from_json
from simkit.studies.kind import (
    LEGAL_TABLES,
    Config,
    Results,
    Study,
    StudyKind,
    Tables,
    canonical,
    lineups_for,
    round_games,
    table_list,
)
from simkit.studies.options import (  # declared with --family and --check, whose help says them
    CHECK_GAMES,
    FAMILIES,
    StudyError,
)
from simkit.studies.summary import summary_frame

CONFIRMATION_SEED_OFFSET = 1  # the confirmation plays seed + 1: games the search never saw
SEARCH_GAMES = {"casual": 100_000, "strong": 5_000}  # per setting: greedy (0.31 pp), lookahead (1.4 pp)
TARGET = {"casual": 0.0025, "strong": 0.0075}  # the confirmation's 95% half-width on team 0's share
FAIR_BAND = stats.FAIR_BAND  # the ±band a fair setting's interval must lie in (an equivalence margin)
GAP_TARGET = {"casual": 0.010, "strong": 0.020}  # three teams: the largest gap's upper bound
NO_EDGE_AT_0 = "no edge at 0: its interval holds zero"  # the search's word; fair is the confirmation's verdict
NOT_FAIR = "the closest setting found"  # the verdict of a family that did not reach fair at a table
MAX_CANDIDATES = 6  # settings inside the bracket that are all evaluated
LOOKS = {"casual": (1, 4), "strong": (1, 2, 4)}  # a confirmation's looks, in multiples of its first games
CHECK_SEED_OFFSET = 2  # the check plays seed + 2: games neither the search nor the confirmation saw
CHECK_BAND = 0.015  # a check holds when team 0's advantage is within ±1.5 pp
CHECK_GAP = 0.025  # and, with three teams, the largest gap at most 2.5 pp
REFINE_GAMES = {"casual": 0, "strong": 20_000}  # a refinement's games per setting (0: the search is not refined)
REFINE_SEED_OFFSET = 3  # a refinement plays seed + 3, and its confirmation seed + 4
REFINE_REACH = {1: 2, 2: 1}  # settings either side of the answer a refinement plays: one knob, two knobs
REFINE_MOVE = 2  # how many steps beyond the settings played the fit may take a refinement's next round
REFINE_ROUNDS = 3  # a refinement's rounds at most
FIRST_CONFIRMATION = "first confirmation"  # the role of a refined search's first, unfair confirmation


def strength(lineup) -> str:
    """'strong' for a line-up with a slow player (its declared cost: fewer games), else 'casual': the bands' names."""
    return "strong" if lineup.slow else "casual"


def search_games(lineup) -> int:
    return SEARCH_GAMES[strength(lineup)]


def highest(family: str, rules: Rules) -> int:
    """The largest setting searched: enough turns for team 0 to be short all game (random games end by ~120
    turns), times its seats for the handicap."""
    own_turns = math.ceil(120 / rules.players) + 2
    return own_turns * (rules.players // rules.teams if family == "handicap" else 1)


# --- the search, replayed from what is on disk ----------------------------------------


class Need(Exception):
    """The search needs a setting that has not been played yet."""

    def __init__(self, config: Config):
        self.config = config


@dataclass
class Point:
    """One setting played: its knob values, configuration and aggregate."""

    knobs: tuple[int, ...]
    config: Config
    agg: object


class Search:
    """One (table, line-up, family) search: every setting it evaluates, and the chosen one."""

    def __init__(
        self, family: str, rules: Rules, lineup, games: int, results: Results, near: tuple[int, ...] | None = None
    ):
        self.family, self.rules, self.lineup, self.games, self.results = family, rules, lineup, games, results
        self.near = near or (0, 0)  # where to begin: another line-up's answer at this table, if known
        self.points: dict[tuple[int, ...], Point] = {}
        self.two_knobs = family == "handicap" and rules.teams == 3
        self.high = highest(family, rules)
        self.outcome = ""  # how the search ended, in words
        self.steps: tuple[int, ...] | None = None  # where the search's steps ended
        self.chosen: tuple[int, ...] | None = None  # the answer: the visited setting nearest fair
        self.bracket: tuple[tuple[int, ...] | None, tuple[int, ...] | None] = (None, None)
        self.crossing = math.nan  # where team 0's knob crosses even: its last one-knob search's or refinement's fit
        self.need: Config | None = None  # the next setting to play, while the search is unfinished
        self.guide = False  # a greedy search that only shows a slower line-up where to begin
        self.refined: dict[tuple[int, ...], Point] = {}  # the refinement's settings (seed + REFINE_SEED_OFFSET)
        self.first: tuple[int, ...] | None = None  # a refined search's first answer
        self.first_confirmation: Config | None = None  # and its confirmation, not fair

    def config(
        self, knobs: tuple[int, ...], seed: int | None = None, games: int | None = None, role: str = "search"
    ) -> Config:
        value = knobs[0] if len(knobs) == 1 or knobs[1] == 0 else knobs
        rules = self.rules.replace(**{self.family: value})
        label = f"{self.family} {setting_text(knobs)}"
        return Config(
            rules,
            self.lineup,
            games or self.games,
            "compensation",
            label,
            seed,
            (("family", self.family), ("setting", setting_text(knobs)), ("role", role)),
        )

    def value(self, knobs: tuple[int, ...]) -> Point:
        """The setting's results, or Need when it has not been played."""
        if knobs not in self.points:
            self.points[knobs] = self.point(knobs, self.config(knobs))
        return self.points[knobs]

    def point(self, knobs: tuple[int, ...], config: Config) -> Point:
        """The results of `config` (the setting `knobs`), or Need when it has not been played."""
        agg = self.results.aggregate(config)
        if agg is None:
            raise Need(config)
        return Point(knobs, config, agg)

    # criteria: decreasing in their knob
    def edge(self, knobs) -> stats.Estimate:
        """Team 0's advantage (knob 0's criterion)."""
        return stats.advantage(self.value(knobs).agg.wins())

    def middle(self, knobs) -> stats.Estimate:
        """Team 1's share minus team 2's (knob 1's criterion, three teams)."""
        return stats.share_gap(self.value(knobs).agg.wins(), 1, 2)

    def run(self) -> None:
        """The whole search; raises Need at the first setting missing on disk. The steps end at a setting
        (`steps`); the answer (`chosen`) is the setting nearest fair of every setting visited
        (`nearest_fair`)."""
        if not self.two_knobs:
            self.steps = self.along(0, (0,), self.edge, near=self.near[0])
        else:
            h0 = self.along(0, (0, 0), self.edge, near=self.near[0])
            h1 = self.along(1, (h0[0], 0), self.middle, near=self.near[1] if len(self.near) > 1 else 0)
            h0b = self.along(0, (0, h1[1]), self.edge, near=h0[0])
            if h0b[0] != h0[0]:  # team 1's handicap moved team 0's crossing: one more round
                h1 = self.along(1, (h0b[0], 0), self.middle, near=h1[1])
                h0b = self.along(0, (0, h1[1]), self.edge, near=h0b[0])
            self.steps = (h0b[0], h1[1])
            self.visit_neighbours(self.steps)
        self.chosen = self.nearest_fair(self.steps)

    def unfairness(self, knobs: tuple[int, ...]) -> float:
        """How far a setting is from fair on the search's games, in units of the targets: the smallest m
        for which the confirmation's test, with its margins times m, would call it fair. That is the larger
        of (a) the bound of team 0's 95% advantage interval farthest from zero over the fair band and (b)
        the upper bound of the largest gap between two teams' shares (Goodman's intervals) over its target.
        At two teams the largest gap is twice the advantage and (b) equals (a); at three teams (b) is
        nearly always the larger. m <= 1: fair by the targets on these games."""
        wins = self.value(knobs).agg.wins()
        adv = stats.advantage(wins)
        return from_fair(adv.low, adv.high, stats.max_gap(wins).high, strength(self.lineup))

    def visit_neighbours(self, steps: tuple[int, int]) -> None:
        """Three teams: the coordinate search fits each knob alone, so its answer can miss a neighbour
        where both criteria are nearer zero. Play the eight neighbours (each knob one step either way), so
        that `nearest_fair` chooses among them too."""
        for d0 in (-1, 0, 1):
            for d1 in (-1, 0, 1):
                knobs = (steps[0] + d0, steps[1] + d1)
                if 0 <= knobs[0] <= self.high and 0 <= knobs[1] <= self.high:
                    self.value(knobs)

    def nearest_fair(self, steps: tuple[int, ...]) -> tuple[int, ...]:
        """The answer: of every setting the search visited (all on the same deals), the one with the
        smallest `unfairness`; on a tie the setting where the steps ended, then the smaller knobs. The
        choice is made on the search's deals; the confirmation, on a fresh seed, measures it without that
        selection."""
        best = min(self.points, key=lambda k: (self.unfairness(k), k != steps, k))
        if best != steps:
            self.outcome += (
                f"; of the {len(self.points)} settings visited, {setting_text(best)} is nearest "
                f"fair (the steps ended at {setting_text(steps)})"
            )
        return best

    def played(self) -> list[Config]:
        """Every configuration the search played, in order: its settings, and when refined its first
        confirmation and the refinement's settings (the confirmation of the answer is apart)."""
        first = [self.first_confirmation] if self.first_confirmation is not None else []
        return [p.config for p in self.points.values()] + first + [p.config for p in self.refined.values()]

    def refine(self, seed: int, confirm: Config) -> None:
        """The answer's confirmation `confirm` was not fair: play the settings around the answer again
        (REFINE_REACH either side of each knob) with REFINE_GAMES games each on seed + REFINE_SEED_OFFSET,
        fit them (`fitted_nearest_fair`), and when the fit puts the setting nearest fair beyond them (at
        most REFINE_MOVE steps further), play the settings around that one, up to REFINE_ROUNDS rounds.
        The answer is the setting the last round's fit chooses among the settings it played. Raises Need
        at the first setting not yet played."""
        games = REFINE_GAMES[strength(self.lineup)]
        self.first, self.first_confirmation = self.chosen, with_role(confirm, FIRST_CONFIRMATION)
        reach = REFINE_REACH[len(self.first)]
        centre, rounds = self.first, 0
        while True:
            rounds += 1
            local = {}
            for knobs in self.around(centre, reach):
                config = self.config(knobs, seed + REFINE_SEED_OFFSET, games, "refinement")
                local[knobs] = self.refined[knobs] = self.point(knobs, config)
            ahead, _ = fitted_nearest_fair(local, self.rules.teams, self.around(centre, reach + REFINE_MOVE))
            if ahead in local or rounds == REFINE_ROUNDS:
                break
            centre = ahead
        self.chosen, self.crossing = fitted_nearest_fair(local, self.rules.teams)
        wins = self.results.aggregate(confirm).wins()
        gap = f", largest gap {pp(stats.max_gap(wins).value, digits=2)}" if self.rules.teams == 3 else ""
        moved = (
            f", then around {setting_text(centre)} ({rounds} rounds, {len(self.refined)} settings),"
            if rounds > 1
            else ""
        )
        self.outcome += (
            f"; its confirmation was not fair (advantage {pp(stats.advantage(wins).value, digits=2)}"
            f"{gap}), so the settings around {setting_text(self.first)}{moved} were played again, "
            f"{count(games)} games each on seed {seed + REFINE_SEED_OFFSET}: "
            f"{setting_text(self.chosen)} is nearest fair on the {'plane' if self.two_knobs else 'line'}"
            " fitted through the last of them"
        )

    def around(self, centre: tuple[int, ...], reach: int) -> list[tuple[int, ...]]:
        """The settings within `reach` steps of `centre` on each knob, from 0 to the largest setting."""
        spans = [range(max(0, k - reach), min(self.high, k + reach) + 1) for k in centre]
        return list(itertools.product(*spans))

    def along(self, axis: int, start: tuple[int, ...], criterion: Callable, near: int = 0) -> tuple[int, ...]:
        """Search one knob (axis) from `start` for the crossing of zero of `criterion` (decreasing in the
        knob), beginning at `near` (an earlier pass's answer); the setting chosen.

        A search guided by another line-up's answer (`near` > 0) begins there, and does not stop at a
        standard game whose interval holds zero: with a strong line-up's few games per setting that is
        more often chance than a fair game. Probing by doubling steps finds a setting above zero and one
        not above; bisection then finds the last setting above zero and the first below it; the settings
        between them (at most MAX_CANDIDATES) are played too, and the choice is the setting nearest the
        crossing of a weighted line through them (as komi is fitted), or the one nearest zero when no line fits.
        """

        def at(x: int) -> tuple[int, ...]:
            knobs = list(start)
            knobs[axis] = x
            return tuple(knobs)

        def sign(x: int) -> int:
            e = criterion(at(x))
            return 1 if e.low > 0 else -1 if e.high < 0 else 0

        def stop_at_0() -> tuple[int, ...]:
            self.outcome = NO_EDGE_AT_0 if sign(0) == 0 else "team 0 already behind"
            self.bracket = (None, at(0))
            return at(0)

        if sign(0) <= 0 and near == 0:  # the standard game, always played; unguided, it decides
            return stop_at_0()
        # a setting above zero (last_pos) and the nearest one found that is not (first_nonpos)
        if near > 0 and sign(near) <= 0:
            first_nonpos, x, step = near, near, 1
            while x > 0 and sign(x) <= 0:
                first_nonpos, x, step = x, max(0, x - step), step * 2
            if sign(x) <= 0:  # down to the standard game, and no edge there either
                return stop_at_0()
            last_pos = x
        else:
            last_pos, x, step = near, near + 1, 1
            while x < self.high and sign(x) > 0:
                last_pos, step = x, step * 2
                x = min(self.high, last_pos + step)
            if sign(x) > 0:
                self.outcome = f"cannot reach zero: still above at the largest setting, {x}"
                self.bracket = (at(x), None)
                return at(x)
            first_nonpos = x
        low = _last_true(lambda v: sign(v) > 0, last_pos, first_nonpos)  # the last setting above zero
        if sign(first_nonpos) < 0:  # the first setting below zero
            up = _first_true(lambda v: sign(v) < 0, low, first_nonpos)
        else:
            y, step = first_nonpos, 1
            while y < self.high and sign(y) >= 0:
                y = min(self.high, y + step)
                step *= 2
            up = _first_true(lambda v: sign(v) < 0, first_nonpos, y) if sign(y) < 0 else None
        inside = list(range(low + 1, (up if up is not None else self.high + 1)))
        if len(inside) > MAX_CANDIDATES:  # a wide flat stretch: evenly spaced candidates
            step = (len(inside) - 1) / (MAX_CANDIDATES - 1)
            inside = sorted({inside[round(i * step)] for i in range(MAX_CANDIDATES)})
        candidates = [low, *inside] + ([up] if up is not None else [])
        values = {v: criterion(at(v)) for v in candidates}
        crossing = _crossing(values)
        self.bracket = (at(low), at(up) if up is not None else None)
        if axis == 0:
            self.crossing = crossing
        if math.isfinite(crossing) and low <= round(crossing) <= (up if up is not None else self.high):
            best = round(crossing)
            criterion(at(best))  # played, if it was not yet (a setting between the candidates)
        else:
            best = min(candidates, key=lambda v: (abs(values[v].value), v))
        if up is None:
            self.outcome = "reaches zero, never below it"
        elif not inside:
            self.outcome = f"steps too coarse: {low} is above zero, {up} below"
        else:
            self.outcome = "bracketed"
        return at(best)


def from_fair(advantage_low: float, advantage_high: float, gap_high: float, kind: str) -> float:
    """How far from fair an interval is, in units of the targets of `kind` ('casual' or 'strong'): the
    smallest m with team 0's advantage interval within ±m times the fair band and the largest gap's upper
    bound within m times its target (`Search.unfairness`); m <= 1 is fair by the targets."""
    return max(max(abs(advantage_low), abs(advantage_high)) / FAIR_BAND[kind], gap_high / GAP_TARGET[kind])


def fitted_nearest_fair(
    points: dict[tuple[int, ...], Point], teams: int, candidates: list[tuple[int, ...]] | None = None
) -> tuple[tuple[int, ...], float]:
    """The setting among `candidates` (default: the settings of `points`, a refinement's settings around
    an answer, on the same deals) whose teams' shares, as a weighted least-squares fit through `points`
    predicts them, are nearest equal: the smallest largest gap between two teams' fitted shares; and
    where the fitted advantage crosses zero along team 0's knob (the other knob at the chosen setting's;
    NaN without a falling fit). The fit is linear in the knobs, one per contrast: team 0's advantage and,
    with three teams, team 1's share minus team 2's. On a tie, the smaller knobs. Too few settings for
    the fit: the setting of `points` whose own shares are nearest equal."""
    knobs = sorted(points)
    x = np.array(knobs, np.float64)
    varies = [j for j in range(x.shape[1]) if np.ptp(x[:, j]) > 0]
    design = np.column_stack([np.ones(len(x))] + [x[:, j] for j in varies])
    contrasts = [stats.advantage] + ([lambda w: stats.share_gap(w, 1, 2)] if teams == 3 else [])
    est = [[contrast(points[k].agg.wins()) for k in knobs] for contrast in contrasts]
    y = [np.array([e.value for e in row]) for row in est]
    w = [np.array([2 * stats.Z / (e.high - e.low) if e.high > e.low else 0.0 for e in row]) for row in est]
    fits = len(x) > design.shape[1] and all(np.all(np.isfinite(v)) for v in y) and all(np.all(v > 0) for v in w)
    if not fits:  # the settings' own values
        wanted, fitted, edge_coef = knobs, y, None
    else:
        wanted = sorted(candidates) if candidates is not None else knobs
        at = np.array(wanted, np.float64)
        predict = np.column_stack([np.ones(len(at))] + [at[:, j] for j in varies])
        coefs = [np.linalg.lstsq(design * wi[:, None], yi * wi, rcond=None)[0] for yi, wi in zip(y, w)]
        fitted, edge_coef = [predict @ c for c in coefs], coefs[0]
    edge = fitted[0]
    if teams == 2:
        gap = 2 * np.abs(edge)
    else:
        s0, s1 = 1 / 3 + edge, (2 / 3 - edge + fitted[1]) / 2
        s2 = 1 - s0 - s1
        gap = np.maximum.reduce([np.abs(s0 - s1), np.abs(s0 - s2), np.abs(s1 - s2)])
    best = min(zip(gap, wanted))[1]
    crossing = math.nan
    if edge_coef is not None and 0 in varies and edge_coef[1] < 0:
        rest = sum(c * best[j] for c, j in zip(edge_coef[2:], varies[1:]))
        crossing = float(-(edge_coef[0] + rest) / edge_coef[1])
    return best, crossing


def with_role(config: Config, role: str) -> Config:
    """The configuration with another role in its summary row (the role is not its identity)."""
    return replace(config, facts=tuple((k, role if k == "role" else v) for k, v in config.facts))


def _bisect(pred: Callable[[int], bool], a: int, b: int) -> int:
    """For a monotone pred with pred(a) != pred(b), the x in [a, b) with pred(x) == pred(a) != pred(x + 1)."""
    side = pred(a)
    while b - a > 1:
        m = (a + b) // 2
        if pred(m) == side:
            a = m
        else:
            b = m
    return a


def _last_true(pred: Callable[[int], bool], a: int, b: int) -> int:
    """The largest x in [a, b) with pred(x), given pred(a) and not pred(b) (monotone)."""
    return _bisect(pred, a, b)


def _first_true(pred: Callable[[int], bool], a: int, b: int) -> int:
    """The smallest x in (a, b] with pred(x), given not pred(a) and pred(b) (monotone)."""
    return _bisect(pred, a, b) + 1


def _crossing(values: dict[int, stats.Estimate]) -> float:
    """Where a weighted straight line through the settings' values crosses zero (as komi is fitted)."""
    x = np.array(sorted(values), np.float64)
    y = np.array([values[int(v)].value for v in x])
    se = np.array([(values[int(v)].high - values[int(v)].low) / (2 * stats.Z) for v in x])
    if len(x) < 2 or not np.all(np.isfinite(y)) or not np.all(se > 0):
        return math.nan
    w = 1 / se**2
    slope, intercept = np.polyfit(x, y, 1, w=np.sqrt(w))
    return float(-intercept / slope) if slope < 0 else math.nan


def setting_text(knobs: tuple[int, ...]) -> str:
    """'9' or '9,3' (team 0's and team 1's knobs)."""
    return ",".join(str(k) for k in knobs) if len(knobs) > 1 and knobs[1] else str(knobs[0])


# --- the study ----------------------------------------------------------------------


def tables_of(study: Study) -> list[tuple[int, int]]:
    """The legal tables the study chose (--players, --teams) that its rule options fit: a per-seat
    option (--hand-size 6,7,7) does not fit every table of the whole study (`whole`)."""
    base = study.base
    chosen = [(p, t) for p, t in LEGAL_TABLES if base.get("players", p) == p and base.get("teams", t) == t]
    if not chosen:
        Rules.make(**{k: base[k] for k in ("players", "teams") if k in base})
        raise StudyError(f"no legal table has {base}")
    rest = {k: v for k, v in base.items() if k not in ("players", "teams")}
    fitting = [(p, t) for p, t in chosen if _fits(p, t, rest)]
    if not fitting:
        Rules.make(*chosen[0], **rest)  # raises RulesError: why the options fit no table chosen
    return fitting


def tables_text() -> str:
    return (
        f"every legal table, {table_list(LEGAL_TABLES)}; a per-seat rule option (--hand-size 6,7,7) keeps "
        "the tables it fits"
    )


def _fits(players: int, teams: int, options: dict) -> bool:
    try:
        Rules.make(players, teams, **options)
    except RulesError:
        return False
    return True


def families_of(study: Study) -> list[str]:
    chosen = study.options.get("families") or list(FAMILIES)
    unknown = [f for f in chosen if f not in FAMILIES]
    if unknown:
        raise StudyError(f"unknown compensation family {unknown[0]!r}; families: {', '.join(FAMILIES)}")
    return list(dict.fromkeys(chosen))


def searches(study: Study, results: Results) -> list[tuple[Search, Config | None]]:
    """Every search of the study, replayed as far as the results go, with its confirmation (None while
    the search is unfinished).

    A slow (lookahead) line-up's search begins where greedy's ends at the same table and family: the
    greedy search is replayed first, and played first if it is not on disk (a guide: no confirmation of
    its own unless greedy is asked for), so the slow search is the same whatever ran before it.
    """

    rest = {k: v for k, v in study.base.items() if k not in ("players", "teams")}
    out = []
    for players, teams in tables_of(study):
        rules = Rules.make(players, teams, **rest)
        lineups = sorted(lineups_for(study, rules), key=lambda lg: strength(lg[0]) == "strong")
        for family in families_of(study):
            known: tuple[int, ...] | None = None
            for lineup, games in lineups:
                if strength(lineup) == "strong" and known is None:
                    guide = Search(family, rules, Lineup.parse("greedy", rules), SEARCH_GAMES["casual"], results)
                    guide.guide = True
                    try:
                        guide.run()
                        known = guide.chosen
                        out.append((guide, None))
                    except Need as need:
                        guide.need = need.config
                        out.append((guide, None))
                        continue  # the slow search waits for its guide
                search = Search(family, rules, lineup, games, results, near=known)
                try:
                    search.run()
                    confirm = confirmation(search, study.seed)
                    if refinable(search, confirm):
                        search.refine(study.seed, confirm)
                        confirm = confirmation(search, study.seed)
                except Need as need:
                    search.need = need.config
                    out.append((search, None))
                    continue
                if known is None:
                    known = search.chosen
                out.append((search, confirm))
    return out


def begun(
    found: list[tuple[Search, Config | None]], results: Results, listed: list[Config]
) -> list[tuple[Search, Config | None]]:
    """The searches that have played something of their own: a setting other than 0 (the standard game,
    which every family's search replays from whichever played it first), or a confirmation on disk that
    a command asked for: `listed`, this command's configurations and those on record. (A search that
    stops at 0 asks for a confirmation of setting 0 without playing anything of its own, and every
    family's setting 0 is the same game: the other families' searches find it on disk too, but no
    command asked for them.)"""
    asked = {(c.folder(results.seed), c.label) for c in listed}

    def own_confirmation(search: Search, confirm: Config | None) -> bool:
        done = confirmed(search, confirm, results)
        return done is not None and (done.folder(results.seed), done.label) in asked

    return [(s, c) for s, c in found if any(any(k) for k in s.points) or own_confirmation(s, c)]


def refinable(search: Search, confirm: Config) -> bool:
    """Whether the search goes on to a refinement (`Search.refine`): its line-up's searches are refined,
    its answer's confirmation is complete on disk (with the further looks it takes) and not fair."""
    kind = strength(search.lineup)
    if search.guide or not REFINE_GAMES[kind]:
        return False
    done = search.results.aggregate(confirm)
    return done is not None and not fair(done.wins(), kind, search.rules.teams)


def on_record(results: Results) -> list[Config]:
    """The configurations study.json lists: those the commands before this one asked for."""
    try:
        record = json.loads((results.out / STUDY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [config_from_json(c) for c in record.get("configurations", [])]


def confirmed(search: Search, confirm: Config | None, results: Results) -> Config | None:
    """The search's confirmation as far as it is on disk: the whole, or while a further look is still
    to play, its first look (with the games on disk); None before its first look is complete."""
    if confirm is not None and results.aggregate(confirm) is None:
        confirm = search.config(search.chosen, confirm.seed, first_look(search), "confirmation")
    return confirm if confirm is not None and results.aggregate(confirm) is not None else None


def on_disk(found: list[tuple[Search, Config | None]], results: Results, seed: int) -> list[Config]:
    """The searches' settings and confirmations that are on disk; a confirmation whose further look is
    still to play, by its first look. A setting shared by two families (their setting 0) is two rows."""
    out: dict[tuple, Config] = {}
    for search, confirm in found:
        for config in search.played():
            out.setdefault((config.folder(seed), config.facts), config)
        done = confirmed(search, confirm, results)
        if done is not None:
            out.setdefault((done.folder(seed), done.facts), done)
    return list(out.values())


def whole(study: Study) -> Study:
    """The study over every table and family: a command that chose some of them (--players, --family,
    the kind's `choosing`) writes the summary of all the searches on disk, not of its own alone."""
    options = {k: v for k, v in study.options.items() if k not in study.kind.choosing}
    options["rules"] = {k: v for k, v in study.base.items() if k not in study.kind.choosing}
    return Study(study.kind, options, study.lineups, study.seed)


def confirmation(search: Search, seed: int) -> Config:
    """The chosen setting on a fresh seed, with games for the target half-width on team 0's share
    (and, with three teams, on every share for the largest gap's bound).

    A refined search's answer is confirmed on seed + REFINE_SEED_OFFSET + 1, games neither the search nor the
    refinement saw. Further looks: while a look is inconclusive (`inconclusive`), the confirmation goes on to
    the next of LOOKS times its first games on the same seed, and the whole is the confirmation. How far it
    went is read from the disk (the games on disk), so a resumed study makes the same decisions.
    """
    seed += REFINE_SEED_OFFSET + 1 if search.refined else CONFIRMATION_SEED_OFFSET
    looks = look_games(search)
    done = search.results.aggregate(search.config(search.chosen, seed, looks[0], "confirmation"))
    at = 0
    if done is not None:
        at = next((i for i, games in enumerate(looks) if games >= done.games), len(looks) - 1)
        if (
            done.games == looks[at]
            and at + 1 < len(looks)
            and inconclusive(done.wins(), strength(search.lineup), search.rules.teams)
        ):
            at += 1  # this look settled nothing: the next one
    return search.config(search.chosen, seed, looks[at], "confirmation")


def look_games(search: Search) -> list[int]:
    """The games of each of the confirmation's LOOKS: multiples of its first look's."""
    first = first_look(search)
    return [first * times for times in LOOKS[strength(search.lineup)]]


def looks_text(kind: str) -> str:
    """The further looks of LOOKS[kind] in words: '4 times', '2, then 4 times'."""
    return ", then ".join(str(times) for times in LOOKS[kind][1:]) + " times"


def looks_taken(search: Search, confirm: Config) -> int:
    """How many of LOOKS the confirmation `confirm` took."""
    return look_games(search).index(confirm.games) + 1


def first_look(search: Search) -> int:
    """The first confirmation's games: the target half-width on team 0's share at the chosen setting's
    completion (and, with three teams, on every share for the largest gap's bound)."""
    kind = strength(search.lineup)
    agg = (search.refined or search.points)[search.chosen].agg
    completion = max(agg.decided / agg.games, 0.5)
    decided = stats.games_for_half_width(TARGET[kind])
    if search.rules.teams == 3:  # Goodman's simultaneous intervals of three shares near 1/3
        z = float(stats.sp.norm.ppf(1 - (1 - stats.CONFIDENCE) / 6))
        decided = max(decided, math.ceil(z * z * (2 / 9) / (GAP_TARGET[kind] * 0.35) ** 2))
    return round_games(math.ceil(decided / completion))


def fair(wins: np.ndarray, kind: str, teams: int) -> bool:
    """Fair by the targets: team 0's advantage interval within the band; with three teams also the largest
    gap's upper bound within its target. wins: (teams + 1,) games won by team 0.. and drawn."""
    adv = stats.advantage(wins)
    within = adv.low >= -FAIR_BAND[kind] and adv.high <= FAIR_BAND[kind]
    return within and (teams == 2 or stats.max_gap(wins).high <= GAP_TARGET[kind])


def inconclusive(wins: np.ndarray, kind: str, teams: int) -> bool:
    """Not fair by the targets, but the point estimates are: more games may settle it. (Under a strong
    line-up's three looks a two-team setting whose advantage lies at the band's edge is called fair with a
    probability of 5.4%, 4.1% with two looks, 2.5% with one; a three-team setting whose largest gap is at
    its target, 0.3%: Goodman's bound is conservative. docs/research.md has the simulation.)"""
    near = abs(stats.advantage(wins).value) < FAIR_BAND[kind] and (
        teams == 2 or stats.max_gap(wins).value < GAP_TARGET[kind]
    )
    return near and not fair(wins, kind, teams)


def plan(study: Study, results: Results) -> list[Config]:
    """Every setting played so far, the next ones each unfinished search needs, the confirmations, and once
    a confirmation is done, its checks by the --check line-ups."""

    for spec in study.options.get("checks") or ():
        Lineup.parse(spec, Rules.make(2))  # a bad --check is refused before anything is played
    configs = []
    for search, confirm in searches(study, results):
        configs += search.played()
        if search.need is not None:
            configs.append(search.need)
        elif confirm is not None:
            configs.append(confirm)
            if not search.guide and results.aggregate(confirm) is not None:
                configs += [check(search, spec, study.seed) for spec in study.options.get("checks") or ()]
    return configs


def check(search: Search, spec: str, seed: int) -> Config:
    """The search's answer played by the line-up `spec` on seed + CHECK_SEED_OFFSET, CHECK_GAMES games."""

    rules = search.config(search.chosen).rules
    lineup = Lineup.parse(spec, rules)
    setting = setting_text(search.chosen)
    return Config(
        rules,
        lineup,
        CHECK_GAMES,
        "compensation",
        f"{search.family} {setting}, checked",
        seed + CHECK_SEED_OFFSET,
        (("family", search.family), ("setting", setting), ("role", "check"), ("found_by", search.lineup.spec)),
    )


def holds(wins: np.ndarray, teams: int) -> bool:
    """A check holds: team 0's advantage within ±CHECK_BAND and, with three teams, the largest gap at most
    CHECK_GAP (point estimates: at CHECK_GAMES games an interval of ±1 pp could lie within ±1.5 pp only
    around a point within ±0.5)."""
    return abs(stats.advantage(wins).value) <= CHECK_BAND and (teams == 2 or stats.max_gap(wins).value <= CHECK_GAP)


def checks_of(configs: list[Config], results: Results) -> list[Config]:
    """The checks among `configs` that are on disk, each folder once."""
    found = {
        c.folder(results.seed): c
        for c in configs
        if dict(c.facts).get("role") == "check" and results.aggregate(c) is not None
    }
    return list(found.values())


def checks_table(checks: list[Config], results: Results, answers: set[tuple]) -> pd.DataFrame:
    """checks.csv: one row per check, with whether it holds and whether the setting it checked is still
    its search's answer (`answers`: (players, teams, line-up, family, setting) of every answer; a check of an
    earlier answer, before a refinement, stays on record)."""
    rows = []
    for c in checks:
        agg = results.aggregate(c)
        wins = agg.wins()
        adv, gap = stats.advantage(wins), stats.max_gap(wins)
        facts = dict(c.facts)
        rows.append(
            {
                "players": c.rules.players,
                "teams": c.rules.teams,
                "found_by": facts["found_by"],
                "family": facts["family"],
                "setting": facts["setting"],
                "checked_by": c.lineup.spec,
                "games": agg.games,
                "seed": c.seed,
                "advantage": adv.value,
                "advantage_low": adv.low,
                "advantage_high": adv.high,
                "max_gap": gap.value,
                "max_gap_low": gap.low,
                "max_gap_high": gap.high,
                "holds": holds(wins, c.rules.teams),
                "answer": (c.rules.players, c.rules.teams, facts["found_by"], facts["family"], facts["setting"])
                in answers,
                "wall_seconds": wall_seconds([c], results),
                "run_args": run_args(c),
            }
        )
    return pd.DataFrame(rows)


def checks_section(frame: pd.DataFrame) -> str:
    """The checks as markdown: each answer played by another line-up, and whether it holds."""
    if not len(frame):
        return ""
    lines = [
        "## Checked by another player\n",
        f"Each answer below was played again by another line-up on a fresh seed ({count(CHECK_GAMES)} games, "
        f"the study's seed + {CHECK_SEED_OFFSET}). It holds when team 0's advantage is within "
        f"±{100 * CHECK_BAND:g} pp and, with three teams, the largest gap at most {100 * CHECK_GAP:g} pp "
        "(point estimates, with their 95% intervals). A check of an earlier answer (before a refinement "
        "chose another) stays on record.\n",
        "| table | found by | family | setting | the answer | checked by | advantage [95% CI] "
        "| largest gap [95% CI] | games | wall time | holds |",
        "| --- | --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in frame.itertuples():
        say = (
            "yes"
            if r.holds
            else f"no: {pp(r.advantage, digits=2)} from even"
            if abs(r.advantage) > CHECK_BAND
            else f"no: largest gap {pp(r.max_gap, digits=2)}"
        )
        lines.append(
            f"| {r.players}p / {r.teams}t | {r.found_by} | {r.family} | {r.setting} | "
            f"{'yes' if r.answer else 'an earlier one'} | {r.checked_by} | "
            f"{pp(r.advantage, r.advantage_low, r.advantage_high, 2)} | "
            f"{pp(r.max_gap, r.max_gap_low, r.max_gap_high, 2)} | {count(r.games)} | "
            f"{'not recorded' if math.isnan(r.wall_seconds) else _duration(r.wall_seconds)} | {say} |"
        )
    return "\n".join(lines) + "\n"


def run_args(config: Config) -> str:
    """The `simkit run` options that play exactly this configuration (without --out and --seed)."""
    values = config.rules.values()
    args = [f"--players {config.rules.players}", f"--teams {config.rules.teams}"]
    for name, option in OPTIONS.items():
        if name in ("players", "teams") or is_default(name, values[name], values):
            continue
        v = values[name]
        if option.kind == "bool":
            args.append(option.flag if v else f"--no-{option.flag[2:]}")
        else:
            args.append(f"{option.flag} {option.column_value(v)}")
    args.append(f"--policy {config.lineup.spec}")
    if config.lineup.swap_seats:
        args.append("--swap-seats")
    args.append(f"--games {config.games}")
    return " ".join(args)


def tables(study: Study, configs: list[Config], results: Results) -> Tables:
    """The summary of every search on disk, replayed (whatever the command, or an earlier one that
    stopped before its summary): the settings each played and its confirmation, as far as played."""
    recorded = configs + on_record(results)
    everything = begun(searches(whole(study), results), results, recorded)
    checked = checks_of(recorded, results)
    configs = canonical(on_disk(everything, results, study.seed) + checked, study)
    summary = summary_frame(configs, results)
    summary.insert(summary.columns.get_loc("role") + 1, "seed", [c.seed_of(study.seed) for c in configs])
    summary["run_args"] = [run_args(c) for c in configs]
    found = [
        (s, c if c is not None and results.aggregate(c) is not None else None)  # None: still to play
        for s, c in everything
        if not s.guide
    ]
    verdicts = pd.DataFrame([verdict(s, c, results, summary) for s, c in found if c is not None])
    answers = {
        (s.rules.players, s.rules.teams, s.lineup.spec, s.family, setting_text(s.chosen))
        for s, c in found
        if c is not None
    }
    checks = checks_table(checked, results, answers)
    return Tables(
        summary,
        {"verdicts": verdicts, **({"checks": checks} if len(checks) else {})},
        key=key_table(verdicts),
        sections=[search_section(found), *filter(None, [checks_section(checks)]), wall_time_section(found, results)],
        notes=[
            "Each search plays its settings on the same deals (the study's seed, games 0..N-1), so "
            "neighbouring settings differ by the rule alone; a confirmation replays the chosen setting "
            f"on seed + {CONFIRMATION_SEED_OFFSET}, games the search never saw.",
            f"Fair is an equivalence margin, not a zero edge: a setting is fair when its confirmation's "
            f"95% interval of team 0's advantage lies within ±{100 * FAIR_BAND['casual']:g} pp (random and "
            f"greedy play) or ±{100 * FAIR_BAND['strong']:g} pp (with a lookahead). With three teams "
            "also every team's share: the largest gap between two teams' shares, with an interval from "
            "Goodman's simultaneous intervals (which allows for the maximum's upward bias), at most "
            f"{100 * GAP_TARGET['casual']:.1f} pp (random and greedy) or {100 * GAP_TARGET['strong']:.1f} "
            "pp (lookahead).",
            "The column search ended says how the search ended, on the search's own games; the column "
            "fair (within the margin) is the confirmation's verdict, on fresh games. They are separate: "
            '"steps too coarse: 9 is '
            'above zero, 10 below" means no whole setting lies between the last setting whose interval '
            "is above zero and the first below it, so the search chose the nearer of the two; that "
            'setting can still be fair (its confirmation within the margin) or not. "'
            + NO_EDGE_AT_0
            + "\" means the standard game's interval already held zero on the search's games; the "
            "confirmation's larger sample can still find an edge beyond the margin (fair: no).",
            "The answer is the setting nearest fair of every setting the search visited, not only "
            "where its steps ended (three teams: the steps' answer and its eight neighbours, each knob "
            "one step either way, are visited too): the one whose interval would pass the fair test "
            "with the narrowest margins, that is the smallest m such that its 95% interval of team 0's "
            "advantage lies within ±m times the fair band and the largest gap's upper bound within m "
            "times its target (at two teams the two say the same). `steps` in verdicts.csv is where "
            "the steps ended.",
            f'Fair "no: {NOT_FAIR}": the family does not reach fair at that table in this search; '
            "the setting shown is the closest to fair of those it visited, and its confirmation says "
            "how far from fair it leaves the table.",
            f"A refined search (a line-up playing {count(SEARCH_GAMES['strong'])} games per setting, "
            "whose answer's confirmation was not fair): the settings around its answer (two either side; "
            f"three teams, one either side of each knob) were played again, {count(REFINE_GAMES['strong'])} "
            f"games each on seed + {REFINE_SEED_OFFSET}; a weighted line (a plane with two knobs) fitted "
            "through each team's share chose the setting nearest fair (when the fit put it beyond "
            "the settings played, those around it were played too, up to "
            f"{REFINE_ROUNDS} rounds), confirmed on seed + "
            f"{REFINE_SEED_OFFSET + 1}. The first confirmation is the row '{FIRST_CONFIRMATION}' of "
            "summary.csv, the first answer `first_setting` in verdicts.csv.",
            f"A confirmation whose point estimates are fair but whose interval is not within the targets "
            "takes a further look on the same seed, and another while it stays so: "
            f"{looks_text('casual')} its "
            f"first games (greedy), {looks_text('strong')} (lookahead); `looks` in verdicts.csv says how "
            "many it took.",
        ],
    )


def verdict(search: Search, confirm: Config, results: Results, summary: pd.DataFrame) -> dict:
    """One row per search: the setting chosen, its confirmation, whether it is fair by the targets."""
    row = summary[
        (summary["role"] == "confirmation")
        & (summary["family"] == search.family)
        & (summary["players"] == search.rules.players)
        & (summary["teams"] == search.rules.teams)
        & (summary["policies"] == search.lineup.spec)
    ].iloc[0]
    kind = strength(search.lineup)
    low, up = search.bracket
    return {
        "players": search.rules.players,
        "teams": search.rules.teams,
        "policies": search.lineup.spec,
        "family": search.family,
        "setting": setting_text(search.chosen),
        "steps": setting_text(search.steps),
        "outcome": search.outcome,
        "below": setting_text(low) if low else "",
        "above": setting_text(up) if up else "",
        "crossing": search.crossing,
        "settings_played": len(search.points) + len(search.refined),
        "first_setting": setting_text(search.first) if search.first else "",
        "games": int(row.games),
        "seed": int(row.seed),
        "advantage": row.advantage,
        "advantage_low": row.advantage_low,
        "advantage_high": row.advantage_high,
        **{f"share_{t}{s}": row[f"share_{t}{s}"] for t in range(3) for s in ("", "_low", "_high")},
        "max_gap": row.max_gap,
        "max_gap_low": row.max_gap_low,
        "max_gap_high": row.max_gap_high,
        "fair": fair(results.aggregate(confirm).wins(), kind, search.rules.teams),
        "looks": looks_taken(search, confirm),
        "run_args": row.run_args,
        "wall_seconds": wall_seconds([*search.played(), confirm], results),
        **standard_game(search),
    }


def standard_game(search: Search) -> dict:
    """The edge of the standard game (the setting 0 every search plays first, on the search's deals):
    team 0's advantage and the largest gap, each with its interval, and the games."""
    zero = search.points[(0,) * len(search.chosen)].agg
    adv, gap = stats.advantage(zero.wins()), stats.max_gap(zero.wins())
    return {
        "standard_advantage": adv.value,
        "standard_advantage_low": adv.low,
        "standard_advantage_high": adv.high,
        "standard_max_gap": gap.value,
        "standard_max_gap_low": gap.low,
        "standard_max_gap_high": gap.high,
        "standard_games": int(zero.games),
    }


def wall_seconds(configs: list[Config], results: Results) -> float:
    """The wall time their runs took to play on this machine (each folder once), in seconds; NaN when one
    of them was played before runs recorded it (simkit.running.manifest's times log)."""
    times = {c.folder(results.seed): results.seconds(c) for c in configs}
    return math.nan if any(t is None for t in times.values()) else float(sum(times.values()))


def wall_time_section(found: list, results: Results) -> str:
    """Per table and line-up: the settings played, their games and the wall time they took on this machine."""
    tables: dict[tuple[int, int, str], list[Config]] = {}
    for search, confirm in found:
        key = (search.rules.players, search.rules.teams, search.lineup.spec)
        tables.setdefault(key, []).extend(search.played())
        if confirm is not None:
            tables[key].append(confirm)
    lines = [
        "## Wall time per table\n",
        "What each table's searches and confirmations took to play on the machine that played them "
        "(the runs' times logs, the compile excluded), with whatever else ran beside them.\n",
        "| table | line-up | settings and confirmations | games | wall time |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for (players, teams, lineup), configs in sorted(tables.items()):
        distinct = {c.folder(results.seed): c for c in configs}
        seconds = wall_seconds(list(distinct.values()), results)
        games = sum(c.games for c in distinct.values())
        took = "not recorded" if math.isnan(seconds) else _duration(seconds)
        lines.append(f"| {players}p / {teams}t | {lineup} | {len(distinct)} | {count(games)} | {took} |")
    return "\n".join(lines) + "\n"


def _duration(seconds: float) -> str:
    """'42 s', '12.5 min', '1.6 h'."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def key_table(v: pd.DataFrame) -> pd.DataFrame:
    if not len(v):
        return pd.DataFrame()
    rows = []
    for r in v.itertuples():
        shares = " / ".join(
            pct(getattr(r, f"share_{t}"), getattr(r, f"share_{t}_low"), getattr(r, f"share_{t}_high"))
            for t in range(r.teams)
        )
        rows.append(
            {
                "table": f"{r.players}p / {r.teams}t",
                "line-up": r.policies,
                "family": r.family,
                "setting": r.setting,
                "search ended": r.outcome,
                "confirmation: advantage [95% CI]": pp(r.advantage, r.advantage_low, r.advantage_high, 2),
                "shares of decided games [95% CI]": shares,
                "largest gap [95% CI]": pp(r.max_gap, r.max_gap_low, r.max_gap_high, 2),
                "games": count(r.games),
                "fair (within the margin)": "yes" if r.fair else f"no: {NOT_FAIR}",
            }
        )
    return pd.DataFrame(rows)


def search_section(found: list) -> str:
    """Every search's path: the settings played, their advantage, and how the search ended."""

    def cells(points: dict) -> str:
        return ", ".join(
            f"{setting_text(k)}: {pp(stats.advantage(p.agg.wins()).value, digits=2)}" for k, p in sorted(points.items())
        )

    lines = ["## The searches\n"]
    for search, confirm in found:
        cells_text = cells(search.points) + (f"; refined: {cells(search.refined)}" if search.refined else "")
        state = (
            search.outcome
            if confirm is not None
            else "unfinished (the confirmation is still to play)"
            if search.need is None
            else "unfinished"
        )
        lines.append(
            f"- {search.rules.players}p / {search.rules.teams}t, {search.lineup.spec}, {search.family}: "
            f"{state}; chose {setting_text(search.chosen) if search.chosen else '—'}"
            f" (fitted crossing {search.crossing:.2f}); advantage by setting: {cells_text}."
        )
    return "\n".join(lines) + "\n"


def figures(t: Tables) -> dict:

    out = {}
    summary = t.summary
    for family in dict.fromkeys(summary["family"]):
        out[f"compensation_{family}.png"] = plots.compensation(summary, t.extra["verdicts"], family)
    if (summary["teams"] == 3).any():
        out["compensation_three_teams.png"] = plots.compensation_shares(summary, t.extra["verdicts"])
    return out


KIND = StudyKind(
    "compensation",
    "Which compensation makes Sequence fair, at every table?",
    "searches each compensation family's knob (late_card, handicap) for zero first-player edge, then confirms",
    plan,
    tables,
    figures,
    default_policies=("greedy",),
    varies=("players", "teams", "late_card", "handicap"),
    restricts=("players", "teams"),
    games=search_games,
    unit="setting",
    tables_text=tables_text,
)
