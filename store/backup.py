"""Consistent online copy of a live database (SQLite's backup API)."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .errors import StoreError


@dataclass(frozen=True)
class BackupResult:
    dest: Path
    bytes: int
    schema_version: int
    games: int


def backup_database(
    src: str | os.PathLike[str], dest: str | os.PathLike[str], *, overwrite: bool = False
) -> BackupResult:
    """Copy ``src`` to ``dest`` while the bot may be writing to it.

    Uses a separate read-only-in-practice connection and copies all pages in one step under a
    single read transaction, so the copy is one committed state (in WAL mode writers are not
    blocked). The copy is written to ``dest + '.partial'``, checked with
    ``PRAGMA integrity_check``, then renamed into place, so ``dest`` is never half-written.
    """
    src_path, dest_path = Path(src), Path(dest)
    if not src_path.is_file():
        raise StoreError(f"No database at {src_path}")
    if dest_path.exists() and not overwrite:
        raise StoreError(f"{dest_path} already exists; choose another name or pass --force")
    if dest_path.resolve() == src_path.resolve():
        raise StoreError("The backup must go to a different file than the live database")
    partial = dest_path.with_name(dest_path.name + ".partial")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(src_path, timeout=30)
    try:
        target = sqlite3.connect(partial)
        try:
            source.backup(target, pages=-1)
            target.execute("PRAGMA journal_mode=DELETE")  # a self-contained single file
            ok = target.execute("PRAGMA integrity_check").fetchone()[0]
            if ok != "ok":
                raise StoreError(f"The backup copy failed its integrity check: {ok}")
            version, games = _summary(target)
        finally:
            target.close()
    finally:
        source.close()
    os.replace(partial, dest_path)
    return BackupResult(dest_path, dest_path.stat().st_size, version, games)


def _summary(conn: sqlite3.Connection) -> tuple[int, int]:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    version = (
        conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]
        if "schema_version" in tables
        else 0
    )
    games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] if "games" in tables else 0
    return int(version), int(games)
