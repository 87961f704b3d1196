"""A rule in plain words: what each team's players are dealt, and when a player dealt short takes the missing card.

Read from what the rule options write into the kernel's configuration (each seat's hand size and the turn
at whose end it draws a late card), so the words say what the games play:

    rule_words(Rules.make(2, late_card=24))
    # 'The first player is dealt 6 cards and takes their 7th at the end of their 24th turn.'
"""

from __future__ import annotations

from simkit.game.options import OPTIONS
from simkit.game.rules import Rules

TEAM_WORDS = ("first", "second", "third")
COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six")


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _count(n: int) -> str:
    return COUNT_WORDS[n] if n < len(COUNT_WORDS) else str(n)


def _first(n: int) -> str:
    """'the first' (one seat) or 'the first three'."""
    return "the first" if n == 1 else f"the first {_count(n)}"


def seats_dealt(rules: Rules) -> list[tuple[int, int]]:
    """Each seat's (cards in hand, the turn at whose end it draws its late card; 0: none): a seat with a
    late card is dealt one fewer."""
    return list(zip(rules.hand_sizes, rules.late_turns))


def rule_words(rules: Rules) -> str:
    """The rule in plain words: what each team's players are dealt, and when a player dealt short takes
    the missing card ('The first player is dealt 6 cards and takes their 7th at the end of their 24th
    turn.'). The players it does not name are dealt the table's usual hand."""
    usual = OPTIONS["hand_size"].default_for({"players": rules.players})
    seats = seats_dealt(rules)
    if all(s == (usual, 0) for s in seats):
        return f"No rule needed: everyone is dealt the usual {usual} cards."
    sentences = []
    for team in range(rules.teams):
        own = [seats[s] for s in range(team, rules.players, rules.teams)]
        sentence = _team_words(team, own, usual)
        if sentence:
            sentences.append(sentence)
    text = "; ".join(sentences)
    return text[0].upper() + text[1:] + "."


def _team_words(team: int, seats: list[tuple[int, int]], usual: int) -> str:
    """What one team's seats (in the order they play) are dealt, or '' when they are dealt as usual."""
    if all(s == (usual, 0) for s in seats):
        return ""
    alone = len(seats) == 1
    who = f"the {TEAM_WORDS[team]} player" if alone else f"the {TEAM_WORDS[team]} team's players"
    verb = ("is", "takes") if alone else ("are", "take")
    groups: list[list] = []  # runs of seats dealt alike: [count, hand, late]
    for hand, late in seats:
        if groups and groups[-1][1:] == [hand, late]:
            groups[-1][0] += 1
        else:
            groups.append([1, hand, late])
    if len(groups) == 1:
        return who + " " + _dealt(seats[0][0], seats[0][1], verb)
    late_groups = [g for g in groups if g[2]]
    if len(late_groups) == len(groups) and len({g[1] for g in groups}) == 1:
        # every seat short by the same card, at two turns: the earlier seats wait one turn longer
        (n1, hand, k1), (n2, _, k2) = groups
        return (
            f"{who} are dealt {hand - 1} cards and take their {ordinal(hand)} at the end of their "
            f"{ordinal(k1)} turn ({_first(n1)} to play) or {ordinal(k2)} turn "
            f"(the other{' ' + _count(n2) if n2 > 1 else ''})"
        )
    parts, done = [], 0
    for n, hand, k in groups:
        if (hand, k) == (usual, 0):
            done += n
            continue
        where = "first" if done == 0 else "next" if done + n < len(seats) else "last"
        subject = f"the {where}{' ' + _count(n) if n > 1 else ''} of {who} to play"
        parts.append(subject + " " + _dealt(hand, k, ("is", "takes") if n == 1 else ("are", "take")))
        done += n
    return "; ".join(parts)


def _dealt(hand: int, late: int, verb: tuple[str, str]) -> str:
    if late:
        return (
            f"{verb[0]} dealt {hand - 1} cards and {verb[1]} their {ordinal(hand)} at the end of their "
            f"{ordinal(late)} turn"
        )
    return f"{verb[0]} dealt {hand} cards"
