"""teams: are three teams fairer than two? How many sequences to win?"""

from __future__ import annotations

import pandas as pd

from simkit.game.rules import Rules
from simkit.presentation import plots
from simkit.presentation.render import count, format_p_value, pct, pp, relative
from simkit.studies.kind import Config, Results, Study, StudyKind, Tables, lineups_for, table_list
from simkit.studies.summary import ADVANTAGE_NOTE, summary_frame

SPLIT_PLAYERS, SPLIT_TEAMS = (6, 12), (2, 3)  # the split: these players in these teams
SEQUENCE_PLAYERS, SEQUENCES = (2, 6), (1, 2, 3)  # two teams of these players needing these sequences to win


def tables_text() -> str:
    split = table_list([(p, t) for p in SPLIT_PLAYERS for t in SPLIT_TEAMS])
    return (
        f"its own, fixed: {split}; {table_list([(p, 2) for p in SEQUENCE_PLAYERS])} needing "
        f"{', '.join(map(str, SEQUENCES[:-1]))} or {SEQUENCES[-1]} sequences to win"
    )


def plan(study: Study, results: Results) -> list[Config]:
    """6 and 12 players in two or three teams; two teams needing 1, 2 or 3 sequences (2 and 6 players).

    6 players in 2 teams needing 2 sequences is one configuration of both
    parts: it is listed once, in the split.
    """
    base = study.base
    configs = []
    for players in SPLIT_PLAYERS:
        for teams in SPLIT_TEAMS:
            rules = Rules.make(players, teams, **base)
            for lineup, games in lineups_for(study, rules):
                configs.append(Config(rules, lineup, games, "split", f"{players} players in {teams} teams"))
    for players in SEQUENCE_PLAYERS:
        for q in SEQUENCES:
            if players == 6 and q == 2:
                continue  # = 6 players in 2 teams, above
            rules = Rules.make(players, 2, sequences_to_win=q, **base)
            for lineup, games in lineups_for(study, rules):
                configs.append(
                    Config(
                        rules,
                        lineup,
                        games,
                        "sequences",
                        f"{players} players, {q} sequence{'s' if q > 1 else ''} to win",
                    )
                )
    return configs


def key_table(summary: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for r in summary.itertuples():
        rows.append(
            {
                "table": f"{r.players}p / {r.teams}t",
                "variant": r.label,
                "line-up": r.policies,
                "games": count(r.games),
                "advantage, decided games [95% CI]": pp(r.advantage, r.advantage_low, r.advantage_high),
                "relative advantage [95% CI]": relative(
                    r.relative_advantage, r.relative_advantage_low, r.relative_advantage_high
                ),
                "p (Holm)": format_p_value(r.p_holm),
                "balance, decided games [95% CI]": pct(
                    r.balance_decided, r.balance_decided_low, r.balance_decided_high
                ),
                "balance, all games [95% CI]": pct(r.balance, r.balance_low, r.balance_high),
                "stalemates": pct(r.stalemate_rate, digits=2),
                "mean turns, all seats (rounds)": f"{r.duration:.1f} ({r.duration / r.players:.1f})",
            }
        )
    return pd.DataFrame(rows)


def terminal_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The key table within TERMINAL_WIDTH columns: team 0's edge, in points and relative to its fair share."""
    return pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "to win": f"{r.sequences_to_win} seq.",
                "line-up": r.policies,
                "games": count(r.games),
                "advantage": pp(r.advantage, r.advantage_low, r.advantage_high),
                "relative": relative(r.relative_advantage, r.relative_advantage_low, r.relative_advantage_high),
                "p (Holm)": format_p_value(r.p_holm),
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
        terminal_note=(
            f"to win: the sequences a team needs; {ADVANTAGE_NOTE}; relative: that share over the fair share, "
            "minus 1, which compares two and three teams"
        ),
        notes=[
            "Mean turns count every seat's turns; in brackets the rounds, turns per player (a round is every seat's "
            "turn once), which compare tables of different sizes.",
            "Two and three teams have different fair shares (50% and 33.3%): compare them by the relative advantage "
            "(team 0's share of the decided games over its fair share, minus 1) and by the balance of the decided "
            "games; the balance of all games also counts stalemates, which shrink the gaps by themselves.",
            f"The p-values of the {len(summary)} distinct configurations' advantages are adjusted together by Holm's "
            "method (6 players in 2 teams needing 2 sequences is listed once).",
        ],
    )


def figures(t: Tables) -> dict:

    return {"teams.png": plots.teams(t.summary)}


KIND = StudyKind(
    "teams",
    "Are three teams fairer than two? How many sequences to win?",
    "two or three teams of the same players; two teams needing more or fewer sequences",
    plan,
    tables,
    figures,
    varies=("players", "teams", "sequences_to_win"),
    tables_text=tables_text,
)
