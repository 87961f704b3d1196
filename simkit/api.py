"""simkit for notebooks and scripts: games into a DataFrame, datasets read, reports as DataFrames.

    import simkit
    games = simkit.simulate(players=2, policy="greedy,random", games=10_000, seed=0)
    tables = simkit.summarise(games)          # {"teams": DataFrame, "outcomes": ..., ...}
    tables["teams"]

``simulate`` returns exactly the rows ``simkit run`` writes for the same
options and seed (same columns, same values), without touching the disk.
Bad arguments raise ValueError with the same words as the command line's
error lines.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

SIMULATE_CHUNK = 100_000  # games converted to rows at a time


def simulate(
    players: int = 2,
    teams: int | None = None,
    policy: str = "random",
    games: int = 10_000,
    seed: int = 0,
    hand_size: int | str | list[int] | None = None,
    sequences_to_win: int | None = None,
    max_turns: int | None = None,
    chip_limit: bool = False,
    swap_seats: bool = False,
    first_game: int = 0,
    threads: int | None = None,
) -> pd.DataFrame:
    """Play games first_game .. first_game + games - 1 and return one row per game.

    The options are those of ``simkit run`` (policy: one per team,
    'greedy,random'; hand_size: one size or a list per seat). threads: kernel
    threads, default all cores. The columns are the dataset's
    (``simkit.dataset.SCHEMA``), in its order.
    """
    from simkit import dataset as ds
    from simkit.play import check_games, get_threads, set_threads
    from simkit.play import simulate as play
    from simkit.policies import Lineup
    from simkit.rules import Rules

    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    rules = Rules.make(players, teams, hand_size, sequences_to_win, max_turns, chip_limit)
    lineup = Lineup.parse(policy, rules, swap_seats)
    check_games(seed, first_game, games)
    before = get_threads()
    set_threads(threads)
    try:
        identity = ds.identity_of(rules, lineup, seed)
        tables = [
            ds.to_table(play(rules, lineup, seed, start, min(SIMULATE_CHUNK, first_game + games - start)),
                        start, identity)
            for start in range(first_game, first_game + games, SIMULATE_CHUNK)
        ]
    finally:
        set_threads(before)
    import pyarrow as pa

    return pa.concat_tables(tables).to_pandas()


def read_games(directory: str | Path) -> pd.DataFrame:
    """Every game of the dataset (or folder of datasets, such as a study) at `directory`, one row each."""
    from simkit.dataset import read_games as read

    return read(Path(directory))


def summarise(games: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The report's tables of `games` (rows from simulate or read_games) as DataFrames, by section.

    Each table has one block of rows per run (configuration and seed), with
    the run's configuration columns first: teams, seats, outcomes, draw,
    length, first_sequence, balance, first_mover, lineups (runs with seats
    swapped), team_means and game_means. Rates are proportions (0..1) with
    their 95% interval in ci_low / ci_high.
    """
    from simkit.report import SECTIONS, _dict_rows, summarise as summaries

    tables: dict[str, list[pd.DataFrame]] = {}
    for s in summaries(games):
        config = {**s.config, "games": s.games}
        for section in ("draw", *SECTIONS):
            value = getattr(s, section)
            if value is None:
                continue
            if not isinstance(value, pd.DataFrame):
                value = pd.DataFrame(_dict_rows(value), columns=["metric", "value", "ci_low", "ci_high"])
            block = value.copy()
            for i, (k, v) in enumerate((k, v) for k, v in config.items() if k not in value.columns):
                block.insert(i, k, v)
            tables.setdefault(section, []).append(block)
    return {section: pd.concat(blocks, ignore_index=True) for section, blocks in tables.items()}
