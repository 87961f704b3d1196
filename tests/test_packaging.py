"""The build: pyproject.toml's backend (build_backend/simkit_backend.py) installs simkit editable without
setuptools' boxed note, and leaves every other warning and hook to setuptools."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _build_editable(backend: str, out: Path) -> subprocess.CompletedProcess:
    """The editable wheel of this tree built by `backend` in a process of its own, every warning shown."""
    code = (
        "import importlib, sys; sys.path.insert(0, 'build_backend'); "
        f"print(importlib.import_module({backend!r}).build_editable({str(out)!r}))"
    )
    return subprocess.run(
        [sys.executable, "-W", "always", "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_an_editable_install_prints_no_warning_box(tmp_path):
    setuptools = pytest.importorskip("setuptools")
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip("pyproject.toml builds with setuptools 77 or newer (the test extra installs it)")
    ours = _build_editable("simkit_backend", tmp_path / "ours")
    assert ours.returncode == 0, ours.stderr[-3000:]
    assert (tmp_path / "ours" / ours.stdout.split()[-1]).is_file()
    assert "Warning" not in ours.stderr and "!!" not in ours.stderr, ours.stderr[-3000:]
    plain = _build_editable("setuptools.build_meta", tmp_path / "plain")  # what the note is, and that it is caught
    assert plain.returncode == 0 and "Editable installation" in plain.stderr, plain.stderr[-3000:]


def test_pyproject_builds_with_the_backend_and_the_sdist_carries_it():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    system = project["build-system"]
    assert (system["build-backend"], system["backend-path"]) == ("simkit_backend", ["build_backend"])
    assert (ROOT / "build_backend" / "simkit_backend.py").is_file()
    assert "include build_backend/simkit_backend.py" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
