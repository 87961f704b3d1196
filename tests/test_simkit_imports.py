"""simkit/'s imports, read from the code: one-way (no circle) and through public names only.

Every import counts, those inside functions too. A submodule's import of its
own package (``import simkit`` for ``simkit.__version__``) is no edge: Python
imports a package before any of its submodules anyway. The kernels (kernels/,
installed as simkit.kernels) have their own layer test.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def modules() -> dict[str, Path]:
    """Module name -> file: every module of simkit/ (the kernels aside) and the top-level cli.py."""
    found = {}
    for path in sorted((ROOT / "simkit").rglob("*.py")):
        if path.is_symlink():  # simkit/cli.py -> ../cli.py
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    found["simkit.cli"] = ROOT / "cli.py"
    return found


MODULES = modules()


def module_of(name: str) -> str | None:
    """The module of MODULES that an imported dotted name lies in
    (simkit.running.runner.run -> simkit.running.runner)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> list[tuple[str, str | None, int]]:
    """(module imported, name taken from it or None, line) of every import statement in `module`."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, str | None, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, None, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for a in node.names:
                if f"{base}.{a.name}" in MODULES:  # from simkit import dataset: the module itself
                    found.append((f"{base}.{a.name}", None, node.lineno))
                else:
                    found.append((base, a.name, node.lineno))
    return found


def graph() -> dict[str, set[str]]:
    """module -> the modules of MODULES it imports."""
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for m in MODULES:
        for target, _, _ in imports(m):
            t = module_of(target)
            if t is not None and t != m and not m.startswith(t + "."):  # a submodule's own package: no edge
                edges[m].add(t)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_the_modules_are_found():
    assert {
        "simkit",
        "simkit.running.runner",
        "simkit.running.executors",
        "simkit.running.distributed",
        "simkit.cli",
        "simkit.studies.loop",
    } <= set(MODULES)


def test_simkit_imports_one_way_with_no_circle():
    assert circles(graph()) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_takes_another_modules_private_names(module):
    """Neither `from simkit.x import _name` nor `x._name` on a simkit module imported as x."""
    taken = [
        f"line {line}: from {base} import {name}"
        for base, name, line in imports(module)
        if name and private(name) and module_of(base) not in (None, module)
    ]
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    aliases = {"simkit": "simkit"}  # `import simkit.game.play` binds simkit
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases.update({a.asname: a.name for a in node.names if a.asname and a.name in MODULES})
        elif isinstance(node, ast.ImportFrom) and node.module:
            aliases.update(
                {
                    a.asname or a.name: f"{node.module}.{a.name}"
                    for a in node.names
                    if f"{node.module}.{a.name}" in MODULES
                }
            )
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            target = dotted(node.value, aliases)
            if target in MODULES and target != module:
                taken.append(f"line {node.lineno}: {ast.unparse(node)} ({target})")
    assert taken == []


def dotted(expr: ast.expr, aliases: dict[str, str]) -> str | None:
    """The module an expression such as ds or simkit.game.play names, through the names imports bound."""
    if isinstance(expr, ast.Name):
        return aliases.get(expr.id)
    if isinstance(expr, ast.Attribute):
        head = dotted(expr.value, aliases)
        return None if head is None else f"{head}.{expr.attr}"
    return None


def test_the_tests_import_the_cli_and_their_helpers_under_one_name():
    """The CLI is simkit.cli and a helper of tests/ is tests.NAME: a second name (``import cli``,
    ``import referee``) would load the module twice, as two module objects."""
    helpers = {p.stem for p in (ROOT / "tests").glob("*.py")} | {"cli"}
    second_names = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if not node.level
                else []
            )
            second_names += [f"{path.name}:{node.lineno}: {n}" for n in names if n.split(".")[0] in helpers]
    assert not second_names
