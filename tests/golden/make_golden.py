"""Write the golden game records in this folder, with the naive reference engine.

    .venv/bin/python tests/golden/make_golden.py

Run it ONCE; the files it writes are the fixed expectation that
tests/test_golden.py holds the kernel to. Regenerate them only when
docs/ENGINE.md changes on purpose (a new convention changes every game), and
say so in the commit. Never regenerate them to make a failing kernel pass:
a difference means the kernel no longer plays the games ENGINE.md describes.

This script uses only tests/naive.py (no simkit code): each file is one
configuration, one JSON record per line, in game order.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the repository, for the tests package

from tests import naive  # noqa: E402  (after the path above)

rules = naive.default_rules


# file name -> (rules, seed, games)
GOLDEN = {
    "2p_seed7.jsonl": (rules(2, 2), 7, [0, 1, 2]),
    "4p_seed1.jsonl": (rules(4, 2), 1, [0]),
    "9p_3teams_seed3.jsonl": (rules(9, 3), 3, [0]),
    "12p_3teams_seed5.jsonl": (rules(12, 3), 5, [0]),
    "3p_chip_limit_win8_seed2.jsonl": (rules(3, 3, chip_limit=True, sequences_to_win=8), 2, [0]),
    "6p_2teams_cap30_seed9.jsonl": (rules(6, 2, max_turns=30), 9, [0, 1]),
}


def main() -> None:
    for fname, (r, seed, games) in GOLDEN.items():
        lines = []
        for g in games:
            rec = naive.play_game(r, ["random"] * r["players"], seed, g)
            lines.append(json.dumps(rec, separators=(",", ":")))
        (HERE / fname).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {fname}: {len(games)} game(s)")


if __name__ == "__main__":
    main()
