"""The layers of the project, as its import graph states them (docs/DEVELOPING.md, "Layers").

Imports run one way: engine -> store and i18n -> render -> cogs -> bot and offline. The engine
is plain data and pure functions (no Discord, SQL or Pillow: tests/test_i18n_game.py checks the
third-party side); the store keeps games and knows no words or pictures; i18n translates the
engine's texts; render draws from the engine's per-viewer view; cogs turn Discord's events into
moves. A module-level import and a late import inside a function count alike: a late import
hides a cycle, it does not remove it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# package -> the project packages it may import (itself always)
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "store": {"engine"},
    "i18n": {"engine"},
    "render": {"engine", "i18n"},
    "cogs": {"engine", "store", "i18n", "render"},
    "web": {"engine", "store", "i18n", "render", "cogs"},
    "offline": {"engine", "store", "i18n", "render", "cogs", "web", "bot"},
    "bench": {"engine", "store", "i18n", "render", "cogs", "web", "bot", "offline"},
}
PROJECT = {*ALLOWED, "bot"}

# Tools that read the whole project to do their job, not parts of a layer's running code.
TOOLS = {
    # collects every translatable string, including the slash commands' and the store's errors
    "i18n/extract.py",
}


def project_imports(path: Path) -> set[str]:
    """The project packages a file imports, at any depth (late imports included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found & PROJECT


def test_every_package_imports_only_the_layers_below_it() -> None:
    wrong = []
    for package, allowed in ALLOWED.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name in TOOLS:
                continue
            for imported in sorted(project_imports(path) - allowed - {package}):
                wrong.append(f"{name} imports {imported}")
    assert not wrong, "\n".join(wrong)


def test_the_tools_exempted_exist() -> None:
    # an exemption for a file that is gone would hide the next file of that name
    assert all((ROOT / name).is_file() for name in TOOLS)


def test_the_contract_is_enforced(tmp_path: Path) -> None:
    # the checker sees a late import inside a function, as well as a top-level one
    sample = tmp_path / "sample.py"
    sample.write_text("import os\n\ndef f():\n    from cogs.service import GameService\n")
    assert project_imports(sample) == {"cogs"}


# -- inside render: one-way imports ----------------------------------------------------------
# The pictures' modules import one way (drawing primitives and shared pieces below the
# pictures, the focus dispatcher above the focus pictures). Only the package's entry points
# (render/__init__.py) import a module late: on first use, to keep `import render` cheap.
LAZY_ENTRY = "render/__init__.py"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def render_imports(path: Path) -> list[tuple[str, bool]]:
    """The render modules a file imports: (module, whether the import is inside a function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    late = {
        id(node)
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(fn)
    }
    found: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from render import focus_areas` imports the module render.focus_areas
            subs = [f"{node.module}.{a.name}" for a in node.names]
            names = [m for m in subs if (ROOT / (m.replace(".", "/") + ".py")).is_file()]
            if len(names) < len(subs):
                names.append(node.module)
        found += [(n, id(node) in late) for n in names if n.split(".")[0] == "render"]
    return found


def import_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of the graph (as the modules along it), or [] if there is none."""
    done: set[str] = set()

    def visit(node: str, trail: list[str]) -> list[str]:
        if node in trail:
            return [*trail[trail.index(node) :], node]
        if node in done:
            return []
        for nxt in sorted(graph.get(node, ())):
            if cycle := visit(nxt, [*trail, node]):
                return cycle
        done.add(node)
        return []

    for start in sorted(graph):
        if cycle := visit(start, []):
            return cycle
    return []


def test_render_modules_import_one_way() -> None:
    graph = {
        module_name(path): {m for m, _late in render_imports(path)} - {module_name(path)}
        for path in sorted((ROOT / "render").rglob("*.py"))
    }
    cycle = import_cycle(graph)
    assert not cycle, " -> ".join(cycle)


def test_render_modules_import_each_other_at_the_top() -> None:
    # a late import is how a cycle hides: the one place allowed is the package's entry points
    late = [
        f"{path.relative_to(ROOT).as_posix()} imports {module} inside a function"
        for path in sorted((ROOT / "render").rglob("*.py"))
        if path.relative_to(ROOT).as_posix() != LAZY_ENTRY
        for module, is_late in render_imports(path)
        if is_late
    ]
    assert not late, "\n".join(late)


def test_the_render_checks_see_cycles_and_late_imports(tmp_path: Path) -> None:
    assert import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert import_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from render._draw import Canvas\n\ndef f():\n    from render import focus_areas\n"
    )
    assert render_imports(sample) == [("render._draw", False), ("render.focus_areas", True)]
