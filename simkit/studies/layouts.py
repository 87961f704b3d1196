"""layouts: does the board matter? The official board against random layouts of the same cards.

At each table and for each player of the study, the player plays itself on the official board, on its
mirror image (the same game on other cells: a check that the study sees no difference where there is
none) and on LAYOUTS seeded random layouts (simkit.game.boards: the corners kept, each card but the
Jacks twice on the other cells). Of each layout: the first player's edge (team 0's share of the decided
games minus 1/teams), the mean game length and the stalemate rate, each with its interval.

The answer is a spread between layouts: a random-effects reading of the random layouts' estimates
(DerSimonian and Laird): tau, the standard deviation of the true values from layout to layout, with its
95% interval (the Q-profile), and Cochran's Q test of no spread (Holm over the study); the official
board's place among them: its difference from the random layouts' mean, with its interval, and how many
random layouts lie below it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import scipy.optimize as so
import scipy.stats as sp

from simkit.analysis import stats
from simkit.game.boards import MIRROR, OFFICIAL, RANDOM
from simkit.game.rules import Rules
from simkit.presentation.render import count, format_p_value
from simkit.studies.kind import (
    Config,
    Results,
    Study,
    StudyKind,
    Tables,
    every_table_text,
    lineups_for,
    strength,
    tables_of,
)
from simkit.studies.summary import summary_frame

if TYPE_CHECKING:
    from matplotlib.figure import Figure

LAYOUTS = 20
"""Random layouts a study plays at each table (random:1 .. random:20)."""
BOARDS = (OFFICIAL, MIRROR, *(f"{RANDOM}{i}" for i in range(1, LAYOUTS + 1)))
LIGHT_GAMES, HEAVY_GAMES = 100_000, 4_000

MEASURES = (
    ("edge", "the first player's edge", "pp", 100.0),
    ("turns", "the mean game length", "turns", 1.0),
    ("stalemates", "the stalemate rate", "pp", 100.0),
)
"""Each measure: its column, its words, its unit and the scale it is printed at."""


def layout_games(lineup) -> int:
    """Games per layout: 100,000 for a light player (an edge within about ±0.3 pp), 4,000 for a slow one."""
    return HEAVY_GAMES if lineup.slow else LIGHT_GAMES


def plan(study: Study, results: Results) -> list[Config]:
    rest = {k: v for k, v in study.base.items() if k not in ("players", "teams")}
    configs = []
    for players, teams in tables_of(study):
        for board in BOARDS:
            rules = Rules.make(players, teams, **{**rest, "layout": board})
            group = board if board in (OFFICIAL, MIRROR) else "random"
            for lineup, games in lineups_for(study, rules):
                configs.append(Config(rules, lineup, games, group, board, facts=(("layout", board),)))
    return configs


def estimates(configs: list[Config], results: Results) -> pd.DataFrame:
    """Each layout's edge, mean length and stalemate rate, with standard errors."""
    rows = []
    for c in configs:
        agg = results.complete(c)
        edge = stats.advantage(agg.wins())
        length = agg.length
        n = int(length.sum())
        turns = np.arange(len(length))
        mean = float((length * turns).sum() / n)
        sd = math.sqrt(max(float((length * (turns - mean) ** 2).sum()) / max(n - 1, 1), 0.0))
        stalled = int(agg.ends()[1])
        rate = stalled / n
        rows.append(
            {
                "players": c.rules.players,
                "teams": c.rules.teams,
                "policies": c.lineup.spec,
                "strength": strength(c.lineup),
                "layout": c.label,
                "group": c.group,
                "games": n,
                "edge": edge.value,
                "edge_se": (edge.high - edge.low) / (2 * stats.Z),
                "turns": mean,
                "turns_se": sd / math.sqrt(n),
                "stalemates": rate,
                "stalemates_se": math.sqrt(max(rate * (1 - rate), 1.0 / n) / n),
            }
        )
    return pd.DataFrame(rows)


def random_effects(y: np.ndarray, se: np.ndarray) -> dict:
    """DerSimonian-Laird: the mean and its standard error, tau (the sd of the true values) with its 95%
    Q-profile interval, Cochran's Q and its p-value (no spread)."""
    w = 1 / se**2
    k = len(y)
    fixed = float((w * y).sum() / w.sum())
    q = float((w * (y - fixed) ** 2).sum())
    c = float(w.sum() - (w**2).sum() / w.sum())
    tau2 = max(0.0, (q - (k - 1)) / c)
    wr = 1 / (se**2 + tau2)
    mean = float((wr * y).sum() / wr.sum())

    def generalised_q(t2: float) -> float:
        v = 1 / (se**2 + t2)
        m = (v * y).sum() / v.sum()
        return float((v * (y - m) ** 2).sum())

    def bound(target: float) -> float:
        if generalised_q(0.0) < target:
            return 0.0
        hi = max(tau2, float(np.var(y))) * 10 + 1e-12
        while generalised_q(hi) > target:
            hi *= 10
        return float(so.brentq(lambda t2: generalised_q(t2) - target, 0.0, hi))

    low, high = bound(sp.chi2.ppf(0.975, k - 1)), bound(sp.chi2.ppf(0.025, k - 1))
    return {
        "mean": mean,
        "mean_se": math.sqrt(1 / wr.sum()),
        "tau": math.sqrt(tau2),
        "tau_low": math.sqrt(low),
        "tau_high": math.sqrt(high),
        "q": q,
        "p": float(sp.chi2.sf(q, k - 1)),
    }


def spreads(e: pd.DataFrame) -> pd.DataFrame:
    """For each table, player and measure: the random layouts' spread (random_effects), the official board's
    difference from their mean with its 95% interval and its rank among them, the mirror's difference from
    the official board; Holm over the study's tests of no spread."""
    rows = []
    for (players, teams, spec), part in e.groupby(["players", "teams", "policies"], sort=False):
        random = part[part["group"] == "random"]
        official = part[part["group"] == OFFICIAL].iloc[0]
        mirror = part[part["group"] == MIRROR].iloc[0]
        for column, _, _, _ in MEASURES:
            y, se = random[column].to_numpy(), random[f"{column}_se"].to_numpy()
            re = random_effects(y, se)
            diff = official[column] - re["mean"]
            diff_se = math.sqrt(official[f"{column}_se"] ** 2 + re["mean_se"] ** 2)
            check = mirror[column] - official[column]
            check_se = math.hypot(mirror[f"{column}_se"], official[f"{column}_se"])
            rows.append(
                {
                    "players": players,
                    "teams": teams,
                    "policies": spec,
                    "strength": part["strength"].iloc[0],
                    "measure": column,
                    "layouts": len(y),
                    "games": int(part["games"].min()),
                    "official": official[column],
                    "official_low": official[column] - stats.Z * official[f"{column}_se"],
                    "official_high": official[column] + stats.Z * official[f"{column}_se"],
                    "random_mean": re["mean"],
                    "tau": re["tau"],
                    "tau_low": re["tau_low"],
                    "tau_high": re["tau_high"],
                    "q": re["q"],
                    "p": re["p"],
                    "official_minus_random": diff,
                    "official_minus_random_low": diff - stats.Z * diff_se,
                    "official_minus_random_high": diff + stats.Z * diff_se,
                    "random_below_official": int((y < official[column]).sum()),
                    "mirror_minus_official": check,
                    "mirror_minus_official_low": check - stats.Z * check_se,
                    "mirror_minus_official_high": check + stats.Z * check_se,
                }
            )
    frame = pd.DataFrame(rows)
    if len(frame):
        frame["p_holm"] = stats.holm(frame["p"])
    return frame


def _interval(value: float, low: float, high: float, scale: float, unit: str) -> str:
    return f"{scale * value:+.2f} {unit} [{scale * low:+.2f}, {scale * high:+.2f}]"


def key_table(s: pd.DataFrame) -> pd.DataFrame:
    scale = {c: (sc, unit) for c, _, unit, sc in MEASURES}
    rows = []
    for r in s.itertuples():
        sc, unit = scale[r.measure]
        rows.append(
            {
                "table": f"{r.players}p / {r.teams}t",
                "player": r.policies,
                "measure": dict((c, w) for c, w, _, _ in MEASURES)[r.measure],
                "games a layout": count(r.games),
                "official board [95% CI]": _interval(r.official, r.official_low, r.official_high, sc, unit),
                f"spread between {r.layouts} layouts, sd [95% CI]": (
                    f"{sc * r.tau:.2f} {unit} [{sc * r.tau_low:.2f}, {sc * r.tau_high:.2f}]"
                ),
                "p (Holm), no spread": format_p_value(r.p_holm),
                "official minus their mean [95% CI]": _interval(
                    r.official_minus_random, r.official_minus_random_low, r.official_minus_random_high, sc, unit
                ),
                "layouts below the official": f"{r.random_below_official} of {r.layouts}",
            }
        )
    return pd.DataFrame(rows)


def answer(s: pd.DataFrame) -> str:
    """Does the board matter: for each measure, where the spread survives Holm, its largest sd with its
    interval; the official board's place; the mirror's check."""
    lines = ["## Does the board matter?\n"]
    for column, words, unit, sc in MEASURES:
        part = s[s["measure"] == column]
        shown = part[part["p_holm"] < 0.05]
        if len(shown):
            top = shown.loc[shown["tau"].idxmax()]
            lines.append(
                f"- {words}: the layout moves it at {len(shown)} of {len(part)} tables and players (Holm); the "
                f"largest spread, at {top.players}p/{top.teams}t under {top.policies}, an sd of "
                f"{sc * top.tau:.2f} {unit} [{sc * top.tau_low:.2f}, {sc * top.tau_high:.2f}] between layouts."
            )
        else:
            widest = part.loc[part["tau_high"].idxmax()] if len(part) else None
            bound = "" if widest is None else f", every sd's interval within {sc * widest.tau_high:.2f} {unit}"
            lines.append(f"- {words}: no spread between layouts survives Holm at any table{bound}.")
        outside = part[(part["official_minus_random_low"] > 0) | (part["official_minus_random_high"] < 0)]
        lines.append(
            f"  The official board differs from the random layouts' mean at {len(outside)} of {len(part)} "
            f"(its 95% interval excluding 0; about {0.05 * len(part):.0f} expected by chance where it does not)."
        )
    checks = s[(s["mirror_minus_official_low"] > 0) | (s["mirror_minus_official_high"] < 0)]
    lines.append(
        f"\nThe mirror image, the same game on other cells, differs from the official board at {len(checks)} of "
        f"{len(s)} measures, tables and players (95% intervals excluding 0; about {0.05 * len(s):.0f} expected "
        "by chance).\n"
    )
    return "\n".join(lines)


def figure(e: pd.DataFrame) -> Figure:
    """layouts.png: a panel per table, each layout's first-player edge with its interval, the official board
    and the mirror marked, a line-up per colour."""
    import matplotlib.pyplot as plt

    tables = sorted({(int(p), int(t)) for p, t in zip(e["players"], e["teams"])})
    lineups = list(dict.fromkeys(e["policies"]))
    cols = min(5, len(tables))
    rows_n = -(-len(tables) // cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(3.3 * cols, 2.9 * rows_n + 0.8), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (p, t) in zip(axes.flat, tables):
        for j, spec in enumerate(lineups):
            part = e[(e["players"] == p) & (e["teams"] == t) & (e["policies"] == spec)]
            order = part.sort_values("edge")
            x = np.arange(len(order)) + j * 0.25
            ax.errorbar(
                x,
                100 * order["edge"],
                yerr=100 * stats.Z * order["edge_se"],
                fmt="o",
                ms=3,
                color=colours[j % len(colours)],
                label=spec,
                lw=0.8,
            )
            for marker, group in (("*", OFFICIAL), ("D", MIRROR)):
                at = np.flatnonzero(order["group"].to_numpy() == group)
                ax.plot(x[at], 100 * order["edge"].to_numpy()[at], marker, ms=11 if marker == "*" else 6, color="black")
        ax.set_title(f"{p}p/{t}t", fontsize=9)
        ax.set_xticks([])
        ax.axhline(0, color="grey", lw=0.6)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(tables) :]:
        ax.axis("off")
    axes[0, 0].set_ylabel("first player's edge (pp)", fontsize=8)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(
        handles
        + [
            plt.Line2D([], [], marker="*", ls="", color="black", ms=10),
            plt.Line2D([], [], marker="D", ls="", color="black"),
        ],
        labels + ["official board", "its mirror image"],
        loc="lower center",
        ncol=len(labels) + 2,
        fontsize=8,
    )
    fig.suptitle("Does the board matter? Each layout's first-player edge, sorted, at each table", fontsize=10)
    fig.tight_layout(rect=(0, 0.06, 1, 0.96))
    return fig


def tables(study: Study, configs: list[Config], results: Results) -> Tables:
    summary = summary_frame(configs, results)
    e = estimates(configs, results)
    s = spreads(e)
    return Tables(
        summary,
        {"layouts": e, "spreads": s},
        key=key_table(s),
        terminal=key_table(s)[["table", "player", "measure", "official board [95% CI]", "p (Holm), no spread"]],
        terminal_note="p (Holm), no spread: Cochran's Q test that the random layouts share one value, adjusted "
        "over the study; the spreads and the official board's place are in summary.md",
        sections=[answer(s)],
        notes=[
            f"Layouts: the official board, its mirror image and {LAYOUTS} random layouts (random:1 .. random:"
            f"{LAYOUTS}: the corners kept, each card but the Jacks twice on the other cells). Spread: "
            "DerSimonian-Laird's random-effects sd between the random layouts with its Q-profile 95% interval; "
            "Cochran's Q tests that they share one value (Holm over the study).",
            "The official board's difference from the random layouts' mean takes that mean's standard error and "
            "the official estimate's; its rank counts the random layouts whose estimate is below it.",
        ],
    )


def figures(t: Tables) -> dict:
    return {"layouts.png": figure(t.extra["layouts"])}


KIND = StudyKind(
    "layouts",
    "Does the board matter?",
    f"the official board, its mirror image and {LAYOUTS} random layouts, each player against itself",
    plan,
    tables,
    figures,
    default_policies=("greedy", "swift"),
    varies=("layout", "players", "teams"),
    restricts=("players", "teams"),
    games=layout_games,
    tables_text=every_table_text,
)
