"""Numbered .sql migrations, one directory per dialect, applied in order.

``migrations/sqlite/NNNN_name.sql`` and ``migrations/postgres/NNNN_name.sql`` hold the same
migrations (same numbers and names: a test checks) in each database's own SQL. Applied versions
are recorded in the ``schema_version`` table. Each migration runs in its own transaction that
re-checks the version first, so running them twice is a no-op and two processes starting at
once are safe. A database whose version is newer than the newest file is refused untouched.
The backends apply them (``sqlite.migrate_sqlite``, ``postgres.migrate_postgres``).
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .errors import MigrationError

MIGRATIONS_ROOT = Path(__file__).resolve().parent.parent / "migrations"
DIALECTS = ("sqlite", "postgres")
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    checksum   TEXT NOT NULL,
    applied_at TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def directory(dialect: str) -> Path:
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    return MIGRATIONS_ROOT / dialect


def load_migrations(where: Path | str = "sqlite") -> list[Migration]:
    """All migration files of a dialect ('sqlite', 'postgres') or a directory, in version
    order; gaps or duplicates are an error."""
    path = directory(where) if isinstance(where, str) and where in DIALECTS else Path(where)
    if not path.is_dir():
        raise MigrationError(f"No migrations directory at {path}")
    found: list[Migration] = []
    for file in sorted(path.glob("*.sql")):
        m = _NAME.match(file.name)
        if not m:
            raise MigrationError(f"Bad migration file name {file.name!r} (want NNNN_name.sql)")
        found.append(Migration(int(m.group(1)), file.stem, file.read_text(encoding="utf-8")))
    for expected, mig in enumerate(found, start=1):
        if mig.version != expected:
            raise MigrationError(
                f"Migrations must be numbered 1, 2, 3... without gaps; found {mig.name}"
            )
    if not found:
        raise MigrationError(f"No migrations in {path}")
    return found


def pending(migrations: list[Migration], version: int, target: int | None) -> list[Migration]:
    """The migrations to apply on top of ``version`` (up to ``target``, default all)."""
    top = migrations[-1].version if target is None else target
    return [m for m in migrations if version < m.version <= top]


def split_statements(sql: str) -> list[str]:
    """Split a SQLite script into complete statements (handles ';' in strings and triggers)."""
    statements: list[str] = []
    buf = ""
    for part in sql.split(";"):
        buf += part + ";"
        if sqlite3.complete_statement(buf):
            stmt = buf.strip()
            if _has_code(stmt):
                statements.append(stmt)
            buf = ""
    if _has_code(buf.rstrip(";")):
        raise MigrationError("Migration ends with an incomplete statement")
    return statements


def _has_code(stmt: str) -> bool:
    lines = (line.split("--", 1)[0].strip() for line in stmt.splitlines())
    return any(line and line != ";" for line in lines)


def too_new_message(db_version: int, code_version: int) -> str:
    return (
        f"The database is at schema version {db_version}, but this version of the bot only "
        f"knows up to version {code_version}. It was written by a newer bot: upgrade the bot "
        "(or restore a backup made by this version). Nothing was changed."
    )
