"""The kernels run as Python: with NUMBA_DISABLE_JIT=1 every player plays the games of the compiled kernels.

``make test-nojit`` runs this file under ``NUMBA_DISABLE_JIT=1`` and coverage.py: every player, at tables of
two and three teams, with the rule options away from their defaults, plays a few games and one game's record
in pure Python, and each is compared with the same games played by the compiled kernels (a process of its own
with the JIT, ``compiled_hashes``, started with the first test and running beside the others). Coverage of
kernels/ measures which lines the games reach. Without the mode these tests are skipped; the test that each
intrinsic's Python twin agrees with it runs with the JIT instead.

    python -m tests.test_nojit    # the hashes of GAMES as this process plays them, as JSON
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import config, njit

from simkit.kernels.core.state import FAST_PDEP, pdep

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261207

# (line-up, players, teams, games, rule options): each plays `games` games (statistics rows) and the record
# of one more. Every player, at tables of two and three teams, with and without partners; the searches with
# few deals or iterations, most against greedy and with a turn cap, so that a game in Python takes seconds
# (they come first: the longest games start first). The rule options away from their defaults: the chip
# limit with 8 sequences to win (chips run out: passes, a stalemate), no reshuffle (the pile runs out), no
# dead-card swap, the late card, the turn cap; the restrictions of greedy's block.
RESTRICTED = (
    "greedy:one_eyed=never:two_eyed=complete:blocking=never:corners=ignore:dead_swap=never,greedy:two_eyed=never"
)
GAMES: list[tuple[str, int, int, int, dict]] = [
    ("swift:rollouts=2", 2, 2, 1, {"max_turns": 30}),
    ("lookahead:rollouts=2:shortlist=2:playout=1:horizon=0,greedy", 2, 2, 1, {}),
    ("swift:rollouts=2", 6, 3, 1, {"max_turns": 30}),
    ("ismcts:iterations=6,greedy", 2, 2, 1, {"max_turns": 30}),
    ("ismcts:iterations=4:race=0:research.cheat=2,greedy", 3, 3, 1, {"max_turns": 40}),
    ("ismcts-rich:iterations=6,greedy", 4, 2, 1, {"max_turns": 30}),
    ("ismcts:iterations=4:research.cheat=1,greedy", 2, 2, 1, {}),
    ("ismcts:iterations=6,greedy,greedy", 6, 3, 1, {"max_turns": 30}),
    ("lookahead:rollouts=2:shortlist=2,greedy", 4, 2, 1, {"max_turns": 30, "late_card": 3}),
    ("lookahead:rollouts=2:shortlist=2,greedy,greedy", 3, 3, 1, {"max_turns": 30}),
    ("fast", 2, 2, 1, {}),
    ("fast", 3, 3, 1, {"max_turns": 40}),
    ("greedy", 2, 2, 2, {"late_card": 5}),
    ("greedy", 3, 3, 2, {"chip_limit": True, "sequences_to_win": 8}),
    ("greedy", 4, 2, 1, {"reshuffle": False, "dead_swap": False, "sequences_to_win": 8}),
    ("greedy", 6, 3, 1, {}),
    (RESTRICTED, 4, 2, 1, {}),
    ("random", 2, 2, 3, {}),
    ("random", 3, 3, 2, {"chip_limit": True, "sequences_to_win": 8}),
    ("random", 6, 3, 2, {"late_card": 2}),
]


def game_id(case: tuple) -> str:
    """The case's name: its line-up, table and rule options."""
    spec, players, teams, games, options = case
    return f"{spec}-{players}p{teams}t-" + "-".join(f"{k}={v}" for k, v in options.items())


def games_hash(case: tuple) -> str:
    """sha256 of the statistics rows of games 1..n of `case` and of game 0's record."""
    from simkit.game.play import simulate
    from simkit.game.players import Lineup
    from simkit.game.records import game_record
    from simkit.game.rules import Rules

    spec, players, teams, games, options = case
    rules = Rules.make(players, teams, **options)
    lineup = Lineup.parse(spec, rules)
    h = hashlib.sha256(simulate(rules, lineup, SEED, 1, games).tobytes())
    h.update(json.dumps(game_record(rules, lineup, SEED, 0), sort_keys=True).encode())
    return h.hexdigest()


def main() -> None:
    """Print every case's hash as JSON, by its id (run by ``compiled_hashes`` with the JIT)."""
    print(json.dumps({game_id(case): games_hash(case) for case in GAMES}))


@pytest.fixture(scope="module")
def compiled_hashes():
    """The hashes of GAMES played by the compiled kernels: a process of its own with the JIT (loading the
    kernels from numba's cache, or compiling them), started now, read when first asked for."""
    # neither NUMBA_DISABLE_JIT nor coverage's measuring of subprocesses (the compiled kernels run no Python lines)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_DISABLE_JIT", "COVERAGE_"))}
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.test_nojit"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    read: dict[str, str] = {}

    def get(case: tuple) -> str:
        if not read:
            out, err = process.communicate()
            assert process.returncode == 0, err
            read.update(json.loads(out))
        return read[game_id(case)]

    yield get
    if process.poll() is None:
        process.kill()
        process.wait()


def test_the_games_play_every_player_at_two_and_three_teams() -> None:
    """GAMES holds every declared player, and tables of two and of three teams, with partners and without."""
    from simkit.kernels.players.dispatch import PLAYERS

    assert {part.split(":")[0] for spec, *_ in GAMES for part in spec.split(",")} == {p.name for p in PLAYERS}
    assert {(teams, players > teams) for _, players, teams, *_ in GAMES} == {
        (2, False),
        (2, True),
        (3, False),
        (3, True),
    }


jit_free = pytest.mark.skipif(not config.DISABLE_JIT, reason="the kernels as Python: make test-nojit")


@jit_free
@pytest.mark.filterwarnings(r"ignore:overflow encountered in scalar:RuntimeWarning:simkit\.kernels\.")
@pytest.mark.parametrize("case", GAMES, ids=game_id)
def test_the_kernels_as_python_play_the_compiled_kernels_games(case, compiled_hashes) -> None:
    """A player's games and record played in Python equal those of the compiled kernels."""
    assert games_hash(case) == compiled_hashes(case)


@pytest.mark.skipif(config.DISABLE_JIT or not FAST_PDEP, reason="compares the compiled PDEP instruction")
def test_pdep_in_python_agrees_with_the_instruction() -> None:
    """The Python twin of the PDEP intrinsic deposits the same bits as the instruction, on random pairs of
    dense and sparse masks."""

    @njit
    def compiled(src, mask, out):
        for i in range(src.shape[0]):
            out[i] = pdep(src[i], mask[i])  # compiled: the overload, which calls the intrinsic

    rng = np.random.default_rng(SEED)
    words = rng.integers(0, 2**64, (4, 5000), dtype=np.uint64, endpoint=False)
    src = np.concatenate([words[0], words[1]])
    mask = np.concatenate([words[2], words[2] & words[3] & rng.integers(0, 2**64, 5000, dtype=np.uint64)])
    out = np.zeros_like(src)
    compiled(src, mask, out)
    assert [pdep(s, m) for s, m in zip(src, mask)] == list(out)


if __name__ == "__main__":
    main()
