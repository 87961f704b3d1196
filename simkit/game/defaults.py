"""The defaults every door shares: ``simkit run``, ``simkit play``, ``simkit.simulate`` and the studies.

Declared once so that the same call gives the same games at the command
line and from Python (game 0 of ``simkit play`` is game 0 of ``simkit run``).
"""

SEED = 2026
"""The master seed when none is given."""

GAMES = 1_000_000
"""Games of a run (``simkit run``, ``simkit.simulate``) when none is given."""

POLICY = "random"
"""The line-up when none is given: every seat plays RULES.md's random policy."""

WORKSPACE = "runs"
"""Where ``simkit run`` and ``simkit study`` write without --out: a folder of the user's own, beside
results/ and ignored by git. results/ holds the published studies and is written only when a command
names it (--out results/...), as ``make results`` does."""
