"""The games stamp names the games: a kernel that plays other games fails here until the stamp is renewed.

A run's identity carries ``kernels.GAMES_STAMP`` (docs/ENGINE.md's games:
RULES.md's rules, "Simulation conventions" and the policies), so a kernel
edit that keeps every game leaves the published datasets resumable; this
test is what keeps that honest (tests/fingerprint.py).
"""

from __future__ import annotations

import json

import simkit.running.dataset as ds
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels import GAMES_STAMP
from tests.fingerprint import ADDED, FINGERPRINT_FILE, SPELLED, added_fingerprint, every_configuration, fingerprint


def test_the_corpus_plays_the_games_of_the_stamp() -> None:
    """Every policy, table and rule option of the corpus, and each group added under the stamp (ADDED),
    plays the games recorded for GAMES_STAMP."""
    recorded = json.loads(FINGERPRINT_FILE.read_text())
    assert recorded["games_stamp"] == GAMES_STAMP, (
        f"kernels.GAMES_STAMP is {GAMES_STAMP} but {FINGERPRINT_FILE.name} was written for "
        f"{recorded['games_stamp']}: renew both together (python tests/fingerprint.py)"
    )
    assert fingerprint() == recorded["sha256"], (
        f"the kernel no longer plays the games of stamp {GAMES_STAMP}. If the change of games is meant, "
        "give kernels.GAMES_STAMP a new value, run python tests/fingerprint.py, and republish results/ "
        "(make results); if not, the change broke a game"
    )
    assert set(recorded.get("added", {})) == set(ADDED), "python tests/fingerprint.py records an added group"
    for name, group in ADDED.items():
        assert added_fingerprint(group) == recorded["added"][name], f"the added {name!r} games changed"


def test_the_corpus_covers_every_policy_table_and_rule_option() -> None:
    """The corpus holds every policy, every legal table and every rule option away from its default."""
    from simkit.game.options import OPTIONS
    from simkit.game.players import PLAYERS
    from simkit.game.rules import LEGAL_TEAMS

    configs = every_configuration()
    names = {part.split(":")[0] for spec, *_ in configs for part in SPELLED.get(spec, spec).split(",")}
    assert names == set(PLAYERS)
    assert {(p, t) for _, p, t, *_ in configs} == {(p, t) for p, teams in LEGAL_TEAMS.items() for t in teams}
    varied = {name for *_, options, _ in configs for name in options}
    assert varied == set(OPTIONS) - {"players", "teams"}
    assert any(swap for *_, swap in configs)


def test_a_runs_identity_carries_the_games_stamp_and_its_versions_the_sources() -> None:
    """The identity names the games (GAMES_STAMP); the versions name the kernel sources that ran."""
    rules = Rules.make(2, 2)
    identity = ds.identity_of(rules, Lineup.parse("random", rules), 1)
    assert identity["kernel"] == GAMES_STAMP
    assert ds.versions()["kernel_sources"] == ds.SOURCES_HASH[:16]
