"""No command touches the published results/ unless it names them: every study kind, with and without a
table subset or a rule option, `simkit run`, `simkit card` and the default study (`make run`) write to the
workspace, runs/, and leave a copy of results/ byte for byte as it was.

Small games and the random player (greedy where a study needs two line-ups), so the whole takes seconds
once the kernels are compiled.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simkit.cli import app
from simkit.game import defaults
from simkit.studies.registry import KINDS

RESULTS = Path(__file__).resolve().parents[1] / "results"

# Every study kind with a table subset (--players/--teams) or a rule option, tiny game counts.
COMMANDS = [
    ["study", "first-player", "--policy", "random", "--games", "60"],  # `make run`, small
    ["study", "first-player", "--players", "4", "--policy", "random", "--games", "60"],
    ["study", "hand-size", "--players", "3", "--sizes", "5,6", "--policy", "random", "--games", "60"],
    ["study", "teams", "--policy", "random", "--games", "40"],
    ["study", "teams", "--no-reshuffle", "--policy", "random", "--games", "40"],
    ["study", "skill", "--players", "4", "--policy", "random", "--policy", "greedy", "--games", "40"],
    ["study", "variants", "--players", "8", "--policy", "random", "--games", "60"],
    ["study", "variants", "--players", "2", "--policy", "random", "--games", "60"],
    [
        "study",
        "compensation",
        "--players",
        "12",
        "--teams",
        "2",
        "--family",
        "late_card",
        "--policy",
        "random",
        "--games",
        "60",
    ],
    ["study", "restricted", "--players", "2", "--policy", "greedy", "--games", "20"],
    ["study", "layouts", "--players", "2", "--policy", "random", "--games", "20"],
    ["card"],  # the rules card, made from the published studies
    ["run", "--games", "50"],
    ["run", "--players", "4", "--games", "50"],
]


def _tracked(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_commands_cover_every_study_kind():
    assert {c[1] for c in COMMANDS if c[0] == "study"} == set(KINDS) and len(WRITES) == len(COMMANDS)


# What each command writes in the workspace, runs/ (a table narrowed with --players joins the all-tables
# study's folder).
WRITES = [
    "first-player",
    "first-player",
    "hand-size-sizes-5,6",
    "teams",
    "teams-noreshuffle",
    "skill-p4",
    "variants",
    "variants",
    "compensation",
    "restricted",
    "layouts",
    "fair-sequence-card.md",
    "default-2p-random",
    "p4t2-random",
]


@pytest.mark.parametrize("args, writes", zip(COMMANDS, WRITES), ids=[" ".join(c[:2]) for c in COMMANDS])
def test_no_command_without_out_changes_the_published_results(tmp_path, monkeypatch, args, writes):
    published = tmp_path / "results"
    shutil.copytree(RESULTS, published, ignore=shutil.ignore_patterns("*.parquet", "_manifest.json", ".*"))
    before = _tracked(published)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, [*args, "--quiet"], catch_exceptions=False)
    assert result.exit_code == 0, (args, result.output)
    assert _tracked(published) == before
    assert writes in {p.name for p in (tmp_path / defaults.WORKSPACE).iterdir()}


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_workspace_is_ignored_by_git():
    root = RESULTS.parent
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    probe = subprocess.run(["git", "check-ignore", "-q", f"{defaults.WORKSPACE}/first-player/summary.md"], cwd=root)
    assert probe.returncode == 0
