"""restricted: what is each use of the cards worth? A player forgoing it against itself, on the same deals.

Restricted play (Jaffe et al., "Evaluating competitive game balance with restricted play", AIIDE 2012): a
feature's worth is what a player loses by forgoing it. At each table and for each player of the study,
the unrestricted player plays itself (the reference); then, for each restriction (kernels/core/params.py
RESTRICTIONS) and each team, that team's seats play the restricted player and the others the player
itself, on the same deals as the reference (the study's seed). The shift of the restricted team's share
of the decided games from the reference's, paired game by game, is the restriction's cost at that seat;
its worth is the shift averaged over the seats (so over who moves first), with an interval no narrower
than the average of the seats' intervals (the sd of a mean is at most the mean of the sds, whatever their
correlation).

A Jack never played stays in the hand, a card short of a full hand from the turn it is drawn: beside the
restrictions the study plays the unrestricted player a card short all game ("a hand one card short"), the
most a held card's place can cost, so a restriction costing more than it costs something beyond the
card's place in the hand: its use.
"""

from __future__ import annotations

import pandas as pd
import scipy.stats as sp

from simkit.analysis import stats
from simkit.game.rules import Rules
from simkit.presentation import plots
from simkit.presentation.render import count, format_p_value, pp
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
from simkit.studies.options import StudyError
from simkit.studies.summary import summary_frame, what_changes

RESTRICTIONS: tuple[tuple[str, str], ...] = (
    ("no one-eyed Jack", "one_eyed=never"),
    ("two-eyed Jacks only to complete a sequence", "two_eyed=complete"),
    ("no two-eyed Jack", "two_eyed=never"),
    ("no blocking", "blocking=never"),
    ("no dead-card swap", "dead_swap=never"),
    ("corners not counted", "corners=ignore"),
)
"""Each restriction the study plays: its name and the player parameter that makes it."""
SHORT = "a hand one card short"
"""The place a held card takes: the restricted team's seats dealt one card fewer, playing unrestricted."""
CHANGES = (*(name for name, _ in RESTRICTIONS), SHORT)
LIGHT_GAMES, HEAVY_GAMES = 200_000, 10_000


def restricted_games(lineup) -> int:
    """Games per configuration: 200,000 for a light player (each seat's paired shift within about ±0.3 pp),
    10,000 for a slow one (swift: within about ±1.5 pp)."""
    return HEAVY_GAMES if lineup.slow else LIGHT_GAMES


def plan(study: Study, results: Results) -> list[Config]:
    rest = {k: v for k, v in study.base.items() if k not in ("players", "teams")}
    configs = []
    for players, teams in tables_of(study):
        rules = Rules.make(players, teams, **rest)
        for lineup, games in lineups_for(study, rules):
            if "," in lineup.spec:
                raise StudyError(f"a restricted-play study plays one player against itself, got {lineup.spec!r}")
            spec = lineup.spec
            facts = (("player", spec), ("change", "none"), ("restricted_team", -1))
            configs.append(Config(rules, lineup, games, "reference", f"{spec} unrestricted", facts=facts))
            for name, restriction in RESTRICTIONS:
                for team in range(teams):
                    specs = ",".join(f"{spec}:{restriction}" if u == team else spec for u in range(teams))
                    restricted = type(lineup).parse(specs, rules)
                    facts = (("player", spec), ("change", name), ("restricted_team", team))
                    configs.append(Config(rules, restricted, games, "restricted", f"{spec}: {name}", facts=facts))
            for team in range(teams):
                hands = tuple(h - (u == team) for u, h in enumerate(rules.hand_sizes[:teams]))
                short = Rules.make(players, teams, **{**rest, "hand_size": hands})
                facts = (("player", spec), ("change", SHORT), ("restricted_team", team))
                configs.append(
                    Config(short, type(lineup).parse(spec, short), games, "restricted", f"{spec}: {SHORT}", facts=facts)
                )
    return configs


def _fact(c: Config, name: str):
    return dict(c.facts)[name]


def seat_shifts(configs: list[Config], results: Results) -> pd.DataFrame:
    """Each restriction at each seat: the shift of the restricted team's share of the decided games from the
    reference's, on the same deals (paired; delta method)."""
    reference = {(c.rules.players, c.rules.teams, _fact(c, "player")): c for c in configs if c.group == "reference"}
    rows = []
    for c in configs:
        if c.group != "restricted":
            continue
        ref = reference[c.rules.players, c.rules.teams, _fact(c, "player")]
        team = _fact(c, "restricted_team")
        a, b = results.complete(c), results.complete(ref)
        s = stats.shift(a.wins(), a.games, b.wins(), b.games, team=team, joint=results.joint(c, ref))
        rows.append(
            {
                "players": c.rules.players,
                "teams": c.rules.teams,
                "policies": _fact(c, "player"),
                "strength": strength(c.lineup),
                "change": _fact(c, "change"),
                "restricted_team": team,
                "games": a.games,
                "shift": s.estimate.value,
                "shift_low": s.estimate.low,
                "shift_high": s.estimate.high,
                "correlation": s.correlation,
                "p": s.p_value,
            }
        )
    return pd.DataFrame(rows)


def worths(seats: pd.DataFrame) -> pd.DataFrame:
    """Each restriction's worth at each table and for each player: its seats' shifts averaged, the interval
    the average of theirs (conservative: the sd of a mean is at most the mean of the sds), its p-value from
    that interval's standard error, and Holm's adjustment over the study."""
    keys = ["players", "teams", "policies", "strength", "change"]
    rows = []
    for key, part in seats.groupby(keys, sort=False):
        value = float(part["shift"].mean())
        low, high = float(part["shift_low"].mean()), float(part["shift_high"].mean())
        se = (high - low) / (2 * stats.Z)
        p = float(2 * sp.norm.sf(abs(value) / se)) if se > 0 else float("nan")
        rows.append(
            {
                **dict(zip(keys, key)),
                "games": int(part["games"].min()),
                "shift": value,
                "shift_low": low,
                "shift_high": high,
                "p": p,
            }
        )
    frame = pd.DataFrame(rows)
    if len(frame):
        frame["p_holm"] = stats.holm(frame["p"])
    return frame


def shifts_view(w: pd.DataFrame) -> pd.DataFrame:
    """The worths as the shared shift helpers read them (summary.what_changes, plots.shift_grid): `low`, `high`."""
    return w.rename(columns={"shift_low": "low", "shift_high": "high"})


def key_table(w: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "table": f"{r.players}p / {r.teams}t",
                "player": r.policies,
                "forgone": r.change,
                "games per seat": count(r.games),
                "worth, the restricted team's share [95% CI]": pp(r.shift, r.shift_low, r.shift_high, digits=2),
                "p (Holm)": format_p_value(r.p_holm),
            }
            for r in w.itertuples()
        ]
    )


JACKS = ("no one-eyed Jack", "no two-eyed Jack")
"""The restrictions that keep a card in the hand, measured against a card's place there (SHORT)."""


def card_words(w: pd.DataFrame) -> str:
    """What each card is worth and where: for each use forgone and each player, its smallest and largest
    shift over the tables (each with its interval and table), and for the Jacks the tables where the shift
    lies beyond a hand one card short's, the card's place in the hand."""
    lines = [
        "## What each card is worth and where\n",
        "Each figure is the shift of the restricted team's share of the decided games, forgoing a use of its "
        "cards against the same player unrestricted on the same deals, with its 95% interval; the key table "
        "below gives every table.\n",
    ]

    def one(r) -> str:
        return f"{pp(r['shift'], r['shift_low'], r['shift_high'], digits=2)} ({int(r['players'])}p/{int(r['teams'])}t)"

    for change in CHANGES:
        rows = w[w["change"] == change]
        parts = []
        for player, part in rows.groupby("policies", sort=False):
            ordered = part.sort_values("shift")
            parts.append(f"{player} from {one(ordered.iloc[0])} to {one(ordered.iloc[-1])}")
        line = f"- **{change}**: " + "; ".join(parts) + "."
        if change in JACKS:
            beyond = []
            for player, part in rows.groupby("policies", sort=False):
                short = w[(w["change"] == SHORT) & (w["policies"] == player)].set_index(["players", "teams"])
                tables = [
                    f"{int(r.players)}p/{int(r.teams)}t"
                    for r in part.itertuples()
                    if r.shift_high < short.loc[(r.players, r.teams), "shift_low"]
                ]
                beyond.append(
                    f"{player} at {len(tables)} of {len(part)} tables" + (f" ({', '.join(tables)})" if tables else "")
                )
            line += (
                " Beyond a card's place in the hand (below a hand one card short's interval): "
                + "; ".join(beyond)
                + "."
            )
        lines.append(line)
    lines.append(
        "\nA Jack never played takes a place in the hand from the turn it is drawn; a hand one card short all game "
        "is the most that place can cost. Where a Jack's shift lies beyond the one-card-short interval, the rest is "
        "the card's use; elsewhere the two cannot be told apart here.\n"
    )
    return "\n".join(lines)


def tables(study: Study, configs: list[Config], results: Results) -> Tables:
    summary = summary_frame(configs, results)
    seats = seat_shifts(configs, results)
    w = worths(seats)
    return Tables(
        summary,
        {"seats": seats, "worths": w},
        key=key_table(w),
        terminal=key_table(w)[["table", "player", "forgone", "worth, the restricted team's share [95% CI]"]],
        terminal_note="worth: the restricted team's share of the decided games minus the unrestricted "
        "player's at the same seats and deals, averaged over the seats, 95% CI",
        headline=card_words(w)
        + "\n"
        + what_changes(shifts_view(w), "the restricted team's share of the decided games, forgoing a use of its cards"),
        notes=[
            "Each seat's shift: the restricted team's share of the decided games minus the unrestricted "
            "reference's for that team, the same games of the study's seed (paired, delta method; seats.csv). A "
            "worth averages a table's seats: its interval is the average of the seats' (conservative), its "
            f"p-value from that interval; the {len(w)} worths are tested together (Holm).",
            "A restriction gives way only where it would leave the seat no legal move (kernels/players/greedy.py).",
        ],
    )


def figures(t: Tables) -> dict:
    return {
        "restricted.png": plots.shift_grid(
            shifts_view(t.extra["worths"]),
            "restricted team's share of decided games",
            "What each use of the cards is worth: the player forgoing it against itself, on the same deals",
        )
    }


KIND = StudyKind(
    "restricted",
    "What is each use of the cards worth?",
    "the player forgoing a use of its cards ("
    + "; ".join(name for name, _ in RESTRICTIONS)
    + ") or dealt one card short, against itself on the same deals, at each seat",
    plan,
    tables,
    figures,
    default_policies=("greedy", "swift"),
    varies=("hand_size", "players", "teams"),
    restricts=("players", "teams"),
    games=restricted_games,
    tables_text=every_table_text,
)
