"""Every module of the project imports: a tool nobody ran for a while (an offline screenshot
script, an operator's command) must not have rotted when a name it uses moved. Found when
``offline/records_screenshots.py`` still imported a helper ``offline/screenshots.py`` no longer
had."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "store", "i18n", "render", "cogs", "web", "offline")
MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for package in PACKAGES
    for path in (ROOT / package).rglob("*.py")
    if "__pycache__" not in path.parts and path.name != "__main__.py"  # (runs when imported)
)


def test_the_packages_have_modules() -> None:
    assert {"offline.records_screenshots", "web.app", "engine.steps"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_module_imports(name: str) -> None:
    importlib.import_module(name)
