"""variants: what do the rule variants change? The standard game against each variant, on the same deals."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from simkit.analysis import stats
from simkit.game.rules import Rules
from simkit.presentation import plots
from simkit.presentation.render import count, format_p_value, markdown_table, pct, pp
from simkit.studies.hand_size import pairing_sentence
from simkit.studies.kind import (
    SHIFT_POLICIES,
    Config,
    Results,
    Study,
    StudyKind,
    Tables,
    every_table_text,
    lineups_for,
    shift_games,
    strength,
    tables_of,
)
from simkit.studies.summary import summary_frame, what_changes

if TYPE_CHECKING:
    from matplotlib.figure import Figure

VARIANTS: tuple[tuple[str, dict], ...] = (
    ("standard", {}),
    ("no reshuffle", {"reshuffle": False}),
    ("no dead-card swap", {"dead_swap": False}),
    ("no reshuffle, no dead-card swap", {"reshuffle": False, "dead_swap": False}),
    ("late card, K = 1", {"late_card": 1}),
    ("late card, K = 5", {"late_card": 5}),
    ("late card, K = 10", {"late_card": 10}),
)
"""Each variant's name and its rule options (RULES.md, "Rule variants"); the first is the reference."""


def plan(study: Study, results: Results) -> list[Config]:
    rest = {k: v for k, v in study.base.items() if k not in ("players", "teams")}
    configs = []
    for players, teams in tables_of(study):
        for name, options in VARIANTS:
            rules = Rules.make(players, teams, **{**rest, **options})
            for lineup, games in lineups_for(study, rules):
                configs.append(
                    Config(
                        rules, lineup, games, "standard" if not options else "variant", name, facts=(("variant", name),)
                    )
                )
    return configs


def shifts(configs: list[Config], results: Results) -> pd.DataFrame:
    """Each variant against the standard game of its table and line-up, pair by pair on the same deals:
    the shifts of team 0's advantage, of the mean game length and of the stalemate rate."""
    standard = {(c.rules.players, c.rules.teams, c.lineup.spec): c for c in configs if c.group == "standard"}
    rows = []
    for c in configs:
        if c.group != "variant":
            continue
        ref = standard[c.rules.players, c.rules.teams, c.lineup.spec]
        a, b = results.complete(c), results.complete(ref)
        pairs = results.pairs(c, ref)
        edge = stats.shift(a.wins(), a.games, b.wins(), b.games, joint=pairs.winners)
        length = stats.paired_difference(pairs.n, pairs.turns)
        s_a, s_b = int(pairs.ends[1].sum()), int(pairs.ends[:, 1].sum())
        stall = stats.paired_difference(pairs.n, np.array([s_a, s_b, s_a, s_b, int(pairs.ends[1, 1])]))
        row = {
            "players": c.rules.players,
            "teams": c.rules.teams,
            "policies": c.lineup.spec,
            "strength": strength(c.lineup),
            "variant": c.label,
            "games": pairs.n,
            "advantage": stats.advantage(a.wins()).value,
            "standard_advantage": stats.advantage(b.wins()).value,
        }
        for name, s in (("advantage_shift", edge), ("turns_shift", length), ("stalemate_shift", stall)):
            row.update(
                {
                    name: s.estimate.value,
                    f"{name}_low": s.estimate.low,
                    f"{name}_high": s.estimate.high,
                    f"{name}_unpaired_low": s.unpaired.low,
                    f"{name}_unpaired_high": s.unpaired.high,
                    f"{name}_correlation": s.correlation,
                    f"{name}_paired": s.paired,
                    f"{name}_narrower": s.narrower,
                    f"{name}_p": s.p_value,
                }
            )
        rows.append(row)
    frame = pd.DataFrame(rows)
    for name in ("advantage_shift", "turns_shift", "stalemate_shift"):
        frame[f"{name}_p_holm"] = stats.holm(frame[f"{name}_p"])
    return frame


def key_table(s: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for r in s.itertuples():
        rows.append(
            {
                "table": f"{r.players}p / {r.teams}t",
                "line-up": r.policies,
                "variant": r.variant,
                "games": count(r.games),
                "advantage (standard)": f"{pp(r.advantage, digits=2)} ({pp(r.standard_advantage, digits=2)})",
                "shift of the advantage [95% CI]": pp(
                    r.advantage_shift, r.advantage_shift_low, r.advantage_shift_high, digits=2
                ),
                "p (Holm)": format_p_value(r.advantage_shift_p_holm),
                "shift of the mean length, turns of all seats [95% CI]": (
                    f"{r.turns_shift:+.2f} [{r.turns_shift_low:+.2f}, {r.turns_shift_high:+.2f}]"
                ),
                "shift of the stalemates [95% CI]": pp(
                    r.stalemate_shift, r.stalemate_shift_low, r.stalemate_shift_high, digits=2
                ),
            }
        )
    return pd.DataFrame(rows)


def terminal_table(s: pd.DataFrame) -> pd.DataFrame:
    """The key table within TERMINAL_WIDTH columns: each variant's shift of team 0's advantage and its test."""
    return pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "variant": r.variant,
                "line-up": r.policies,
                "shift of the advantage": pp(
                    r.advantage_shift, r.advantage_shift_low, r.advantage_shift_high, digits=2
                ),
                "p (Holm)": format_p_value(r.advantage_shift_p_holm),
            }
            for r in s.itertuples()
        ]
    )


def shift_frame(s: pd.DataFrame, column: str, scale: float = 1.0) -> pd.DataFrame:
    """One measure's shifts (`column` of shifts.csv and its interval, times `scale`), a change per variant, as
    summary.what_changes and plots.shift_grid read them."""
    return pd.DataFrame(
        {
            "players": s["players"],
            "teams": s["teams"],
            "policies": s["policies"],
            "strength": s["strength"],
            "games": s["games"],
            "change": s["variant"],
            "shift": scale * s[column],
            "low": scale * s[f"{column}_low"],
            "high": scale * s[f"{column}_high"],
            "p_holm": s[f"{column}_p_holm"],
        }
    )


def headline_frame(s: pd.DataFrame) -> pd.DataFrame:
    """The shifts of team 0's advantage as summary.what_changes and plots.shift_grid read them."""
    return shift_frame(s, "advantage_shift")


def headline(s: pd.DataFrame) -> str:
    """What changes and where (summary.what_changes) from the study's shifts, `s` (shifts.csv's rows)."""
    return what_changes(
        headline_frame(s),
        "team 0's advantage (its share of the decided games minus 1/teams) from the standard game, on the same deals",
    )


EFFECTS = (
    ("turns_shift", 1, "the game length", "shift of the mean length (turns)"),
    ("stalemate_shift", 100, "the stalemates", "shift of the stalemate rate (pp)"),
)
"""What a variant does to the game besides the edge: shifts.csv's column, its scale, its panel and its y axis."""


def effects_figure(s: pd.DataFrame) -> Figure:
    """variants.png: a row per variant, its shift of the mean game length (turns) beside its shift of the
    stalemate rate (pp), at every table and line-up (plots.shift_grid). `s`: shifts.csv."""
    grid = pd.concat(
        [
            shift_frame(rows, column, scale).assign(change=rows["variant"] + ": " + panel, what=axis)
            for _, rows in s.groupby("variant", sort=False)
            for column, scale, panel, axis in EFFECTS
        ]
    )
    return plots.shift_grid(
        grid,
        "",
        "Rule variants against the standard game: the game's length and its stalemates, on the same deals",
        scale=1,
        columns=2,
    )


def tables(study: Study, configs: list[Config], results: Results) -> Tables:
    summary = summary_frame(configs, results)
    s = shifts(configs, results)
    standard = summary[summary["study_group"] == "standard"]
    base = markdown_table(
        ["table", "line-up", "games", "advantage [95% CI]", "stalemates", "mean turns (all seats)"],
        [
            (
                f"{r.players}p / {r.teams}t",
                r.policies,
                count(r.games),
                pp(r.advantage, r.advantage_low, r.advantage_high, digits=2),
                pct(r.stalemate_rate, digits=2),
                f"{r.duration:.2f}",
            )
            for r in standard.itertuples()
        ],
    )

    said = pairing_sentence(s, "advantage_shift_correlation", "advantage_shift_paired", "advantage_shift_narrower")
    section = (
        "## The standard game\n\n"
        + base
        + "\nShifts of team 0's advantage: "
        + said
        + "A variant that changes the deal from the start (the late card) keeps less of the pairing than one "
        "that only changes the game once the pile runs out or a card dies. shifts.csv has the paired and the "
        "unpaired intervals of every shift (the length's and the stalemates' too).\n"
    )
    return Tables(
        summary,
        {"shifts": s},
        key=key_table(s),
        terminal=terminal_table(s),
        terminal_note=(
            "shift of the advantage: team 0's share of the decided games minus its fair share, with the variant "
            "minus in the standard game, on the same deals, 95% CI in brackets; p (Holm): its test, adjusted over "
            "the study; the games, the advantages and the shifts of the length and the stalemates are in summary.md"
        ),
        sections=[section],
        headline=headline(s),
        notes=[
            "Shifts: the variant's value minus the standard game's, on the same deals (paired; delta method for the "
            f"advantage). The {len(s)} shifts of the advantage are tested together (Holm), as are those of the length "
            "and of the stalemate rate.",
            "`advantage` is team 0's share of the decided games minus its fair share 1/teams.",
        ],
    )


def figures(t: Tables) -> dict:

    s = t.extra["shifts"]
    return {
        "variants.png": effects_figure(s),
        "variants_tables.png": plots.shift_grid(
            headline_frame(s),
            "shift of team 0's advantage, decided games",
            "Rule variants against the standard game, on the same deals",
        ),
    }


KIND = StudyKind(
    "variants",
    "What do the rule variants change, against the standard game?",
    "the standard game against each variant (" + "; ".join(name for name, options in VARIANTS if options) + "), "
    "on the same deals",
    plan,
    tables,
    figures,
    default_policies=SHIFT_POLICIES,
    varies=("reshuffle", "dead_swap", "late_card", "players", "teams"),
    restricts=("players", "teams"),
    games=shift_games,
    tables_text=every_table_text,
)
