"""Check a built site as a browser opening it from a file shows it: its links, and its code blocks.

    python docs/check_links.py site        # after `mkdocs build` (make docs runs it)

Every HTML file of the site is read (the standard library's html.parser) and each relative link
(``href`` of any element) and source (``src``: images, scripts) must name an existing FILE of the
site: a link to a folder opens as the browser's "Index of" listing from file://, not as the
folder's index.html. Links with a scheme or a host (``https:``, ``mailto:``, ``data:``, ``//host``)
are not checked, nor pure ``#anchors``; a fragment or query string is dropped before the check, except
that a script must be the site's own (one from the network is missing from a file read offline).
A link from the site's root (``/...``) is refused: from a file it names the disk's root. The one
exception is 404.html, a page only a web server shows (for any missing address, at any depth), whose
links MkDocs writes from the root: they are checked against the site's root.

A second check reads every paragraph: one that holds a line indented as code (4 spaces or more after
a line break) is a code block that Markdown ran into the text around it (its first line not indented,
no blank line before it, or too little indentation inside a list).

Exit status 1, with one line per broken link or run-on code block, if any; else one line saying how
many links, images, other sources and paragraphs were checked.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


@dataclass
class Checked:
    """What a check of a site found: the counts of the references checked and every broken one."""

    pages: int = 0
    links: int = 0  # href="..." (a, link, ...)
    images: int = 0  # <img src="...">
    sources: int = 0  # any other src="..." (script, source, iframe, ...)
    paragraphs: int = 0  # <p> read for code run into the text
    broken: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.pages} pages: {self.links} relative links, {self.images} images, "
            f"{self.sources} other sources and {self.paragraphs} paragraphs checked, "
            f"{len(self.broken)} broken"
        )


class _References(HTMLParser):
    """Every (tag, attribute, value) of an href or a src in a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.found.append((tag, name, value))

    handle_startendtag = handle_starttag


PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.S)
CODE_LINE = re.compile(r"\n {4,}(\S.*)")

# A web server's page, shown for a missing address: its links start at the site's root.
SERVER_PAGES = ("404.html",)


def _target(site: Path, page: Path, url: str) -> Path | None | str:
    """The file a relative reference of `page` names; None when it is not checked (a scheme, a host,
    a pure anchor); a string saying why when it cannot be followed from a file."""
    parts = urlsplit(url.strip())
    if parts.scheme or parts.netloc:
        return None
    if not parts.path:
        return None  # "#anchor", "?query" or "": the page itself
    if parts.path.startswith("/"):
        if str(page.relative_to(site)) in SERVER_PAGES:
            return site / unquote(parts.path.lstrip("/"))
        return "a link from the site's root names the disk's root when opened from a file"
    return page.parent / unquote(parts.path)


def check_site(site: Path) -> Checked:
    """Check every HTML file under `site` (see the module's docstring)."""
    site = Path(site)
    checked = Checked()
    for page in sorted(site.rglob("*.html")):
        checked.pages += 1
        text = page.read_text(encoding="utf-8")
        parser = _References()
        parser.feed(text)
        for tag, attr, url in parser.found:
            target = _target(site, page, url)
            if target is None:
                if tag == "script" and attr == "src" and urlsplit(url.strip()).netloc:
                    checked.broken.append(
                        f'{page.relative_to(site)}: <script src="{url}">: a script from '
                        "the network, missing when the site is read offline"
                    )
                continue
            if attr == "href":
                checked.links += 1
            elif tag == "img":
                checked.images += 1
            else:
                checked.sources += 1
            where = f'{page.relative_to(site)}: <{tag} {attr}="{url}">'
            if isinstance(target, str):
                checked.broken.append(f"{where}: {target}")
            elif target.is_dir():
                checked.broken.append(f"{where}: a folder, not a file (a browser lists it)")
            elif not target.is_file():
                checked.broken.append(f"{where}: no such file")
            elif not target.resolve().is_relative_to(site.resolve()):
                checked.broken.append(f"{where}: outside the site")
        for paragraph in PARAGRAPH.finditer(text):
            checked.paragraphs += 1
            code = CODE_LINE.search(paragraph.group(1))
            if code:
                checked.broken.append(
                    f'{page.relative_to(site)}: a code block run into a paragraph, at "{code.group(1)[:60]}"'
                )
    return checked


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python docs/check_links.py SITE_DIR", file=sys.stderr)
        return 2
    site = Path(argv[0])
    if not (site / "index.html").is_file():
        print(f"{site} is not a built site (no index.html)", file=sys.stderr)
        return 2
    checked = check_site(site)
    for line in checked.broken:
        print(line, file=sys.stderr)
    print(f"check_links: {checked.summary()}", file=sys.stderr if checked.broken else sys.stdout)
    return 1 if checked.broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
