"""What a newcomer reads first: the README's quick start within its first 40 lines (its two commands, where the
`simkit` command is and how to put it on the PATH), the same words at the end of `make run`, and a README
short enough to read (at most 250 lines)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ACTIVATE = "source .venv/bin/activate"


def test_the_quick_start_opens_the_readme():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    head = "\n".join(lines[:40])
    assert re.search(r"^ {4}make run\b", head, re.M) and re.search(r"^ {4}make test\b", head, re.M)
    assert ".venv/bin/simkit" in head and ACTIVATE in head


def test_make_run_ends_saying_where_simkit_is():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0].splitlines()
    assert recipe[-1].lstrip().startswith("@echo") and ACTIVATE.replace(".venv", "$(VENV)") in recipe[-1]
