"""Messages the bot posted for each game (lobby, turn, final...)."""

from __future__ import annotations

from datetime import datetime

from .backend import Shows, Tx
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
        shows: Shows | None = None,
    ) -> int:
        """Remember a message the bot posted for a game (kind: 'lobby', 'turn', 'final'...);
        with ``shows``, in the same transaction, that the game's thread now shows it."""
        at = self._at(now)

        async def insert(tx: Tx) -> int:
            found(await tx.game(game_id))
            row = await tx.insert_message(game_id, kind, channel_id, message_id, seq, at)
            if shows is not None:
                await tx.put_shows(game_id, shows, at)
            return row

        return await self._db.write(insert)

    async def mark_shown(self, shown: dict[int, Shows], *, now: datetime | None = None) -> None:
        """Record what several games' threads show (game id -> Shows), in one transaction. A
        game that no longer exists is skipped."""
        at = self._at(now)

        async def put(tx: Tx) -> None:
            for game_id, shows in shown.items():
                await tx.put_shows(game_id, shows, at)

        if shown:
            await self._db.write(put)

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
