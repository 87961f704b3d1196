"""The compensation study's search: for one table, line-up and family, the setting of the knob nearest fair.

As Go found its komi, the search plays settings of the knob on the same
deals (the study's seed, games 0..N-1), chooses each next setting from the
results so far, and stops when the crossing of zero is bracketed by settings
whose intervals exclude zero on both sides (or the family cannot reach it).
At three-team tables the `handicap` family has a second knob, team 1's
handicap, searched in turn with team 0's (a coordinate search) so that every
team's share nears its fair share. The answer is the setting nearest fair of
every setting visited (``Search.nearest_fair``).

A strong line-up's search plays few games per setting, so its answer can
lie a step off. When its confirmation is not fair, the search is refined
(``Search.refine``): the settings around the answer are played again with
REFINE_GAMES games each on a fresh seed, a line (one knob) or a plane (two
knobs) is fitted through them (and through the settings around the one it
points to, when that lies beyond them), and the setting the fit puts
nearest fair is the answer.

The search is replayed from the datasets on disk: it raises ``Need`` at the
first setting not played yet. How it ended is data (``Outcome``);
``simkit.studies.compensation_text`` says it in words.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from simkit.analysis import stats
from simkit.analysis.aggregate import Aggregate
from simkit.game.rules import Rules
from simkit.studies.kind import Config, Results

SEARCH_GAMES = {"casual": 100_000, "strong": 5_000}  # per setting: greedy (0.31 pp), lookahead (1.4 pp)
FAIR_BAND = stats.FAIR_BAND  # the ±band a fair setting's interval must lie in (an equivalence margin)
GAP_TARGET = {"casual": 0.010, "strong": 0.020}  # three teams: the largest gap's upper bound
MAX_CANDIDATES = 6  # settings inside the bracket that are all evaluated
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


class Ending(enum.Enum):
    """How a search's steps along one knob ended (``Steps``)."""

    NO_EDGE_AT_0 = "no edge at 0"  # the standard game's interval holds zero
    BEHIND_AT_0 = "behind at 0"  # team 0 is already behind in the standard game
    CANNOT_REACH = "cannot reach zero"  # still above zero at the largest setting
    NEVER_BELOW = "never below zero"  # reaches zero, never below it
    TOO_COARSE = "steps too coarse"  # no whole setting between the last above zero and the first below
    BRACKETED = "bracketed"  # settings between the last above zero and the first below were played


@dataclass(frozen=True)
class Steps:
    """Where the steps along a knob ended: how, and the settings that say it.

    last_above: the largest setting (CANNOT_REACH) or the last setting above zero (TOO_COARSE);
    first_below: the first setting below zero (TOO_COARSE).
    """

    ending: Ending
    last_above: int | None = None
    first_below: int | None = None


@dataclass(frozen=True)
class Nearer:
    """The answer is another setting visited than the one where the steps ended."""

    visited: int  # the settings visited
    chosen: tuple[int, ...]
    steps: tuple[int, ...]


@dataclass(frozen=True)
class Refinement:
    """A refinement (``Search.refine``): the unfair first confirmation, the rounds played, the answer.

    advantage, gap: the first confirmation's team 0 advantage and (three teams; else None) largest gap,
    as fractions. centre: the setting the last round was played around. settings: every setting the
    rounds played. games: games per setting, on `seed`. plane: a plane fitted (two knobs), else a line.
    """

    advantage: float
    gap: float | None
    first: tuple[int, ...]
    centre: tuple[int, ...]
    rounds: int
    settings: int
    games: int
    seed: int
    chosen: tuple[int, ...]
    plane: bool


@dataclass
class Outcome:
    """How a search ended: its last steps, another setting visited chosen over them, a refinement."""

    steps: Steps | None = None
    nearer: Nearer | None = None
    refinement: Refinement | None = None


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
    agg: Aggregate


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
        self.outcome = Outcome()  # how the search ended
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
        steps: tuple[int, ...]
        if not self.two_knobs:
            steps = self.along(0, (0,), self.edge, near=self.near[0])
        else:
            h0 = self.along(0, (0, 0), self.edge, near=self.near[0])
            h1 = self.along(1, (h0[0], 0), self.middle, near=self.near[1] if len(self.near) > 1 else 0)
            h0b = self.along(0, (0, h1[1]), self.edge, near=h0[0])
            if h0b[0] != h0[0]:  # team 1's handicap moved team 0's crossing: one more round
                h1 = self.along(1, (h0b[0], 0), self.middle, near=h1[1])
                h0b = self.along(0, (0, h1[1]), self.edge, near=h0b[0])
            steps = (h0b[0], h1[1])
            self.visit_neighbours(steps)
        self.steps = steps
        self.chosen = self.nearest_fair(steps)

    def answer(self) -> tuple[int, ...]:
        """The chosen setting (`chosen`) of a search that has run to its end; RuntimeError before."""
        if self.chosen is None:
            raise RuntimeError(f"the {self.family} search of {self.lineup.spec} has chosen no setting yet")
        return self.chosen

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
            self.outcome.nearer = Nearer(len(self.points), best, steps)
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
        first = self.answer()
        self.first, self.first_confirmation = first, with_role(confirm, FIRST_CONFIRMATION)
        reach = REFINE_REACH[len(first)]
        centre, rounds = first, 0
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
        chosen, self.crossing = fitted_nearest_fair(local, self.rules.teams)
        self.chosen = chosen
        wins = self.results.complete(confirm).wins()
        self.outcome.refinement = Refinement(
            advantage=stats.advantage(wins).value,
            gap=stats.max_gap(wins).value if self.rules.teams == 3 else None,
            first=first,
            centre=centre,
            rounds=rounds,
            settings=len(self.refined),
            games=games,
            seed=seed + REFINE_SEED_OFFSET,
            chosen=chosen,
            plane=self.two_knobs,
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
            self.outcome = Outcome(Steps(Ending.NO_EDGE_AT_0 if sign(0) == 0 else Ending.BEHIND_AT_0))
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
                self.outcome = Outcome(Steps(Ending.CANNOT_REACH, last_above=x))
                self.bracket = (at(x), None)
                return at(x)
            first_nonpos = x
        low = _last_true(lambda v: sign(v) > 0, last_pos, first_nonpos)  # the last setting above zero
        up: int | None
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
            spacing = (len(inside) - 1) / (MAX_CANDIDATES - 1)
            inside = sorted({inside[round(i * spacing)] for i in range(MAX_CANDIDATES)})
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
            self.outcome = Outcome(Steps(Ending.NEVER_BELOW))
        elif not inside:
            self.outcome = Outcome(Steps(Ending.TOO_COARSE, last_above=low, first_below=up))
        else:
            self.outcome = Outcome(Steps(Ending.BRACKETED))
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
