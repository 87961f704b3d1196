"""The compensation study's plan: its searches replayed from disk, their confirmations and checks.

Each (table, line-up, family) search (``simkit.studies.compensation_search``)
is confirmed on a fresh seed with enough games for the target precision,
taking further looks while a look is inconclusive; a strong line-up's
answer whose confirmation is not fair is refined, and its new answer
confirmed on another fresh seed. With ``--check LINEUP`` each confirmed
answer is played again by another line-up on a fresh seed, CHECK_GAMES
games. Searching is replayed from the datasets on disk at every call of
``plan``: a re-run plays nothing, an interrupted search resumes at its
step, and more games per setting extend it.
"""

from __future__ import annotations

import json
import math

import numpy as np

from simkit.analysis import stats
from simkit.game.options import RulesError
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.studies.compensation_search import (
    FAIR_BAND,
    GAP_TARGET,
    REFINE_GAMES,
    REFINE_SEED_OFFSET,
    SEARCH_GAMES,
    Need,
    Search,
    setting_text,
    strength,
)
from simkit.studies.directory import STUDY_FILE, config_from_json
from simkit.studies.kind import LEGAL_TABLES, Config, Results, Study, lineups_for, round_games
from simkit.studies.options import CHECK_GAMES, FAMILIES, StudyError  # --family and --check declare them
from simkit.suggest import did_you_mean

CONFIRMATION_SEED_OFFSET = 1  # the confirmation plays seed + 1: games the search never saw
TARGET = {"casual": 0.0025, "strong": 0.0075}  # the confirmation's 95% half-width on team 0's share
LOOKS = {"casual": (1, 4), "strong": (1, 2, 4)}  # a confirmation's looks, in multiples of its first games
CHECK_SEED_OFFSET = 2  # the check plays seed + 2: games neither the search nor the confirmation saw
CHECK_BAND = 0.015  # a check holds when team 0's advantage is within ±1.5 pp
CHECK_GAP = 0.025  # and, with three teams, the largest gap at most 2.5 pp


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
        close = did_you_mean(unknown[0], FAMILIES)
        raise StudyError(f"unknown compensation family {unknown[0]!r}{close}; families: {', '.join(FAMILIES)}")
    return list(dict.fromkeys(chosen))


def searches(study: Study, results: Results) -> list[tuple[Search, Config | None]]:
    """Every search of the study, replayed as far as the results go, with its confirmation (None while
    the search is unfinished).

    A slow (lookahead) line-up's search begins where greedy's ends at the same table and family: the
    greedy search is replayed first, and played first if it is not on disk (a guide: no confirmation of
    its own unless greedy is asked for), so the slow search is the same whatever ran before it.
    """

    rest = {k: v for k, v in study.base.items() if k not in ("players", "teams")}
    out: list[tuple[Search, Config | None]] = []
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
        confirm = search.config(search.answer(), confirm.seed, first_look(search), "confirmation")
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
    done = search.results.aggregate(search.config(search.answer(), seed, looks[0], "confirmation"))
    at = 0
    if done is not None:
        at = next((i for i, games in enumerate(looks) if games >= done.games), len(looks) - 1)
        if (
            done.games == looks[at]
            and at + 1 < len(looks)
            and inconclusive(done.wins(), strength(search.lineup), search.rules.teams)
        ):
            at += 1  # this look settled nothing: the next one
    return search.config(search.answer(), seed, looks[at], "confirmation")


def look_games(search: Search) -> list[int]:
    """The games of each of the confirmation's LOOKS: multiples of its first look's."""
    first = first_look(search)
    return [first * times for times in LOOKS[strength(search.lineup)]]


def looks_taken(search: Search, confirm: Config) -> int:
    """How many of LOOKS the confirmation `confirm` took."""
    return look_games(search).index(confirm.games) + 1


def first_look(search: Search) -> int:
    """The first confirmation's games: the target half-width on team 0's share at the chosen setting's
    completion (and, with three teams, on every share for the largest gap's bound)."""
    kind = strength(search.lineup)
    agg = (search.refined or search.points)[search.answer()].agg
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

    chosen = search.answer()
    rules = search.config(chosen).rules
    lineup = Lineup.parse(spec, rules)
    setting = setting_text(chosen)
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
