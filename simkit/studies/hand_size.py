"""hand-size: what does a card more or less in hand change? A sweep, the table penalty, a compensation.

At every legal table (or those of --players and --teams), the sweep plays the common hand sizes asked for
(--sizes; default 3..9, those the deck can deal at the table) and the table's own hand, the
reference of every shift. The penalties (one seat, or a whole team, one card short) and the compensation
(every later team one card more) are played without --sizes, or when --with asks for them. Every change
is a shift of team 0's advantage from an even game, paired on the same deals: each swept size against the
table's own hand, each one-card step of the sweep (everyone one card fewer) against the size above it,
each penalty and the compensation against the table's own hand; the study's shifts are one Holm family.
"""

from __future__ import annotations

import itertools

import pandas as pd

from simkit.analysis import stats
from simkit.game.rules import HAND_SIZE, MAX_HAND_SIZE, Rules
from simkit.kernels.core.state import DECK_SIZE
from simkit.presentation import plots
from simkit.presentation.render import count, format_p_value, markdown_table, pct, pp
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
from simkit.studies.options import (
    DEFAULT_SIZES,  # its own option, --sizes (simkit.studies.options), sweeps them
    HAND_SIZE_PARTS,  # its own option, --with, plays them besides the sweep
    StudyError,
)
from simkit.studies.summary import ADVANTAGE_NOTE, summary_frame, unfold_cells, what_changes


def parts_of(study: Study) -> tuple[str, ...]:
    """What the study plays besides its sweep (HAND_SIZE_PARTS): those --with names; without --with, every
    part when --sizes is not given, none when it is (the sweep asked for, and the table's own hand)."""
    given = study.options.get("parts")
    if given is not None:
        return tuple(p for p in HAND_SIZE_PARTS if p in given)
    return HAND_SIZE_PARTS if study.options.get("sizes") is None else ()


def variants(
    study: Study, table: tuple[int, int] | None = None
) -> tuple[Rules, list[tuple[str, str, tuple[int, ...]]]]:
    """(the table's rules, [(group, label, hand size per seat)]) at `table` (players, teams; default the one of
    the study's rules): the sweep (with the table's own hand), then the penalties and the compensation that
    parts_of(study) plays. Without --sizes the sweep is DEFAULT_SIZES the deck can deal at the table; a size
    given that it cannot deal is refused."""
    rest = {k: v for k, v in study.base.items() if table is None or k not in ("players", "teams")}
    base = Rules.make(**rest) if table is None else Rules.make(*table, **rest)
    players, teams = base.players, base.teams
    parts = parts_of(study)
    given = study.options.get("sizes")
    sizes = sorted(set(DEFAULT_SIZES if given is None else given))
    if given is None:  # the default sweep: the sizes the deck can deal at this table
        sizes = [h for h in sizes if h <= MAX_HAND_SIZE and h * players <= DECK_SIZE]
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
    if "penalties" in parts:
        out.append(
            ("penalty", "seat 0 (moves first) one card short", tuple(short if s == 0 else normal for s in seats))
        )
        out.append(
            ("penalty", "seat 1 (moves second) one card short", tuple(short if s == 1 else normal for s in seats))
        )
        if players > teams:  # partners: a whole team short
            for t in range(teams):
                out.append(
                    (
                        "penalty",
                        f"team {t} one card short (every seat)",
                        tuple(short if s % teams == t else normal for s in seats),
                    )
                )
    if "compensation" in parts:
        out.append(
            (
                "compensation",
                "every later team one card more",
                tuple(normal if s % teams == 0 else normal + 1 for s in seats),
            )
        )
    return base, out


def plan(study: Study, results: Results) -> list[Config]:
    """Every row of variants() at every table the study plays (tables_of), for every line-up."""
    configs = []
    for table in tables_of(study):
        base, rows = variants(study, table)
        for group, label, sizes in rows:
            rules = base.replace(hand_size=sizes)
            for lineup, games in lineups_for(study, rules):
                configs.append(Config(rules, lineup, games, group, label))
    return configs


def _cards(k: int) -> str:
    return "one card" if k == 1 else f"{k} cards"


def _common(c: Config) -> int:
    """The hand size every seat of a configuration of the sweep holds."""
    return c.rules.hand_sizes[0]


def comparisons(configs: list[Config]) -> list[tuple[Config, Config, str, bool]]:
    """Every change the study measures, as (configuration, its reference, the change in words, whether it is a
    step of the sweep, against the size one card more rather than the table's own hand): each swept
    size against the table's own hand (same line-up), then each one-card step of the sweep not already
    among them (h cards each against h + 1), then each penalty and the compensation against the table's
    own hand."""
    sweep = {(*_at(c), _common(c)): c for c in configs if c.group == "sweep"}
    usual = {key[:3]: c for key, c in sweep.items() if key[3] == HAND_SIZE[c.rules.players]}
    out = []
    for c in configs:
        if c.group != "sweep" or _at(c) not in usual:
            continue
        h, normal = _common(c), HAND_SIZE[c.rules.players]
        if h != normal:
            side = "fewer" if h < normal else "more"
            out.append((c, usual[_at(c)], f"everyone {_cards(abs(h - normal))} {side} than usual", False))
    for c in configs:
        if c.group != "sweep":
            continue
        h = _common(c)
        above = sweep.get((*_at(c), h + 1))
        if above is not None and h + 1 != HAND_SIZE[c.rules.players]:
            out.append((c, above, f"everyone one card fewer, {h + 1} to {h}", True))
    for c in configs:
        if c.group in ("penalty", "compensation") and _at(c) in usual:
            out.append((c, usual[_at(c)], c.label, False))
    return out


def _at(c: Config) -> tuple[int, int, str]:
    """A configuration's table and line-up: its changes are measured against the even game of the same."""
    return c.rules.players, c.rules.teams, c.lineup.spec


def shifts(configs: list[Config], results: Results) -> pd.DataFrame:
    """Every change of comparisons(configs) against its reference, an even game of the same line-up: the
    shift of team 0's share of the decided games, paired on the same deals where the pairs are correlated
    (simkit.analysis.stats.shift), with Holm's adjustment over all of them."""
    rows = []
    for c, e, label, step in comparisons(configs):
        a, b = results.complete(c), results.complete(e)
        paired = c.games == e.games
        s = stats.shift(a.wins(), a.games, b.wins(), b.games, joint=results.joint(c, e) if paired else None)
        rows.append(
            {
                "study_group": c.group,
                "label": label,
                "players": c.rules.players,
                "teams": c.rules.teams,
                "policies": c.lineup.spec,
                "strength": strength(c.lineup),
                "hand_size": c.rules.hand_size_text,
                "reference_hand_size": e.rules.hand_size_text,
                "step": step,
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
                **unfold_cells(r),
            }
        )
    return pd.DataFrame(rows)


def compact_hands(hands: str) -> str:
    """Each seat's cards in a few columns: '3,3,2,3,3,2,3,3,2,3,3,2' as '(3,3,2)x4' (a pattern repeated),
    '2,3,3,3,3,3,3,3,3,3,3,3' as '2,3x11' (runs), whichever is shortest; a single size unchanged."""
    seats = hands.split(",")
    forms = [hands]
    for period in range(2, len(seats) // 2 + 1):
        if len(seats) % period == 0 and seats == seats[:period] * (len(seats) // period):
            forms.append(f"({','.join(seats[:period])})x{len(seats) // period}")
            break
    runs = [(seat, len(list(same))) for seat, same in itertools.groupby(seats)]
    forms.append(",".join(f"{seat}x{n}" if n > 1 else seat for seat, n in runs))
    return min(forms, key=len)


def terminal_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The key table within TERMINAL_WIDTH columns: each seat's cards (compact_hands), team 0's edge, the
    test, the length."""
    return pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "cards": compact_hands(str(r.hand_size)),
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
                _change(r, s),
                r.hand_size,
                r.policies,
                pp(r.advantage, digits=2),
                f"{pp(r.even_advantage, digits=2)} ({r.reference_hand_size})",
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
        "share) with each change, against the same line-up in an even game (every seat the same hand, its "
        "size in brackets): the table's own hand size for each swept size, each penalty and the "
        "compensation; the size one card more for each one-card step of the sweep. Each shift is an "
        "estimate with its 95% interval. " + said + f"The {len(s)} shifts are tested together (Holm).\n\n" + table
    )


def shifts_terminal_table(s: pd.DataFrame) -> pd.DataFrame:
    """The shifts within TERMINAL_WIDTH columns: each change, its hand sizes and its even game's, the line-up, the
    shift, the test."""
    return pd.DataFrame(
        [
            {
                "change": _change(r, s),
                "cards": str(r.hand_size),
                "vs": str(r.reference_hand_size),
                "line-up": r.policies,
                "shift": pp(r.shift, r.shift_low, r.shift_high, digits=2),
                "p (Holm)": format_p_value(r.p_holm),
            }
            for r in s.itertuples()
        ]
    )


def _change(r, s: pd.DataFrame) -> str:
    """A shift's change in words, its table first when the study has several ('4p/2t: seat 0 ...')."""
    several = s[["players", "teams"]].drop_duplicates().shape[0] > 1
    return f"{r.players}p/{r.teams}t: {r.label}" if several else r.label


def headline_frame(s: pd.DataFrame) -> pd.DataFrame:
    """The shifts from the table's own hand (not the one-card steps of the sweep) as summary.what_changes and
    plots.shift_grid read them; a swept size's change names the size ('3 cards each, not the usual')."""
    usual = s[~s["step"].astype(bool)]
    change = [
        f"{r.hand_size} cards each, not the usual" if r.study_group == "sweep" else r.label for r in usual.itertuples()
    ]
    size = [int(r.hand_size) if r.study_group == "sweep" else 100 for r in usual.itertuples()]  # the sweep first
    frame = usual.assign(change=change, order=size).sort_values("order", kind="stable")
    return frame.drop(columns="order").rename(columns={"shift_low": "low", "shift_high": "high"})


def headline(s: pd.DataFrame) -> str:
    """What changes and where (summary.what_changes) from the study's shifts, `s` (shifts.csv's rows)."""
    if not len(s):
        return ""
    return what_changes(
        headline_frame(s),
        "team 0's advantage (its share of the decided games minus 1/teams) from the table's own hand, paired on "
        "the same deals where that narrows it",
        family=len(s),
    )


def parts_note(study: Study, configs: list[Config]) -> list[str]:
    """How to play the parts besides the sweep that the study has not played (none when it played them all)."""
    played = {c.group for c in configs}
    missing = [part for part, group in zip(HAND_SIZE_PARTS, ("penalty", "compensation")) if group not in played]
    if not missing:
        return []
    words = {
        "penalties": "the penalties (seat 0, seat 1 or a whole team one card short)",
        "compensation": "the compensation (every later team one card more)",
    }
    flags = " ".join(f"--with {part}" for part in missing)
    return [
        f"Not played: {' and '.join(words[part] for part in missing)}. The same command with `{flags}` plays "
        f"{'them' if len(missing) > 1 else 'it'} into this study's folder (the games on disk are kept); without "
        "`--sizes` the study plays every part."
    ]


def tables(study: Study, configs: list[Config], results: Results) -> Tables:
    summary = summary_frame(configs, results)
    s = shifts(configs, results)
    return Tables(
        summary,
        {"shifts": s},
        key=key_table(summary),
        terminal=terminal_table(summary),
        terminal_note=(
            "cards: each seat's hand, seat 0 first (one number: every seat's; (3,3,2)x4: that pattern four "
            f"times; 2,3x11: 2, then 3 eleven times); {ADVANTAGE_NOTE}; turns: the mean, all seats"
            + (
                "; shift (below): team 0's advantage with the change minus its advantage in the even game of "
                "the cards under 'vs', an estimate with its 95% CI, Holm over the study's shifts"
                if len(s)
                else ""
            )
        ),
        terminal_more={"shifts from the even game": shifts_terminal_table(s)} if len(s) else {},
        sections=[shifts_section(s)],
        headline=headline(s),
        notes=[
            "`advantage` is team 0's share of the decided games minus its fair share 1/teams; the p-values of the "
            f"{len(summary)} configurations' advantages are adjusted together by Holm's method, and so are those of "
            "the shifts.",
            *parts_note(study, configs),
        ],
    )


def figures(t: Tables) -> dict:
    out = {"hand_size.png": plots.hand_size(t.summary)}
    s = t.extra.get("shifts", pd.DataFrame())
    if len(s):  # the changes from the table's own hand (the one-card steps of the sweep are in the tables)
        usual = s[~s["step"].astype(bool)]
        if usual[["players", "teams"]].drop_duplicates().shape[0] == 1:
            out["hand_size_shifts.png"] = plots.shifts(usual, plots.tables_text(t.summary))
        out["hand_size_tables.png"] = plots.shift_grid(
            headline_frame(s),
            "shift of team 0's advantage, decided games",
            "A card more or less in hand: the shift from the table's own hand",
        )
    return out


KIND = StudyKind(
    "hand-size",
    "What does a card more or less in hand change?",
    "a sweep of the common hand size, the table penalty, a compensation",
    plan,
    tables,
    figures,
    default_policies=SHIFT_POLICIES,
    varies=("hand_size", "players", "teams"),
    restricts=("players", "teams"),
    games=shift_games,
    tables_text=every_table_text,
)
