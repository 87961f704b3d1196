"""teams: are three teams fairer than two? How many sequences to win?

The split: 6 and 12 players in two or three teams. The sequences: every two-team table needing 1, 2 (the
rules' number) or 3 sequences to win. Each change is a shift: the table in three teams against two (team 0's
relative advantage, unpaired: both tables play the study's seed, their games taken as independent) and each
number of sequences against the rules' 2 (team 0's advantage, paired on the same deals); the study's shifts
are one Holm family. Which measure says "fairer" (``reading``): the relative advantage, beside the
stalemates; the gaps in points shrink with the fair share by themselves.
"""

from __future__ import annotations

import math

import pandas as pd

from simkit.analysis import stats
from simkit.game.rules import Rules
from simkit.presentation import plots
from simkit.presentation.render import count, format_p_value, markdown_table, pct, pp, relative
from simkit.studies.kind import (
    LEGAL_TABLES,
    SHIFT_POLICIES,
    Config,
    Results,
    Study,
    StudyKind,
    Tables,
    lineups_for,
    shift_games,
    strength,
    table_list,
    tables_of,
)
from simkit.studies.summary import ADVANTAGE_NOTE, HEADLINE_LEVEL, summary_frame, unfold_cells, what_changes

SPLIT_PLAYERS, SPLIT_TEAMS = (6, 12), (2, 3)  # the split: these players in these teams
SEQUENCE_PLAYERS = tuple(p for p, t in LEGAL_TABLES if t == 2)  # two-team tables: the sequences to win vary
SEQUENCES, STANDARD_SEQUENCES = (1, 2, 3), 2  # the sequences to win they need; the rules' number (RULES.md)


def tables_text() -> str:
    split = table_list([(p, t) for p in SPLIT_PLAYERS for t in SPLIT_TEAMS])
    return (
        f"its own: {split}; every two-team table ({table_list([(p, 2) for p in SEQUENCE_PLAYERS])}) needing "
        f"{', '.join(map(str, SEQUENCES[:-1]))} or {SEQUENCES[-1]} sequences to win; --players and --teams "
        "choose some"
    )


def _sequences_label(players: int, q: int) -> str:
    return f"{players} players, {q} sequence{'s' if q > 1 else ''} to win"


def plan(study: Study, results: Results) -> list[Config]:
    """6 and 12 players in two or three teams; every two-team table needing 1, 2 or 3 sequences; only the
    tables of --players (and --teams) when given.

    6 and 12 players in 2 teams needing 2 sequences are configurations of both
    parts: each is listed once, in the split.
    """
    base = {k: v for k, v in study.base.items() if k not in ("players", "teams")}
    chosen = set(tables_of(study))
    configs = []
    for players in SPLIT_PLAYERS:
        for teams in SPLIT_TEAMS:
            if (players, teams) not in chosen:
                continue
            rules = Rules.make(players, teams, **base)
            for lineup, games in lineups_for(study, rules):
                configs.append(Config(rules, lineup, games, "split", f"{players} players in {teams} teams"))
    for players in SEQUENCE_PLAYERS:
        if (players, 2) not in chosen:
            continue
        for q in SEQUENCES:
            if players in SPLIT_PLAYERS and q == STANDARD_SEQUENCES:
                continue  # = players in 2 teams, above
            rules = Rules.make(players, 2, sequences_to_win=q, **base)
            for lineup, games in lineups_for(study, rules):
                configs.append(Config(rules, lineup, games, "sequences", _sequences_label(players, q)))
    return configs


def shifts(configs: list[Config], results: Results) -> pd.DataFrame:
    """Each change against its reference, same line-up: each number of sequences to win against the rules' 2
    at its table (team 0's advantage, paired on the same deals where the pairs are correlated,
    simkit.analysis.stats.shift), and three teams against two at 6 and 12 players (team 0's relative
    advantage, its share of the decided games over 1/teams minus 1; unpaired, the two tables' games taken as
    independent although both play the study's seed: a normal interval on the difference); Holm's adjustment
    over all of them."""
    standard = {
        (c.rules.players, c.lineup.spec): c
        for c in configs
        if c.rules.teams == 2 and c.rules.sequences_to_win == STANDARD_SEQUENCES
    }
    rows = []
    for c in configs:
        ref = standard.get((c.rules.players, c.lineup.spec))
        if ref is None or ref == c:
            continue
        a, b = results.complete(c), results.complete(ref)
        row = {
            "players": c.rules.players,
            "teams": c.rules.teams,
            "policies": c.lineup.spec,
            "strength": strength(c.lineup),
            "games": a.games,
            "reference_games": b.games,
        }
        if c.rules.teams == 2:  # another number of sequences to win
            q = c.rules.sequences_to_win
            paired = c.games == ref.games
            s = stats.shift(a.wins(), a.games, b.wins(), b.games, joint=results.joint(c, ref) if paired else None)
            row.update(
                {
                    "change": f"{q} sequence{'s' if q > 1 else ''} to win, not {STANDARD_SEQUENCES}",
                    "measure": "advantage",
                    "value": stats.advantage(a.wins()).value,
                    "reference": stats.advantage(b.wins()).value,
                    "shift": s.estimate.value,
                    "shift_low": s.estimate.low,
                    "shift_high": s.estimate.high,
                    "paired": s.paired,
                    "p_value": s.p_value,
                }
            )
        else:  # three teams, not two: relative advantages, unpaired (the games taken as independent)
            ra, rb = stats.relative_advantage(a.wins()), stats.relative_advantage(b.wins())
            se = math.hypot(_relative_se(a.wins(), c.rules.teams), _relative_se(b.wins(), 2))
            d = ra.value - rb.value
            row.update(
                {
                    "change": "3 teams, not 2",
                    "measure": "relative_advantage",
                    "value": ra.value,
                    "reference": rb.value,
                    "shift": d,
                    "shift_low": d - stats.Z * se,
                    "shift_high": d + stats.Z * se,
                    "paired": False,
                    "p_value": math.erfc(abs(d) / se / math.sqrt(2)) if se > 0 else 1.0,
                }
            )
        rows.append(row)
    frame = pd.DataFrame(rows)
    if len(frame):
        frame["p_holm"] = stats.holm(frame["p_value"])
    return frame


def _relative_se(wins, teams: int) -> float:
    """The standard error of team 0's relative advantage: teams x its share's (binomial, decided games)."""
    decided = int(sum(wins))
    share = wins[0] / decided if decided else 0.0
    return teams * math.sqrt(share * (1 - share) / decided) if decided else math.inf


def headline_frame(s: pd.DataFrame) -> pd.DataFrame:
    """The shifts as summary.what_changes and plots.shift_grid read them."""
    if not len(s):
        return s
    frame = s.rename(columns={"shift_low": "low", "shift_high": "high"}).copy()
    frame["what"] = [
        "shift of team 0's advantage (pp)" if m == "advantage" else "shift of its relative advantage (% points)"
        for m in frame["measure"]
    ]
    return frame


def reading(summary: pd.DataFrame, s: pd.DataFrame) -> str:
    """Which measure to read of three teams against two (summary.md's section under What changes and where):
    at each split table and line-up, team 0's relative advantage with two teams and with three (and the
    split's shift, from `s`), the largest gap between two teams in points and over the fair share, and the
    stalemates; then what they say together where the shift survives Holm. `summary`: summary.csv's rows."""
    split = summary[summary["study_group"] == "split"] if "study_group" in summary else summary.iloc[0:0]
    shifted = s[s["measure"] == "relative_advantage"] if len(s) else s
    rows, said = [], []
    for (players, lineup), at in split.groupby(["players", "policies"], sort=False):
        two, three = at[at["teams"] == 2], at[at["teams"] == 3]
        if not (len(two) and len(three)):
            continue
        a, b = two.iloc[0], three.iloc[0]
        found = shifted[(shifted["players"] == players) & (shifted["policies"] == lineup)]
        f = found.iloc[0] if len(found) else None  # a Series: its shift is f["shift"] (f.shift is its method)
        shift = (
            f"{100 * f['shift']:+.2f} [{100 * f['shift_low']:+.2f}, {100 * f['shift_high']:+.2f}], p (Holm) "
            f"{format_p_value(f['p_holm'])}"
            if f is not None
            else "—"
        )
        over = [a.max_gap * 2, b.max_gap * 3]  # the largest gap over the fair share, 1/2 or 1/3
        rows.append(
            (
                f"{players}p",
                lineup,
                f"{relative(a.relative_advantage)} → {relative(b.relative_advantage)}",
                shift,
                f"{100 * a.max_gap:.1f} → {100 * b.max_gap:.1f} pp",
                f"{100 * over[0]:.1f}% → {100 * over[1]:.1f}%",
                f"{pct(a.stalemate_rate)} → {pct(b.stalemate_rate)}",
            )
        )
        if f is not None and f["p_holm"] < HEADLINE_LEVEL:
            same = a.max_gap * 2 / 3  # the two-team gap's share of the fair half, as points of a fair third
            said.append(
                f"at {players} players under {lineup} team 0's relative advantage falls from "
                f"{relative(a.relative_advantage)} to {relative(b.relative_advantage)} (a shift of "
                f"{pp(f['shift'], f['shift_low'], f['shift_high'], digits=2).replace(' pp', '')} points of %); the "
                f"largest gap falls from {100 * a.max_gap:.1f} to {100 * b.max_gap:.1f} pp, but "
                f"{100 * (a.max_gap - same):.1f} pp of that fall is the smaller fair share alone (the same gap over "
                f"the fair share, {100 * over[0]:.1f}%, is {100 * same:.1f} pp of a third), so over the fair share it "
                f"falls from {100 * over[0]:.1f}% to {100 * over[1]:.1f}%; and the stalemates go from "
                f"{pct(a.stalemate_rate)} to {pct(b.stalemate_rate)} of the games"
            )
    if not rows:
        return ""
    table = markdown_table(
        [
            "table",
            "line-up",
            "relative advantage: 2 teams → 3",
            "shift, points of % [95% CI]",
            "largest gap: 2 → 3",
            "largest gap over the fair share",
            "stalemates",
        ],
        rows,
    )
    where = (
        " Where the split's shift survives Holm: "
        + ". And ".join(said)
        + ". Three teams trim the first team's edge by that much, less than the fall of the gap in points "
        "suggests, and stall; elsewhere no shift survives Holm. The gaps and stalemates below are estimates "
        "(summary.csv has each with its interval)."
        if said
        else " No split's shift survives Holm: the study does not show three teams fairer by this measure."
    )
    return (
        "## Which measure to read\n\n"
        "Is a table fairer in three teams than in two? A designer should read team 0's relative advantage: its "
        "share of the decided games over its fair share, minus 1, how much more often than fair the first team "
        "wins a game that has a winner, at either count of teams. Points of share do not compare: the fair share "
        "is 50% with two teams and 33.3% with three, so the same edge over the fair share is two thirds as many "
        "points at three teams, and the largest gap between two teams shrinks in points by that alone (over the "
        "fair share it is comparable). Stalemates are apart: games no team wins, which the shares of the decided "
        f"games leave out, a cost of their own to weigh beside the edge.{where}\n\n" + table
    )


def headline(s: pd.DataFrame) -> str:
    """What changes and where: the sequences' shifts of the advantage (pp), then the split's of the relative
    advantage (points of %), one Holm family."""
    if not len(s):
        return ""
    frame = headline_frame(s)
    seq, split = frame[frame["measure"] == "advantage"], frame[frame["measure"] != "advantage"]
    parts = []
    if len(seq):
        parts.append(
            what_changes(
                seq,
                "team 0's advantage (its share of the decided games minus 1/2) from 2 sequences to win, on the "
                "same deals",
                family=len(s),
            )
        )
    if len(split):
        parts.append(
            what_changes(
                split,
                "team 0's relative advantage (its share of the decided games over 1/teams, minus 1) from two "
                "teams to three, unpaired (both tables play the study's seed; their games are taken as "
                "independent)",
                unit="% points",
                family=len(s),
                heading=not parts,
            )
        )
    return "\n".join(parts)


def shifts_section(s: pd.DataFrame) -> str:
    """summary.md's shifts: each change against its reference, with its interval and Holm's p."""
    if not len(s):
        return ""
    rows = []
    for r in s.itertuples():
        scale = 100
        unit = "pp" if r.measure == "advantage" else "% points"
        rows.append(
            (
                f"{r.players}p/{r.teams}t",
                r.change,
                r.policies,
                f"{scale * r.value:+.2f} (was {scale * r.reference:+.2f})",
                f"{scale * r.shift:+.2f} {unit} [{scale * r.shift_low:+.2f}, {scale * r.shift_high:+.2f}]"
                + ("" if r.paired else " (unpaired)"),
                format_p_value(r.p_holm),
                f"{r.games:,} vs {r.reference_games:,}",
            )
        )
    table = markdown_table(
        ["table", "change", "line-up", "value (reference)", "shift [95% CI]", "p (Holm)", "games"], rows
    )
    return (
        "## Shifts\n\nEach number of sequences to win against the rules' 2 at its table: the shift of team 0's "
        "advantage in pp, paired on the same deals where the pairs are correlated; three teams against two at 6 "
        "and 12 players: the shift of team 0's relative advantage in points of %, unpaired (a normal interval "
        "on the difference, the two tables' games taken as independent although both play the study's seed). "
        f"The {len(s)} shifts are tested together (Holm).\n\n" + table
    )


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
                **unfold_cells(r),
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


FAIR_SHARES_NOTE = (
    "Two and three teams have different fair shares (50% and 33.3%): compare them by the relative advantage (team "
    "0's share of the decided games over its fair share, minus 1; 'Which measure to read' above). The balance (1 "
    "minus the largest gap in points) and the largest gap do not compare between them, as the gaps in points "
    "shrink with the fair share; the balance of all games also counts stalemates, which shrink the gaps by "
    "themselves."
)
"""The key table's note on comparing two and three teams."""


def tables(study: Study, configs: list[Config], results: Results) -> Tables:
    summary = summary_frame(configs, results)
    s = shifts(configs, results)
    return Tables(
        summary,
        {"shifts": s} if len(s) else {},
        headline="\n".join(part for part in (headline(s), reading(summary, s)) if part),
        sections=[shifts_section(s)] if len(s) else [],
        key=key_table(summary),
        terminal=terminal_table(summary),
        terminal_note=(
            f"to win: the sequences a team needs; {ADVANTAGE_NOTE}; relative: that share over the fair share, "
            "minus 1, which compares two and three teams"
        ),
        notes=[
            "Mean turns count every seat's turns; in brackets the rounds, turns per player (a round is every seat's "
            "turn once), which compare tables of different sizes.",
            FAIR_SHARES_NOTE,
            f"The p-values of the {len(summary)} distinct configurations' advantages are adjusted together by Holm's "
            "method (6 and 12 players in 2 teams needing 2 sequences are listed once, in the split); so are the "
            "p-values of the shifts.",
        ],
    )


def figures(t: Tables) -> dict:
    out = {"teams.png": plots.teams(t.summary)}
    s = t.extra.get("shifts", pd.DataFrame())
    if len(s):
        out["teams_tables.png"] = plots.shift_grid(
            headline_frame(s), "shift", "Teams and sequences to win: each change's shift"
        )
    return out


KIND = StudyKind(
    "teams",
    "Are three teams fairer than two? How many sequences to win?",
    "two or three teams of the same players; two teams needing more or fewer sequences",
    plan,
    tables,
    figures,
    default_policies=SHIFT_POLICIES,
    varies=("players", "teams", "sequences_to_win"),
    restricts=("players", "teams"),
    games=shift_games,
    tables_text=tables_text,
)
