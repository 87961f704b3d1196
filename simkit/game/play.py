"""Play games with the kernel: statistics for many, a full record for one."""

from __future__ import annotations

import os

import numpy as np

from simkit.game.cards import tables
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels.batch import run_batch
from simkit.kernels.core.jit import is_cached, is_compiled
from simkit.kernels.core.state import new_log, new_state
from simkit.kernels.core.stats import GAME_STATS
from simkit.kernels.core.turn import RANDOM
from simkit.kernels.engine import play_game, play_to_end
from simkit.kernels.players.dispatch import decision, decision_type, workspace

MAX_SEED = 2**63 - 1
_threads: list[int | None] = [None]  # kernel threads (None: all cores); set_threads changes it


def cores() -> int:
    """CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def set_threads(threads: int | None) -> int:
    """Play on `threads` kernel threads (None: all cores); return the number in use."""
    most = cores()
    if threads is None:
        threads = most
    if not 1 <= threads <= most:
        raise ValueError(f"threads must be 1..{most} on this machine, got {threads}")
    _threads[0] = threads
    return threads


def get_threads() -> int:
    """Kernel threads in use."""
    return _threads[0] or cores()


def check_games(seed: int, first_game: int, n_games: int) -> None:
    """Reject a seed or game range the generator does not take."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be 0..{MAX_SEED}, got {seed}")
    if first_game < 0 or n_games < 0 or first_game + n_games > MAX_SEED:
        raise ValueError(f"games must be a range of non-negative indices, got {first_game}+{n_games}")


def simulate(
    rules: Rules,
    lineup: Lineup,
    seed: int,
    first_game: int,
    n_games: int,
    stop: np.ndarray | None = None,
    done: np.ndarray | None = None,
) -> np.ndarray:
    """Statistics of games first_game .. first_game + n_games - 1.

    Returns (n_games,) GAME_STATS records (simkit.kernels.core.stats); runs on get_threads() threads.
    stop and done watch and stop the batch from another thread
    (``simkit.kernels.batch``).
    """
    check_games(seed, first_game, n_games)
    if (lineup.players, lineup.teams) != (rules.players, rules.teams):
        raise ValueError(
            f"a line-up for {lineup.players} players in {lineup.teams} teams cannot play a table of "
            f"{rules.players} players in {rules.teams} teams"
        )
    return run_batch(
        lineup.decisions(),
        tables(rules.layout),
        rules.cfg(),
        lineup.ids(),
        lineup.params(),
        seed,
        first_game,
        n_games,
        get_threads(),
        stop,
        done,
    )


def play_logged(rules: Rules, lineup: Lineup, seed: int, game: int) -> tuple[np.record, np.recarray, np.record]:
    """Play one game with its move log; returns the kernel's State at the end, the log ((max_turns,) LOG
    records, ``simkit.kernels.core.state``) and the game's statistics (a GAME_STATS record)."""
    check_games(seed, game, 1)
    st, log, stats = new_state(), new_log(rules.max_turns), np.zeros(1, GAME_STATS).view(np.recarray)[0]
    r = game % lineup.rotations
    ids, params = lineup.ids()[r], lineup.params()[r]
    play_game(
        lineup.decisions(),
        tables(rules.layout),
        rules.cfg(),
        ids,
        params,
        st,
        workspace(ids, params),
        log,
        seed,
        game,
        stats,
    )
    return st, log, stats


GAME_LOOP = "game loop"


def left_to_compile(lineup: Lineup, rules: Rules) -> list[str]:
    """What a first run of the line-up compiles that numba's cache does not hold yet: GAME_LOOP for its
    game loop, and the name of each of its players whose decision is not compiled. Empty: only an entry
    point is left (a batch, a record), a second or two."""
    decisions, ids, params = lineup.decisions(), lineup.ids(), lineup.params()
    left = []
    stats = np.zeros(1, GAME_STATS)[0]
    loop_args = (tables(rules.layout), rules.cfg(), ids[0], params[0], new_state(), workspace(ids, params), new_log(0))
    if not is_cached(play_to_end, decisions, *loop_args, np.int64(0), np.int64(0), stats):
        left.append(GAME_LOOP)
    signature = decision_type().signature.args
    kinds = {p.kind.id: p.kind.name for p in lineup.per_team if p.kind.id != RANDOM}  # random's: the loop's
    left += [name for i, name in kinds.items() if not is_compiled(decision(i), signature)]
    return left
