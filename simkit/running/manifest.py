"""A run's manifest: a small header, and an append-only log of its finished chunks.

    DIR/_manifest.json   the header: format, run_id, identity, games, chunk_size, versions, columns, chunk_log
    DIR/_chunks.log      one line per finished chunk: {"first_game":100000,"games":100000,"sha256":"9f86..."}
    DIR/_times.log       one line per command that played games: {"games":200000,"seconds":4.21}

The games of a run are cut into chunks of chunk_size consecutive games
(``chunk_list``); chunk `first` is the part file ``part_name(first)``.
This module owns that format; ``simkit.running.dataset`` writes the parts and reads
runs through it, and never the other way round.

A finished chunk costs one appended, fsynced line (about 120 bytes), however
long the run; the header and the log are rewritten whole (durably, see
``simkit.files.atomic.replacing``) only when a run starts, resumes or grows, from
the part files on disk. A line is appended only once its part is on disk
for good, so the log never claims a missing part; a torn last line (a power
loss mid-append) is skipped.

Each line also holds the sha256 of its part's bytes as they were written
(``digests``): every reader of the part compares it with the file's
(``simkit.running.dataset``), so a part damaged since, by a single bit, is never
read as other numbers. A line without one (a log written before parts had
their digest) checks nothing, as before; ``sha256sum part-*.parquet``
checks the same digests by hand.

The times log says what playing the run took on the machine that played it:
the wall time of each command (or each resume) from its first game to its
last, compile excluded. It is no part of the run's identity or rows.

``read`` gives the manifest as simkit 0.4.0 wrote it whole after every
chunk: the header with a ``chunks`` list (first_game, games, file, done)
and a ``complete`` flag. A 0.4.0 manifest, which holds its ``chunks`` list
itself, is read as it is; resuming its run writes the new layout.
"""

from __future__ import annotations

import json
from pathlib import Path

from simkit.files.atomic import append_line, replacing, reporting_write_errors

FORMAT = "simkit.running.dataset/2"  # of the header and of every part's metadata
OLD_FORMATS = ("simkit.running.dataset/1",)  # read by reports, never resumed
HEADER = "_manifest.json"  # "_": Parquet readers skip it, so pandas.read_parquet(DIR) works
LOG = "_chunks.log"  # "_": Parquet readers skip it, as they skip the header
TIMES = "_times.log"  # the wall time of each command that played games
RESUMING = "re-running the same command resumes where this run stopped"
DIGEST = "sha256"  # the key of a log line's digest of its part's bytes


class ManifestError(ValueError):
    """A manifest that cannot be read; the message says which file and why."""


def part_name(first_game: int) -> str:
    """File name of the part that starts at game `first_game`."""
    return f"part-{first_game:012d}.parquet"


def writing(path: Path):
    """Disk trouble while writing a run's file (a part, the header, the log), said plainly
    (simkit.files.atomic.reporting_write_errors)."""
    return reporting_write_errors(path, RESUMING)


def chunk_list(games: int, chunk_size: int) -> list[tuple[int, int]]:
    """(first game, number of games) of each chunk of a run."""
    return [(g, min(chunk_size, games - g)) for g in range(0, games, chunk_size)]


def header(identity: dict, games: int, chunk_size: int, *, run_id: str, versions: dict, columns: list[str]) -> dict:
    """What the header says of a run (no chunks: they are in the log): its identity and that identity's
    hash `run_id`, the `versions` that wrote it and the `columns` of its parts (``simkit.running.dataset``)."""
    return {
        "format": FORMAT,
        "run_id": run_id,
        "identity": identity,
        "games": games,
        "chunk_size": chunk_size,
        "versions": versions,
        "columns": list(columns),
        "chunk_log": LOG,
    }


def _line(first: int, games: int, digest: str | None = None) -> str:
    entry = {"first_game": first, "games": games, **({DIGEST: digest} if digest else {})}
    return json.dumps(entry, separators=(",", ":"))


def start(directory: Path, head: dict, done: list[tuple[int, int]], digests: dict[int, str] | None = None) -> None:
    """Write the log of the chunks `done` (first, games), each with its part's digest where `digests` (first ->
    sha256) has one, then the header: the run's bookkeeping from now on."""
    directory = Path(directory)
    digests = digests or {}
    with writing(directory / LOG), replacing(directory / LOG) as tmp:
        tmp.write_text("".join(_line(f, n, digests.get(f)) + "\n" for f, n in sorted(done)), encoding="utf-8")
    with writing(directory / HEADER), replacing(directory / HEADER) as tmp:
        tmp.write_text(json.dumps(head, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def record(directory: Path, first: int, games: int, digest: str | None = None) -> None:
    """Chunk `first` of `games` games is on disk, its part's bytes of sha256 `digest`: one line appended to
    the log."""
    path = Path(directory) / LOG
    with writing(path):
        append_line(path, _line(first, games, digest))


def _entries(directory: Path) -> list[dict]:
    """The log's lines that parse, in order; lines that do not (a torn tail) are skipped."""
    path = Path(directory) / LOG
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as e:
        raise ManifestError(f"{path} cannot be read ({e.strerror or e})") from None
    out = []
    for line in text.split(b"\n")[:-1]:  # the piece after the last newline is empty or torn
        try:
            entry = json.loads(line)
            out.append({**entry, "first_game": int(entry["first_game"]), "games": int(entry["games"])})
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return out


def logged(directory: Path) -> set[tuple[int, int]]:
    """(first, games) of every chunk the log records; lines that do not parse (a torn tail) are skipped."""
    return {(e["first_game"], e["games"]) for e in _entries(directory)}


def digests(directory: Path) -> dict[int, str]:
    """first game -> the sha256 (hex) of its part's bytes as written, for every chunk the log gives one
    (none in a log written before parts had their digest, nor for a 0.4.0 manifest)."""
    return {first: digest for first, (_, digest) in checked_chunks(directory).items()}


def checked_chunks(directory: Path) -> dict[int, tuple[int, str]]:
    """first game -> (games, the sha256 of its part's bytes as written), for every chunk the log gives a digest."""
    return {
        e["first_game"]: (e["games"], e[DIGEST])
        for e in _entries(directory)
        if isinstance(e.get(DIGEST), str) and len(e[DIGEST]) == 64
    }


def record_time(directory: Path, games: int, seconds: float) -> None:
    """A command played `games` games of the run in `seconds` of wall time: one line appended."""
    path = Path(directory) / TIMES
    with writing(path):
        append_line(path, json.dumps({"games": int(games), "seconds": round(float(seconds), 3)}, separators=(",", ":")))


def played_seconds(directory: Path) -> float | None:
    """The wall time the times log records for the run, in seconds; None when it records none (a run
    played before the log existed). A torn or unreadable line is skipped."""
    try:
        text = (Path(directory) / TIMES).read_bytes()
    except OSError:
        return None
    total, found = 0.0, False
    for line in text.split(b"\n")[:-1]:
        try:
            total += float(json.loads(line)["seconds"])
            found = True
        except (ValueError, KeyError, TypeError):
            continue
    return total if found else None


def read(directory: Path) -> dict | None:
    """The run's manifest with its chunks list and complete flag (as 0.4.0 wrote it), or None where there is none;
    ManifestError if it cannot be read."""
    path = Path(directory) / HEADER
    if not path.exists():
        return None
    try:
        head = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ManifestError(f"{path} is not a readable simkit manifest ({e})") from None
    if not isinstance(head, dict) or head.get("format") not in (FORMAT, *OLD_FORMATS):
        raise ManifestError(f"{path} is not a simkit dataset manifest (format {FORMAT!r} expected)")
    if "chunks" in head or "chunk_log" not in head:  # written whole (0.4.0 and earlier)
        return head
    games, size = head.get("games"), head.get("chunk_size")
    if not (isinstance(games, int) and isinstance(size, int) and games >= 1 and size >= 1):
        raise ManifestError(f"{path} is not a readable simkit manifest (games {games!r}, chunk_size {size!r})")
    done = logged(directory)
    chunks = [
        {"first_game": f, "games": n, "file": part_name(f), "done": (f, n) in done} for f, n in chunk_list(games, size)
    ]
    return {**head, "chunks": chunks, "complete": all(c["done"] for c in chunks)}
