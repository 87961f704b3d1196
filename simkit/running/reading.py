"""The runs under a folder read as one table of games, and what they lack: a run with fewer games than it
was asked for, or with parts that fail their check (simkit.running.parts), is refused (IncompleteDataset)
or, on request, read with a warning; either says the `simkit run` command that completes it.
"""

from __future__ import annotations

import shlex
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from simkit.game.options import OPTIONS, is_default, sizes_text
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels import GAMES_STAMP
from simkit.running import dataset as ds
from simkit.running import manifest as mf
from simkit.running.dataset import MANIFEST, PART_GLOB, DatasetError, read_manifest
from simkit.running.manifest import part_name
from simkit.running.parts import DamagedPart, UnreadablePart, open_part, read_columns
from simkit.version import VERSION


@dataclass(frozen=True)
class Run:
    """One run found under a directory: its manifest, its finished parts and the digests its chunk log
    recorded of them (part file name -> sha256; a part without one is read unchecked, as before)."""

    directory: Path
    manifest: dict
    parts: list[Path]
    digests: dict[str, str] = field(default_factory=dict)
    logged: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (first game, games), digest given

    def digest(self, path: Path) -> str | None:
        """The digest recorded of the part at `path` when it was written, None if none was."""
        return self.digests.get(Path(path).name) if Path(path).parent == self.directory else None

    def chunk_of(self, path: Path) -> tuple[int, int] | None:
        """(first game, games) of the part at `path` as its chunk log recorded them with its digest: what its
        footer says, if its bytes are the ones written (a reader checks them against the digest), so a reader
        need not open its footer to place it; None if the log gives no digest of it."""
        return self.logged.get(Path(path).name) if Path(path).parent == self.directory else None

    @property
    def run_id(self) -> str:
        """The identity's hash (old-format runs: the hash of their manifest's identity)."""
        return self.manifest.get("run_id") or "v1-" + ds.run_id(self.manifest.get("identity", {}))

    @property
    def games(self) -> int:
        """Games the run was asked for."""
        return int(self.manifest.get("games", 0))

    @property
    def games_on_disk(self) -> int:
        """Games in its finished chunks, as the manifest records them."""
        return sum(c["games"] for c in self.manifest.get("chunks", []) if c.get("done"))


def find_runs(root: Path) -> list[Run]:
    """Every run under `root` (the run itself or a folder of runs)."""
    root = Path(root)
    if not root.exists():
        raise DatasetError(f"{root} does not exist; give the folder `simkit run --out` or `simkit study --out` wrote")
    if not root.is_dir():
        raise DatasetError(f"{root} is a file, not a dataset folder; give the folder `simkit run --out` wrote")
    manifests = sorted(root.rglob(MANIFEST))
    if not manifests:
        raise DatasetError(f"{root} holds no simkit dataset (no {MANIFEST} found); create one with `simkit run`")
    return [
        Run(m.parent, _found_manifest(m.parent), sorted(m.parent.glob(PART_GLOB)), *_checked_chunks(m.parent))
        for m in manifests
    ]


def _found_manifest(directory: Path) -> dict:
    """The manifest of a run whose manifest file was found in `directory`."""
    manifest = read_manifest(directory)
    assert manifest is not None, f"{directory / MANIFEST} was found, so it is read"
    return manifest


def _checked_chunks(directory: Path) -> tuple[dict[str, str], dict[str, tuple[int, int]]]:
    """(part file name -> the sha256 the run's chunk log recorded of it, name -> (first game, games)) for
    the chunks the log gives a digest (simkit.running.manifest.checked_chunks)."""
    try:
        chunks = mf.checked_chunks(directory)
    except mf.ManifestError as e:
        raise DatasetError(str(e)) from None
    return ({part_name(f): d for f, (_, d) in chunks.items()}, {part_name(f): (f, n) for f, (n, _) in chunks.items()})


def _read_part(path: Path, run: Run, columns: list[str] | None) -> pa.Table:
    """One part as a table of the current schema (old-format parts are brought up to it), checked
    (open_part): UnreadablePart or DamagedPart when it fails."""
    table = read_columns(open_part(path, run.digest(path)), path)
    if b"simkit" not in (table.schema.metadata or {}):
        raise DatasetError(f"{path} is not a simkit part file (no simkit metadata)")
    if "run_id" not in table.column_names:  # simkit.running.dataset/1: an int8 hand size, no run_id
        n = len(table)
        hand = table.column("hand_size").cast(pa.string()).dictionary_encode().cast(ds.STRING)
        table = table.set_column(table.schema.get_field_index("hand_size"), "hand_size", hand)
        table = table.append_column("run_id", ds.text_column([run.run_id], np.zeros(n, np.int8)))
    for name in OPTIONS:  # written before the option existed: the game was played at its default
        if name not in table.column_names:
            table = table.append_column(
                pa.field(name, ds.OPTION_TYPES[name], nullable=False),
                ds.option_column(name, OPTIONS[name].default, len(table)),
            )
    table = table.select([f for f in ds.SCHEMA.names if f in table.column_names])
    return table if columns is None else table.select([c for c in columns if c in table.column_names])


def read_games(root: Path, columns: list[str] | None = None, allow_incomplete: bool = False):
    """All per-game rows under `root` as a pandas DataFrame, in run and game order.

    The same run found twice (a copied folder) gives its games once. A run
    with fewer games than it was asked for, or a part that fails its check
    (``open_part``), raises IncompleteDataset saying what is missing and the
    command that completes it; allow_incomplete: the rows there are, with an
    IncompleteDatasetWarning saying the same.
    """
    return read_runs(root, columns, allow_incomplete)[0]


def read_runs(root: Path, columns: list[str] | None = None, allow_incomplete: bool = False):
    """(rows, runs): the rows under `root` and the Run of every run_id in them.

    rows: a pandas DataFrame, each (run_id, game) once, in run and game
    order; rows.attrs["duplicates"] maps a run_id to the rows dropped as
    copies of its games (the same run found twice, e.g. a copied folder);
    rows.attrs["shortfalls"] lists the runs that lack games (Shortfall: with
    allow_incomplete only, else IncompleteDataset is raised).
    """
    runs = find_runs(root)
    if not any(r.parts for r in runs):
        raise DatasetError(f"{root} holds no finished part files yet")
    tables: list[pa.Table] = []
    damaged: dict[str, list[UnreadablePart]] = {}
    for r in runs:
        for p in r.parts:
            try:
                table = _read_part(p, r, None)
            except UnreadablePart as e:
                damaged.setdefault(r.run_id, []).append(e)
                continue
            tables.append(table)
    by_id: dict[str, Run] = {}
    for r in runs:
        by_id.setdefault(r.run_id, r)
    found: dict[str, list[np.ndarray]] = {rid: [] for rid in by_id}
    for t in tables:
        if len(t):
            found.setdefault(t.column("run_id")[0].as_py(), []).append(t.column("game").to_numpy())
    shortfalls = [
        short
        for rid, r in by_id.items()
        if (short := Shortfall.of(r, np.concatenate([np.zeros(0, np.int64), *found[rid]]), damaged.get(rid, [])))
    ]
    check_complete(
        root, shortfalls, allow_incomplete, "read_games(..., allow_incomplete=True) returns the rows there are"
    )
    tables = [t if columns is None else t.select([c for c in columns if c in t.column_names]) for t in tables]
    if not tables:
        table = pa.table(
            {c: pa.array([], ds.SCHEMA.field(c).type) for c in (columns or ds.SCHEMA.names) if c in ds.SCHEMA.names}
        )
    else:
        try:
            table = pa.concat_tables(tables, promote_options="permissive")
        except pa.ArrowException as e:
            raise DatasetError(f"part files under {root} do not share one schema ({e})") from None
    df = table.to_pandas()
    duplicates: dict[str, int] = {}
    if "run_id" in df and "game" in df:
        copies = df.duplicated(["run_id", "game"])
        if copies.any():
            duplicates = {str(k): int(v) for k, v in df.loc[copies, "run_id"].value_counts().items() if v}
            df = df[~copies]
        df = df.sort_values(["run_id", "game"], kind="stable").reset_index(drop=True)
    df.attrs["duplicates"] = duplicates
    df.attrs["shortfalls"] = shortfalls
    return df, by_id


# --- a dataset that lacks games ------------------------------------------------------


class IncompleteDataset(DatasetError):
    """A dataset with fewer games than its runs were asked for, or with parts that fail their check: what a
    reader refuses to summarise silently. `lines` say what is missing and the commands that complete it."""

    def __init__(self, lines: list[str], shortfalls: list[Shortfall]):
        super().__init__("\n".join(lines))
        self.lines, self.shortfalls = lines, shortfalls


class IncompleteDatasetWarning(UserWarning):
    """Rows or a report of a dataset that lacks games, given on purpose (allow_incomplete=True)."""


def _always_warn() -> None:
    """Every read of a dataset that lacks games warns, not only the first from a line of code (Python's default)."""

    warnings.filterwarnings("always", category=IncompleteDatasetWarning)


_always_warn()


@dataclass
class Shortfall:
    """What one run under a dataset lacks: the games it was asked for and found, its parts left out (each an
    UnreadablePart saying why: damaged, unreadable) and the ranges [first, end) of games no part gave."""

    run: Run
    found: int
    left_out: list[UnreadablePart]
    missing: list[tuple[int, int]]

    @classmethod
    def of(cls, run: Run, games: np.ndarray, left_out: list[UnreadablePart]) -> Shortfall | None:
        """The shortfall of `run` whose parts gave the game indices `games`, None when it lacks nothing."""
        present = np.zeros(run.games, np.bool_)
        games = np.asarray(games, np.int64)
        present[games[(games >= 0) & (games < run.games)]] = True
        return cls.of_ranges(run, _ranges(~present), left_out)

    @classmethod
    def of_ranges(cls, run: Run, missing: list[tuple[int, int]], left_out: list[UnreadablePart]) -> Shortfall | None:
        """The shortfall of `run` lacking the game ranges `missing`, None when it lacks nothing."""
        if not missing and not left_out:
            return None
        return cls(run, run.games - sum(b - a for a, b in missing), list(left_out), list(missing))

    def lines(self) -> list[str]:
        """What the run lacks and the command that completes it, as a report's and an error's first lines."""
        what = [f"{self.run.directory}: {self.found:,} of {self.run.games:,} games"]
        for e in self.left_out:
            name = e.path.name if e.path.parent == self.run.directory else str(e.path)
            what.append(f"{'damaged' if isinstance(e, DamagedPart) else 'unreadable'} {name} ({e.why})")
        if self.missing:
            shown = ", ".join(f"{a:,}-{b - 1:,}" if b - a > 1 else f"{a:,}" for a, b in self.missing[:3])
            more = f" and {len(self.missing) - 3} more ranges" if len(self.missing) > 3 else ""
            what.append(f"games {shown}{more} missing")
        out = ["  " + "; ".join(what)]
        folders = list(
            dict.fromkeys([*(e.path.parent for e in self.left_out), *([self.run.directory] if self.missing else [])])
        )
        for folder in folders:
            command, why = run_command(self.run.manifest, folder)
            out.append(f"  complete it: {command}" if command else f"  {why}")
        return out


def _ranges(mask: np.ndarray) -> list[tuple[int, int]]:
    """The [start, end) ranges where `mask` is True."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(np.int8), [0]])))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2])]


def shortfall_lines(root: Path, shortfalls: list[Shortfall], then: str) -> list[str]:
    """The lines that say a dataset lacks games: a first line, the runs' (Shortfall.lines), and `then`."""
    left_out = sum(len(s.left_out) for s in shortfalls)
    damage = f", {left_out} part{'s' if left_out != 1 else ''} left out as damaged or unreadable" if left_out else ""
    runs = f"{len(shortfalls)} run{'s' if len(shortfalls) != 1 else ''}"
    first = (
        f"{root} is incomplete: {runs} lack{'s' if len(shortfalls) == 1 else ''} games{damage}; "
        "whatever is summarised of it would be partial"
    )
    return [first, *(line for s in shortfalls for line in s.lines()), f"  {then}"]


def check_complete(root: Path, shortfalls: list[Shortfall], allow_incomplete: bool, then: str) -> None:
    """Refuse a dataset that lacks games: IncompleteDataset (its lines say what is missing, the commands that
    complete it and `then`, what allows the partial result); allow_incomplete: an IncompleteDatasetWarning."""
    if not shortfalls:
        return
    lines = shortfall_lines(root, shortfalls, then)
    if not allow_incomplete:
        raise IncompleteDataset(lines, shortfalls)

    warnings.warn("\n".join(lines[:-1]), IncompleteDatasetWarning, stacklevel=3)


def run_command(manifest: dict, out: Path) -> tuple[str | None, str]:
    """(the `simkit run` command that completes the run of `manifest` in `out`, None if this simkit cannot;
    why not). The command names every option that decides the run's identity, so it is that run's."""

    identity = manifest.get("identity") or {}
    games = manifest.get("games")
    wrote = identity.get("simkit") or manifest.get("versions", {}).get("simkit", "an older simkit")
    cannot = (
        f"this simkit cannot complete it (written by simkit {wrote}, kernel "
        f"{identity.get('kernel') or manifest.get('versions', {}).get('kernel_sources', '?')}; this is "
        f"{identity_now()}): complete it with that version, or replay it whole with `simkit run --overwrite`"
    )
    try:
        given = {k: tuple(v) if isinstance(v, list) else v for k, v in identity["rules"].items() if k in OPTIONS}
        rules = Rules.make(**given)
        lineup = Lineup.parse(identity["lineup"], rules, bool(identity.get("swap_seats")))
        same = ds.run_id(ds.identity_of(rules, lineup, identity["seed"])) == manifest.get("run_id")
    except (KeyError, TypeError, ValueError, AttributeError):
        return None, cannot
    if not same or not isinstance(games, int):
        return None, cannot
    words = ["simkit", "run", "--games", str(games), "--policy", lineup.spec]
    if lineup.swap_seats:
        words.append("--swap-seats")
    words += ["--seed", str(identity["seed"])]
    values = rules.values()
    for name, value in values.items():
        option = OPTIONS[name]
        if name != "players" and is_default(name, value, values):
            continue
        if option.kind == "bool":
            words.append(option.flag if value else f"--no-{option.flag[2:]}")
        else:
            words += [option.flag, sizes_text(value) if option.kind in ("sizes", "counts") else str(value)]
    words += ["--out", str(out)]
    return " ".join(shlex.quote(w) for w in words), ""


def identity_now() -> str:
    """'simkit 0.5.0, kernel <stamp>': the version of simkit and of its games this is."""

    return f"simkit {VERSION}, kernel {GAMES_STAMP}"
