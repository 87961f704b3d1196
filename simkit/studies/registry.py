"""The registry of study kinds, ``KINDS``, and ``make_study``, which checks a study's request against its kind."""

import json

from simkit.game import defaults
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.studies import compensation, first_player, hand_size, layouts, restricted, skill, teams, variants
from simkit.studies.kind import Study, StudyKind, refuse_varied
from simkit.studies.options import StudyError, option_flag
from simkit.suggest import did_you_mean

KINDS: dict[str, StudyKind] = {
    k.name: k
    for k in (
        first_player.KIND,
        hand_size.KIND,
        teams.KIND,
        skill.KIND,
        variants.KIND,
        restricted.KIND,
        layouts.KIND,
        compensation.KIND,
    )
}
"""Every study kind by its name on the command line, in the order --help lists them."""


def unknown_study(name: str) -> str:
    """The error of a study name that is not a kind: the close matches, then every kind."""
    return f"unknown study {name!r}{did_you_mean(name, KINDS)}; known: {', '.join(KINDS)}"


def make_study(
    name: str, policies=None, games: int | None = None, seed: int | None = None, rules: dict | None = None, **options
) -> Study:
    """A Study of kind `name`: its line-ups (default: the kind's) with their games (default: the kind's for
    each line-up), the rule options given, the kind's own options. Checked: an unknown kind or option, a
    rule option the kind sets itself, a table it cannot use."""
    if name not in KINDS:
        raise StudyError(unknown_study(name))
    kind = KINDS[name]
    rules = dict(rules or {})
    refuse_varied(kind, rules)
    for option in options:
        if option not in kind.options:
            allowed = ", ".join(map(option_flag, kind.options)) or "none"
            raise StudyError(f"{option_flag(option)} is not an option of the {name} study (its own options: {allowed})")
    if games is not None and games < 1:
        raise StudyError(f"--games must be at least 1, got {games:,}")
    specs = list(policies or kind.default_policies)
    if not specs:
        raise StudyError("no line-up: give --policy at least once")
    if len(set(specs)) < len(specs):
        raise StudyError(f"a line-up is given twice in {', '.join(specs)}")
    table = Rules.make(**{k: v for k, v in rules.items() if k in ("players", "teams")})
    lineups = {}
    for spec in specs:
        lineup = Lineup.parse(spec, table)  # checked here, before anything is played
        lineups[lineup.spec] = games if games is not None else kind.games(lineup)
    given = {k: v for k, v in options.items() if v is not None}
    plain = json.loads(json.dumps({"rules": rules, **given}))  # as study.json holds them (tuples as lists)
    return Study(kind, plain, lineups, defaults.SEED if seed is None else seed)
