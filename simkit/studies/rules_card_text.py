"""The fair-Sequence rules card in words: its markdown (results/fair-sequence-card.md), each table's row
with the rule in plain words, the edge it leaves and the edge without it (simkit.studies.rules_card
makes the card from the studies; simkit.studies.rules_card_page lays it out on a page).

    text = markdown(make_card(Path("results")))
"""

from __future__ import annotations

from simkit.studies.compensation_search import FAIR_BAND, GAP_TARGET
from simkit.studies.rule_words import rule_words, seats_dealt
from simkit.studies.rules_card import LINEUPS, NOT_MEASURED, Card, Edge, Family, Row


def cells(row: Row, column: str) -> tuple[str, str, str]:
    """(the rule in words, the edge it leaves, the option as simkit says it) of one column of a row."""
    rule = row.rules[column]
    if rule is None:
        return NOT_MEASURED, "", ""
    words = rule_words(rule.rules)
    if not rule.fair:
        words = f"Not shown fair; the rule tried: {words[0].lower()}{words[1:]}"
    if rule.stalemates is not None:
        words += f" Stalemates: {100 * rule.stalemates:.0f}% of games."
    without = row.without[column]
    if without is not None and without.advantage[1] <= 0 <= without.advantage[2]:
        words += " No edge is shown here without a rule."
    if rule.arrives is not None and rule.arrives < 0.5:
        late = sum(1 for _, turn in seats_dealt(rule.rules) if turn)
        which = "That card comes" if late == 1 else "The last of these cards comes"
        words += (
            f" {which} before the game ends in only {100 * rule.arrives:.0f}% of games; leaving it out "
            "altogether is a different rule."
        )
    edge = rule.edge.text() + (f"; {rule.step.text()}" if rule.step is not None else "")
    return words, edge, rule.code


def intro(card: Card) -> list[str]:
    """The card's opening paragraphs: the edge without a rule, how the rules were decided, what fair means."""
    casual, strong = (100 * FAIR_BAND[k] for k in ("casual", "strong"))
    gaps = tuple(100 * GAP_TARGET[k] for k in ("casual", "strong"))
    edge = {c: [e for e in (row.without[c] for row in card.rows) if e] for c in LINEUPS}
    low = {c: min(edge[c], key=lambda e: e.advantage[0]) for c in LINEUPS if edge[c]}
    high = {c: max(edge[c], key=lambda e: e.advantage[0]) for c in LINEUPS if edge[c]}
    without = "; ".join(
        f"with {LINEUPS[c]} players ({_count_games(edge[c])} a table) {low[c].without()} to {high[c].without()}"
        for c in LINEUPS
        if edge[c]
    )
    first = (
        f"Moving first is an edge: without a rule, the first team wins more than its fair share of the "
        f"decided games, in percentage points (pp; 95% intervals): {without}. The first team is the team of "
        "the player who moves first, the second team moves next. A player a rule does not name is dealt the "
        "table's usual hand. Each player counts their own turns from 1."
    )
    what = (
        f"Casual play: simkit's {LINEUPS['casual']} player on every seat; strong play: its {LINEUPS['strong']} "
        "player. The edge left: the first team's share of the decided games minus its fair share (1/2 or 1/3), "
        "in pp"
    )
    fair = (
        f"within ±{casual:g} pp (casual) or ±{strong:g} pp (strong), and with three teams every gap between "
        f"two teams' shares within ±{gaps[0]:g} pp (±{gaps[1]:g} pp)"
    )
    f = card.family
    if f is None:
        return [
            first,
            what + f", with its 95% interval. Fair: that interval lies {fair}. Each rule was found by "
            "simkit's compensation study and confirmed on games its search never saw.",
        ]
    attempts = _attempts(f)
    if f.correction == "bonferroni":
        return [
            first,
            what + f", with its {f.width} interval. Each rule was proposed by simkit's compensation "
            f"study and decided by a confirmation declared and committed before its games: {f.hypotheses} "
            f"hypotheses (the edge at each table for casual and strong play, and at three-team tables the gaps "
            f"between teams) tested together at a family-wise error of {f.hypotheses * f.level:.0%} "
            f"(Bonferroni), the chance that any rule not fair is called fair.{attempts} The card's {f.width} "
            f"intervals of the edge left hold together with at least {f.joint:.0%} chance; the 95% intervals "
            f"of the edge without a rule each hold on its own. A rule is fair when its interval lies {fair}: "
            f"{f.passed} of the {f.rules} rules are.",
        ]
    later = [
        f"{row.players}p/{row.teams}t {column}"
        for row in card.rows
        for column, rule in row.rules.items()
        if rule is not None and rule.step is not None
    ]
    stepped = (
        f" {', '.join(later)} passed at a later Holm step, its {f.width} interval reaching past its margin: "
        "its cell adds that step's intervals, inside."
        if later
        else ""
    )
    return [
        first,
        what + f", with its {f.width} interval (Holm's first step; for the largest gap, the range its three "
        f"pairs' intervals allow). A rule is fair when Holm's step-down passes it in the confirmation "
        f"results/{f.folder} (declared and committed before its games): its edge {fair}. {f.passed} of the {f.rules} "
        "rules are.",
        f"How sure: that confirmation calls some rule fair that is not with a chance of at most "
        f"{f.error:.0%} (Holm).{attempts}{stepped} The {f.width} intervals hold together with at least "
        f"{f.joint:.0%} chance, others each alone.{_pooled(f)}",
    ]


def _attempts(f: Family) -> str:
    """The earlier confirmations of the same rules, and the error over all the attempts."""
    if not f.earlier:
        return ""
    each = "; ".join(f"{p} of {n} passed in results/{e}" for e, (p, n) in zip(f.earlier, f.earlier_passed))
    over = "both attempts" if f.attempts == 2 else f"the {f.attempts} attempts"
    return (
        f" The same rules were tested before (still published: {each}): over {over} it is at most "
        f"{f.attempts * f.error:.0%}."
    )


def _pooled(f: Family) -> str:
    """The analysis of all the confirmations together in one sentence (simkit.studies.pooled)."""
    if f.pooled is None:
        return ""
    passed, n = int(f.pooled.fair.sum()), len(f.pooled)
    within = f"all {n}" if passed == n else f"{passed} of the {n}"
    return (
        f" Both confirmations' games pooled (declared first; evidence, not a verdict): {within} "
        f"within their margins, Holm-adjusted p ≤ {f.pooled.p_holm.max():.1e}."
    )


def _count_games(edges: list[Edge]) -> str:
    """'1,000,000 games' or '5,000 to 10,000 games': the games behind the standard game's edges."""
    games = sorted({e.games for e in edges})
    return f"{games[0]:,} games" if len(games) == 1 else f"{games[0]:,} to {games[-1]:,} games"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(card: Card) -> str:
    """The card as markdown: results/fair-sequence-card.md."""
    lines = ["# A fair Sequence: the rules card", ""]
    for paragraph in intro(card):
        lines += [paragraph, ""]
    left = f"edge left ({coverage(card)})"
    lines += [
        f"| table | casual play ({LINEUPS['casual']}): the rule | {left} | strong play ({LINEUPS['strong']}): "
        f"the rule | {left} | edge without a rule (95%): casual / strong |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in card.rows:
        out = [f"{row.table} ({row.usual})"]
        for column in LINEUPS:
            words, edge, code = cells(row, column)
            out += [words + (f" (`{code}`)" if code else ""), edge or "—"]
        out.append(" / ".join(row.edge_without(c) for c in LINEUPS))
        lines.append("| " + " | ".join(_cell(c) for c in out) + " |")
    lines += ["", footer(card), ""]
    return "\n".join(lines)


def coverage(card: Card) -> str:
    """The coverage of the intervals of the edge left: the deciding confirmation's, or the searches' 95%."""
    return card.family.width if card.family is not None else "95%"


def footer(card: Card) -> str:
    return (
        f"Made by `simkit card --out results` from {', '.join(card.sources)} (studies of simkit "
        f"{', '.join(card.versions)}); results/README.md has the commands that make them."
    )
