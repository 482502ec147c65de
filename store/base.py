"""What every concern of the store shares: the database and this process's verified games."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from .backend import Database
from .cache import VerifiedGames
from .common import aware
from .timeutil import utcnow


class StoreBase:
    _db: Database
    _verified: VerifiedGames
    on_set_aside: Callable[[int, str], None] | None = None
    """Called with (game id, "broken" or "edition") when this process sets a game aside: its
    data is damaged, or its content edition is missing (the bot announces it in the thread)."""

    def _set_aside(self, game_id: int, why: str) -> None:
        if self.on_set_aside is not None:
            self.on_set_aside(game_id, why)

    async def mark_broken(self, game_id: int, reason: str, *, now: datetime | None = None) -> None:
        raise NotImplementedError  # PlayMixin's

    @staticmethod
    def _at(now: datetime | None) -> datetime:
        """The time to record: ``now`` (aware) or the clock."""
        return aware(now) if now is not None else utcnow()
