"""Numbered .sql migrations, applied in order, each in its own transaction.

Files are named ``NNNN_description.sql`` (e.g. ``0001_initial.sql``). Applied versions are
recorded in the ``schema_version`` table. Running the migrations twice is a no-op; two
processes starting at once are safe (each migration re-checks the version under
``BEGIN IMMEDIATE``). A database whose version is newer than the newest file is refused.
"""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from .errors import MigrationError, SchemaTooNew
from .timeutil import to_db, utcnow

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

_VERSION_TABLE = """
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


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """All migration files in version order; gaps or duplicates are an error."""
    if not directory.is_dir():
        raise MigrationError(f"No migrations directory at {directory}")
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        m = _NAME.match(path.name)
        if not m:
            raise MigrationError(f"Bad migration file name {path.name!r} (want NNNN_name.sql)")
        found.append(Migration(int(m.group(1)), path.stem, path.read_text(encoding="utf-8")))
    for expected, mig in enumerate(found, start=1):
        if mig.version != expected:
            raise MigrationError(
                f"Migrations must be numbered 1, 2, 3... without gaps; found {mig.name}"
            )
    if not found:
        raise MigrationError(f"No migrations in {directory}")
    return found


def split_statements(sql: str) -> list[str]:
    """Split a script into complete statements (handles ';' in strings and triggers)."""
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


async def current_version(db: aiosqlite.Connection) -> int:
    """Highest applied migration version (0 for an empty database)."""
    async with db.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'"
    ) as cur:
        if await cur.fetchone() is None:
            return 0
    async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


def too_new_message(db_version: int, code_version: int) -> str:
    return (
        f"The database is at schema version {db_version}, but this version of the bot only "
        f"knows up to version {code_version}. It was written by a newer bot: upgrade the bot "
        "(or restore a backup made by this version). Nothing was changed."
    )


async def migrate(
    db: aiosqlite.Connection,
    migrations: list[Migration] | None = None,
    *,
    target: int | None = None,
) -> list[int]:
    """Apply pending migrations (up to ``target``, default all). Returns versions applied.

    ``db`` must be in autocommit mode (``isolation_level=None``).
    """
    migrations = load_migrations() if migrations is None else migrations
    latest = migrations[-1].version if migrations else 0
    target = latest if target is None else target
    version = await current_version(db)
    if version > latest:
        raise SchemaTooNew(too_new_message(version, latest))
    applied: list[int] = []
    for mig in migrations:
        if mig.version > target or mig.version <= version:
            continue
        if await _apply_one(db, mig, latest):
            applied.append(mig.version)
    return applied


async def _apply_one(db: aiosqlite.Connection, mig: Migration, latest: int) -> bool:
    statements = split_statements(mig.sql)
    await db.execute("BEGIN IMMEDIATE")
    try:
        await db.execute(_VERSION_TABLE)
        version = await current_version(db)
        if version > latest:
            raise SchemaTooNew(too_new_message(version, latest))
        if version >= mig.version:  # another process got here first
            await db.execute("ROLLBACK")
            return False
        if version != mig.version - 1:
            raise MigrationError(f"Cannot apply {mig.name} on top of version {version}")
        for stmt in statements:
            await db.execute(stmt)
        await db.execute(
            "INSERT INTO schema_version (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
            (mig.version, mig.name, mig.checksum, to_db(utcnow())),
        )
        await db.execute("COMMIT")
    except BaseException as exc:
        await db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise MigrationError(f"Migration {mig.name} failed: {exc}") from exc
        raise
    log.info("applied migration %s", mig.name)
    return True
