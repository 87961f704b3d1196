"""fair: is a rule fair within a margin? Games in growing looks until the sequential test decides.

``simkit fair`` plays one configuration (a rule, a line-up, a seed) look by
look as ``simkit.analysis.sequential.Design`` declares them, and stops at
the first look where the test decides "fair" or "not fair"; at the caller's
cap (max_games) or after the last look it is "undecided". Its folder holds
``fair.json``, the design it is tested under, and the run in ``games/``
(``simkit report DIR/games`` reports it). A second call reads the games on
disk, replays the looks already played and goes on from there: a larger
cap plays further looks of the same design; another design in the same
folder is refused, since the looks already seen would then choose the test.

The verdict is said for a designer (``sentence``): the edge with the rule,
the edge without it beside it (read from the published studies,
``without_rule``) and what the rule does to it (brings it within the margin,
trims it, or over-corrects past fair), and what the widened interval and
each verdict's error mean.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.analysis.sequential import ALPHA, NOT_FAIR_ERROR, Design, Look, look
from simkit.files.atomic import replacing
from simkit.game.options import flags_text
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.presentation.render import pp
from simkit.running import dataset as ds
from simkit.running.executors import RunEvents
from simkit.running.reading import IncompleteDatasetWarning, read_games
from simkit.running.runner import RunSpec, run, run_folder_name
from simkit.studies.compensation_search import strength
from simkit.studies.options import StudyError

MARGIN = {"casual": 0.005, "strong": 0.01}  # the default margin by the line-up's strength (as the card's)
DESIGN_FILE = "fair.json"
GAMES = "games"  # the run's folder inside the test's
FORMAT = "simkit.fair/1"
PUBLISHED = (Path("results"), Path(__file__).resolve().parents[2] / "results")  # where the edge without a rule is read


class FairError(StudyError):
    """A fairness test that cannot be run as asked; the message says what is wrong."""


@dataclass(frozen=True)
class Plan:
    """What a fairness test plays: the configuration, its design and the games of each look."""

    rules: Rules
    lineup: Lineup
    seed: int
    design: Design

    @property
    def chunk(self) -> int:
        """Games per part file: the line-up's own, or the first look's when smaller (it divides every look)."""
        return min(self.lineup.chunk_size, self.looks[0])

    @property
    def looks(self) -> tuple[int, ...]:
        """Games played at each look: the design's decided games of the first look rounded up to whole
        thousands (the line-ups' chunk sizes divide it), doubling from look to look."""
        first = 1_000 * -(-self.design.decided[0] // 1_000)
        return tuple(first * 2**k for k in range(len(self.design.decided)))

    def record(self) -> dict:
        return {
            "format": FORMAT,
            "identity": ds.identity_of(self.rules, self.lineup, self.seed),
            "margin": self.design.margin,
            "gap_margin": self.design.gap_margin,
            "alpha": ALPHA,
            "looks": list(self.looks),
            "boundaries": [round(c, 6) for c in self.design.boundaries],
        }


def plan(rules: Rules, lineup: Lineup, seed: int, margin: float | None) -> Plan:
    """The plan of a test; margin None: MARGIN of the line-up's strength."""
    if margin is None:
        margin = MARGIN[strength(lineup)]
    if not 0 < margin < 0.1:
        raise FairError(f"--margin must lie between 0 and 10 percentage points, got {100 * margin:g}")
    if lineup.swap_seats:
        raise FairError("--swap-seats is not taken: the test is of the first player's team, seat 0")
    return Plan(rules, lineup, seed, Design(margin, rules.teams))


@dataclass(frozen=True)
class Outcome:
    """How a test ended: the last look taken (None: none played) and the verdict."""

    verdict: str  # "fair", "not fair" or "undecided"
    last: Look | None
    looks: list[Look]
    next_games: int | None  # the games the next look needs (undecided), None after the last look
    interrupted: bool = False


def check_out(out: Path, results: Path = Path("results")) -> None:
    """Refuse a folder inside the published results/: a fairness test writes to the workspace."""
    if results.resolve() == out.resolve() or results.resolve() in out.resolve().parents:
        raise FairError(f"{out} lies in {results}/, which only `make results` writes; choose a folder in runs/")


def claim(out: Path, p: Plan) -> None:
    """Write the folder's design, or check that the design already there is this one."""
    path = out / DESIGN_FILE
    mine = p.record()
    if path.exists():
        theirs = json.loads(path.read_text(encoding="utf-8"))
        if theirs != mine:
            raise FairError(
                f"{out} holds a test of another configuration or design (margin "
                f"{100 * theirs.get('margin', 0):g} pp); a test goes on only under the design it began with: "
                "give another --out"
            )
        return
    out.mkdir(parents=True, exist_ok=True)
    with replacing(path) as tmp:
        tmp.write_text(json.dumps(mine, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def on_disk(out: Path) -> tuple[np.ndarray, np.ndarray]:
    """(game indices, winning team or -1) of the games on disk in the run folder `out`, a look's part or all."""
    if not (out / "_manifest.json").exists():
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    with warnings.catch_warnings():  # a look interrupted part way: its games so far, the rest played next
        warnings.simplefilter("ignore", IncompleteDatasetWarning)
        games = read_games(out, columns=["game", "winner_team"], allow_incomplete=True)
    return games["game"].to_numpy(), games["winner_team"].to_numpy().astype(np.int64)


def wins_at(game: np.ndarray, winner: np.ndarray, teams: int, n: int) -> np.ndarray | None:
    """(teams,) games won among games 0..n-1, or None when not all of them are on disk."""
    first = game < n
    if int(first.sum()) != n:
        return None
    return np.bincount(winner[first & (winner >= 0)], minlength=teams)[:teams]


def folder_name(p: Plan, default_seed: int) -> str:
    """The test's folder in the workspace: the run's name and the margin ('p4t2-swift-late8-m1')."""
    return f"{run_folder_name(p.rules, p.lineup, p.seed, default_seed)}-m{100 * p.design.margin:g}"


def test(
    p: Plan,
    out: Path,
    max_games: int | None,
    events: Callable[[], RunEvents] = RunEvents,
    on_look: Callable[[Look], None] = lambda _: None,
) -> Outcome:
    """Replay the looks on disk, then play look after look until the test decides, the cap or the design
    ends. max_games None: every look of the design. events: a new watcher of each look's run."""
    check_out(out)
    claim(out, p)
    cap = p.looks[-1] if max_games is None else max_games
    games = out / GAMES
    game, winner = on_disk(games)
    taken, decided = replay(p, lambda n: wins_at(game, winner, p.rules.teams, n), on_look)
    if decided is not None:
        return decided
    for k in range(len(taken) + 1, len(p.looks) + 1):
        n = p.looks[k - 1]
        if n > cap:
            return Outcome("undecided", taken[-1] if taken else None, taken, n)
        done = run(games, RunSpec(p.rules, p.lineup, p.seed, n, p.chunk), events=events())
        if done.interrupted:
            return Outcome("undecided", taken[-1] if taken else None, taken, n, interrupted=True)
        game, winner = on_disk(games)
        wins = wins_at(game, winner, p.rules.teams, n)
        assert wins is not None  # the run just completed games 0..n-1
        taken.append(look(p.design, k, wins, n))
        on_look(taken[-1])
        if taken[-1].verdict != "continue":
            return Outcome(taken[-1].verdict, taken[-1], taken, None)
    return Outcome("undecided", taken[-1] if taken else None, taken, None)


def replay(
    p: Plan, wins_of: Callable[[int], np.ndarray | None], on_look: Callable[[Look], None] = lambda _: None
) -> tuple[list[Look], Outcome | None]:
    """The looks whose games are all played, in order, until one decides: (the looks taken, the outcome if one
    decided, else None). wins_of(n): (teams,) games won among games 0..n-1, None when not all are played."""
    taken: list[Look] = []
    for n in p.looks:
        wins = wins_of(n)
        if wins is None:
            break
        taken.append(look(p.design, len(taken) + 1, wins, n))
        on_look(taken[-1])
        if taken[-1].verdict != "continue":
            return taken, Outcome(taken[-1].verdict, taken[-1], taken, None)
    return taken, None


def look_line(p: Plan, k: Look) -> str:
    """A look in one line: 'look 2 of 8: 28,000 games, edge +2.41 pp [+0.95, +3.87] (margin ±0.5 pp): go on'."""
    m = 100 * p.design.margin
    gap = f"; largest gap {pp(k.max_gap, k.max_gap_low, k.max_gap_high, digits=2)}" if k.max_gap is not None else ""
    word = {"continue": "go on", "fair": "fair", "not fair": "not fair"}[k.verdict]
    return (
        f"look {k.look} of {len(p.looks)}: {k.games:,} games, edge {pp(k.advantage, k.low, k.high, digits=2)} "
        f"(margin ±{m:g} pp){gap}: {word}"
    )


def command(p: Plan, policy: str, default_seed: int, max_games: int | None = None, out: Path | None = None) -> str:
    """The `simkit fair` command of a plan: 'simkit fair --players 2 --teams 2 --policy random --margin 0.5'."""
    words = ["simkit fair", f"--players {p.rules.players} --teams {p.rules.teams}", flags_text(p.rules.changed())]
    words += [f"--policy {policy}", f"--margin {100 * p.design.margin:g}"]
    words += [f"--seed {p.seed}"] if p.seed != default_seed else []
    words += [f"--max-games {max_games}"] if max_games is not None else []
    words += [f"--out {out}"] if out is not None else []
    return " ".join(w for w in words if w)


@dataclass(frozen=True)
class Without:
    """The edge of the same table and line-up without any rule option, as a published study measured it:
    team 0's advantage and, at three teams, the largest gap, each (value, low, high) with a 95% interval."""

    advantage: tuple[float, float, float]
    gap: tuple[float, float, float] | None
    games: int
    source: str  # the published file, relative to results/


def without_rule(rules: Rules, lineup: Lineup, places: tuple[Path, ...] = PUBLISHED) -> Without | None:
    """The edge without a rule at the table of `rules` under `lineup`, from the first published results/ of
    `places` that has it: the first-player study (random, greedy, the lookahead) or, for swift, the newest
    confirmation's baseline (its estimates without a rule); None where none is published."""
    players, teams, spec = rules.players, rules.teams, lineup.spec

    def edge(row, games: int, source: str) -> Without:
        gap = (row.max_gap, row.max_gap_low, row.max_gap_high) if teams == 3 else None
        return Without((row.advantage, row.advantage_low, row.advantage_high), gap, games, source)

    for results in places:
        path = results / "first-player" / "summary.csv"
        if path.exists():
            s = pd.read_csv(path)
            rows = s[(s.players == players) & (s.teams == teams) & (s.policies == spec) & ~s.swap_seats]
            if len(rows):
                return edge(rows.iloc[0], int(rows.iloc[0].games), "first-player/summary.csv")
        for path in sorted(results.glob("confirmation*/estimates.csv"), reverse=True):
            e = pd.read_csv(path)
            rows = e[(e.players == players) & (e.teams == teams) & (e.lineup == spec) & (e.rule_of == "none")]
            if len(rows):
                return edge(rows.iloc[0], int(rows.iloc[0].games), f"{path.parent.name}/estimates.csv")
    return None


def _beside(p: Plan, k: Look, w: Without | None) -> str:
    """The edge without the rule beside the edge with it, and what the rule does to it, in words."""
    if w is None:
        table = f"--players {p.rules.players} --teams {p.rules.teams}"
        return (
            f"No published study measured this table under {p.lineup.spec} without a rule: `simkit run {table} "
            f"--policy {p.lineup.spec}` measures the edge the rule starts from."
        )
    if not p.rules.changed():
        return (
            f"No rule option is given: this is the game without a rule (the published results/{w.source} "
            f"measured team 0's edge at {pp(*w.advantage, digits=2)}, a 95% interval of {w.games:,} games)."
        )
    m = p.design.margin
    before, after = w.advantage[0], k.advantage
    said = (
        f"Without the rule team 0's edge is {pp(*w.advantage, digits=2)} (a 95% interval, {w.games:,} games: "
        f"results/{w.source}); with it {pp(after, digits=2)}, a move of {100 * (after - before):+.1f} pp"
    )
    if w.gap is not None and k.max_gap is not None:
        said += (
            f" (the largest gap between two teams {pp(w.gap[0], digits=2)} without it, "
            f"{pp(k.max_gap, digits=2)} with it)"
        )
    outside = k.low > m or k.high < -m
    if outside and (k.high < -m < 0 < before or before < 0 < m < k.low):
        what = (
            f"the rule over-corrects: it takes team 0's whole edge of {pp(before, digits=1)} and more, leaving "
            f"team 0 behind by more than the margin"
            if before > 0
            else f"the rule over-corrects: it lifts team 0 from {pp(before, digits=1)} past fair, ahead by more "
            "than the margin"
        )
    elif k.verdict == "fair":
        what = "the rule brings it within the margin"
    elif outside and abs(after) < abs(before):
        what = "the rule trims the edge, not enough to bring it within the margin"
    elif outside:
        what = "the rule does not trim the edge"
    else:
        return said + "."
    return f"{said}: {what}."


def why_wide(p: Plan, k: Look) -> str:
    """What look k's interval is, in plain words, and what each verdict risks (the test's declared errors)."""
    teams = p.rules.teams
    three = ", as at three teams team 0's edge and each gap can say so" if teams == 3 else ""
    return (
        f"The intervals are wider than a one-off 95% interval because the test may look at the games "
        f"{len(p.looks)} times and must not be fooled by any of the looks: taken alone, this look's interval would "
        f"be a {k.coverage:.2%} interval. So a rule whose edge sits on the margin is called fair at most "
        f"{ALPHA:.0%} of the time, and a fair rule is called not fair at most {NOT_FAIR_ERROR[teams]:.0%} of the "
        f"time{three} (repeated confidence intervals: simkit.analysis.sequential)."
    )


def sentence(p: Plan, o: Outcome, command: str, without: Without | None | bool = True) -> str:
    """The verdict in one sentence with its interval and games; the edge without the rule beside it (without:
    True, read from the published studies by without_rule; None or False: not published); what the interval
    is, in plain words; then the command that gave it."""
    k = o.last
    if k is None:
        return (
            f"Undecided: no look played; the first needs {p.looks[0]:,} games (--max-games {p.looks[0]} or more)."
            f"\n{command}"
        )
    w = without_rule(p.rules, p.lineup) if without is True else without or None
    return f"{verdict(p, o)}\n{_beside(p, k, w)}\n{why_wide(p, k)}\n{command}"


def verdict(p: Plan, o: Outcome) -> str:
    """The verdict of an outcome with a look taken, in one sentence with its interval and games."""
    m = f"±{100 * p.design.margin:g} pp"
    k = o.last
    assert k is not None, "a verdict needs a look"
    edge = f"team 0's edge {pp(k.advantage, k.low, k.high, digits=2)}"
    if k.max_gap is not None:
        edge += f", the largest gap between two teams {pp(k.max_gap, k.max_gap_low, k.max_gap_high, digits=2)}"
    over = f"{k.games:,} games ({k.decided:,} decided), look {k.look} of {len(p.looks)}"
    if o.verdict == "fair":
        text = f"Fair within {m}: {edge}, inside the margin{'s' if p.rules.teams == 3 else ''}; {over}."
    elif o.verdict == "not fair":
        text = f"Not fair: {edge}, outside {m}; {over}."
    elif o.next_games is not None:
        text = (
            f"Undecided so far: {edge}; {over}. The next look needs {o.next_games:,} games: the same command "
            f"with --max-games {o.next_games} or more goes on."
        )
    else:
        text = f"Undecided after every look of the design: {edge}; {over}. The edge lies too near the margin."
    return text


def as_json(p: Plan, o: Outcome, command: str) -> dict:
    """The outcome as --format json prints it: verdict, games, advantage with its interval, the margins,
    and at three teams the largest gap with its interval (shares, not percentage points)."""
    last = o.last
    w = without_rule(p.rules, p.lineup)
    out = {
        "verdict": o.verdict,
        "games": last.games if last else 0,
        "decided": last.decided if last else 0,
        "advantage": last.advantage if last else None,
        "low": last.low if last else None,
        "high": last.high if last else None,
        "margin": p.design.margin,
        "alpha": ALPHA,
        "look": last.look if last else 0,
        "looks": len(p.looks),
        "next_games": o.next_games,
        "command": command,
        "without_rule": None
        if w is None
        else {
            "advantage": w.advantage[0],
            "low": w.advantage[1],
            "high": w.advantage[2],
            "games": w.games,
            "source": w.source,
        },
    }
    if p.rules.teams == 3:
        out.update(
            {
                "gap_margin": p.design.gap_margin,
                "max_gap": last.max_gap if last else None,
                "max_gap_low": last.max_gap_low if last else None,
                "max_gap_high": last.max_gap_high if last else None,
            }
        )
    return out
