"""What every concern of the store shares: the database and this process's verified games."""

from __future__ import annotations

from datetime import datetime

from .backend import Database
from .cache import VerifiedGames
from .common import aware
from .timeutil import utcnow


class StoreBase:
    _db: Database
    _verified: VerifiedGames

    async def mark_broken(self, game_id: int, reason: str, *, now: datetime | None = None) -> None:
        raise NotImplementedError  # PlayMixin's

    @staticmethod
    def _at(now: datetime | None) -> datetime:
        """The time to record: ``now`` (aware) or the clock."""
        return aware(now) if now is not None else utcnow()
