"""The bot's version: pyproject.toml's ``version`` (a checkout), else the installed package's."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


@cache
def version() -> str:
    try:
        return str(tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        try:
            return metadata.version("adas-dream-bot")
        except metadata.PackageNotFoundError:
            return "unknown"
