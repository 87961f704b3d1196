"""The games the kernel plays, as one hash: every policy, every table, every rule option.

A run's identity names its games with ``kernels.GAMES_STAMP`` (not a hash of
the kernel's sources), so a kernel change that plays the same games (a speed
change, a compile-time change) keeps every published dataset resumable and
every regenerated part byte-identical. This corpus is what holds the stamp
to its word: tests/test_games_stamp.py plays it and compares its hash with
tests/golden/games_fingerprint.json, written by

    .venv/bin/python tests/fingerprint.py

for the stamp in force. Regenerate the file only together with a new
GAMES_STAMP, when a change of the games is meant (and then republish
results/: `make results`); never to make the test pass.

A policy added under the stamp in force plays new games and changes none
of the old: its configurations go to ADDED, each group hashed on its own
(the file's "added"), and the script writes the hash of a group not yet
recorded while refusing to change any hash already written for the stamp.

A change of a policy's defaults keeps the stamp: a run's identity lists every
parameter's value, so no run plays other games under its old id. A group that
names the policy by its defaults alone is then spelled out (``_spelled_out``)
under a new name, once its old hash has been reproduced from the spelled-out
specs, and the new defaults are a group of their own (swift's, 2026-12-04).
An added group's records are hashed without the policies' canonical names
(``added_fingerprint``): a name is the spec less the defaults of the day.

A player retired, or a parameter moved to the research group, keeps its
configurations in the corpus under the text they were recorded with:
SPELLED maps that text to the spec that plays the same games today, and the
hash takes the recorded text (as spec and as the records' names) with the
games of today's spec, so the stamp's hash holds and shows they are the same.

The corpus (CORPUS below): random play at the 10 legal tables and with each
rule option away from its default; greedy the same; mixed and seat-swapped
line-ups; the lookahead, quick (retired: the lookahead with quick's
defaults), fast and ismcts (research.cheat=1 too) at two and more seats. Each configuration contributes
the statistics rows of its games (simkit.game.play.simulate) and the whole record of its first game (moves, cells,
dead cards, sequences).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from simkit.game.options import OPTIONS as RULE_OPTIONS

HERE = Path(__file__).resolve().parent
FINGERPRINT_FILE = HERE / "golden" / "games_fingerprint.json"

TABLES = [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)]
TABLE_OPTIONS = ("players", "teams")  # the rule options TABLES varies
# Each other rule option away from its default, at a table: name -> [(players, teams, value)]. The corpus takes
# them in simkit.game.options.OPTIONS order; an option new to OPTIONS plays nothing here until it has an entry (and
# then the corpus plays other games: a new GAMES_STAMP, or an ADDED group; tests/test_options.py asks for one).
AWAY: dict[str, list[tuple[int, int, Any]]] = {
    "hand_size": [(2, 2, (6, 7))],
    "sequences_to_win": [(2, 2, 1)],
    "max_turns": [(4, 2, 40)],
    "chip_limit": [(3, 3, True)],
    "reshuffle": [(2, 2, False)],
    "dead_swap": [(2, 2, False)],
    "late_card": [(2, 2, 5)],
    "handicap": [(4, 2, 9), (3, 3, (5, 3))],
}
TOGETHER = [(3, 3, {"hand_size": (6, 7, 7), "handicap": (0, 4)})]  # options away from their defaults together
OPTIONS = [  # (players, teams, rule options away from their defaults)
    *[
        (players, teams, {name: value})
        for name in RULE_OPTIONS
        if name not in TABLE_OPTIONS
        for players, teams, value in AWAY.get(name, [])
    ],
    *TOGETHER,
]


# Recorded text -> the spec that plays its games today: quick, retired 2026-12-05, was the lookahead's
# kernel with these defaults; cheat moved to the research group the same day.
_QUICK = "lookahead:rollouts=6:shortlist=2:race=0:horizon=2"
SPELLED = {"quick": _QUICK, "ismcts:iterations=200:cheat=1": "ismcts:iterations=200:research.cheat=1"}


def corpus() -> list[tuple[str, int, int, int, dict, bool]]:
    """(line-up, players, teams, games, rule options, swap seats) of every configuration, in order."""
    out: list[tuple[str, int, int, int, dict, bool]] = []
    for policy, games in (("random", 3000), ("greedy", 300)):
        out += [(policy, p, t, games, {}, False) for p, t in TABLES]
        out += [(policy, p, t, games // 3, o, False) for p, t, o in OPTIONS]
    out += [("greedy,random", 2, 2, 300, {}, True), ("random,greedy,random", 3, 3, 300, {}, True)]
    out += [
        ("lookahead", 2, 2, 6, {}, False),
        ("lookahead", 3, 3, 3, {}, False),
        ("lookahead", 4, 2, 3, {}, False),
        ("lookahead", 2, 2, 3, {"late_card": 5}, False),
        ("lookahead,greedy", 2, 2, 4, {}, True),
        ("quick", 2, 2, 6, {}, False),
        ("quick", 6, 3, 3, {}, False),
        ("fast", 2, 2, 100, {}, False),
        ("fast", 3, 3, 60, {}, False),
        ("fast", 6, 3, 60, {}, False),
        ("fast,lookahead", 2, 2, 4, {}, True),
        ("ismcts:iterations=200", 2, 2, 4, {}, False),
        ("ismcts:iterations=200", 4, 2, 2, {}, False),
        ("ismcts:iterations=200:cheat=1", 2, 2, 2, {}, False),
    ]
    return out


# Policies added under GAMES_STAMP 91fc7e6872d2374b, each group hashed on its own.
_SWIFT = [
    ("swift", 2, 2, 6, {}, False),
    ("swift", 4, 2, 3, {}, False),
    ("swift", 6, 2, 2, {}, False),
    ("swift", 2, 2, 3, {"late_card": 5}, False),
    ("swift,lookahead", 2, 2, 4, {}, True),
]


def _spelled_out(group, settings_of):
    """`group` with swift's settings written into its specs: settings_of(players) -> {name: value}.
    A group that names defaults by "swift" alone plays other games when the defaults change; with the
    settings that changed spelled out, it keeps playing the games it was recorded with (a later change
    of another default is spelled out the same way)."""

    def spell(spec, players):
        return spec.replace("swift", "swift:" + ":".join(f"{k}={v:g}" for k, v in settings_of(players).items()), 1)

    return [(spell(spec, players), players, *rest) for spec, players, *rest in group]


# Swift's first defaults (simkit 0.5.0 until 2026-12-04): 6 deals unraced, the default greedy's replies;
# gap 16 at one player per team, 0 with partners; the leaves as the seat that played last sees them.
# Literals, not PLAYERS["greedy"].params: these games must not follow a later change of greedy's defaults.
_DEFAULT_GREEDY = {"complete": 1000, "build": 1, "growth": 4, "block": 1, "block4": 500, "break4": 400, "jack_cost": 20}
_FIRST_SETTINGS = {
    "rollouts": 6,
    "race": 0,
    "batch": 16,
    "view": 0,
    "removals": 0,
    **{f"opponent_{k}": v for k, v in _DEFAULT_GREEDY.items()},
}
ADDED = {
    # swift's defaults (kernels/players/swift.py): 10 deals raced every 2, all of greedy's best four
    # searched when they hold a removal (removals 4); at one player per team the lookahead's own
    # weights for the other team's replies, with partners the leaves seen by the searching seat (view 1).
    "swift's defaults (removals 4, since 2026-12-04)": _SWIFT,
    # swift's defaults of 2026-12-04 before removals were added the same day, spelled out: the
    # spelled-out specs reproduce the hash recorded for them (f1178b10...) with the old specs' text in
    # it, so they play its games.
    "swift's defaults of 2026-12-04 before removals, spelled out": _spelled_out(
        _SWIFT, lambda players: {"removals": 0}
    ),
    # swift's first defaults (until 2026-12-04), spelled out, removals 0 with them (recorded as
    # "swift's first defaults, spelled out", e2f49489..., before removals existed).
    "swift's first defaults, spelled out with removals": _spelled_out(
        _SWIFT, lambda players: {**_FIRST_SETTINGS, "gap": 16 if players == 2 else 0}
    ),
    # Every candidate searched at two players: swift as it was added (recorded as "swift:gap=0" until
    # 2026-12-04, then as "swift as added, spelled out", 10902215..., before removals existed).
    "swift as added (every candidate searched at two players), spelled out with removals": _spelled_out(
        [c for c in _SWIFT if c[1] == 2], lambda players: {**_FIRST_SETTINGS, "gap": 0}
    ),
    # swift at every table (2026-12-05): the value of hand and board for three teams (the others summed),
    # the three-player settings at every three-team table, and a set of value weights of its own at each
    # table of 8 or more players; 12p/3t spelled out with the settings it had then (recorded as "swift at
    # three teams, and at 8 or more players with a set of its own", 05f0def0..., before 12p/3t had
    # settings of its own: the spelled-out values were its defaults, so the parameter rows are the same).
    "swift at three teams, and at 8 or more players with a set of its own, 12p/3t spelled out": [
        ("swift", 3, 3, 4, {}, False),
        ("swift", 6, 3, 2, {}, False),
        ("swift", 9, 3, 1, {}, False),
        ("swift:horizon=2:rollouts=10:batch=2", 12, 3, 1, {}, False),
        ("swift", 8, 2, 1, {}, False),
        ("swift", 10, 2, 1, {}, False),
        ("swift", 12, 2, 1, {}, False),
    ],
    # swift at 12p/3t with settings of its own (2026-12-05): 4 plies, 20 deals raced every 4.
    "swift at 12p/3t, 4 plies on 20 deals": [("swift", 12, 3, 1, {}, False)],
    # ismcts-rich as added: ismcts's search, its playouts' ends scored by kernels/values/rich.py's
    # value of the table shape.
    "ismcts-rich as added": [
        ("ismcts-rich:iterations=200", 2, 2, 4, {}, False),
        ("ismcts-rich:iterations=200", 4, 2, 2, {}, False),
        ("ismcts-rich:iterations=100", 2, 2, 2, {"late_card": 5}, False),
        ("ismcts-rich:iterations=100,lookahead", 2, 2, 2, {}, True),
    ],
    # Boards as data (2026-12-07): the rule option layout away from the official board.
    "other layouts": [
        ("random", 2, 2, 1000, {"layout": "random:7"}, False),
        ("random", 6, 3, 300, {"layout": "mirror"}, False),
        ("greedy", 2, 2, 100, {"layout": "random:7"}, False),
        ("greedy,random", 4, 2, 60, {"layout": "mirror"}, True),
        ("swift", 2, 2, 2, {"layout": "random:3"}, False),
    ],
}


def every_configuration() -> list[tuple[str, int, int, int, dict, bool]]:
    """The stamp's corpus and every added group, in order."""
    return corpus() + [c for group in ADDED.values() for c in group]


# The statistics the games stamp's hash holds, as int64 in this order: a statistic declared later is
# derived from the same moves, checked against the naive engine (tests/test_kernel_vs_naive.py).
STAMP_COLUMNS = (
    "winner_team",
    "end",
    "turns",
    "first_sequence_turn",
    "first_sequence_team",
    *(f"{name}_{t}" for name in ("sequences", "chips", "one_eyed", "two_eyed") for t in range(3)),
    "dead_swaps",
    "reshuffles",
    "passes",
)


def fingerprint(configurations=None, seed: int = 20261201) -> str:
    """sha256 of every configuration's statistics rows and its first game's record (hex);
    configurations: (line-up, players, teams, games, options, swap) tuples, default the corpus.
    An added group (``added_fingerprint``) hashes its records without their policy names."""
    return _hash(corpus() if configurations is None else configurations, seed, names=True)


def added_fingerprint(group, seed: int = 20261201) -> str:
    """sha256 of an added group's games, its records without the policies' canonical names: a name is
    the spec less the defaults of the day, so a group spelled out keeps its hash when a default changes
    (its spec, in the hash, says what it plays)."""
    return _hash(group, seed, names=False)


def _hash(configurations, seed: int, names: bool) -> str:
    from simkit.game.play import simulate
    from simkit.game.players import Lineup
    from simkit.game.records import game_record
    from simkit.game.rules import Rules
    from simkit.kernels.core.stats import COLUMNS, as_rows

    h = hashlib.sha256()
    for spec, players, teams, games, options, swap in configurations:
        rules = Rules.make(players, teams, **options)
        lineup = Lineup.parse(SPELLED.get(spec, spec), rules, swap_seats=swap)
        h.update(repr((spec, players, teams, games, sorted(options.items()), swap)).encode())
        stats = as_rows(simulate(rules, lineup, seed, 0, games))
        h.update(np.ascontiguousarray(stats[:, [COLUMNS.index(c) for c in STAMP_COLUMNS]]).tobytes())
        record = game_record(rules, lineup, seed, 0)
        if not names:
            record.pop("policies")
        elif spec in SPELLED:  # one policy on every seat: the recorded text is each seat's name
            record["policies"] = [spec] * players
        for turn in record["turns"]:  # a cell's name is a function of its index (RECORD.md), not of the game
            turn.pop("cell_name", None)
        h.update(json.dumps(record, sort_keys=True).encode())
    return h.hexdigest()


def main() -> None:
    sys.path.insert(0, str(HERE.parent))
    from simkit.kernels import GAMES_STAMP

    recorded = json.loads(FINGERPRINT_FILE.read_text()) if FINGERPRINT_FILE.exists() else {}
    same_stamp = recorded.get("games_stamp") == GAMES_STAMP
    written = {"games_stamp": GAMES_STAMP, "sha256": fingerprint(), "added": {}}
    if same_stamp and recorded["sha256"] != written["sha256"]:
        sys.exit(
            f"the corpus no longer plays the games of stamp {GAMES_STAMP}: give kernels.GAMES_STAMP a new "
            "value first (and fold ADDED into the corpus); nothing written"
        )
    for name, group in ADDED.items():
        written["added"][name] = added_fingerprint(group)
        old = recorded.get("added", {}).get(name) if same_stamp else None
        if old is not None and old != written["added"][name]:
            sys.exit(
                f"the added group {name!r} no longer plays the games recorded for stamp {GAMES_STAMP}; nothing written"
            )
    FINGERPRINT_FILE.write_text(json.dumps(written, indent=2) + "\n")
    print(f"wrote {FINGERPRINT_FILE} for games stamp {GAMES_STAMP} (added: {', '.join(ADDED) or 'none'})")


if __name__ == "__main__":
    main()
