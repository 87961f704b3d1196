"""confirmation: the rules card's verdicts, decided by a protocol declared before its games.

The compensation study *proposes* a rule per table and strength: its searches
look at the data many times (refinements, further looks, a family switched
after a failure). This study *decides*. Its protocol, ``protocol.toml`` in the
study directory, is written by ``simkit confirm DIR --plan`` from the
published rules card and committed before any of its games are played; the
git history shows the order. It fixes:

- the rules to confirm, one per (table, strength), and the line-up of each
  strength (casual: greedy, strong: swift);
- a seed no published study or run used (``simkit confirm`` refuses a used
  one, read from every study.json, verdicts table and run report in results/);
- the games of each verdict, from a power calculation at the estimates of
  the data published before it (below);
- the margins (MARGIN, GAP_MARGIN), the family-wise error level and the
  decision rule.

Two formats of protocol are read; each study keeps the one it was played by.

``simkit.protocol/2`` (FORMAT, planned now): the family is the 20 rules. A
rule's hypothesis is that team 0's advantage lies within ±MARGIN and, at a
three-team table, that every pairwise gap between two teams' shares lies
within ±GAP_MARGIN: an intersection-union test, whose p-value is the largest
of its parts' (two one-sided normal tests each). Holm's step-down over the
rules' p-values holds the family-wise error at FAMILY_ERROR: one confirmation's,
as a later confirmation of the same rules adds its own (the summary counts the
earlier ones it was planned from: at most the sum over the attempts). The games of a
rule give it a chance of at least ALL_PASS ** (1 / rules) to pass at
Bonferroni's level (Holm passes whatever Bonferroni passes), under the
shares pooled from the compensation search and the previous confirmation,
with the decided share those measured; so all rules pass together with a
chance of at least ALL_PASS when the estimates are the truth (the protocol
writes the computed chance). Its intervals are the 1 - 2 FAMILY_ERROR / rules
intervals of Holm's first step.

``simkit.protocol/1`` (FORMAT_1, results/confirmation): the family is every
hypothesis (advantages and gap sets), Bonferroni over them, each planned at
POWER_1 at the compensation study's estimate with DECIDED_1 of games decided.

One look, no extension: the games are the protocol's, and a verdict is
final. A rule that fails stays failed; a later protocol with new seeds may
try again, and both stay published.

Beside the verdicts the protocol declares informative estimates, not part of
the family: every table's casual and strong rule under random, greedy and
swift, the strong rule under the lookahead, each table without a rule under
swift (the strong baseline), and how often each late card arrives (``bite``).

The protocol itself, its tests, power calculation and file, is
``simkit.studies.confirmation_protocol``; this module is the study that
plays it and writes its verdicts, estimates and bite.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pandas as pd

from simkit.analysis import stats
from simkit.game.options import flags_text
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.presentation import compensation_plots
from simkit.presentation.render import count, markdown_table, pct, pp
from simkit.studies.confirmation_protocol import (
    ASSURANCE_DRAWS,
    FAMILY_ERROR,
    FORMAT_1,
    MARGIN,
    NO_RULE,
    PROTOCOL_FILE,
    Entry,
    assurance,
    decide,
    entries,
    holm_levels,
    joint_coverage,
    rule_tests,
)
from simkit.studies.kind import Config, Results, Study, StudyKind, Tables
from simkit.studies.summary import summary_frame

# --- the study ------------------------------------------------------------------------------


def study_of(protocol: dict) -> Study:
    """The study that plays `protocol`: its identity is the protocol's digest, so a protocol edited after
    its games were played is refused."""
    digest = hashlib.sha256(repr(sorted(protocol.items())).encode()).hexdigest()[:16]
    lineups: dict[str, int] = {}
    for e in entries(protocol):
        lineups[e.lineup] = max(lineups.get(e.lineup, 0), e.games)
    seed = int(protocol["verdict"][0]["seed"]) if protocol["verdict"] else 0
    return Study(KIND, {"protocol": digest, "_protocol": protocol}, lineups, seed)


def _config(e: Entry) -> Config:
    rules = e.rules()
    group = "verdict" if e.verdict else "estimate"
    facts = (("rule_of", e.rule_of), ("rule", flags_text(e.options)))
    return Config(rules, Lineup.parse(e.lineup, rules), e.games, group, e.label(), e.seed, facts)


def plan_configs(study: Study, results: Results) -> list[Config]:
    return [_config(e) for e in entries(study.options["_protocol"])]


def bite(rules: Rules, length: np.ndarray) -> tuple[float, float, float] | None:
    """How often a late card arrives: (share of games in which the first short seat's card arrives, the
    same for the last card to arrive, the median game length in the first player's own turns).
    None when no seat is dealt short. length: the histogram of game lengths in turns (Aggregate.length)."""

    late = [(seat, k) for seat, k in enumerate(rules.late_turns) if k > 0]
    if not late:
        return None
    games = length.sum()
    turns = np.arange(len(length))

    def arrives(seat: int, k: int) -> float:  # drawn at the end of game turn (k-1) * players + seat + 1, if it goes on
        return float(length[turns > (k - 1) * rules.players + seat + 1].sum() / games)

    shares = sorted(arrives(s, k) for s, k in late)
    own = np.ceil(turns / rules.players)  # the first player's own turns in a game of t turns
    cum = np.cumsum(length)
    median_own = float(own[np.searchsorted(cum, games / 2)])
    return shares[-1], shares[0], median_own


def verdict_rows(configs: list[Config], results: Results, protocol: dict) -> pd.DataFrame:
    """One row per verdict: its games, the protocol's tests and decisions on them (``decide``), its 95%
    interval and the power it was planned at."""
    holm = protocol["format"] != FORMAT_1
    played = [c for c in configs if c.group == "verdict"]
    wins = [results.complete(c).wins()[: c.rules.teams] for c in played]
    rows = []
    for c, record, w, tested in zip(played, protocol["verdict"], wins, decide(wins, protocol)):
        planned = record["power"]
        row = {
            "players": c.rules.players,
            "teams": c.rules.teams,
            "strength": dict(c.facts)["rule_of"],
            "lineup": c.lineup.spec,
            "rule": dict(c.facts)["rule"],
            "games": results.complete(c).games,
            "decided": int(np.sum(w)),
            "seed": c.seed,
            "margin": record["margin"],
            **{k: tested[k] for k in ("advantage", "advantage_low", "advantage_high", "p_advantage")},
            "advantage_passes": bool(tested["advantage_passes"]),
            "power_planned": planned if holm else planned["advantage"],
        }
        ci = stats.advantage(w)
        row.update({"advantage_95_low": ci.low, "advantage_95_high": ci.high})
        if c.rules.teams == 3:
            row.update(
                {
                    "gap_margin": record["gap_margin"],
                    **{k: tested[k] for k in ("max_gap", "gap_low", "gap_reach", "p_gap")},
                    "gap_passes": bool(tested["gap_passes"]),
                    **({} if holm else {"gap_power_planned": planned["gap"]}),
                }
            )
        row["p_rule"] = float(tested["p_rule"])
        if holm:
            row["p_holm"] = float(tested["p_holm"])
        row["fair"] = bool(tested["fair"])
        row["level"] = float(protocol["level"])
        rows.append(row)
    frame = pd.DataFrame(rows)
    if not holm:  # format 1's table, as it was published
        frame = frame.drop(columns=["decided", "gap_low", "p_rule"], errors="ignore")
    return frame


def estimate_rows(configs: list[Config], results: Results) -> pd.DataFrame:
    rows = []
    for c in configs:
        agg = results.complete(c)
        wins = agg.wins()[: c.rules.teams]
        adv = stats.advantage(wins)
        gap = stats.max_gap(wins)
        facts = dict(c.facts)
        strong = MARGIN["strong"]
        rows.append(
            {
                "players": c.rules.players,
                "teams": c.rules.teams,
                "rule_of": facts["rule_of"],
                "rule": facts["rule"],
                "lineup": c.lineup.spec,
                "games": agg.games,
                "seed": c.seed,
                "verdict": c.group == "verdict",
                "advantage": adv.value,
                "advantage_low": adv.low,
                "advantage_high": adv.high,
                "max_gap": gap.value if c.rules.teams == 3 else math.nan,
                "max_gap_low": gap.low if c.rules.teams == 3 else math.nan,
                "max_gap_high": gap.high if c.rules.teams == 3 else math.nan,
                "inside_strong_band": bool(-strong < adv.low and adv.high < strong),
            }
        )
    return pd.DataFrame(rows)


def bite_rows(configs: list[Config], results: Results) -> pd.DataFrame:
    rows = []
    for c in configs:
        b = bite(c.rules, results.complete(c).length)
        if b is None:
            continue
        facts = dict(c.facts)
        rows.append(
            {
                "players": c.rules.players,
                "teams": c.rules.teams,
                "rule_of": facts["rule_of"],
                "rule": facts["rule"],
                "lineup": c.lineup.spec,
                "games": results.complete(c).games,
                "first_card_arrives": b[0],
                "last_card_arrives": b[1],
                "median_own_turns": b[2],
            }
        )
    return pd.DataFrame(rows)


def tables(study: Study, configs: list[Config], results: Results) -> Tables:

    protocol = study.options["_protocol"]
    verdicts = verdict_rows(configs, results, protocol)
    estimates = estimate_rows(configs, results)
    bites = bite_rows(configs, results)
    summary = summary_frame(configs, results)
    level = float(protocol["level"])
    width = f"{100 * (1 - 2 * level):.2f}%"
    if protocol["format"] != FORMAT_1 and len(verdicts):
        verdicts["stalemate_rate"] = summary[summary.study_group == "verdict"].stalemate_rate.to_numpy()
    wins = [results.complete(c).wins()[: c.rules.teams] for c in configs if c.group == "verdict"]
    key = _key_1(verdicts, width) if protocol["format"] == FORMAT_1 else _key(verdicts, width, protocol)
    matrix = pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "rule of": f"{r.rule_of} ({r.rule})" if r.rule_of != NO_RULE else "no rule",
                "played by": r.lineup,
                "games": count(r.games),
                "advantage [95% CI]": pp(r.advantage, r.advantage_low, r.advantage_high, digits=2),
                "largest gap [95% CI]": pp(r.max_gap, r.max_gap_low, r.max_gap_high, digits=2) if r.teams == 3 else "—",
            }
            for r in estimates.itertuples()
        ]
    )
    bite_table = pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "rule": f"{r.rule_of}: {r.rule}",
                "played by": r.lineup,
                "first card arrives": pct(r.first_card_arrives),
                "last card arrives": pct(r.last_card_arrives),
                "median game, first player's own turns": f"{r.median_own_turns:.0f}",
            }
            for r in bites.itertuples()
        ]
    )

    sections = [
        _family_text(protocol, verdicts, width, wins),
        "## Every strength on every rule (estimates, not part of the family)\n",
        markdown_table(list(matrix.columns), matrix.astype(str).itertuples(index=False)) if len(matrix) else "",
        "## The late card's bite\n",
        "How often the compensating card arrives before the game ends, per rule and line-up: for the first "
        "short seat to get it and for the last; and the median game's length in the first player's own "
        "turns.\n",
        markdown_table(list(bite_table.columns), bite_table.astype(str).itertuples(index=False))
        if len(bite_table)
        else "",
    ]
    notes = [
        f"The protocol (`{PROTOCOL_FILE}`) was committed before these games; its verdicts are final.",
        "`advantage` is team 0's share of the decided games minus its fair share; the gaps are the "
        "differences of two teams' shares; their tests are normal (multinomial variances).",
    ]
    return Tables(
        summary,
        extra={"verdicts": verdicts, "estimates": estimates, "bite": bites},
        key=key,
        sections=sections,
        notes=notes,
    )


def _key_1(verdicts: pd.DataFrame, width: str) -> pd.DataFrame:
    """Format 1's key table, as it was published."""
    return pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "strength": f"{r.strength} ({r.lineup})",
                "rule": r.rule,
                "games": count(r.games),
                f"advantage [{width} CI]": pp(r.advantage, r.advantage_low, r.advantage_high, digits=2),
                "largest gap, widest bound": (
                    f"{100 * r.max_gap:.2f} pp, up to {100 * r.gap_reach:.2f}" if r.teams == 3 else "—"
                ),
                "margin": f"±{100 * r.margin:g} pp" + (f"; gaps ±{100 * r.gap_margin:g} pp" if r.teams == 3 else ""),
                "fair": "yes" if r.fair else "no",
            }
            for r in verdicts.itertuples()
        ]
    )


def later_steps(protocol: dict, verdicts: pd.DataFrame) -> list[tuple[int, int, float]]:
    """The rules Holm passed at a later step than the intervals' (its first) while a first-step interval of
    theirs reaches past its margin: (row of `verdicts`, Holm's step, the level of that step's one-sided
    tests). Their intervals at that level lie within the margins (``_family_text`` gives them)."""
    if not len(verdicts) or "p_rule" not in verdicts:
        return []
    levels = holm_levels(verdicts.p_rule, float(protocol["family_error"]))
    out = []
    for i, (r, level) in enumerate(zip(verdicts.itertuples(), levels)):
        past = r.advantage_low < -r.margin or r.advantage_high > r.margin
        past = past or (r.teams == 3 and r.gap_reach > r.gap_margin)
        if r.fair and past:
            out.append((i, int(np.sum(levels <= level)), float(level)))
    return out


def _key(verdicts: pd.DataFrame, width: str, protocol: dict) -> pd.DataFrame:
    """The key table: each verdict's games, decided share, stalemates (three teams), advantage and largest
    gap with their intervals, margin, planned power, Holm's p and verdict; † marks a rule Holm passed at a
    later step with a first-step interval past its margin (``later_steps``; the text gives its intervals at
    that step)."""
    marked = {i for i, _, _ in later_steps(protocol, verdicts)}
    rows = []
    for i, r in enumerate(verdicts.itertuples()):
        three = r.teams == 3
        rows.append(
            {
                "table": f"{r.players}p/{r.teams}t",
                "strength": f"{r.strength} ({r.lineup})",
                "rule": r.rule,
                "games": count(r.games),
                "decided": pct(r.decided / r.games),
                "stalemates": pct(r.stalemate_rate) if three else "—",
                f"advantage [{width} CI]": pp(r.advantage, r.advantage_low, r.advantage_high, digits=2),
                "largest gap [CI]": pp(r.max_gap, r.gap_low, r.gap_reach, digits=2) if three else "—",
                "margin": f"±{100 * r.margin:g} pp" + (f"; gaps ±{100 * r.gap_margin:g} pp" if three else ""),
                "power planned": pct(r.power_planned),
                "p (Holm)": f"{r.p_holm:.2g}",
                "fair": ("yes †" if i in marked else "yes") if r.fair else "not shown",
            }
        )
    return pd.DataFrame(rows)


def _family_text(protocol: dict, verdicts: pd.DataFrame, width: str, wins: list | None = None) -> str:
    """The sentences under the key table: how many rules pass; what the decisions hold, for this confirmation
    and over the earlier one of the same rules; the intervals, their levels and what holds together; the
    rules marked † with their intervals at Holm's level for them (from `wins`, each verdict's games won, in
    the protocol's order); the chance planned that all pass, and with the planning estimates' own error."""
    level = float(protocol["level"])
    fair_n = int(verdicts.fair.sum()) if len(verdicts) else 0
    if protocol["format"] == FORMAT_1:
        m = protocol["hypotheses"]
        return (
            f"{fair_n} of {len(verdicts)} rules pass. The family: {m} hypotheses (each table's advantage for "
            f"casual and strong play, and at three-team tables the pairwise gaps), family-wise error "
            f"{FAMILY_ERROR:.0%} by Bonferroni: each interval above is the {width} interval (two one-sided tests "
            f"at {level:.5f} each).\n"
        )
    error = float(protocol["family_error"])
    earlier = sorted(
        {src.split("/")[0] for v in protocol["verdict"] for src in v["planned_at"]["sources"]} - {"compensation"}
    )
    attempts = (
        f" The same rules were confirmed before ({', '.join(f'results/{e}' for e in earlier)}, still published), "
        f"so over {'both' if len(earlier) == 1 else f'the {1 + len(earlier)}'} attempts that chance is at most "
        f"{(1 + len(earlier)) * error:.0%} "
        f"({error:.0%} each, Bonferroni over the attempts)."
        if earlier
        else ""
    )
    marked = []
    for i, step, at in later_steps(protocol, verdicts):
        r, v = verdicts.iloc[i], protocol["verdict"][i]
        where = f"{r.players}p/{r.teams}t {r.strength} ({r.rule})"
        if wins is None:
            marked.append(f"{where}, passed at Holm's {_ordinal(step)} step")
            continue
        t = rule_tests(wins[i], float(v["margin"]), float(v["gap_margin"]) if r.teams == 3 else None, at)
        gap = f", its largest gap {pp(t['max_gap'], t['gap_low'], t['gap_reach'], digits=2)}" if r.teams == 3 else ""
        marked.append(
            f"{where}, passed at Holm's {_ordinal(step)} step with its one-sided tests at {100 * at:.3g}%: at that "
            f"level ({100 * (1 - 2 * at):.3g}% intervals) team 0's advantage "
            f"{pp(t['advantage'], t['advantage_low'], t['advantage_high'], digits=2)}{gap}, within its margins"
        )
    later = (
        f" Holm tests the smallest p-value at {error:.0%}/{protocol['rules']} and each next at a little more, to "
        f"{error:.0%} for the largest; † marks a rule it passed at a later step whose {width} interval reaches "
        f"past its margin: {'; '.join(marked)}. These intervals each hold at their own level; the {width} "
        "intervals' joint chance above is theirs alone."
        if marked
        else ""
    )
    return (
        f"{fair_n} of {len(verdicts)} rules pass. The family: the {protocol['rules']} rules, each tested as "
        f"a whole (its advantage and, at three teams, its three pairwise gaps: an intersection-union test); "
        f"Holm's step-down over their p-values holds this confirmation's chance of calling any rule that is not "
        f"fair fair at {error:.0%}.{attempts} The intervals are Holm's first step: {width} for an "
        f"advantage (two one-sided tests at {level:.4f}), and for the largest gap the range the three pairs' "
        f"{width} intervals allow; together all {len(verdicts)} rows' intervals hold with at least "
        f"{joint_coverage(verdicts, level):.0%} chance (Bonferroni), each row's with at least "
        f"{1 - 8 * level:.0%}.{later} Planned: if the planning estimates are the truth, all "
        f"{protocol['rules']} rules pass with a chance of at least {float(protocol['all_pass']):.1%} (each rule's "
        f"power at Holm's first step; {assurance(protocol, spread=False):.1%} simulated with Holm's later steps); "
        f"allowing for those estimates' own sampling error (each rule's true shares drawn from the games they "
        f"were pooled from), {assurance(protocol):.1%} ({ASSURANCE_DRAWS:,} simulated confirmations each). "
        "Neither allows for the searches' choice of their nearest-fair setting, which leans the estimates toward "
        "fair, and neither is the chance for any fair rule: a rule whose edge sits near its margin passes far "
        "less often.\n"
    )


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def figures(t: Tables) -> dict:

    return {"confirmation.png": compensation_plots.confirmation(t.extra["verdicts"])}


KIND = StudyKind(
    "confirmation",
    "Are the rules card's rules fair, decided by a protocol declared before its games?",
    "the card's rules confirmed under a protocol committed before its games",
    plan_configs,
    tables,
    figures,
    default_policies=("greedy", "swift"),
    tables_text=lambda: "the tables of its protocol",
    inputs=(PROTOCOL_FILE,),
)
