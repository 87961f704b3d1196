"""The documentation site works opened from a file: every link and image of every built page names a
file of the site, and no code block is run into a paragraph (docs/check_links.py, which `make docs`
runs on site/ too).

From file:///.../site/index.html a link to a folder shows the browser's "Index of" listing, not the
folder's index.html, so mkdocs.yml sets ``use_directory_urls: false`` and the check refuses any
relative href or src that is a folder or no file at all. The build needs the docs extra
(``pip install -e '.[docs]'``, `make docs`); without mkdocs the build's test is skipped. Not in the
quick tier (tests/conftest.py, QUICK): the build takes several seconds.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKER = ROOT / "docs" / "check_links.py"


def _checker():
    spec = importlib.util.spec_from_file_location("check_links", CHECKER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_links"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


check_links = _checker()


def test_the_check_refuses_folders_missing_files_root_links_and_run_on_code(tmp_path):
    """The check itself: a folder, a missing file, a link from the root and a script from the network are
    broken; other external links, anchors, fragments and query strings are not followed or are dropped;
    a paragraph holding a line indented as code is a code block Markdown ran into the text."""
    (tmp_path / "guide").mkdir()
    (tmp_path / "img.png").write_bytes(b"")
    (tmp_path / "guide" / "a.html").write_text("<p>run these:\n  wrapped</p>\n<p>simkit run\n    simkit report DIR</p>")
    (tmp_path / "index.html").write_text(
        '<a href="guide/a.html#part">ok</a> <a href="guide/a.html?x=1">ok</a> <img src="img.png">'
        '<a href="#top">anchor</a> <a href="https://example.org/x/">web</a> <a href="mailto:a@b.c">mail</a>'
        '<a href="guide/">folder</a> <a href="guide/b.html">missing</a> <img src="/img.png">'
        '<script src="nowhere.js"></script> <script src="https://cdn.example.org/shim.js"></script>'
    )
    checked = check_links.check_site(tmp_path)
    assert (checked.pages, checked.links, checked.images, checked.sources, checked.paragraphs) == (2, 4, 2, 1, 2)
    assert [line.split(": ", 2)[1] for line in checked.broken] == [
        'a code block run into a paragraph, at "simkit report DIR"',
        '<a href="guide/">',
        '<a href="guide/b.html">',
        '<img src="/img.png">',
        '<script src="nowhere.js">',
        '<script src="https://cdn.example.org/shim.js">',
    ]
    assert "a folder" in checked.broken[1] and "no such file" in checked.broken[2]


def _nav_pages(nav) -> list[str]:
    """Every page of mkdocs.yml's nav, its sections walked."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _nav_pages(value)]
    return [page for item in nav for page in _nav_pages(item)]


def test_the_menu_holds_the_published_pages_the_readme_points_to():
    """The findings, the rules card, the explorer, the published results' page and every published page of
    results/ (each study's summary, the runs, the archive) are in the site's menu (mkdocs.yml's nav), not only
    pages a link reaches."""
    yaml = pytest.importorskip("yaml")

    loader: Any = type("Loader", (yaml.SafeLoader,), {})  # mkdocs.yml's !!python/name: tags read as their text
    loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: suffix)
    nav = _nav_pages(yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=loader)["nav"])
    assert {"results/FINDINGS.md", "results/fair-sequence-card.md", "results/README.md", "explorer.md"} <= set(nav)
    published = {p.relative_to(ROOT).as_posix() for p in (ROOT / "results").rglob("*.md")}
    assert published <= set(nav), sorted(published - set(nav))


def test_the_built_site_links_only_to_files(tmp_path):
    pytest.importorskip("mkdocs")
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    # every page is a file of its own (use_directory_urls: false); search works from a file (offline)
    for page in (
        "index.html",
        "guide/studies.html",
        "results/FINDINGS.html",
        "reference/api.html",
        "reference/cli.html",
        "search/search_index.js",
    ):
        assert (site / page).is_file(), page
    checked = check_links.check_site(site)
    print(checked.summary())
    assert not checked.broken, checked.summary() + ":\n" + "\n".join(checked.broken[:50])
    # a check that found nothing to check would pass silently
    assert checked.pages >= 30 and checked.links >= 1000 and checked.images >= 10, checked.summary()
