"""Messages the bot posted for each game (lobby, turn, final...)."""

from __future__ import annotations

from datetime import datetime

from .backend import Tx
from .base import StoreBase
from .common import found
from .models import MessageRecord


class MessagesMixin(StoreBase):
    async def record_message(
        self,
        game_id: int,
        kind: str,
        channel_id: int,
        message_id: int,
        seq: int | None = None,
        *,
        now: datetime | None = None,
    ) -> int:
        """Remember a message the bot posted for a game (kind: 'lobby', 'turn', 'final'...)."""
        at = self._at(now)

        async def insert(tx: Tx) -> int:
            found(await tx.game(game_id))
            return await tx.insert_message(game_id, kind, channel_id, message_id, seq, at)

        return await self._db.write(insert)

    async def latest_message(self, game_id: int, kind: str) -> MessageRecord | None:
        """The most recently recorded message of this kind, or None."""

        async def read(tx: Tx) -> MessageRecord | None:
            return await tx.latest_message(game_id, kind)

        return await self._db.read(read)

    async def messages(self, game_id: int, kind: str | None = None) -> list[MessageRecord]:
        """All recorded messages of a game (optionally of one kind), oldest first."""

        async def read(tx: Tx) -> list[MessageRecord]:
            return await tx.messages(game_id, kind)

        return await self._db.read(read)
