"""Where the database lives: ``DATABASE_PATH`` from the environment or ``.env``."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_DATABASE_PATH = "./adas_dream.db"


def database_path(env_file: str | os.PathLike[str] | None = ".env") -> Path:
    """``DATABASE_PATH`` (environment wins over ``.env``), default ``./adas_dream.db``."""
    if env_file is not None and Path(env_file).is_file():
        from dotenv import load_dotenv

        load_dotenv(env_file, override=False)
    return Path(os.environ.get("DATABASE_PATH") or DEFAULT_DATABASE_PATH)
