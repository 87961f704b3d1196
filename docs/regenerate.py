"""Write the docs' tables made from the declarations, and record the games of a player or option added.

    .venv/bin/python docs/regenerate.py      # or: make regenerate

The tables between their markers in docs/guide/players.md (the players, weakest first as the published
skill study rates them, and each player's parameters) and docs/guide/rule-options.md (the rule options)
are rewritten from simkit's declarations; tests/golden/naive_records.json records the hash of the naive
engine's records of every run of tests/test_kernel_vs_naive.py (the bounds-checked pass compares the
kernel's with them); then tests/fingerprint.py records the hash of every group added to its ADDED
(refusing to change one recorded for the games stamp in force). The tests keep all of them equal to what
this writes (tests/test_players.py, tests/test_options.py, tests/test_kernel_vs_naive.py,
tests/test_games_stamp.py).
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.fingerprint, run from a checkout


def rated() -> list[str]:
    """The players of the published skill study, weakest first by their ratings."""
    with open(ROOT / "results" / "skill" / "ratings.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [r["policy"] for r in sorted(rows, key=lambda r: float(r["rating"]))]


def between(text: str, start: str, end: str, table: str) -> str:
    """`text` with what lies between the marker line `start` and the line `end` replaced by `table`."""
    pattern = re.compile(rf"({re.escape(start)}\n).*?({re.escape(end)})", re.S)
    assert pattern.search(text), f"no marker {start!r}"
    return pattern.sub(lambda m: m.group(1) + table + m.group(2), text)


def main() -> None:
    import json

    from simkit.game import options, players
    from tests import fingerprint, test_kernel_vs_naive

    page = ROOT / "docs" / "guide" / "players.md"
    text = between(
        page.read_text(encoding="utf-8"),
        "<!-- players table: simkit.game.players.markdown_table(rated) -->",
        "<!-- end of players table -->",
        players.markdown_table(rated()),
    )
    for name, kind in players.PLAYERS.items():
        marker = f"<!-- parameters of {name}: simkit.game.players.parameters_table -->"
        if marker not in text:
            text = text.rstrip("\n") + f"\n\n## `{name}`\n\n{kind.description}.\n\nParameters, with their defaults "
            text += f"at a two-player table:\n\n{marker}\n<!-- end of parameters -->\n"
        text = between(text, marker, "<!-- end of parameters -->", players.parameters_table(kind))
    page.write_text(text, encoding="utf-8")
    page = ROOT / "docs" / "guide" / "rule-options.md"
    page.write_text(
        between(
            page.read_text(encoding="utf-8"),
            "<!-- options table: simkit.game.options.markdown_table() -->",
            "<!-- end of options table -->",
            options.markdown_table(),
        ),
        encoding="utf-8",
    )
    print("wrote the tables of docs/guide/players.md and docs/guide/rule-options.md")
    hashes = test_kernel_vs_naive.naive_hashes()
    test_kernel_vs_naive.NAIVE_RECORDS.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {test_kernel_vs_naive.NAIVE_RECORDS.relative_to(ROOT)}: the naive records of {len(hashes)} runs")
    fingerprint.main()


if __name__ == "__main__":
    main()
