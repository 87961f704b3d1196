"""Game records in the simkit.game/1 format (docs/RECORD.md)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from simkit.atomic import replacing
from simkit.cards import board_names, card_name, tables
from simkit.kernels import state as ks
from simkit.play import play_logged
from simkit.policies import Lineup
from simkit.rules import Rules

FORMAT = "simkit.game/1"


def _card(code: int) -> str | None:
    return None if code < 0 else card_name(code)


def game_record(rules: Rules, lineup: Lineup, seed: int, game: int) -> dict:
    """Play game `game` of seed `seed` and return its record as a dict."""
    st = play_logged(rules, lineup, seed, game)
    tb = tables()
    stats = st.stats
    turns = []
    for row in st.log[: stats[ks.S_TURNS]]:
        action = int(row[ks.L_ACTION])
        turns.append({
            "seat": int(row[ks.L_SEAT]),
            "dead": _card(row[ks.L_DEAD]),
            "card": _card(row[ks.L_CARD]),
            "action": ks.ACTION_NAMES[action],
            "cell": None if action == ks.ACT_PASS else int(row[ks.L_CELL]),
            "drawn": [card_name(c) for c in row[ks.L_DRAWN0 : ks.L_DRAWN0 + row[ks.L_NDRAWN]]],
            "reshuffle": bool(row[ks.L_RESHUFFLE]),
            "sequences": [
                [int(c) for c in tb.line_cells[k]] for k in row[ks.L_SEQ0 : ks.L_SEQ0 + row[ks.L_NSEQ]]
            ],
        })
    winner = int(stats[ks.S_WINNER])
    return {
        "format": FORMAT,
        "rules": rules.as_dict(),
        "policies": lineup.names,
        "seed": seed,
        "game": game,
        "board": list(board_names()),
        "hands": [[card_name(c) for c in st.dealt[s, : rules.hand_size]] for s in range(rules.players)],
        "turns": turns,
        "result": {
            "winner_team": None if winner < 0 else winner,
            "end": ks.END_NAMES[stats[ks.S_END]],
            "turns": len(turns),
            "sequences": [int(st.nseq[t]) for t in range(rules.teams)],
        },
    }


def write_records(path: Path, records: Iterable[dict]) -> int:
    """Write records as JSON Lines to `path` (atomically); return how many."""
    n = 0
    with replacing(path) as tmp, tmp.open("w", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            n += 1
    return n


def read_records(path: Path) -> list[dict]:
    """All records of a JSON Lines file."""
    with Path(path).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
