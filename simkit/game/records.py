"""Game records in the simkit.game/1 format (docs/RECORD.md)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from simkit.files.atomic import replacing, reporting_write_errors
from simkit.game.cards import board_names, card_name, cell_name, tables
from simkit.game.play import play_logged
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels.core import state as ks
from simkit.kernels.core.stats import END_NAMES

FORMAT = "simkit.game/1"


def _card(code: int) -> str | None:
    return None if code < 0 else card_name(code)


def game_record(rules: Rules, lineup: Lineup, seed: int, game: int) -> dict:
    """Play game `game` of seed `seed` and return its record as a dict."""
    st, log, stats = play_logged(rules, lineup, seed, game)
    tb = tables(rules.layout)
    turns = []
    for row in log[: stats.turns]:
        action = int(row.action)
        turns.append(
            {
                "seat": int(row.seat),
                "dead": _card(row.dead),
                "card": _card(row.card),
                "action": ks.ACTION_NAMES[action],
                "cell": None if action == ks.ACT_PASS else int(row.cell),
                "cell_name": None if action == ks.ACT_PASS else cell_name(int(row.cell)),
                "drawn": [card_name(c) for c in row.drawn[: row.ndrawn]],
                "reshuffle": bool(row.reshuffle),
                "sequences": [[int(c) for c in tb.line_cells[k]] for k in row.seqs[: row.nseq]],
            }
        )
    winner = int(stats.winner_team)
    return {
        "format": FORMAT,
        "rules": rules.record_rules(),
        "policies": lineup.names,
        "seed": seed,
        "game": game,
        "board": list(board_names(rules.layout)),
        "hands": [[card_name(c) for c in st.dealt[s] if c >= 0] for s in range(rules.players)],
        "turns": turns,
        "result": {
            "winner_team": None if winner < 0 else winner,
            "end": END_NAMES[stats.end],
            "turns": len(turns),
            "sequences": [int(st.nseq[t]) for t in range(rules.teams)],
        },
    }


def write_records(path: Path, records: Iterable[dict]) -> tuple[int, bool]:
    """Write records as JSON Lines to `path`, whole or not at all: (how many, interrupted).

    Ctrl-C while the records are produced keeps the ones already finished:
    the file is completed with them and `interrupted` is True (before the
    first game finishes, no file is written and KeyboardInterrupt goes on).
    """
    n, interrupted = 0, False
    with (
        reporting_write_errors(path, "re-run the command to write the records again"),
        replacing(path) as tmp,
        tmp.open("w", encoding="utf-8") as f,
    ):
        try:
            for rec in records:
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                n += 1
        except KeyboardInterrupt:
            # Ctrl-C can land between the write and the count: count what the file holds.
            f.flush()
            n = tmp.read_text(encoding="utf-8").count("\n")
            if n == 0:
                raise  # no game finished: no file
            interrupted = True
    return n, interrupted


def check_writable(path: Path, force: bool = False) -> None:
    """Refuse, before any game is played, a record file that cannot or should not be written."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(
            f"cannot write records to {path}: it is a directory; give a file name, e.g. {path}/games.jsonl"
        )
    if path.exists() and not force:
        raise ValueError(f"{path} already exists; use --force to replace it, or choose another --record")
    parent = path.parent
    if not parent.exists():
        raise ValueError(f"cannot write {path}: the folder {parent} does not exist")
    if not parent.is_dir():
        raise ValueError(f"cannot write {path}: {parent} is a file, not a folder")
    try:
        fd, probe = tempfile.mkstemp(dir=parent, prefix=f".{path.name}.", suffix=".probe.tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise ValueError(f"cannot write {path}: {e.strerror or e}") from None


def read_records(path: Path) -> list[dict]:
    """All records of a JSON Lines file."""
    with Path(path).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
