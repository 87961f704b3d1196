"""first-player: how big is the first player's advantage, at every legal table?"""

from __future__ import annotations

import pandas as pd

from simkit.game.rules import Rules
from simkit.presentation import plots
from simkit.presentation.render import count, format_p_value, pct, pp, relative
from simkit.studies.kind import (
    LEGAL_TABLES,
    Config,
    Results,
    Study,
    StudyKind,
    Tables,
    lineups_for,
    table_list,
    tables_of,
)
from simkit.studies.summary import ADVANTAGE_NOTE, summary_frame, unfold_cells


def plan(study: Study, results: Results) -> list[Config]:
    """Every legal table (or those asked for) for every line-up, the other rule options as given."""
    rest = {k: v for k, v in study.base.items() if k not in ("players", "teams")}
    configs = []
    for players, teams in tables_of(study):
        rules = Rules.make(players, teams, **rest)
        for lineup, games in lineups_for(study, rules):
            configs.append(Config(rules, lineup, games, "table", f"{players} players, {teams} teams"))
    return configs


def key_table(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per table and line-up: team 0's edge in points and relative to its fair share, the length and how
    the games unfold, with intervals."""
    rows = []
    for r in summary.itertuples():
        row = {
            "table": f"{r.players}p / {r.teams}t",
            "line-up": r.policies,
            "games": count(r.games),
            "team 0 wins, all games [95% CI]": pct(r.win_rate_0, r.win_rate_0_low, r.win_rate_0_high),
            "advantage, decided games [95% CI]": pp(r.advantage, r.advantage_low, r.advantage_high, digits=2),
            "relative advantage [95% CI]": relative(
                r.relative_advantage, r.relative_advantage_low, r.relative_advantage_high
            ),
            "p (Holm)": format_p_value(r.p_holm),
            "stalemates": pct(r.stalemate_rate, digits=2),
        }
        row["mean turns, all seats [95% CI]"] = f"{r.duration:.1f} [{r.duration_low:.1f}, {r.duration_high:.1f}]"
        row["mean rounds (turns per player)"] = f"{r.duration / r.players:.1f}"
        row["median turns (all seats)"] = f"{r.median_turns:.0f}"
        row.update(unfold_cells(r))
        row["turn order (partners)"] = r.turn_order or "—"
        rows.append(row)
    return pd.DataFrame(rows)


def terminal_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The key table within TERMINAL_WIDTH columns: team 0's wins and edge, the test, the length."""
    return pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "line-up": r.policies,
                "games": count(r.games),
                "team 0 wins": pct(r.win_rate_0, r.win_rate_0_low, r.win_rate_0_high),
                "advantage": pp(r.advantage, r.advantage_low, r.advantage_high),
                "p (Holm)": format_p_value(r.p_holm),
                "turns": f"{r.duration:.1f}",
            }
            for r in summary.itertuples()
        ]
    )


def tables(study: Study, configs: list[Config], results: Results) -> Tables:
    summary = summary_frame(configs, results)
    return Tables(
        summary,
        key=key_table(summary),
        terminal=terminal_table(summary),
        terminal_note=f"team 0 wins: of all games; {ADVANTAGE_NOTE}; turns: the mean, all seats",
        notes=[
            f"`advantage` is team 0's share of the decided games minus its fair share 1/teams; `relative advantage` "
            f"is that share divided by the fair share, minus 1, which compares two- and three-team tables. The "
            f"p-value tests advantage = 0 (exact binomial test), adjusted for the {len(summary)} tests of this study "
            "together by Holm's method (`p (Holm)`)."
        ],
    )


def figures(t: Tables) -> dict:

    return {"first_player.png": plots.first_player(t.summary)}


def tables_text() -> str:
    return f"every legal table, {table_list(LEGAL_TABLES)}"


KIND = StudyKind(
    "first-player",
    "How big is the first player's advantage, at every table?",
    "the first player's advantage at every legal table",
    plan,
    tables,
    figures,
    varies=("players", "teams"),
    restricts=("players", "teams"),
    tables_text=tables_text,
)
