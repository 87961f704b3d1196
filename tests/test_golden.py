"""The kernel's records against golden records written once by the naive engine.

tests/golden/*.jsonl were produced by tests/golden/make_golden.py (naive.py
only). They pin down the games docs/ENGINE.md describes: if the kernel's
record for the same (rules, seed, game) differs, the kernel changed how it
plays. Regenerate the files only when docs/ENGINE.md changes on purpose.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simkit.game.players import Lineup
from simkit.game.records import game_record
from simkit.game.rules import Rules
from tests import referee

GOLDEN_DIR = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN_DIR.glob("*.jsonl"))


def golden_records() -> list[tuple[str, dict]]:
    out = []
    for path in FILES:
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if line.strip():
                out.append((f"{path.stem}#{i}", json.loads(line)))
    return out


RECORDS = golden_records()


def describe_difference(got: dict, want: dict) -> str:
    """The first place where the kernel's record departs from the golden one."""
    for key in want:
        if key != "turns" and got.get(key) != want[key]:
            return f"{key!r}: kernel {got.get(key)!r}, golden {want[key]!r}"
    extra = set(got) - set(want)
    if extra:
        return f"kernel record has extra keys {sorted(extra)}"
    for i, (a, b) in enumerate(zip(got["turns"], want["turns"])):
        if a != b:
            fields = {k: (a.get(k), b.get(k)) for k in b if a.get(k) != b.get(k)}
            return f"first differing turn is turn {i + 1} (seat {b['seat']}): " + "; ".join(
                f"{k}: kernel {x!r}, golden {y!r}" for k, (x, y) in fields.items()
            )
    return f"kernel played {len(got['turns'])} turns, golden {len(want['turns'])}"


def test_golden_files_present() -> None:
    """ENGINE.md: the golden records exist and cover 2, 4, 9 (3 teams) and 12 (3 teams) players."""
    configs = {(r["rules"]["players"], r["rules"]["teams"], r["seed"], r["game"]) for _, r in RECORDS}
    assert {(2, 2, 7, 0), (2, 2, 7, 1), (2, 2, 7, 2), (4, 2, 1, 0), (9, 3, 3, 0), (12, 3, 5, 0)} <= configs
    ends = {r["result"]["end"] for _, r in RECORDS}
    assert ends == {"win", "stalemate", "turn_cap"}


@pytest.mark.parametrize("rid,want", RECORDS, ids=[rid for rid, _ in RECORDS])
def test_golden_record(rid: str, want: dict) -> None:
    """ENGINE.md (all sections): the kernel's record equals the golden record exactly."""
    rules = Rules.make(**want["rules"])
    lineup = Lineup.parse(",".join(dict.fromkeys(want["policies"])), rules)
    assert lineup.names == want["policies"]
    got = game_record(rules, lineup, want["seed"], want["game"])
    assert got == want, f"{rid}: {describe_difference(got, want)}"


@pytest.mark.parametrize("rid,want", RECORDS, ids=[rid for rid, _ in RECORDS])
def test_golden_record_is_legal(rid: str, want: dict) -> None:
    """RULES.md via tests/referee.py: the golden records themselves are legal games."""
    r = want["rules"]
    standard = r["sequences_to_win"] == (2 if r["teams"] == 2 else 1)
    assert referee.check_record(want, strict_rules=standard) == []


def test_describe_difference_names_the_turn() -> None:
    """ENGINE.md (golden records): a failure message points at the first differing turn."""
    _, want = RECORDS[0]
    got = json.loads(json.dumps(want))
    got["turns"][5]["cell"] = -1
    msg = describe_difference(got, want)
    assert msg.startswith("first differing turn is turn 6") and "cell" in msg
