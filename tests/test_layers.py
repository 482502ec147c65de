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
