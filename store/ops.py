"""What running the bot for months asks of the store: facts the bot keeps about itself between
starts (``bot_state``: the hash of the last synced slash commands), games counted by status,
and how long each transaction takes (for the metrics endpoint).

Transaction times are reported to a callback the bot sets (``Store.time_transactions``), so the
store knows nothing of Prometheus: ``callback(kind, seconds)`` with kind 'read' or 'write',
measured from the call to the answer (on SQLite that includes the wait for the writer).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar

from .backend import Database, Tx
from .base import StoreBase

T = TypeVar("T")

TransactionTimer = Callable[[str, float], None]


class TimedDatabase:
    """A ``Database`` whose reads and writes report their duration; everything else is the
    wrapped database's."""

    def __init__(self, db: Database, report: TransactionTimer) -> None:
        self.inner = db
        self.report = report

    async def read(self, fn: Callable[[Tx], Awaitable[T]]) -> T:
        return await self._timed("read", self.inner.read(fn))

    async def write(self, fn: Callable[[Tx], Awaitable[T]]) -> T:
        return await self._timed("write", self.inner.write(fn))

    async def _timed(self, kind: str, transaction: Awaitable[T]) -> T:
        started = time.perf_counter()
        try:
            return await transaction
        finally:
            self.report(kind, time.perf_counter() - started)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class OpsMixin(StoreBase):
    def time_transactions(self, report: TransactionTimer | None) -> None:
        """Report every transaction's duration to ``report`` (None: stop reporting)."""
        inner = self._db.inner if isinstance(self._db, TimedDatabase) else self._db
        self._db = TimedDatabase(inner, report) if report is not None else inner

    async def bot_value(self, name: str) -> str | None:
        """A fact the bot keeps about itself, by name (None: never set)."""

        async def read(tx: Tx) -> str | None:
            return await tx.bot_value(name)

        return await self._db.read(read)

    async def set_bot_value(self, name: str, value: str, *, now: datetime | None = None) -> None:
        at = self._at(now)

        async def write(tx: Tx) -> None:
            await tx.put_bot_value(name, value, at)

        await self._db.write(write)

    async def games_by_status(self, guild_id: int | None = None) -> dict[str, int]:
        """How many games (of ``guild_id``, or all) are in each status, every status included
        (0 where there is none). One query."""
        from .models import STATUSES

        async def read(tx: Tx) -> dict[str, int]:
            return await tx.status_counts(guild_id)

        counts = await self._db.read(read)
        return {status: counts.get(status, 0) for status in STATUSES}
