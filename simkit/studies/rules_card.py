"""The fair-Sequence rules card: at each legal table, the rule that brings the first player's edge within the margin.

Made from the published studies' files, never typed: the confirmation's
verdicts (results/confirmation, simkit.studies.confirmation), which decide
each table's rule and the edge it leaves, where it exists; the compensation
studies' verdicts (every ``compensation*/verdicts.csv`` of a results
folder, each with its study.json for the rule options it played under)
and the first-player study's summary (the edge without a rule). For each
table and line-up (greedy: casual play; swift, the fast strong player:
strong play) the card shows the setting a study confirmed fair, in plain words
derived from what the rule options write into the kernel's configuration
(each seat's hand size and the turn at whose end it draws a late card),
with the edge it leaves and the edge without it (the first-player
study's, or where that study has no row for the line-up, the standard game
the compensation search played).

    card = make_card(Path("results"))
    text = markdown(card)  # simkit.studies.rules_card_text: results/fair-sequence-card.md
    write(Path("results"), Path("results"))  # simkit.studies.rules_card_page: the markdown, a PNG and a PDF
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sp

from simkit.game.options import OPTIONS, from_flags
from simkit.game.players import Lineup
from simkit.game.rules import LEGAL_TEAMS, Rules
from simkit.presentation.render import pp
from simkit.studies.compensation_search import FAIR_BAND, GAP_TARGET, from_fair, strength
from simkit.studies.confirmation_protocol import (
    FAMILY_ERROR,
    NO_RULE,
    holm_levels,
    hypotheses_of,
    joint_coverage,
    one_name,
    published_wins,
    rule_tests,
    test_gaps,
)
from simkit.studies.pooled import pooled

CARD = "fair-sequence-card"  # the files' name: .md, .png, .pdf
LINEUPS = {"casual": "greedy", "strong": "swift"}  # the card's columns: the line-up that measured each
TABLES = [(p, t) for p, teams in LEGAL_TEAMS.items() for t in teams]
NOT_MEASURED = "Not yet measured under strong play."


class CardError(ValueError):
    """The results folder lacks a file the card is made from; the message names it."""


@dataclass(frozen=True)
class Edge:
    """Team 0's advantage and the largest gap between two teams' shares, each (value, low, high)."""

    advantage: tuple[float, float, float]
    gap: tuple[float, float, float]
    teams: int
    games: int

    def text(self) -> str:
        """'+0.15 pp [-0.09, +0.40]'; with three teams also the largest gap."""
        out = pp(*self.advantage, digits=2)
        if self.teams == 3:
            out += f"; largest gap {pp(*self.gap, digits=2)}"
        return out

    def without(self) -> str:
        """The standard game's edge: '+3.9 pp [+3.8, +4.0]' (team 0's advantage)."""
        return pp(*self.advantage, digits=1)

    def reaches_past_margin(self, column: str) -> bool:
        """Whether the interval of the edge, or at three teams its largest gap's, reaches past the margin of
        `column`."""
        _, low, high = self.advantage
        if low < -FAIR_BAND[column] or high > FAIR_BAND[column]:
            return True
        return self.teams == 3 and self.gap[2] > GAP_TARGET[column]


@dataclass(frozen=True)
class Step:
    """Where Holm's step-down passed a rule: its step (1: the smallest p-value), the level its one-sided tests
    were at there, and its edge with the intervals of that level (1 - 2 level), which lie within its margins."""

    step: int
    level: float
    edge: Edge

    @property
    def width(self) -> str:
        return f"{100 * (1 - 2 * self.level):.2f}".rstrip("0").rstrip(".") + "%"

    def text(self) -> str:
        """'at Holm's 20th step (5% a side), 90%: +0.68 pp [+0.39, +0.97]; largest gap +1.05 pp [+0.55,
        +1.55]': the intervals of the level Holm passed it at, which lie within its margins."""
        return (
            f"at Holm's {_ordinal(self.step)} step ({100 * self.level:.3g}% a side), {self.width}: {self.edge.text()}"
        )


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@dataclass(frozen=True)
class Rule:
    """A confirmed setting of a compensation study: its rules, family, setting and confirmation."""

    rules: Rules
    family: str
    setting: str
    fair: bool
    edge: Edge
    source: str  # the study folder it comes from
    lineup: str  # the line-up that measured it
    standard: Edge | None = None  # the standard game's edge on the search's deals (None: not recorded)
    arrives: float | None = None  # the share of games in which its last late card arrives (confirmation)
    stalemates: float | None = None  # the share of its games that end in stalemate (a confirmation's)
    step: Step | None = None  # Holm passed it at a later step, its first-step interval reaching past the margin

    @property
    def code(self) -> str:
        """The rule as simkit's options say it, one name for one rule (confirmation_protocol.one_name):
        '--hand-size 6,7,7 --handicap 0,18'."""
        return " ".join(
            f"{OPTIONS[name].flag} {OPTIONS[name].column_value(value)}" for name, value in one_name(self.rules).items()
        )

    def distance(self) -> float:
        """How far from fair the confirmation is, in units of the targets (as the search measures it)."""
        kind = strength(Lineup.parse(self.lineup, self.rules))
        return from_fair(self.edge.advantage[1], self.edge.advantage[2], self.edge.gap[2], kind)


@dataclass(frozen=True)
class Row:
    """One table of the card."""

    players: int
    teams: int
    rules: dict[str, Rule | None]  # "casual", "strong" -> the rule, None where none was measured
    without: dict[str, Edge | None]  # "casual", "strong" -> the standard game's edge (None: not measured)

    @property
    def table(self) -> str:
        return f"{self.players} players, {self.teams} teams"

    @property
    def usual(self) -> str:
        return f"usual hand {OPTIONS['hand_size'].default_for({'players': self.players})}"

    def edge_without(self, column: str) -> str:
        """The standard game's edge in `column`, or a dash where it was not measured."""
        edge = self.without[column]
        return edge.without() if edge is not None else "—"


@dataclass(frozen=True)
class Card:
    """The card: a row per table, the files it was made from, and the family its verdicts belong to."""

    rows: list[Row]
    sources: list[str]  # the files read, relative to the results folder
    versions: list[str]  # the simkit versions that made the studies
    family: Family | None = None  # the confirmation that decided the verdicts (None: the searches' own)


# --- reading the studies ---------------------------------------------------------------


def _knob_value(setting: str):
    knobs = tuple(int(x) for x in str(setting).split(","))
    return knobs[0] if len(knobs) == 1 else knobs


def _read_csv(path: Path, results: Path) -> pd.DataFrame:
    if not path.exists():
        raise CardError(
            f"{path} is missing: the card is made from the published studies in {results} "
            "(results/README.md has the commands that make them)"
        )
    return pd.read_csv(path, dtype={"setting": str})


def compensation_rules(results: Path) -> tuple[list[Rule], list[str], set[str]]:
    """Every confirmed setting of every compensation study in `results`, the files read and their versions."""
    out, sources, versions = [], [], set()
    folders = sorted(p.parent for p in results.glob("compensation*/verdicts.csv"))
    if not folders:
        raise CardError(
            f"no compensation study in {results} (compensation*/verdicts.csv): the card is made from "
            "the published studies (results/README.md has the commands that make them)"
        )
    for folder in folders:
        record = json.loads((folder / "study.json").read_text(encoding="utf-8"))
        base = record["identity"]["options"].get("rules", {})
        versions.add(record["identity"]["simkit"])
        verdicts = _read_csv(folder / "verdicts.csv", results)
        sources.append(f"{folder.name}/verdicts.csv")
        for v in verdicts.itertuples():
            rules = Rules.make(int(v.players), int(v.teams), **base, **{v.family: _knob_value(v.setting)})
            gap = (v.max_gap, v.max_gap_low, v.max_gap_high)
            edge = Edge((v.advantage, v.advantage_low, v.advantage_high), gap, int(v.teams), int(v.games))
            standard = None
            if "standard_advantage" in verdicts.columns and pd.notna(v.standard_advantage):
                standard = Edge(
                    (v.standard_advantage, v.standard_advantage_low, v.standard_advantage_high),
                    (v.standard_max_gap, v.standard_max_gap_low, v.standard_max_gap_high),
                    int(v.teams),
                    int(v.standard_games),
                )
            out.append(Rule(rules, v.family, v.setting, bool(v.fair), edge, folder.name, v.policies, standard))
    return out, sources, versions


def standard_edges(results: Path) -> dict[tuple[int, int, str], Edge]:
    """The first-player study's edge at every table and line-up: (players, teams, line-up) -> Edge."""
    summary = _read_csv(results / "first-player" / "summary.csv", results)
    return {
        (int(r.players), int(r.teams), r.policies): Edge(
            (r.advantage, r.advantage_low, r.advantage_high),
            (r.max_gap, r.max_gap_low, r.max_gap_high),
            int(r.teams),
            int(r.games),
        )
        for r in summary.itertuples()
    }


def choose(rules: list[Rule]) -> Rule | None:
    """The card's rule among a table's confirmed settings for one line-up: a fair one first; of fair ones
    the standard deal before a changed one, then `late_card` (one turn for every player of the team) before
    `handicap`, then the one nearest fair. None fair: the one nearest fair (the card says it is not)."""
    if not rules:
        return None
    return min(
        rules,
        key=lambda r: (
            not r.fair,
            "hand_size" in r.rules.changed(),
            r.family != "late_card",
            r.distance(),
            r.source,
            r.setting,
        ),
    )


CONFIRMATIONS = ("confirmation", "confirmation-2")  # the confirmations in order: the newest with verdicts decides


@dataclass(frozen=True)
class Family:
    """The confirmation that decides the card: its folder, how many rules passed of how many, the level of
    each one-sided test, the correction over the family and, for Holm's, the intervals' joint coverage."""

    folder: str
    hypotheses: int
    level: float
    passed: int
    rules: int
    correction: str = "bonferroni"  # or "holm": over the rules, an intersection-union test in each
    joint: float = 0.0  # the least chance that every interval of the card holds together (Bonferroni)
    earlier: tuple[str, ...] = ()  # the folders of the confirmations before it, still published
    earlier_passed: tuple[tuple[int, int], ...] = ()  # each earlier one's (rules passed, rules)
    error: float = FAMILY_ERROR  # each confirmation's family-wise error
    pooled: pd.DataFrame | None = None  # all of them together (simkit.studies.pooled), where there are two or more

    @property
    def attempts(self) -> int:
        """The confirmations of these rules: this one and the earlier."""
        return 1 + len(self.earlier)

    @property
    def width(self) -> str:
        """The intervals' coverage: '99.64%'."""
        return f"{100 * (1 - 2 * self.level):.2f}%"


def deciding_confirmation(results: Path) -> str | None:
    """The folder of the newest confirmation in `results` with verdicts (None: none has)."""
    done = [name for name in CONFIRMATIONS if (results / name / "verdicts.csv").exists()]
    return done[-1] if done else None


def confirmed_rules(results: Path) -> tuple[dict[tuple[int, int, str], Rule], Family] | None:
    """The deciding confirmation's verdict at each (players, teams, line-up), with its family; None without
    one."""
    name = deciding_confirmation(results)
    if name is None:
        return None
    folder = results / name
    verdicts = _read_csv(folder / "verdicts.csv", results)
    bites = _read_csv(folder / "bite.csv", results) if (folder / "bite.csv").exists() else pd.DataFrame()
    holm = "p_holm" in verdicts.columns
    wins = published_wins(folder) if (folder / "summary.csv").exists() else {}
    levels = holm_levels(verdicts.p_rule, FAMILY_ERROR) if holm else np.full(len(verdicts), np.nan)
    out: dict[tuple[int, int, str], Rule] = {}
    for v, step_level in zip(verdicts.itertuples(), levels):
        options = from_flags(v.rule)
        rules = Rules.make(int(v.players), int(v.teams), **options)
        ((family, setting),) = ((k, OPTIONS[k].column_value(x)) for k, x in options.items())
        three = int(v.teams) == 3
        gap = (v.max_gap, _gap_low(folder, v), v.gap_reach) if three else (float("nan"),) * 3
        edge = Edge((v.advantage, v.advantage_low, v.advantage_high), gap, int(v.teams), int(v.games))
        bite = (
            bites[
                (bites.players == v.players)
                & (bites.teams == v.teams)
                & (bites.rule == v.rule)
                & (bites.lineup == v.lineup)
            ]
            if len(bites)
            else bites
        )
        arrives = float(bite.last_card_arrives.iloc[0]) if len(bite) else None
        stalemates = float(v.stalemate_rate) if three and "stalemate_rate" in verdicts.columns else None
        step = None
        if holm and bool(v.fair) and edge.reaches_past_margin(v.strength):
            step = _step(v, step_level, levels, wins.get((int(v.players), int(v.teams), v.lineup)))
        out[(int(v.players), int(v.teams), v.lineup)] = Rule(
            rules,
            family,
            str(setting),
            bool(v.fair),
            edge,
            name,
            v.lineup,
            arrives=arrives,
            stalemates=stalemates,
            step=step,
        )
    level = float(verdicts.level.iloc[0])
    hypotheses = sum(len(hypotheses_of(int(teams))) for teams in verdicts.teams)
    earlier = tuple(n for n in CONFIRMATIONS[: CONFIRMATIONS.index(name)] if (results / n / "verdicts.csv").exists())
    earlier_passed = []
    for n in earlier:
        theirs = _read_csv(results / n / "verdicts.csv", results)
        earlier_passed.append((int(theirs.fair.sum()), len(theirs)))
    decided_by = Family(
        name,
        hypotheses,
        level,
        int(verdicts.fair.sum()),
        len(verdicts),
        "holm" if holm else "bonferroni",
        joint_coverage(verdicts, level),
        earlier,
        tuple(earlier_passed),
        pooled=pooled(results, (*earlier, name)) if holm else None,
    )
    return out, decided_by


def _step(verdict, level: float, levels: np.ndarray, wins: np.ndarray | None) -> Step:
    """Where Holm passed `verdict` (a row of a Holm confirmation's verdicts.csv), tested at `level`: its
    step among `levels` (the family's), and its edge with that level's intervals: from its games won (`wins`,
    the same tests as the verdict's), or without them the advantage's alone, from its first-step interval's
    standard error."""
    step = int(np.sum(levels <= level))
    three = int(verdict.teams) == 3
    if wins is not None:
        t = rule_tests(wins, float(verdict.margin), float(verdict.gap_margin) if three else None, level)
        advantage = (float(t["advantage"]), float(t["advantage_low"]), float(t["advantage_high"]))
        gap = (float(t["max_gap"]), float(t["gap_low"]), float(t["gap_reach"])) if three else (float("nan"),) * 3
    else:
        se = (verdict.advantage_high - verdict.advantage_low) / (2 * float(sp.norm.isf(verdict.level)))
        z = float(sp.norm.isf(level))
        advantage = (verdict.advantage, verdict.advantage - z * se, verdict.advantage + z * se)
        gap, three = (float("nan"),) * 3, False
    return Step(step, level, Edge(advantage, gap, 3 if three else 2, int(verdict.games)))


def _gap_low(folder: Path, verdict) -> float:
    """The lower bound of a three-team verdict's largest gap: its verdicts.csv's gap_low, or for a
    confirmation that wrote none, the same bound (confirmation_protocol.test_gaps) from its summary's shares."""
    if hasattr(verdict, "gap_low"):
        return float(verdict.gap_low)
    summary = pd.read_csv(folder / "summary.csv")
    row = summary[
        (summary.study_group == "verdict")
        & (summary.players == verdict.players)
        & (summary.teams == verdict.teams)
        & (summary.policies == verdict.lineup)
    ].iloc[0]
    wins = np.array([row[f"share_{t}"] for t in range(3)]) * row.decided
    return test_gaps(np.round(wins), float(verdict.gap_margin), float(verdict.level))[2]


def strong_baseline(results: Path) -> dict[tuple[int, int], Edge]:
    """The edge without a rule under swift that the deciding confirmation measured among its estimates
    (rule_of "none"), per (players, teams); empty where it measured none."""
    name = deciding_confirmation(results)
    path = results / name / "estimates.csv" if name else None
    if path is None or not path.exists():
        return {}
    estimates = pd.read_csv(path)
    base = estimates[(estimates.rule_of == NO_RULE) & (estimates.lineup == LINEUPS["strong"])]
    return {
        (int(r.players), int(r.teams)): Edge(
            (r.advantage, r.advantage_low, r.advantage_high),
            (r.max_gap, r.max_gap_low, r.max_gap_high),
            int(r.teams),
            int(r.games),
        )
        for r in base.itertuples()
    }


def make_card(results: Path) -> Card:
    results = Path(results)
    found, sources, versions = compensation_rules(results)
    standard = standard_edges(results)
    sources.append("first-player/summary.csv")
    confirmed = confirmed_rules(results)
    if confirmed is not None:
        f = confirmed[1]
        sources.append(f"{f.folder}/verdicts.csv")
        if f.correction == "holm" and (results / f.folder / "summary.csv").exists():
            sources.append(f"{f.folder}/summary.csv")  # the games won: intervals at Holm's later steps
        sources += [f"{e}/verdicts.csv" for e in f.earlier]
        if f.pooled is not None:
            sources += [f"{e}/summary.csv" for e in f.earlier]
    baseline = strong_baseline(results)
    if baseline and confirmed is not None:
        sources.append(f"{confirmed[1].folder}/estimates.csv")
    rows = []
    for players, teams in TABLES:
        chosen = {
            column: choose([r for r in found if (r.rules.players, r.rules.teams, r.lineup) == (players, teams, lineup)])
            for column, lineup in LINEUPS.items()
        }
        searched = chosen  # the searches' rules: their standard game's edge, where the first-player study has none
        if confirmed is not None:  # the confirmation decides: its verdict, its figures
            chosen = {
                column: confirmed[0].get((players, teams, lineup), chosen[column]) for column, lineup in LINEUPS.items()
            }
        without = {}
        for column, lineup in LINEUPS.items():
            rule = chosen[column]
            search = searched[column]
            without[column] = (
                (baseline.get((players, teams)) if column == "strong" else None)
                or standard.get((players, teams, lineup))
                or (search.standard if search else None)
            )
            if without[column] is None and rule is not None:
                raise CardError(
                    f"first-player/summary.csv in {results} has no {lineup} row for {players} players "
                    f"in {teams} teams, nor its compensation study the standard game's edge"
                )
        rows.append(Row(players, teams, chosen, without))
    return Card(rows, sources, sorted(versions), confirmed[1] if confirmed is not None else None)


__all__ = ["Card", "CardError", "Row", "Rule", "choose", "make_card"]
