"""The import contracts of pyproject.toml ([tool.importlinter]): kernels/ in one-way layers, no circle.

import-linter's graph (grimp) counts every import, those inside functions too. grimp finds a
package's modules under its folder, and the installed package maps simkit.kernels to the top-level
kernels/ (pyproject's package-dir), so the check runs on a copy laid out as a wheel installs it.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_are_kept(tmp_path):
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "simkit", tmp_path / "simkit", ignore=ignore)
    shutil.copytree(ROOT / "kernels", tmp_path / "simkit" / "kernels", ignore=ignore)
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert "Analyzed" in done.stdout and "simkit.kernels" not in done.stderr, done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr


def own(node: ast.Import | ast.ImportFrom) -> bool:
    """Whether an import statement imports a module of simkit (kernels/ included)."""
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] == "simkit"
    return any(alias.name.split(".")[0] == "simkit" for alias in node.names)


def test_no_kernel_module_imports_another_inside_a_function():
    """kernels/ imports its own modules at the top of each module, where the layers are plain to see.
    (kernels/core/jit.py imports numba's modules inside the function that skips numba's BLAS probe.)"""
    inside = []
    for path in sorted((ROOT / "kernels").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inside += [
                    f"{path.relative_to(ROOT)}:{sub.lineno}"
                    for sub in ast.walk(node)
                    if isinstance(sub, (ast.Import, ast.ImportFrom)) and own(sub)
                ]
    assert not inside
