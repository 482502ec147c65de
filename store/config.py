"""Where the database lives: ``DATABASE_URL`` (PostgreSQL) or ``DATABASE_PATH`` (SQLite file),
from the environment or ``.env`` (the environment wins)."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_DATABASE_PATH = "./adas_dream.db"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def _load_env(env_file: str | os.PathLike[str] | None) -> None:
    if env_file is not None and Path(env_file).is_file():
        from dotenv import load_dotenv

        load_dotenv(env_file, override=False)


def database_path(env_file: str | os.PathLike[str] | None = ".env") -> Path:
    """``DATABASE_PATH`` (environment wins over ``.env``), default ``./adas_dream.db``."""
    _load_env(env_file)
    return Path(os.environ.get("DATABASE_PATH") or DEFAULT_DATABASE_PATH)


def is_postgres(location: str | os.PathLike[str]) -> bool:
    return isinstance(location, str) and location.startswith(POSTGRES_SCHEMES)


def database_location(env_file: str | os.PathLike[str] | None = ".env") -> str | Path:
    """``DATABASE_URL`` if it is set (a ``postgresql://`` URL: the PostgreSQL backend), else
    the SQLite file ``database_path()``."""
    _load_env(env_file)
    url = (os.environ.get("DATABASE_URL") or "").strip()
    if url:
        if not is_postgres(url):
            raise ValueError("DATABASE_URL must start with postgresql:// (or leave it empty)")
        return url
    return database_path(None)


def redact(location: str | os.PathLike[str]) -> str:
    """The location for logs and messages, without a password."""
    text = str(location)
    if is_postgres(text) and "@" in text:
        scheme, rest = text.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}@{host}"
    return text
