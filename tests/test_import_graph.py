"""The import graph of our three packages: no cycles, no private names across modules, arrows pointing one way.

Every `import` and `from ... import` counts, wherever it stands (module level, inside a function, under
`TYPE_CHECKING`): a lazy import hides a cycle from the interpreter, not from the next engineer. A package's
`__init__` is a module like any other (importing `pkg.sub` is not counted as importing `pkg`). The graph is read
from the source with `ast`; nothing is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("android_gym", "distrl_agent", "benchmarks")
LAYERS = {"android_gym": set(), "distrl_agent": {"android_gym"}, "benchmarks": {"android_gym", "distrl_agent"}}
"""Package -> the packages it may import: `distrl_agent` uses `android_gym`, never the reverse."""
KNOWN_CYCLES: list[frozenset[str]] = []
"""Cycles that stand today, each to be opened by the work that names it (a new one fails; an opened one must go)."""


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The module of ours that `name` (a module or a module's attribute) lives in, if any."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path) -> list[tuple[str, str, int]]:
    """(imported module of ours, name taken from it or "", line) for every import in `module`."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(target, "", node.lineno) for alias in node.names if (target := _resolve(alias.name))]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                if (target := _resolve(f"{base}.{alias.name}")) and target == f"{base}.{alias.name}":
                    found.append((target, "", node.lineno))  # a submodule
                elif target := _resolve(base):
                    found.append((target, alias.name, node.lineno))
    return [(t, n, line) for t, n, line in found if t != module]


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def _reachable(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target, _, _ in GRAPH[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def import_cycles() -> list[frozenset[str]]:
    """The graph's strongly connected components of more than one module."""
    reach = {m: _reachable(m) for m in GRAPH}
    cycles = {frozenset({m} | {n for n in reach[m] if m in reach[n]}) for m in GRAPH if m in reach[m]}
    return sorted(cycles, key=sorted)


def _describe(cycle: frozenset[str]) -> str:
    ties = [f"  {m} -> {t}{': ' + n if n else ''} (line {line})" for m in sorted(cycle)
            for t, n, line in GRAPH[m] if t in cycle]
    return "\n".join([f"{len(cycle)} modules:", *ties])


def test_the_graph_is_read_from_every_package() -> None:
    """The reader sees the modules and the arrows (a broken reader would find no cycle in anything)."""
    assert {"android_gym.env", "distrl_agent.runtime.learner", "benchmarks.run"} <= set(MODULES)
    assert ("android_gym.actions", "Action") in {(t, n) for t, n, _ in GRAPH["android_gym.env"]}
    assert "android_gym.sim.adb.commands" in _reachable("android_gym.sim.adb.server")


def test_no_import_cycles_beyond_the_known_ones() -> None:
    """Modules import each other in one direction only; the known cycles are exactly those still open."""
    cycles = import_cycles()
    new = [c for c in cycles if c not in KNOWN_CYCLES]
    assert not new, "import cycles:\n" + "\n".join(_describe(c) for c in new)
    assert not [c for c in KNOWN_CYCLES if c not in cycles], "a known cycle is opened: remove it from KNOWN_CYCLES"


def test_no_private_name_is_imported_from_another_module() -> None:
    """A leading underscore means "this module's own": no other module imports it."""
    private = [f"{m} imports {n} from {t} (line {line})" for m, edges in GRAPH.items() for t, n, line in edges
               if n.startswith("_") and not n.startswith("__")]
    assert not private, "\n".join(private)


def test_packages_import_only_the_layers_below_them() -> None:
    """android_gym imports neither distrl_agent nor benchmarks; distrl_agent does not import benchmarks."""
    wrong = [f"{m} imports {t} (line {line})" for m, edges in GRAPH.items() for t, _, line in edges
             if (top := t.split(".")[0]) != m.split(".")[0] and top not in LAYERS[m.split(".")[0]]]
    assert not wrong, "\n".join(wrong)


def test_every_did_you_mean_comes_from_one_helper() -> None:
    """Suggestions for a misspelt name are made by `android_gym.errors.closest` alone (one rule, one wording); the
    other use of difflib, AndroidWorld's fuzzy comparison of answers and texts, lives in one place too."""  # noqa: D205, D209
    users = sorted(m for m, path in MODULES.items() for node in ast.walk(ast.parse(path.read_text()))
                   if isinstance(node, ast.Import | ast.ImportFrom)
                   and "difflib" in ([a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]))
    assert users == ["android_gym.errors", "android_gym.tasks.androidworld.base"], (
        f"modules importing difflib: {users}; use android_gym.errors.closest or androidworld.base.fuzzy_match")
