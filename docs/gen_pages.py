"""Pages made when the site is built (mkdocs-gen-files), so they cannot drift from their sources.

- reference/cli.md: the command reference, from the Typer app itself (Typer's own `utils docs`).
- explorer.md: docs/explorer.md with the explorer of every published study where its marker is
  (simkit.studies.explorer), its data, chart and scripts inline.
- results/: the published findings, study summaries, plots and the rules card (markdown, PNG, PDF), copied
  from the repository's results/, and any other published file one of those pages links to (a study's
  protocol.toml, a CSV table). A link of theirs to a page of docs/ (``[...](../docs/research.md)`` in
  results/FINDINGS.md, right on GitHub) is rewritten to that page's place in the site (``../research.md``),
  where docs/ is the root.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import mkdocs_gen_files

from simkit.studies.explorer import MARKER, explorer_html

ROOT = Path(__file__).resolve().parent.parent

cli = subprocess.run(
    [sys.executable, "-m", "typer", "simkit.cli", "utils", "docs", "--name", "simkit"],
    check=True,
    capture_output=True,
    text=True,
    cwd=ROOT,
).stdout
with mkdocs_gen_files.open("reference/cli.md", "w") as page:
    page.write("Generated from the command line's own help when the site is built.\n\n")
    # "NAME[:KEY=VALUE...][,NAME...]" in a help text is not a Markdown reference link
    page.write(cli.replace("# `simkit`", "# Command line: `simkit`", 1).replace("][", "]\\["))

explorer = (ROOT / "docs" / "explorer.md").read_text(encoding="utf-8")
with mkdocs_gen_files.open("explorer.md", "w") as page:
    page.write(explorer.replace(MARKER, explorer_html(ROOT / "results"), 1))

# Only the published files (tracked by git), not a clone's own runs and studies.
tracked = subprocess.run(
    ["git", "ls-files", "results"], check=True, capture_output=True, text=True, cwd=ROOT
).stdout.split()
published = set(tracked)
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")  # a Markdown link's target, without its anchor


def linked_files(page: Path) -> set[str]:
    """The published files (repository paths) that the results page `page` links to."""
    out = set()
    for target in LINK.findall(page.read_text()):
        if ":" not in target:  # not https://..., mailto:...
            name = Path(os.path.relpath((page.parent / target).resolve(), ROOT)).as_posix()
            if name in published:
                out.add(name)
    return out


pages = [name for name in tracked if name.endswith(".md")]
data = {linked for name in pages for linked in linked_files(ROOT / name)}
for name in tracked:
    path = ROOT / name
    if path.suffix in (".md", ".png", ".pdf") or name in data:
        target = Path(name)
        if path.suffix == ".md":
            up = "../" * (len(target.parts) - 1)  # from the file's folder back to the repository's root
            with mkdocs_gen_files.open(target, "w") as out:
                out.write(path.read_text().replace(f"]({up}docs/", f"]({up}"))
        else:
            with mkdocs_gen_files.open(target, "wb") as out:
                out.write(path.read_bytes())
