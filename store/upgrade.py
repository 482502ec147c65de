"""Schema upgrades only with a way back: a database at an older schema version is backed up
before it is migrated, or left untouched with a message saying how to upgrade it.

``Store.open(location, upgrade=...)`` takes one of these modes:

- ``"backup"`` (the default: the bot at start, ``migrate``): SQLite is first copied with
  ``store.backup`` to ``<file>.schema-vN-<UTC time>.bak`` next to it, then migrated. PostgreSQL
  cannot be copied from here: it is refused untouched, saying to run ``pg_dump`` and then
  ``migrate --backed-up``.
- ``"apply"``: migrate without a copy (the operator made one; ``migrate --backed-up``).
- ``"refuse"``: never migrate (``check-db``, ``migrate-to-postgres``'s source, the operator's
  listing commands): an older database is refused untouched, saying to run ``migrate``.

A database with no schema at all (new, empty) is always migrated, and so is one that holds no
games or settings yet (in every mode but "refuse"): it holds nothing to lose, and several
processes starting on a new database at once each see it part-way through its migrations.
A database newer than the code is refused by the backends (``SchemaTooNew``) in every mode.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from .backup import BackupResult, backup_database
from .config import redact
from .errors import SchemaUpgradeNeeded

log = logging.getLogger(__name__)

UpgradeMode = Literal["backup", "apply", "refuse"]
UPGRADE_MODES: tuple[str, ...] = ("backup", "apply", "refuse")
DATA_TABLES = ("games", "guild_settings", "user_settings")
"""Tables whose rows make a database worth a copy before an upgrade (where they exist yet)."""


class UpgradeGuard:
    """Called by a backend with the database's schema version before it migrates anything."""

    def __init__(self, mode: UpgradeMode, location: str, *, sqlite_path: Path | None) -> None:
        if mode not in UPGRADE_MODES:
            raise ValueError(f"unknown upgrade mode {mode!r} (known: {', '.join(UPGRADE_MODES)})")
        self.mode = mode
        self.location = location
        self.sqlite_path = sqlite_path
        self.backup: BackupResult | None = None
        """The copy taken before this open migrated the database (None: none was needed)."""
        self.upgraded_from: int | None = None

    async def before_migrating(self, version: int, latest: int, *, holds_data: bool) -> None:
        """``holds_data``: the database has games or settings. One that holds nothing (new, or
        being set up by another process starting at the same time) is migrated in every
        mode but "refuse"."""
        if version == 0 or version >= latest:
            return  # a new database, or nothing to do (too new is the backend's to refuse)
        if not holds_data and self.mode != "refuse":
            return
        where = redact(self.location)
        if self.mode == "refuse":
            raise SchemaUpgradeNeeded(
                f"The database {where} is at schema version {version}; this version of the bot "
                f"uses version {latest}. This command does not upgrade it: run "
                "`./scripts/run migrate` first (it backs the database up, then upgrades it). "
                "Nothing was changed."
            )
        if self.mode == "backup":
            if self.sqlite_path is None:
                raise SchemaUpgradeNeeded(
                    f"The database {where} is at schema version {version}; this version of the "
                    f"bot needs version {latest}. Back it up first (`pg_dump -Fc -f "
                    f"adas_dream-v{version}.dump DATABASE_URL`), then run `./scripts/run migrate "
                    "--backed-up`. Nothing was changed."
                )
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
            dest = self.sqlite_path.with_name(
                f"{self.sqlite_path.name}.schema-v{version}-{stamp}.bak"
            )
            self.backup = await asyncio.to_thread(backup_database, self.sqlite_path, dest)
            log.warning(
                "upgrading the database from schema version %s to %s: backed it up first to %s"
                " (to go back: stop the bot, copy that file over %s, start the older version)",
                version,
                latest,
                dest,
                self.sqlite_path,
            )
        self.upgraded_from = version
