"""The layers of the project, as its import graph states them (docs/DEVELOPING.md, "Layers").

Imports run one way: engine -> store and i18n -> render -> cogs -> bot and offline. The engine
is plain data and pure functions (no Discord, SQL or Pillow: tests/test_i18n_game.py checks the
third-party side); the store keeps games and knows no words or pictures; i18n translates the
engine's texts; render draws from the engine's per-viewer view; cogs turn Discord's events into
moves. A module-level import and a late import inside a function count alike: a late import
hides a cycle, it does not remove it.

Inside the engine the same holds for its own layers: words and stored formats <- content <- state
<- rules <- the AI and the command line, with no cycle between engine modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

from engine import rules

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


# -- inside the engine ------------------------------------------------------------------------

# The engine's own layers, lowest first (docs/DEVELOPING.md, "Inside the engine"): the words and
# stored formats; the content of an edition; the state; the rules (the steps of each area, the
# decision loop, scoring); and what uses the rules (the AI, the command line, the package). A
# module may import its own layer and the layers below it.
ENGINE_LAYERS: list[tuple[str, set[str]]] = [
    (
        "words and stored formats",
        {"vocabulary", "sentences", "choices", "versions", "rng", "compiled"},
    ),
    ("content", {"edition", "edition_file", "edition_checks", "facts", "help"}),
    ("state", {"state", "copies", "view"}),
    (
        "rules",
        {"common", "objectives", "mill", "scoring", "steps", "rules", "labels"}
        | {module.__name__.removeprefix("engine.") for module in rules.STEP_MODULES},
    ),
    ("AI and the command line", {"ai", "__main__", "record", "__init__"}),
]
ENGINE_LAYER = {module: n for n, (_, modules) in enumerate(ENGINE_LAYERS) for module in modules}
# Imports against the layers or round in a cycle, each with its reason: GameState's methods in
# the style of python-chess (`state.apply(choice)`, `state.decision`, `state.final_scores()`,
# `state.view(seat)`) hand over, late, to the rules and to the view; the rules never call them.
ENGINE_EXCEPTIONS = {("state", "rules"), ("state", "scoring"), ("state", "view")}


def engine_imports(path: Path) -> set[str]:
    """The engine modules a module imports at run time, late imports included (imports under
    `if TYPE_CHECKING:` are only annotations, and left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hints = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
        for child in node.body
        for inner in ast.walk(child)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in hints:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("engine.")}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("engine."):
                found.add(node.module.split(".")[1])
            elif node.module == "engine":  # from engine import rules, GameState
                found |= {a.name for a in node.names if a.name in ENGINE_LAYER} or {"__init__"}
    return found - {path.stem}


def test_every_engine_module_has_a_layer() -> None:
    modules = {p.stem for p in (ROOT / "engine").glob("*.py")}
    assert modules == set(ENGINE_LAYER), modules ^ set(ENGINE_LAYER)


def test_engine_modules_import_only_their_layer_and_below() -> None:
    wrong = []
    for path in sorted((ROOT / "engine").glob("*.py")):
        mine = ENGINE_LAYER[path.stem]
        for imported in sorted(engine_imports(path)):
            if ENGINE_LAYER[imported] > mine and (path.stem, imported) not in ENGINE_EXCEPTIONS:
                layer = ENGINE_LAYERS[ENGINE_LAYER[imported]][0]
                wrong.append(
                    f"engine/{path.name} ({ENGINE_LAYERS[mine][0]}) imports {imported} ({layer})"
                )
    assert not wrong, "\n".join(wrong)


def test_engine_modules_form_no_cycle() -> None:
    # within a layer too: a step module never imports the loop (engine.rules), an area module
    # never imports one that imports it
    graph = {p.stem: engine_imports(p) - {"__init__"} for p in (ROOT / "engine").glob("*.py")}
    for a, b in ENGINE_EXCEPTIONS:
        graph[a].discard(b)
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, " -> ".join([*path, module])
        if module in done:
            return
        for imported in sorted(graph[module]):
            visit(imported, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


def test_the_engine_exceptions_are_real_imports() -> None:
    # an exception that is no longer needed would hide the next import of that kind
    for a, b in ENGINE_EXCEPTIONS:
        assert b in engine_imports(ROOT / "engine" / f"{a}.py"), (a, b)


def test_the_engine_contract_is_enforced(tmp_path: Path) -> None:
    # a late import counts, an annotation-only import does not
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\nfrom engine import rules, vocabulary as V\n"
        "if TYPE_CHECKING:\n    from engine.ai import Policy\n"
        "def f():\n    from engine.state import GameState\n"
    )
    assert engine_imports(sample) == {"rules", "vocabulary", "state"}
