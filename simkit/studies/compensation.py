"""compensation: a fair Sequence. Search each compensation family's knob for zero first-player edge.

As Go found its komi, for each table, line-up (default greedy) and family,
a search (``simkit.studies.compensation_search``) plays settings of the knob
on the same deals until it brackets the crossing of zero, and the setting
nearest fair of every setting visited is confirmed on a fresh seed with
enough games for the target precision; a strong line-up's answer whose
confirmation is not fair is refined and confirmed again, and with ``--check
LINEUP`` each confirmed answer is played again by another line-up
(``simkit.studies.compensation_plan``). This module is the kind: its tables
(summary.csv, verdicts.csv, checks.csv), its figures and its entry;
``simkit.studies.compensation_text`` writes its sections and notes.

The families are rule options (simkit.game.options.OPTIONS): ``late_card`` (K:
team 0 short until its K-th turn) and ``handicap`` (H: team 0's seats short
for H turns in all, spread over its seats; H0,H1 with three teams).
"""

from __future__ import annotations

import math

import pandas as pd

from simkit.analysis import stats
from simkit.game.options import OPTIONS, is_default
from simkit.presentation import compensation_plots
from simkit.studies import compensation_text as text
from simkit.studies.compensation_plan import begun, fair, holds, looks_taken, on_disk, on_record, plan, searches, whole
from simkit.studies.compensation_search import Search, search_games, setting_text, strength
from simkit.studies.kind import Config, Results, Study, StudyKind, Tables, canonical
from simkit.studies.summary import summary_frame


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
        agg = results.complete(c)
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
        (s.rules.players, s.rules.teams, s.lineup.spec, s.family, setting_text(s.answer()))
        for s, c in found
        if c is not None
    }
    checks = checks_table(checked, results, answers)
    return Tables(
        summary,
        {"verdicts": verdicts, **({"checks": checks} if len(checks) else {})},
        key=text.key_table(verdicts),
        terminal=text.terminal_table(verdicts),
        terminal_note=text.TERMINAL_NOTE,
        sections=[
            text.search_section(found),
            *filter(None, [text.checks_section(checks)]),
            text.wall_time_section(wall_times(found, results)),
        ],
        notes=text.notes(),
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
    assert search.steps is not None  # a search with a confirmation has run to its end
    return {
        "players": search.rules.players,
        "teams": search.rules.teams,
        "policies": search.lineup.spec,
        "family": search.family,
        "setting": setting_text(search.answer()),
        "steps": setting_text(search.steps),
        "outcome": text.outcome_text(search.outcome),
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
        "fair": fair(results.complete(confirm).wins(), kind, search.rules.teams),
        "looks": looks_taken(search, confirm),
        "run_args": row.run_args,
        "wall_seconds": wall_seconds([*search.played(), confirm], results),
        **standard_game(search),
    }


def standard_game(search: Search) -> dict:
    """The edge of the standard game (the setting 0 every search plays first, on the search's deals):
    team 0's advantage and the largest gap, each with its interval, and the games."""
    zero = search.points[(0,) * len(search.answer())].agg
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
    recorded = [t for t in times.values() if t is not None]
    return math.nan if len(recorded) < len(times) else float(sum(recorded))


def wall_times(found: list, results: Results) -> list[tuple[int, int, str, int, int, float]]:
    """Per table and line-up, in order: (players, teams, line-up, settings and confirmations played, their
    games, the wall time they took in seconds; NaN: not recorded)."""
    tables: dict[tuple[int, int, str], list[Config]] = {}
    for search, confirm in found:
        key = (search.rules.players, search.rules.teams, search.lineup.spec)
        tables.setdefault(key, []).extend(search.played())
        if confirm is not None:
            tables[key].append(confirm)
    rows = []
    for (players, teams, lineup), configs in sorted(tables.items()):
        distinct = {c.folder(results.seed): c for c in configs}
        seconds = wall_seconds(list(distinct.values()), results)
        rows.append((players, teams, lineup, len(distinct), sum(c.games for c in distinct.values()), seconds))
    return rows


def figures(t: Tables) -> dict:

    out = {}
    summary = t.summary
    for family in dict.fromkeys(summary["family"]):
        out[f"compensation_{family}.png"] = compensation_plots.compensation(summary, t.extra["verdicts"], family)
    if (summary["teams"] == 3).any():
        out["compensation_three_teams.png"] = compensation_plots.compensation_shares(summary, t.extra["verdicts"])
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
    tables_text=text.tables_text,
)
