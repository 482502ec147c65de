"""Messages the bot posted for each game (lobby, turn, final...)."""

from __future__ import annotations

from datetime import datetime

from .backend import PostedTurn, Shows, Tx
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

    async def mark_shown(
        self,
        shown: dict[int, Shows],
        *,
        now: datetime | None = None,
        posted: dict[int, PostedTurn] | None = None,
    ) -> None:
        """Record what several games' threads show (game id -> Shows), and the turn messages
        ``posted`` but not yet recorded (game id -> PostedTurn), in one transaction. A game
        that no longer exists is skipped."""
        at = self._at(now)
        posted = posted or {}

        async def put(tx: Tx) -> None:
            for game_id, turn in posted.items():
                if await tx.game(game_id) is not None:
                    await record_posted(tx, game_id, turn, at)
            for game_id, shows in shown.items():
                await tx.put_shows(game_id, shows, at)

        if shown or posted:
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


async def record_posted(tx: Tx, game_id: int, turn: PostedTurn, at: datetime) -> None:
    """Write a posted turn message and that the thread shows it (as ``record_message`` with
    ``shows`` does), within a write the caller makes anyway."""
    await tx.insert_message(game_id, "turn", turn.channel_id, turn.message_id, turn.shows.seq, at)
    await tx.put_shows(game_id, turn.shows, at)
