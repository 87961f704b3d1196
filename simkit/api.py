"""simkit for notebooks and scripts: games into a DataFrame, datasets read, reports as DataFrames.

    import simkit
    games = simkit.simulate(players=2, policy="greedy,random", games=10_000, seed=0, reshuffle=False)
    tables = simkit.summarise(games)          # {"teams": DataFrame, "outcomes": ..., ...}
    tables["teams"]

``simulate`` returns exactly the rows ``simkit run`` writes for the same
options and seed (same columns, same values), without touching the disk.
Bad arguments raise ValueError with the same words as the command line's
error lines.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from simkit.analysis.report import SECTIONS, check_whole, summarise_dataset
from simkit.analysis.report import summarise as of_rows
from simkit.game import defaults
from simkit.game.options import OPTIONS, whole_number
from simkit.game.play import check_games, get_threads, set_threads
from simkit.game.play import simulate as play
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.presentation.render import format_p_value
from simkit.presentation.report import dict_rows
from simkit.running import dataset as ds
from simkit.running.reading import read_games as read

SIMULATE_CHUNK = 100_000  # games converted to rows at a time


def simulate(
    policy: str = defaults.POLICY,
    games: int = defaults.GAMES,
    seed: int = defaults.SEED,
    swap_seats: bool = False,
    first_game: int = 0,
    threads: int | None = None,
    **rule_options,
) -> pd.DataFrame:
    """Play games first_game .. first_game + games - 1 and return one row per game.

    The options are those of ``simkit run``, with its defaults
    (``simkit.game.defaults``): policy, one per team ('greedy,random'); every rule
    option of ``simkit.game.options.OPTIONS`` by name (players=4, hand_size='6,7',
    reshuffle=False, late_card=5, ...; left out: its default). threads:
    kernel threads, default all cores. The columns are the dataset's
    (``simkit.running.dataset.SCHEMA``), in its order. A bad argument raises
    ValueError naming it (``games must be at least 1, got 0``).
    """

    games, seed, first_game = (
        whole_number(v, k) for k, v in (("games", games), ("seed", seed), ("first_game", first_game))
    )
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games:,}")
    if not isinstance(swap_seats, bool):
        raise ValueError(f"swap_seats must be true or false, got {swap_seats!r}")
    if not isinstance(policy, str):
        raise ValueError(f"policy must be a text such as 'greedy,random', got {policy!r}")
    if threads is not None:
        threads = whole_number(threads, "threads")
    rules = Rules.make(**rule_options)
    lineup = Lineup.parse(policy, rules, swap_seats)
    check_games(seed, first_game, games)
    before = get_threads()
    set_threads(threads)
    try:
        identity = ds.identity_of(rules, lineup, seed)
        tables = [
            ds.to_table(
                play(rules, lineup, seed, start, min(SIMULATE_CHUNK, first_game + games - start)), start, identity
            )
            for start in range(first_game, first_game + games, SIMULATE_CHUNK)
        ]
    finally:
        set_threads(before)
    return pa.concat_tables(tables).to_pandas()


def _signature_with_rule_options():
    """simulate's signature lists every rule option as a keyword (for help() and editors)."""

    base = inspect.signature(simulate)
    params = [p for p in base.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None) for name in OPTIONS]
    return base.replace(parameters=params)


simulate.__signature__ = _signature_with_rule_options()  # type: ignore[attr-defined]  # inspect.signature reads it


def read_games(directory: str | Path, columns: list[str] | None = None, allow_incomplete: bool = False) -> pd.DataFrame:
    """Every game of the dataset (or folder of datasets, such as a study) at `directory`, one row each.

    The all-rows door, for notebooks: a row costs about 75 bytes in memory
    with every column (the strings are categoricals), so 10,000,000 games
    take about 0.75 GB, growing with the games; ``columns=[...]`` reads only
    those (``["players", "teams", "policies", "turns"]`` costs about 7 bytes
    a row). Reports never need this: ``summarise(directory)`` reads a
    dataset part by part in constant memory. Each (run, game) appears once.

    Every part is checked as it is read (its bytes against the digest
    recorded when it was written; without one, its pages against their
    checksums). A
    dataset that lacks games (a run interrupted or still running, a part
    damaged or unreadable) raises ``simkit.running.reading.IncompleteDataset``, a
    ValueError whose message says what is missing and the ``simkit run``
    command that completes it; ``allow_incomplete=True`` returns the rows
    there are, with an ``IncompleteDatasetWarning`` saying the same (and
    ``rows.attrs["shortfalls"]``).
    """

    return read(Path(directory), columns, allow_incomplete)


def summarise(games: pd.DataFrame | str | Path, allow_incomplete: bool = False) -> dict[str, pd.DataFrame]:
    """The report's tables of `games` as DataFrames, by section.

    games: rows from ``simulate`` or ``read_games``, or the path of a dataset
    (or a folder of them), which is then read part by part in constant
    memory; a dataset that lacks games raises or warns as ``read_games``
    does (``allow_incomplete``). Each table has one block of rows per run, with the run's
    configuration columns first: teams, shares (every team's share of the
    decided games, Goodman's simultaneous intervals), gap (the largest gap
    between two teams' shares), seats, outcomes, draw, length (turns, all
    seats), rounds (turns per player), first_sequence, equal_strength,
    first_mover, balance, lineups (runs with seats swapped), team_means and
    game_means. Rates are proportions (0..1) with their 95% interval in
    ci_low / ci_high; counts are integers; a p-value prints as the report
    prints it (``SectionTable``).
    """

    if isinstance(games, pd.DataFrame):
        summaries = of_rows(games)
    else:
        summaries = summarise_dataset(Path(games))
        check_whole(
            Path(games),
            summaries,
            allow_incomplete,
            "summarise(..., allow_incomplete=True) gives the tables of the games there are",
        )
    tables: dict[str, list[pd.DataFrame]] = {}
    for s in summaries:
        config = {**s.config, "games": s.games}
        for section in ("draw", *SECTIONS, "rounds"):
            value = getattr(s, section)
            if value is None:
                continue
            if not isinstance(value, pd.DataFrame):
                value = _scalars(dict_rows(value))
            block = value.copy()
            for i, (k, v) in enumerate((k, v) for k, v in config.items() if k not in value.columns):
                block.insert(i, k, v)
            tables.setdefault(section, []).append(block)
    return {section: SectionTable(pd.concat(blocks, ignore_index=True)) for section, blocks in tables.items()}


class SectionTable(pd.DataFrame):
    """A report section as ``summarise`` returns it: a DataFrame whose printed form (print, a notebook's
    cell) shows each p-value as the report does, in scientific notation below 1e-4 and ``< 1e-300`` where
    it underflowed to 0, never as 0.0; the data themselves are the plain numbers."""

    @property
    def _constructor(self):
        return SectionTable

    def _shown(self) -> pd.DataFrame:

        frame = pd.DataFrame(self)
        if "metric" in frame.columns and "value" in frame.columns and (frame["metric"] == "p_value").any():
            frame = frame.copy()
            frame["value"] = [
                format_p_value(float(v)) if m == "p_value" else v for m, v in zip(frame["metric"], frame["value"])
            ]
        return frame

    def __repr__(self) -> str:
        return repr(self._shown())

    def to_string(self, *args, **kwargs) -> str:
        return self._shown().to_string(*args, **kwargs)

    def _repr_html_(self) -> str | None:
        return self._shown()._repr_html_()


def _scalars(rows) -> pd.DataFrame:
    """A section of single numbers as a table: metric, value, ci_low, ci_high; a value column of counts
    only holds integers (object dtype when counts and rates mix, so a count never prints as 99997.000000)."""
    frame = pd.DataFrame(rows, columns=["metric", "value", "ci_low", "ci_high"])
    if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in frame["value"]):
        frame["value"] = frame["value"].astype("int64")
    else:  # from the rows themselves: the frame's own column already made the counts floats
        frame["value"] = pd.Series([r[1] for r in rows], index=frame.index, dtype=object)
    for c in ("ci_low", "ci_high"):
        frame[c] = pd.to_numeric(frame[c], errors="coerce").astype("float64")
    return frame
