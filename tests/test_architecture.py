"""The import graph of scoring, vision and rink: no cycles, and each layer imports only
what it may (scoring: pure Python rules; vision: photo to grid, no product code).

Every module's source is parsed (nothing is imported): ``import x``, ``from x import y``
(relative ones too), imports inside functions, and ``importlib.import_module`` /
``importlib.resources.files`` calls with a constant name all count. Importing ``a.b.c`` also
runs the packages ``a`` and ``a.b``, so those count as imported too, except from inside them.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "vision", "rink")
NOT_IN_SCORING = ("numpy", "cv2", "onnxruntime", "PIL", "skimage", "vision", "rink")
"""Top-level names that no module of scoring may import (scoring is pure-Python rules)."""
VISION_MAY_IMPORT_FROM_RINK = ("rink.models",)
"""The one part of rink that vision may import: the data package holding the models."""
DYNAMIC_IMPORTS = ("import_module", "__import__", "files")
"""Calls whose constant first argument names a module that gets imported."""


def package_dirs(root: Path) -> dict[str, Path]:
    """Package name -> folder: the three packages, plus pyproject's ``package-dir`` entries
    inside them (``rink.models`` is the repo's ``models/``)."""
    found = {name: root / name for name in PACKAGES}
    pyproject = root / "pyproject.toml"
    if pyproject.exists():
        config = tomllib.loads(pyproject.read_text())
        mapped = config.get("tool", {}).get("setuptools", {}).get("package-dir", {})
        found.update({name: root / folder for name, folder in mapped.items()
                      if name.split(".")[0] in PACKAGES})
    return found


def find_modules(root: Path) -> dict[str, Path]:
    """Module name -> source file, for every module of the packages (``__init__`` as the
    package's own name)."""
    modules: dict[str, Path] = {}
    for package, folder in package_dirs(root).items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join((package, *parts))] = path
    return modules


def _constant_names(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "text"`` assignments (a module name kept in a constant)."""
    names = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            names[node.targets[0].id] = node.value.value
    return names


def imported_names(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Every module name ``module`` imports (any package, ours or not), as written or resolved
    from a relative import; ``from a import b`` gives ``a.b`` when that is one of ours."""
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    here = module if is_package else module.rpartition(".")[0]
    constants = _constant_names(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.add(child if child in modules else base)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if name in DYNAMIC_IMPORTS:
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
                elif isinstance(first, ast.Name) and first.id in constants:
                    found.add(constants[first.id])
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports, with the packages that importing runs."""
    modules = find_modules(root)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for name in imported_names(module, path, modules):
            parts = name.split(".")
            for depth in range(1, len(parts) + 1):
                target = ".".join(parts[:depth])
                inside = module == target or module.startswith(target + ".")
                if target in modules and target != module and (depth == len(parts) or not inside):
                    targets.add(target)
        graph[module] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: one list of modules per strongly connected group (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def described(group: list[str], graph: dict[str, set[str]]) -> str:
    """A cycle's modules with the imports between them, e.g. 'a -> b, b -> a'."""
    members = set(group)
    return ", ".join(f"{a} -> {b}" for a in group for b in sorted(graph[a] & members))


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(ROOT)


def test_the_graph_sees_the_three_packages(graph):
    assert {"scoring.engine", "scoring.registry", "vision.recognizer", "rink.cli"} <= set(graph)
    assert "scoring.registry" in graph["scoring.engine"]


def test_no_import_cycles(graph):
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(described(g, graph) for g in found)


def test_scoring_imports_no_image_libraries_nor_vision_or_rink():
    modules = find_modules(ROOT)
    bad = {
        (module, name)
        for module, path in modules.items() if module.split(".")[0] == "scoring"
        for name in imported_names(module, path, modules)
        if name.split(".")[0] in NOT_IN_SCORING
    }
    assert bad == set()


def test_vision_imports_nothing_of_rink_but_its_models():
    modules = find_modules(ROOT)
    bad = {
        (module, name)
        for module, path in modules.items() if module.split(".")[0] == "vision"
        for name in imported_names(module, path, modules)
        if name.split(".")[0] == "rink"
        and not name.startswith(VISION_MAY_IMPORT_FROM_RINK)
    }
    assert bad == set()


def test_the_expansions_package_holds_only_its_docstring():
    # helpers are imported from their own modules, never through the package
    tree = ast.parse((ROOT / "scoring" / "expansions" / "__init__.py").read_text())
    assert len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr)
    assert isinstance(tree.body[0].value, ast.Constant)


# -- the checker itself, on small made-up packages ---------------------------------------------
def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_a_cycle_through_importlib_and_a_function_body_is_found(tmp_path):
    # the shape of the old scoring cycle: engine -> api -(importlib)-> expansions -> engine
    root = write(tmp_path, {
        "scoring/__init__.py": "",
        "scoring/engine.py": "from scoring.api import Expansion\n",
        "scoring/api.py": "import importlib\n\ndef registry():\n"
                          "    return importlib.import_module('scoring.expansions')\n",
        "scoring/expansions/__init__.py": "def f():\n    from scoring.engine import score\n",
        "scoring/expansions/river.py": "from . import helpers\n",
        "scoring/expansions/helpers.py": "",
        "vision/__init__.py": "",
        "rink/__init__.py": "",
    })
    graph = import_graph(root)
    assert graph["scoring.expansions.river"] == {"scoring.expansions.helpers"}
    assert cycles(graph) == [["scoring.api", "scoring.engine", "scoring.expansions"]]


def test_importing_a_submodule_runs_its_package(tmp_path):
    # rink/__init__ imports rink.cli, and vision imports rink.cli: rink -> rink.cli only
    # forms a cycle when rink.cli imports something that imports rink from outside
    root = write(tmp_path, {
        "scoring/__init__.py": "",
        "vision/__init__.py": "",
        "vision/photo.py": "from rink.cli import main\n",
        "rink/__init__.py": "from rink import cli\n",
        "rink/cli.py": "import vision.photo\n",
    })
    graph = import_graph(root)
    assert graph["vision.photo"] == {"rink", "rink.cli"}
    assert graph["rink.cli"] == {"vision", "vision.photo"}
    assert cycles(graph) == [["rink", "rink.cli", "vision.photo"]]
