"""hand-size: what does a card more or less in hand change? A sweep, the table penalty, a compensation."""

from __future__ import annotations

import pandas as pd

from simkit.analysis import stats
from simkit.game.rules import HAND_SIZE, MAX_HAND_SIZE, Rules
from simkit.kernels.core.state import DECK_SIZE
from simkit.presentation import plots
from simkit.presentation.render import count, format_p_value, markdown_table, pct, pp
from simkit.studies.kind import Config, Results, Study, StudyKind, Tables, lineups_for, one_table_text
from simkit.studies.options import (
    DEFAULT_SIZES,  # its own option, --sizes (simkit.studies.options), sweeps them
    StudyError,
)
from simkit.studies.summary import ADVANTAGE_NOTE, summary_frame


def variants(study: Study) -> tuple[Rules, list[tuple[str, str, tuple[int, ...]]]]:
    """(the table's rules, [(group, label, hand size per seat)]): the sweep, then the penalties, the compensation."""
    base = Rules.make(**study.base)
    players, teams = base.players, base.teams
    given = study.options.get("sizes")
    sizes = sorted(set(DEFAULT_SIZES if given is None else given))
    if not sizes:
        raise StudyError("the hand-size sweep is empty; give sizes such as 3..9")
    for h in sizes:
        if not 1 <= h <= MAX_HAND_SIZE or h * players > DECK_SIZE:
            raise StudyError(
                f"hand size {h} cannot be dealt to {players} players: each size must be "
                f"1..{MAX_HAND_SIZE} and players x size <= {DECK_SIZE}"
            )
    normal = HAND_SIZE[players]
    seats = range(players)
    out = [("sweep", f"{h} cards each", (h,) * players) for h in sizes]
    if normal not in sizes:
        out.append(("sweep", f"{normal} cards each", (normal,) * players))
    short = normal - 1
    out.append(("penalty", "seat 0 (moves first) one card short", tuple(short if s == 0 else normal for s in seats)))
    out.append(("penalty", "seat 1 (moves second) one card short", tuple(short if s == 1 else normal for s in seats)))
    if players > teams:  # partners: a whole team short
        for t in range(teams):
            out.append(
                (
                    "penalty",
                    f"team {t} one card short (every seat)",
                    tuple(short if s % teams == t else normal for s in seats),
                )
            )
    out.append(
        (
            "compensation",
            "every later team one card more",
            tuple(normal if s % teams == 0 else normal + 1 for s in seats),
        )
    )
    return base, out


def plan(study: Study, results: Results) -> list[Config]:
    base, rows = variants(study)
    configs = []
    for group, label, sizes in rows:
        rules = base.replace(hand_size=sizes)
        for lineup, games in lineups_for(study, rules):
            configs.append(Config(rules, lineup, games, group, label))
    return configs


def shifts(configs: list[Config], results: Results) -> pd.DataFrame:
    """Each penalty and compensation against the even game (the table's own hand size, same line-up):
    the shift of team 0's share of the decided games, paired on the same deals, with Holm's adjustment."""
    even = {c.lineup.spec: c for c in configs if c.group == "sweep" and c.rules.hand_size == HAND_SIZE[c.rules.players]}
    rows = []
    for c in configs:
        if c.group not in ("penalty", "compensation"):
            continue
        e = even[c.lineup.spec]
        a, b = results.complete(c), results.complete(e)
        paired = c.games == e.games
        s = stats.shift(a.wins(), a.games, b.wins(), b.games, joint=results.joint(c, e) if paired else None)
        rows.append(
            {
                "study_group": c.group,
                "label": c.label,
                "policies": c.lineup.spec,
                "hand_size": c.rules.hand_size_text,
                "games": a.games,
                "even_games": b.games,
                "advantage": stats.advantage(a.wins()).value,
                "even_advantage": stats.advantage(b.wins()).value,
                "shift": s.estimate.value,
                "shift_low": s.estimate.low,
                "shift_high": s.estimate.high,
                "unpaired_low": s.unpaired.low,
                "unpaired_high": s.unpaired.high,
                "paired": s.paired,
                "correlation": s.correlation,
                "narrower": s.narrower,
                "p_value": s.p_value,
                "fair_share": 1 / c.rules.teams,
            }
        )
    frame = pd.DataFrame(rows)
    if len(frame):
        frame["p_holm"] = stats.holm(frame["p_value"])
    return frame


def key_table(summary: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for r in summary.itertuples():
        rows.append(
            {
                "table": f"{r.players}p / {r.teams}t",
                "hand sizes": f"{r.label} ({r.hand_size})",
                "line-up": r.policies,
                "games": count(r.games),
                "team 0 wins, all games [95% CI]": pct(r.win_rate_0, r.win_rate_0_low, r.win_rate_0_high),
                "advantage, decided games [95% CI]": pp(r.advantage, r.advantage_low, r.advantage_high, digits=2),
                "p (Holm)": format_p_value(r.p_holm),
                "stalemates": pct(r.stalemate_rate, digits=2),
                "mean turns, all seats [95% CI]": f"{r.duration:.1f} [{r.duration_low:.1f}, {r.duration_high:.1f}]",
            }
        )
    return pd.DataFrame(rows)


def terminal_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The key table within TERMINAL_WIDTH columns: each seat's cards, team 0's edge, the test, the length."""
    return pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "cards": str(r.hand_size),
                "line-up": r.policies,
                "games": count(r.games),
                "advantage": pp(r.advantage, r.advantage_low, r.advantage_high),
                "p (Holm)": format_p_value(r.p_holm),
                "turns": f"{r.duration:.1f}",
            }
            for r in summary.itertuples()
        ]
    )


def pairing_sentence(
    s: pd.DataFrame, correlation: str = "correlation", paired: str = "paired", narrower: str = "narrower"
) -> str:
    """What pairing the games bought: the correlations, the interval used, how much narrower."""
    corr = s[correlation]
    head = (
        f"Every configuration plays the same game indices of the study's seed, so each change and its "
        f"reference start from the same shuffled deck, and each shift is first estimated from the per-game "
        f"pairs (delta method). The pairs' correlation was {corr.min():.2f} to {corr.max():.2f}. "
    )
    used = s[s[paired]]
    if len(used) == len(s):
        return head + (
            f"The paired intervals, used, are {_width_change(used[narrower].min())} to "
            f"{_width_change(used[narrower].max())} than the unpaired ones (shown beside them). "
        )
    if not len(used):
        return head + (
            "A different hand size deals different cards from the first round on, so the pairing bought "
            f"nothing here: every correlation is within +-{stats.PAIRING_GAIN}, and the unpaired intervals "
            "are used. "
        )
    return head + (
        f"Where the correlation is beyond +-{stats.PAIRING_GAIN} ({len(used)} of {len(s)} shifts) the "
        "paired interval is used (narrower where the correlation is positive, wider where it is "
        "negative), elsewhere the unpaired one (column paired in shifts.csv). "
    )


def _width_change(narrower: float) -> str:
    """'12% narrower' or '7% wider' from the relative narrowing of an interval."""
    return f"{100 * narrower:.0f}% narrower" if narrower >= 0 else f"{-100 * narrower:.0f}% wider"


def shifts_section(s: pd.DataFrame) -> str:
    """summary.md's shifts: each change's shift with the paired and the unpaired intervals."""
    if not len(s):
        return ""
    table = markdown_table(
        [
            "change",
            "hand sizes",
            "line-up",
            "advantage",
            "even game",
            "shift [95% CI]",
            "unpaired 95% CI",
            "correlation",
            "p (Holm)",
            "games",
        ],
        [
            (
                r.label,
                r.hand_size,
                r.policies,
                pp(r.advantage, digits=2),
                pp(r.even_advantage, digits=2),
                pp(r.shift, r.shift_low, r.shift_high, digits=2) + ("" if r.paired else " (unpaired)"),
                f"[{100 * r.unpaired_low:+.2f}, {100 * r.unpaired_high:+.2f}]",
                f"{r.correlation:.2f}",
                format_p_value(r.p_holm),
                f"{r.games:,} vs {r.even_games:,}",
            )
            for r in s.itertuples()
        ],
    )
    said = pairing_sentence(s)
    return (
        "## Shifts from the even game\n\nTeam 0's advantage (its share of the decided games minus its fair "
        "share) with each change, against the same line-up at the table's own hand size. "
        + said
        + f"The {len(s)} shifts are tested together (Holm).\n\n"
        + table
    )


def tables(study: Study, configs: list[Config], results: Results) -> Tables:
    summary = summary_frame(configs, results)
    s = shifts(configs, results)
    return Tables(
        summary,
        {"shifts": s},
        key=key_table(summary),
        terminal=terminal_table(summary),
        terminal_note=(
            f"cards: each seat's hand, seat 0 first (one number: every seat's); {ADVANTAGE_NOTE}; turns: the mean, "
            "all seats; the shifts from the even game are in summary.md"
        ),
        sections=[shifts_section(s)],
        notes=[
            "`advantage` is team 0's share of the decided games minus its fair share 1/teams; the p-values of the "
            f"{len(summary)} configurations' advantages are adjusted together by Holm's method, and so are those of "
            "the shifts."
        ],
    )


def figures(t: Tables) -> dict:

    out = {"hand_size.png": plots.hand_size(t.summary)}
    if len(t.extra.get("shifts", [])):
        out["hand_size_shifts.png"] = plots.shifts(t.extra["shifts"], plots.tables_text(t.summary))
    return out


KIND = StudyKind(
    "hand-size",
    "What does a card more or less in hand change?",
    "a sweep of the common hand size, the table penalty, a compensation",
    plan,
    tables,
    figures,
    varies=("hand_size",),
    tables_text=one_table_text,
)
