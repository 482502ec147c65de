"""The game store: one class, ``Store``, whose methods are grouped by concern in mixins.

    lobby.py     create, seat, start, cancel and find games
    play.py      the current state, moves, undo, the choice log
    messages.py  messages the bot posted
    work.py      reminders and AI turns, claimed by one process
    settings.py  guild and user settings, stand-in votes
    ops.py       the bot's own facts (synced commands), games by status, transaction times
    audit.py     verify by replay (check-db), repair
    records.py   results of finished games, members' sums and ratings, time away, privacy
    operator.py  the operator's list of games, a game's record (export), pruning

Their SQL is in the backends, one file each: ``sqlite.py`` (default) and ``postgres.py``.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from . import migrate
from .audit import AuditMixin
from .backend import Database
from .backup import BackupResult, backup_database
from .cache import VerifiedGames
from .common import CHECKPOINT_EVERY
from .config import database_location, is_postgres, redact
from .errors import StoreError
from .lobby import LobbyMixin
from .messages import MessagesMixin
from .operator import OperatorMixin
from .ops import OpsMixin
from .play import PlayMixin
from .records import RecordsMixin
from .settings import SettingsMixin
from .upgrade import UpgradeGuard, UpgradeMode
from .work import WorkMixin

__all__ = ["CHECKPOINT_EVERY", "Store"]


# RecordsMixin first: its ``_record_game_end`` fills in the hook PlayMixin calls at a game's end.
class Store(
    RecordsMixin,
    LobbyMixin,
    PlayMixin,
    MessagesMixin,
    WorkMixin,
    SettingsMixin,
    AuditMixin,
    OpsMixin,
    OperatorMixin,
):
    """Async game store. Create with ``await Store.open(location)``; close with ``await
    store.close()`` (or ``async with await Store.open(...) as store``).

    Safe for many tasks at once and for several processes on one database: each operation is
    one transaction, and everything that changes a game first locks it in the database.
    """

    def __init__(self, db: Database, *, cache_states: int = 2000) -> None:
        self._db = db
        self._verified = VerifiedGames(cache_states)
        self.upgrade_backup: BackupResult | None = None
        """The copy taken before ``open`` upgraded the schema (None: no upgrade, or none
        taken)."""
        self.upgraded_from: int | None = None
        """The schema version ``open`` upgraded the database from (None: not upgraded)."""

    @classmethod
    async def open(
        cls,
        location: str | os.PathLike[str] | None = None,
        *,
        migrations_dir: str | os.PathLike[str] | None = None,
        synchronous: str = "FULL",
        busy_timeout_ms: int = 15_000,
        pool_size: int = 10,
        cache_states: int = 2000,
        upgrade: UpgradeMode = "backup",
    ) -> Store:
        """Open the database and apply pending migrations.

        ``location``: a ``postgresql://`` URL (PostgreSQL) or a file path (SQLite, created if
        needed); default ``DATABASE_URL``, else ``DATABASE_PATH``, from the environment or
        ``.env``, else ``./adas_dream.db``. Raises ``SchemaTooNew`` if the database was written
        by a newer bot (nothing is changed).

        SQLite: ``synchronous='FULL'`` makes each acknowledged move survive power loss too;
        'NORMAL' is faster and still survives a crashed or killed process. PostgreSQL:
        ``pool_size`` connections at most. ``cache_states``: verified game states kept in
        memory (see ``store.cache``).

        ``upgrade``: what to do with a database at an older schema version (``store.upgrade``):
        "backup" (SQLite: copy it first, then migrate; PostgreSQL: refuse, saying to pg_dump),
        "apply" (migrate: the operator has a copy) or "refuse" (never migrate: raises
        ``SchemaUpgradeNeeded``). A new, empty database is migrated in every mode.
        """
        where = database_location() if location is None else location
        guard = UpgradeGuard(
            upgrade, str(where), sqlite_path=None if is_postgres(str(where)) else Path(where)
        )
        if is_postgres(str(where)):
            from .postgres import PostgresDatabase

            migrations = migrate.load_migrations(
                Path(migrations_dir) if migrations_dir else "postgres"
            )
            db: Database = await PostgresDatabase.open(
                str(where), migrations=migrations, pool_size=pool_size, guard=guard
            )
        else:
            from .sqlite import SQLiteDatabase

            migrations = migrate.load_migrations(
                Path(migrations_dir) if migrations_dir else "sqlite"
            )
            db = await SQLiteDatabase.open(
                Path(where),
                migrations=migrations,
                synchronous=synchronous,
                busy_timeout_ms=busy_timeout_ms,
                guard=guard,
            )
        store = cls(db, cache_states=cache_states)
        store.upgrade_backup = guard.backup
        store.upgraded_from = guard.upgraded_from
        return store

    @property
    def backend(self) -> str:
        """'sqlite' or 'postgres'."""
        return self._db.name

    @property
    def path(self) -> Path | None:
        """The SQLite file (None on PostgreSQL)."""
        return getattr(self._db, "path", None)

    @property
    def location(self) -> str:
        """The file or URL, without a password (for logs)."""
        return redact(self._db.location)

    async def close(self) -> None:
        """Close the connections (waits for running operations to finish)."""
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        return await self._db.schema_version()

    async def backup(
        self, dest: str | os.PathLike[str], *, overwrite: bool = False
    ) -> BackupResult:
        """Consistent copy of the live SQLite database to ``dest`` (see ``store.backup``).
        Runs on a separate connection in a thread: the bot keeps playing meanwhile.
        (PostgreSQL: use ``pg_dump``.)"""
        if self.path is None:
            raise StoreError("Back up a PostgreSQL database with pg_dump.")
        return await asyncio.to_thread(backup_database, self.path, dest, overwrite=overwrite)
