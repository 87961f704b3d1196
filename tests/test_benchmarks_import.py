"""Every script kept in benchmarks/ and fitting/ imports: none can rot unseen when the code it uses changes.

Each script is imported as its own module, as `python benchmarks/NAME.py` would load it (its folder
first on the path, so `from bench import ...` works), without running its main: every script keeps
its work under `if __name__ == "__main__":`. Importing compiles no kernel.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted([*(ROOT / "benchmarks").rglob("*.py"), *(ROOT / "fitting").glob("*.py")])


def test_the_kept_scripts_are_found():
    """The scripts kept: benchmarks/ (each run by `make bench` or named with its command in
    docs/guide/performance.md) and fitting/ (fitting/README.md)."""
    names = {p.relative_to(ROOT).as_posix() for p in SCRIPTS}
    assert names == {
        "benchmarks/bench.py",
        "benchmarks/c_reference/compare.py",
        "benchmarks/callgrind_games.py",
        "benchmarks/compare.py",
        "benchmarks/compile_estimates.py",
        "benchmarks/compile_profile.py",
        "benchmarks/matches.py",
        "benchmarks/peak_rss.py",
        "benchmarks/report_scale.py",
        "benchmarks/results_cost.py",
        "fitting/fit_value.py",
        "fitting/rich_value.py",
    }


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.relative_to(ROOT).as_posix() for p in SCRIPTS])
def test_script_imports(script: Path, monkeypatch):
    monkeypatch.syspath_prepend(str(script.parent))
    name = "scripts_" + script.relative_to(ROOT).with_suffix("").as_posix().replace("/", "_")
    spec = importlib.util.spec_from_file_location(name, script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    assert callable(getattr(module, "main", None)), f"{script.name} has no main()"
    assert 'if __name__ == "__main__":' in script.read_text(encoding="utf-8")
