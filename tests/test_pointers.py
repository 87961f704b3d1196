"""Pointers that resolve: every document (and section of it) that simkit's code, its messages and the published
summaries point a reader to exists.

A pointer is a document followed by a section, ``docs/guide/reports.md, 'Metrics'`` (or ``RULES.md, "A turn"``,
in brackets or not: a bare name is at the repository's root or in docs/), or a document alone, by its path from
the repository's root or its capitalised name: ``docs/dev/extending.md#adding-a-player``, ``results/README.md``,
``RULES.md``. The file must exist, the section must be
one of its headings (a heading may add words in brackets: "Rule variants (options; ...)"), and an anchor must be
one of its headings' anchors. Pointers to README sections by words alone (``README's "Metrics"``) are refused:
the README's sections move; a pointer names the page that holds the text.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path

import pytest

from simkit.game.options import OPTIONS

ROOT = Path(__file__).resolve().parents[1]
# A document, then a section in quotes: README.md, 'Metrics'; (docs/guide/reports.md, "Glossary")
SECTION = re.compile(r"""(?P<file>[\w./-]*\.md)(?P<anchor>#[\w-]+)?,? (?P<q>['"])(?P<section>[^'"\n]{1,80})(?P=q)""")
# A page named by its path from the repository's root or by its capitalised name, perhaps with an anchor:
# docs/RECORD.md, results/README.md, RULES.md, docs/dev/extending.md#adding-a-player (not a study's summary.md)
DOC_PATH = re.compile(r"(?<![\w/.{-])(?P<file>(?:docs|results)/[\w/.,-]*?\.md|[A-Z][A-Z_]+\.md)(?P<anchor>#[\w-]+)?")
# A README section named by its words alone, the file left out: README's "Metrics", (README, "Exit codes")
README_WORDS = re.compile(r"""\bREADME('s)?,? ['"][^'"\n]+['"]""")


def sources() -> list[Path]:
    """simkit/ (its Python), cli.py and every published summary.md (each file once: simkit/cli.py is cli.py)."""
    paths = [*sorted((ROOT / "simkit").rglob("*.py")), ROOT / "cli.py", *sorted((ROOT / "results").rglob("summary.md"))]
    return list({p.resolve(): p for p in paths if p.is_file()}.values())


def pointers() -> list[tuple[str, int, str, str | None, str | None]]:
    """Every pointer: (where, line, file, section or None, anchor or None)."""
    found = []
    for path in sources():
        where = str(path.relative_to(ROOT))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            spans = []
            for m in SECTION.finditer(line):
                found.append((where, number, m["file"], m["section"], m["anchor"]))
                spans.append(m.span("file"))
            for m in DOC_PATH.finditer(line):
                if not any(a <= m.start("file") < b for a, b in spans):
                    found.append((where, number, m["file"], None, m["anchor"]))
    return found


def document(name: str) -> Path | None:
    """The file a pointer names: a path from the repository's root, or a bare name at the root or in docs/."""
    for path in (ROOT / name, ROOT / "docs" / name):
        if path.is_file():
            return path
    return None


@cache
def headings(path: Path) -> list[str]:
    """The headings of a markdown file (outside its code blocks), without their #s."""
    out, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            out.append(line.lstrip("#").strip())
    return out


def anchor(heading: str) -> str:
    """A heading's anchor as the docs site makes it (Python-Markdown's toc): 'Adding a player' -> 'adding-a-player'."""
    text = re.sub(r"[^\w\s-]", "", heading.replace("`", "")).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def has_section(path: Path, section: str) -> bool:
    return any(h == section or h.startswith(f"{section} (") for h in headings(path))


POINTERS = pointers()


def test_the_pointers_are_found():
    """The search finds what it is meant to (a pattern gone blind would pass every other test)."""
    files = {file for _, _, file, _, _ in POINTERS}
    assert {"docs/guide/reports.md", "docs/RECORD.md", "RULES.md"} <= files
    assert any(where.startswith("results/") and section == "Metrics" for where, _, _, section, _ in POINTERS)
    assert len(POINTERS) >= 40, len(POINTERS)


def test_anchors_are_made_as_the_docs_site_makes_them():
    """The anchors the docs link to (docs/dev/architecture.md: extending.md#adding-a-player) are made here too."""
    extending = headings(ROOT / "docs" / "dev" / "extending.md")
    assert {"adding-a-rule-option", "adding-a-player"} <= {anchor(h) for h in extending}
    assert anchor("Game record format `simkit.game/1`") == "game-record-format-simkitgame1"


@pytest.mark.parametrize("where, line, file, section, to", POINTERS, ids=[f"{w}:{n}" for w, n, *_ in POINTERS])
def test_a_pointer_names_a_file_and_a_section_it_holds(where, line, file, section, to):
    path = document(file)
    assert path is not None, f"{where}:{line} points to {file}, which does not exist"
    if section is not None:
        assert has_section(path, section), f"{where}:{line}: {file} has no section {section!r}: {headings(path)}"
    if to is not None:
        assert to[1:] in {anchor(h) for h in headings(path)}, f"{where}:{line}: {file} has no anchor {to}"


def test_no_pointer_names_a_readme_section_by_its_words_alone():
    stale = [
        f"{path.relative_to(ROOT)}:{number}: {m.group(0)}"
        for path in sources()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for m in README_WORDS.finditer(line)
    ]
    assert stale == []


def test_every_rule_option_names_a_section_of_the_rules():
    """OPTIONS' sections are printed in the docs' table of rule options, under "RULES.md"."""
    for option in OPTIONS.values():
        assert has_section(ROOT / "docs" / "RULES.md", option.section), (option.name, option.section)


def test_the_published_summaries_close_with_the_notes_the_code_writes():
    """The notes that end every summary.md (its pointer to the metrics among them) are the code's, word for word,
    in every published summary."""
    import pandas as pd

    from simkit.studies.kind import Study, Tables
    from simkit.studies.registry import KINDS
    from simkit.studies.summary import summary_markdown

    text = summary_markdown(Study(KINDS["teams"], {}, {"random": 1}), Tables(pd.DataFrame()), [], [])
    last = text.rstrip("\n").splitlines()[-1]
    assert "docs/guide/reports.md, 'Metrics'" in last
    for path in sorted((ROOT / "results").rglob("summary.md")):
        assert last in path.read_text(encoding="utf-8").splitlines(), path


# A dotted name of simkit's code, as docs and docstrings name a module or what it holds: simkit.game.rules.Rules
# (not a format tag such as "simkit.study/2").
DOTTED = re.compile(r"(?<![\w./-])simkit(?:\.[A-Za-z_]\w*)+(?![\w/])")


def resolves(name: str) -> bool:
    """Whether `name` is a module of simkit, or a name that the longest importable module of it holds."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attribute in parts[i:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def test_every_dotted_name_of_simkit_in_the_docs_and_the_code_resolves():
    """simkit.running.dataset.identity_of in a page or a docstring names a module and what it holds that exist
    (the changelog tells history and keeps the names of its day)."""
    texts = [
        *ROOT.glob("docs/**/*.md"),
        ROOT / "README.md",
        *sources(),
        *ROOT.glob("kernels/**/*.py"),
        *ROOT.glob("benchmarks/*.py"),
    ]
    stale = [
        f"{path.relative_to(ROOT)}:{n}: {m.group(0)}"
        for path in texts
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for m in DOTTED.finditer(line)
        if not resolves(m.group(0))
    ]
    assert not stale
