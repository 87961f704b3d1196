"""Exact aggregates of a run's games, part by part: what every report, summary and metric reads.

A report never holds a run's rows. It reads each part file's few columns it
needs, reduces them to an ``Aggregate`` (whole-number counts and sums), and
adds the aggregates of the parts. Memory does not grow with the number of
games, and every number computed from an aggregate is the number the
all-rows computation gives (the length percentiles from an exact histogram
of the game lengths, which are whole numbers up to the turn cap).

    aggregate = Aggregate.of_rows(columns, teams, max_turns)     # one part, or a DataFrame's rows
    total = a + b                                                 # two parts of one run

An aggregate holds, for one run:

- ``outcomes``: (teams, 4, 3, 4) games by rotation (game % teams), winner
  (-1..2, shifted by one), end (win, stalemate, turn_cap) and the team of
  the first sequence (-1..2, shifted by one);
- ``length``: (max_turns + 1,) games by their length in turns;
- ``first_turn``: (max_turns + 1,) games with a first sequence by its turn;
- ``closing``: (max_turns + 1,) games with a first sequence by the turns
  from it to the game's end (turns - first_sequence_turn);
- ``lead_changes``: games by their lead changes (0, 1, 2, ...), over the
  games whose part recorded them (``RECORDED_LATER``): its total is those
  games, none for a dataset written before the column existed;
- ``sums``: the total over the games of each column of ``SUMMED``.

``runs_of`` walks a dataset (or a folder of them): every run found, its
aggregate, the part files it left out (unreadable, or damaged: not the bytes
written, ``simkit.running.parts.open_part``), the games no part gave and the
copies it skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simkit.game.options import OPTIONS
from simkit.running import dataset as ds
from simkit.running import manifest as mf
from simkit.running.parts import UnreadablePart, open_part, part_bytes, read_columns, read_part_metadata
from simkit.running.reading import Run, Shortfall, find_runs

SUMMED = (
    *(f"{name}_{t}" for name in ("one_eyed", "two_eyed", "sequences", "chips") for t in range(3)),
    "dead_swaps",
    "reshuffles",
    "passes",
)
"""Per-game columns whose totals a report needs (their means per game)."""

RECORDED_LATER = ("lead_changes",)
"""Per-game columns that older datasets lack: read where a part has them, and the games that had them counted."""

COLUMNS = (
    "game",
    "winner_team",
    "end",
    "turns",
    "first_sequence_turn",
    "first_sequence_team",
    *SUMMED,
    *RECORDED_LATER,
)
"""The columns an aggregate reads; nothing else of a part is loaded."""

END_CODES = {"win": 0, "stalemate": 1, "turn_cap": 2}


@dataclass
class Aggregate:
    """Exact counts and sums of a set of games of one run (see the module docstring)."""

    teams: int
    outcomes: np.ndarray
    length: np.ndarray
    first_turn: np.ndarray
    sums: np.ndarray
    duplicates: int = 0  # rows skipped as copies of games already counted
    closing: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    lead_changes: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))

    @classmethod
    def empty(cls, teams: int, max_turns: int) -> Aggregate:
        """No games yet (histograms up to max_turns turns)."""
        return cls(
            teams,
            np.zeros((teams, 4, 3, 4), np.int64),
            np.zeros(max_turns + 1, np.int64),
            np.zeros(max_turns + 1, np.int64),
            np.zeros(len(SUMMED), np.int64),
            closing=np.zeros(max_turns + 1, np.int64),
        )

    @classmethod
    def of_rows(cls, columns, teams: int, max_turns: int) -> Aggregate:
        """The aggregate of rows given column by column (a mapping name -> array-like, e.g. a DataFrame
        or a dict of numpy arrays); `end` may hold the names or their codes. A column of RECORDED_LATER may be
        absent, or missing in some rows (NaN: rows of older parts read with newer ones): those games are not
        counted in its histogram."""
        game = np.asarray(columns["game"], np.int64)
        winner = np.asarray(columns["winner_team"], np.int64)
        end = _end_codes(columns["end"])
        turns = np.asarray(columns["turns"], np.int64)
        first_team = np.asarray(columns["first_sequence_team"], np.int64)
        first_turn = np.asarray(columns["first_sequence_turn"], np.int64)
        size = max(max_turns, int(turns.max(initial=0)), int(first_turn.max(initial=0))) + 1
        cell = (((game % teams) * 4 + (winner + 1)) * 3 + end) * 4 + (first_team + 1)
        outcomes = np.bincount(cell, minlength=teams * 48).reshape(teams, 4, 3, 4)
        sums = np.array([int(np.asarray(columns[c], np.int64).sum()) if c in columns else 0 for c in SUMMED], np.int64)
        has_first = first_team >= 0
        return cls(
            teams,
            outcomes.astype(np.int64),
            np.bincount(turns, minlength=size).astype(np.int64),
            np.bincount(first_turn[has_first], minlength=size).astype(np.int64),
            sums,
            closing=np.bincount(turns[has_first] - first_turn[has_first], minlength=size).astype(np.int64),
            lead_changes=np.bincount(_recorded(columns, "lead_changes"), minlength=1).astype(np.int64),
        )

    def __add__(self, other: Aggregate) -> Aggregate:
        size = max(len(self.length), len(other.length))
        leads = max(len(self.lead_changes), len(other.lead_changes))
        return Aggregate(
            self.teams,
            self.outcomes + other.outcomes,
            _pad(self.length, size) + _pad(other.length, size),
            _pad(self.first_turn, size) + _pad(other.first_turn, size),
            self.sums + other.sums,
            self.duplicates + other.duplicates,
            _pad(self.closing, size) + _pad(other.closing, size),
            _pad(self.lead_changes, leads) + _pad(other.lead_changes, leads),
        )

    @property
    def games(self) -> int:
        return int(self.outcomes.sum())

    # --- the counts reports read -------------------------------------------------------

    def wins(self) -> np.ndarray:
        """(teams,) games won by each team."""
        return self.outcomes.sum(axis=(0, 2, 3))[1 : 1 + self.teams]

    @property
    def draws(self) -> int:
        """Games without a winner."""
        return int(self.outcomes[:, 0].sum())

    @property
    def decided(self) -> int:
        """Games with a winner."""
        return self.games - self.draws

    def ends(self) -> np.ndarray:
        """(3,) games by end: win, stalemate, turn_cap."""
        return self.outcomes.sum(axis=(0, 1, 3))

    def wins_by_rotation(self) -> np.ndarray:
        """(teams, teams) games won by team t in rotation r (game % teams), [r, t]."""
        return self.outcomes.sum(axis=(2, 3))[:, 1 : 1 + self.teams]

    def first_sequences(self) -> tuple[int, int, int]:
        """(games with a first sequence, of them decided, of them won by the team that completed it)."""
        by = self.outcomes.sum(axis=(0, 2))  # [winner + 1, first team + 1]
        count = int(by[:, 1:].sum())
        decided = int(by[1:, 1:].sum())
        converted = int(sum(by[t + 1, t + 1] for t in range(self.teams)))
        return count, decided, converted

    def total(self, column: str) -> int:
        """The sum over the games of a column of SUMMED."""
        return int(self.sums[SUMMED.index(column)])

    @property
    def lead_recorded(self) -> int:
        """Games whose lead changes were recorded (0: a dataset written before the column existed)."""
        return int(self.lead_changes.sum())


def _recorded(columns, name: str) -> np.ndarray:
    """The values of column `name` of RECORDED_LATER in the rows that have it, as int64 (none if absent)."""
    if name not in columns:
        return np.zeros(0, np.int64)
    values = columns[name]
    if isinstance(values, pd.Series):
        values = values.to_numpy(np.float64, na_value=np.nan)
    values = np.asarray(values)
    if values.dtype.kind == "f":
        values = values[np.isfinite(values)]
    return values.astype(np.int64)


def _pad(a: np.ndarray, size: int) -> np.ndarray:
    return a if len(a) == size else np.concatenate([a, np.zeros(size - len(a), a.dtype)])


def _end_codes(end) -> np.ndarray:
    """The end column as codes 0..2 (from names, a categorical, or codes)."""
    if isinstance(end, (pa.ChunkedArray, pa.Array)):
        end = end.to_pandas()
    values = pd.Series(end) if not isinstance(end, pd.Series) else end
    if values.dtype.kind in "iu":
        return values.to_numpy(np.int64)
    codes = values.astype(str).map(END_CODES)
    if codes.isna().any():
        raise ValueError(f"unknown end values {sorted(set(values.astype(str)) - set(END_CODES))}")
    return codes.to_numpy(np.int64)


# --- a dataset, part by part ------------------------------------------------------


def part_columns(
    path: Path, teams: int, digest: str | None = None, checked: bytes | None = None
) -> dict[str, np.ndarray]:
    """The COLUMNS of one part file as numpy arrays (`end` as codes; those of RECORDED_LATER only where the part
    has them): all that is read of it, checked against `digest`, the sha256 its chunk log recorded
    (``simkit.running.parts.open_part``; DamagedPart when it fails; `checked`: its bytes, already checked)."""

    part = open_part(path, digest, checked)
    present = set(part.schema_arrow.names)
    table = read_columns(part, path, [c for c in COLUMNS if c in present or c not in RECORDED_LATER])
    out = {name: table.column(name).to_numpy() for name in table.column_names if name != "end"}
    out["end"] = part_end_codes(table.column("end"))
    return out


@dataclass
class FoundRun:
    """One run under a directory, aggregated part by part (``runs_of``)."""

    run_id: str
    directory: Path
    games_asked: int
    config: dict
    swapped: bool
    aggregate: Aggregate
    unreadable: list[Path] = field(default_factory=list)
    left_out: list = field(default_factory=list)  # the parts left out, as simkit.running.parts.UnreadablePart (why)
    missing: list[tuple[int, int]] = field(default_factory=list)  # [first, end) of the games no part gave
    run: Run | None = None  # the first simkit.running.reading.Run found of it

    def shortfall(self):
        """What the run lacks (simkit.running.reading.Shortfall), None when nothing."""

        return Shortfall.of_ranges(self.run, self.missing, self.left_out) if self.run is not None else None


def _config_of(identity: dict) -> tuple[dict, bool, int, int]:
    """(configuration columns, swapped, teams, max turns) of a run, from its identity."""

    given = identity.get("rules", {})
    values: dict = {}
    for name, option in OPTIONS.items():  # an option an older version lacked was at its default
        value = given.get(name, option.default_for(values))
        values[name] = tuple(value) if isinstance(value, list) else value
    config = {name: OPTIONS[name].column_value(v) for name, v in values.items()}
    seat_policies = identity.get("seat_policies") or [",".join(p["name"] for p in identity.get("policies", []))]
    config["policies"] = seat_policies[0]
    config["seed"] = identity.get("seed")
    return config, bool(identity.get("swap_seats")), int(values["teams"]), int(values["max_turns"])


def runs_of(root: Path) -> Iterator[FoundRun]:
    """Every run under `root`, each aggregated from its parts, one part in memory at a time.

    The same run found twice (a copied folder) is counted once, game by game
    (parts of the copies that cover games already counted are skipped, or
    cut where they overlap); a part that cannot be read, or fails its check
    (its bytes against the digest its chunk log recorded; without one, its
    pages against their checksums), is listed in ``unreadable`` and ``left_out`` and its
    games are left out; ``missing`` gives the games no part gave.
    """

    runs = find_runs(root)
    if not any(r.parts for r in runs):
        raise ds.DatasetError(f"{root} holds no finished part files yet")
    copies: dict[str, list] = {}
    for r in runs:
        copies.setdefault(r.run_id, []).append(r)
    for rid, found in copies.items():
        first = found[0]
        config, swapped, teams, max_turns = _config_of(first.manifest.get("identity", {}))
        left_out: list = []
        parts = []
        for run in found:
            for path in run.parts:
                logged = run.chunk_of(path)
                if logged is not None:  # placed by its log line; its bytes are checked as it is read
                    parts.append((*logged, str(path), run.digest(path)))
                    continue
                try:
                    meta = read_part_metadata(path)
                except ds.DatasetError as e:
                    left_out.append(e if isinstance(e, UnreadablePart) else UnreadablePart(path, str(e)))
                    continue
                if meta.get("first_game") is None:  # written before parts said which games they hold
                    games = pq.read_table(path, columns=["game"]).column("game").to_numpy()
                    meta = {"first_game": int(games.min()), "games": len(games)}
                parts.append((int(meta["first_game"]), int(meta["games"]), str(path), run.digest(path)))
        total = Aggregate.empty(teams, max_turns)
        covered = 0
        missing: list[tuple[int, int]] = []
        parts = sorted(parts)
        checked = _Checked([(Path(path), digest) for _, _, path, digest in parts])
        try:
            for i, (first_game, games, path, digest) in enumerate(parts):
                if first_game + games <= covered:
                    total.duplicates += games
                    continue
                try:
                    columns = part_columns(Path(path), teams, digest, checked.bytes_of(i))
                except UnreadablePart as e:
                    left_out.append(e)
                    continue
                except Exception as e:  # noqa: BLE001 - any failure to read is a part left out, named in the report
                    left_out.append(UnreadablePart(Path(path), " ".join(str(e).split())))
                    continue
                if first_game < covered:
                    keep = columns["game"] >= covered
                    total.duplicates += int((~keep).sum())
                    columns = {k: v[keep] for k, v in columns.items()}
                elif first_game > covered:
                    missing.append((covered, first_game))
                total = total + Aggregate.of_rows(columns, teams, max_turns)
                covered = max(covered, first_game + games)
        finally:
            checked.close()
        if covered < first.games:
            missing.append((covered, first.games))
        yield FoundRun(
            rid,
            first.directory,
            first.games,
            config,
            swapped,
            total,
            [e.path for e in left_out],
            left_out,
            missing,
            first,
        )


class _Checked:
    """The bytes of a run's parts, each checked against its digest (simkit.running.parts.part_bytes), the next part's
    read and hashed in a thread while the caller decodes this one: the check costs (almost) no wall time."""

    def __init__(self, parts: list[tuple[Path, str | None]]):

        self.parts = parts
        self.ahead: dict[int, Future[bytes]] = {}
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="simkit-check")

    def _fetch(self, i: int) -> None:

        if i < len(self.parts) and i not in self.ahead:
            self.ahead[i] = self.pool.submit(part_bytes, *self.parts[i])

    def bytes_of(self, i: int) -> bytes:
        """Part i's bytes, checked (UnreadablePart, DamagedPart), part i + 1's on their way."""
        self._fetch(i)
        self._fetch(i + 1)
        for j in [j for j in self.ahead if j < i]:  # parts skipped (copies of games already counted)
            self.ahead.pop(j).cancel()
        return self.ahead.pop(i).result()

    def close(self) -> None:
        for future in self.ahead.values():
            future.cancel()
        self.pool.shutdown(wait=True)


def _winner_parts(directory: Path) -> list[tuple[int, int, Path, str | None]]:
    """(first game, games, path, recorded digest) of every readable part of the run in `directory`, by first
    game."""

    digests = mf.digests(directory)
    parts = []
    for path in sorted(Path(directory).glob(ds.PART_GLOB)):
        meta = read_part_metadata(path)
        first = int(meta["first_game"])
        parts.append(
            (first, int(meta["games"]), path, digests.get(first) if path.name == ds.part_name(first) else None)
        )
    return sorted(parts)


@dataclass
class Pairs:
    """Two runs' games paired by game index (the same deals when they share a seed).

    winners: (teams + 1, teams + 1) pairs by (winner in A + 1, winner in B +
    1), a draw being -1; ends: (3, 3) pairs by (end in A, end in B); turns:
    the sums over the pairs of a, b, a*a, b*b and a*b for the game lengths a
    (in A) and b (in B); n: the pairs.
    """

    winners: np.ndarray
    ends: np.ndarray
    turns: np.ndarray
    n: int


def paired(dir_a: Path, dir_b: Path, teams: int) -> Pairs:
    """The games both runs played, paired by index (``simkit.analysis.stats.shift`` and ``paired_difference`` read
    them). Reads three columns, one part of each run at a time, each part checked (simkit.running.parts.open_part:
    DamagedPart when it fails)."""

    pairs = Pairs(np.zeros((teams + 1, teams + 1), np.int64), np.zeros((3, 3), np.int64), np.zeros(5, np.int64), 0)
    b_parts = _winner_parts(dir_b)
    cache: dict[Path, dict] = {}

    def columns(path: Path, digest: str | None) -> dict:
        table = read_columns(open_part(path, digest), path, ["winner_team", "end", "turns"])
        codes = part_end_codes(table.column("end"))
        return {
            "winner": table.column("winner_team").to_numpy().astype(np.int64) + 1,
            "end": codes,
            "turns": table.column("turns").to_numpy().astype(np.int64),
        }

    def of_b(path: Path, digest: str | None) -> dict:
        if path not in cache:
            cache.clear()  # one part of B in memory at a time (parts are visited in game order)
            cache[path] = columns(path, digest)
        return cache[path]

    for a_first, a_games, a_path, a_digest in _winner_parts(dir_a):
        a = columns(a_path, a_digest)
        for b_first, b_games, b_path, b_digest in b_parts:
            lo, hi = max(a_first, b_first), min(a_first + a_games, b_first + b_games)
            if lo >= hi:
                continue
            b = of_b(b_path, b_digest)
            x = {k: v[lo - a_first : hi - a_first] for k, v in a.items()}
            y = {k: v[lo - b_first : hi - b_first] for k, v in b.items()}
            size = teams + 1
            pairs.winners += np.bincount(x["winner"] * size + y["winner"], minlength=size * size).reshape(size, size)
            pairs.ends += np.bincount(x["end"] * 3 + y["end"], minlength=9).reshape(3, 3)
            ta, tb = x["turns"], y["turns"]
            pairs.turns += np.array([ta.sum(), tb.sum(), (ta * ta).sum(), (tb * tb).sum(), (ta * tb).sum()])
            pairs.n += hi - lo
    return pairs


def part_end_codes(end) -> np.ndarray:
    """A part's end column (Arrow, dictionary-encoded or not) as codes 0..2."""
    end = end.combine_chunks() if hasattr(end, "combine_chunks") else end
    if hasattr(end.type, "index_type"):  # map the few names, not every row
        lookup = np.array([END_CODES[str(v)] for v in end.dictionary.to_pylist()], np.int64)
        return lookup[end.indices.to_numpy()]
    return _end_codes(end)
