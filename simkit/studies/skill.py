"""skill: how much does skill matter against luck? A round robin of line-ups, seats swapped, with ratings."""

from __future__ import annotations

import pandas as pd

from simkit.analysis import stats
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.presentation import plots
from simkit.presentation.render import count, markdown_table, pct
from simkit.studies.kind import LEGAL_TABLES, Config, Results, Study, StudyKind, Tables, table_list
from simkit.studies.options import StudyError
from simkit.studies.summary import summary_frame

# The study's round robin by default, weakest first as its published ratings order them (results/skill/): a
# player declared later joins it only when named here.
SKILL_POLICIES = ("random", "greedy", "fast", "swift", "lookahead", "ismcts", "ismcts-rich")
PAIR_GAMES = 2_000
ANCHOR = "greedy"  # the ratings' zero: a rung every strong player plays often, so their intervals are narrow


def two_team_text() -> str:
    """The tables a skill study plays: one two-team table (plan refuses three teams)."""
    base = Rules.make()
    return (
        f"one two-team table, {base.players}p/{base.teams}t by default; --players and --teams choose another "
        f"({table_list([(p, t) for p, t in LEGAL_TABLES if t == 2])})"
    )


def plan(study: Study, results: Results) -> list[Config]:
    """Every pair of the line-ups (single players), on the table of the rule options, seats swapped."""
    specs = list(study.lineups)
    if len(specs) < 2:
        raise StudyError("a skill study needs at least two --policy line-ups")
    rules = Rules.make(**study.base)
    if rules.teams != 2:
        raise StudyError(
            f"a skill study pits two line-ups against each other: a two-team table, not {rules.teams} teams"
        )
    configs = []
    for i, a in enumerate(specs):
        for b in specs[i + 1 :]:
            if "," in a or "," in b:
                raise StudyError(f"a skill study pits single players against each other, got {a!r} and {b!r}")
            games = max(study.lineups[a], study.lineups[b])
            configs.append(
                Config(rules, Lineup.parse(f"{a},{b}", rules, swap_seats=True), games, "pair", f"{a} vs {b}")
            )
    return configs


def pairs_and_ratings(configs: list[Config], results: Results) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(pairs, ratings): per pair, A's score (wins + draws / 2) with its interval; a Bradley-Terry rating per
    line-up (Elo scale, ANCHOR = 0; simkit.analysis.stats.bradley_terry)."""
    rows, fit = [], []
    for c in configs:
        a, b = (p.spec for p in c.lineup.per_team)
        agg = results.complete(c)
        by = agg.wins_by_rotation()  # rotation 1: b plays team 0
        a_wins = int(by[0, 0] + by[1, 1])
        draws = agg.draws
        e = stats.score(a_wins, draws, agg.games, 2)
        rows.append(
            {
                "a": a,
                "b": b,
                "games": agg.games,
                "a_wins": a_wins,
                "draws": draws,
                "b_wins": agg.games - a_wins - draws,
                "a_score": e.value,
                "a_score_low": e.low,
                "a_score_high": e.high,
            }
        )
        fit.append((a, b, a_wins + draws / 2, agg.games))
    ratings = pd.DataFrame(
        [
            {"policy": name, "rating": r.value, "rating_low": r.low, "rating_high": r.high}
            for name, r in stats.bradley_terry(fit, ANCHOR)
        ]
    )
    return pd.DataFrame(rows), ratings


def key_table(pairs: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "pair (A vs B)": pairs["a"] + " vs " + pairs["b"],
            "games": pairs["games"].map(count),
            "A's score [95% CI]": [pct(r.a_score, r.a_score_low, r.a_score_high) for r in pairs.itertuples()],
            "A wins / draws / B wins": [f"{r.a_wins:,} / {r.draws:,} / {r.b_wins:,}" for r in pairs.itertuples()],
        }
    )


def ratings_table(ratings: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "policy": ratings["policy"],
            "rating [95% CI]": [
                f"{v:+.0f} [{lo:+.0f}, {hi:+.0f}]"
                for v, lo, hi in zip(ratings["rating"], ratings["rating_low"], ratings["rating_high"])
            ],
        }
    )


def best_against_next(pairs: pd.DataFrame, ratings: pd.DataFrame) -> str:
    """How far the best line-up is from a coin flip against the next best: the skill-versus-luck answer."""
    ordered = ratings.sort_values("rating", ascending=False)["policy"].tolist()
    if len(ordered) < 2:
        return ""
    best, second = ordered[0], ordered[1]
    row = pairs[((pairs["a"] == best) & (pairs["b"] == second)) | ((pairs["a"] == second) & (pairs["b"] == best))]
    if row.empty:
        return f"The best line-up is {best}."
    r = row.iloc[0]
    score, low, high = (
        (r.a_score, r.a_score_low, r.a_score_high)
        if r.a == best
        else (1 - r.a_score, 1 - r.a_score_high, 1 - r.a_score_low)
    )
    return (
        f"The best line-up, {best}, scores {pct(score, low, high)} against the next best, {second}: "
        f"{100 * (score - 0.5):+.1f} percentage points from a coin flip, over {r.games:,} games with seats "
        "swapped."
    )


def tables(study: Study, configs: list[Config], results: Results) -> Tables:
    summary = summary_frame(configs, results)
    pairs, ratings = pairs_and_ratings(configs, results)
    anchor = ratings.loc[ratings["rating_low"] == ratings["rating_high"], "policy"].iloc[0]
    section = (
        f"## Ratings (Bradley-Terry, Elo scale, {anchor} = 0)\n\n"
        + markdown_table(["policy", "rating [95% CI]"], ratings_table(ratings).itertuples(index=False))
        + f"\nEach rating's interval is against {anchor}, the anchor; two line-ups are compared by their "
        "pair's score above, not by overlapping intervals.\n\n" + best_against_next(pairs, ratings) + "\n"
    )
    return Tables(
        summary,
        {"pairs": pairs, "ratings": ratings},
        key=key_table(pairs),
        sections=[section],
        terminal_more={f"ratings (Bradley-Terry, Elo scale, {ANCHOR} = 0)": ratings_table(ratings)},
        notes=[
            "A score counts a draw as half a win; its interval is Wilson's on the fractional count. The ratings are a "
            "Bradley-Terry model fitted as a binomial GLM (statsmodels), Wald intervals against the anchor."
        ],
    )


def figures(t: Tables) -> dict:

    return {"skill.png": plots.skill(t.extra["ratings"], plots.tables_text(t.summary))}


KIND = StudyKind(
    "skill",
    "How much does skill matter against luck?",
    "a round robin of --policy line-ups (single policies), seats swapped, with ratings",
    plan,
    tables,
    figures,
    default_policies=SKILL_POLICIES,
    games=lambda lineup: PAIR_GAMES,
    unit="pair",
    tables_text=two_team_text,
)
