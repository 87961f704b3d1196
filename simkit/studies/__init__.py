"""Studies: sets of runs that answer one question, summarised with intervals and plots.

``KINDS`` is the registry of study kinds, one entry each (``StudyKind``):
its question, its configurations (a fixed grid, or a search that proposes
the next configuration from the results so far), its summary tables and
its figures. ``run_study`` plays a ``Study`` of any kind (see
``simkit.studies.base`` for the study directory and how studies resume,
grow and refuse to overwrite one another).
"""

import json

from simkit.studies import compensation, first_player, hand_size, skill, teams, variants
from simkit.studies.base import (
    LEGAL_TABLES,
    Config,
    Results,
    Study,
    StudyError,
    StudyKind,
    StudyOutcome,
    Tables,
    default_folder,
    default_games,
    run_study,
)

KINDS: dict[str, StudyKind] = {k.name: k for k in (
    first_player.KIND, hand_size.KIND, teams.KIND, skill.KIND, variants.KIND, compensation.KIND,
)}
"""Every study kind by its name on the command line, in the order --help lists them."""

__all__ = ["KINDS", "LEGAL_TABLES", "Config", "Results", "Study", "StudyError", "StudyKind", "StudyOutcome",
           "Tables", "default_folder", "default_games", "make_study", "run_study"]


def make_study(name: str, policies=None, games: int | None = None, seed: int | None = None,
               rules: dict | None = None, **options) -> Study:
    """A Study of kind `name`: its line-ups (default: the kind's) with their games (default: the kind's for
    each line-up), the rule options given, the kind's own options. Checked: an unknown kind or option, a
    rule option the kind sets itself, a table it cannot use."""
    from simkit import defaults
    from simkit.policies import Lineup
    from simkit.rules import Rules
    from simkit.studies.base import refuse_varied
    from simkit.study_options import option_flag

    if name not in KINDS:
        raise StudyError(f"unknown study {name!r}; known: {', '.join(KINDS)}")
    kind = KINDS[name]
    rules = dict(rules or {})
    refuse_varied(kind, rules)
    for option in options:
        if option not in kind.options:
            allowed = ", ".join(map(option_flag, kind.options)) or "none"
            raise StudyError(f"{option_flag(option)} is not an option of the {name} study (its own options: "
                             f"{allowed})")
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
