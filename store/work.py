"""Reminders and AI turns: work that exactly one bot process must do.

Several processes may share one database (PostgreSQL). Each claims work for a while (a lease:
``owner`` + expiry) before doing it: ``claim_due_reminders`` hands each due reminder to one
claimer (PostgreSQL skips rows another transaction is claiming: ``FOR UPDATE SKIP LOCKED``);
``claim_ai_turn`` lets one process play an AI seat's turn. A claim that runs out (its process
died or hung) can be taken over, so no work is lost; a claim is released when the work is done.
The same methods work on SQLite, where one process usually does everything.

An AI turn is played with ``apply_choice`` and its sequence check, so even a claim that ran
out while its owner was still thinking cannot make a turn be played twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .backend import AiClaim, GameRow, Shards, Tx
from .base import StoreBase
from .common import found
from .errors import StoreError
from .models import Reminder

REMINDER_LEASE = timedelta(minutes=5)
AI_TURN_LEASE = timedelta(minutes=2)


class WorkMixin(StoreBase):
    # ------------------------------------------------------------------ reminders

    async def schedule_reminder(
        self, game_id: int, user_id: int, due_at: datetime, seq: int, *, now: datetime | None = None
    ) -> Reminder:
        """Schedule a reminder for ``user_id`` about the turn at ``seq``. ``attempt`` counts
        the reminders already sent for the same (game, user, seq) + 1, for backoff.
        Any other pending reminder for the same user in this game is replaced.
        (``apply_choice(..., remind=True)`` schedules the first one with the move.)"""
        due, at = self._at(due_at), self._at(now)

        async def schedule(tx: Tx) -> Reminder:
            found(await tx.game(game_id, lock=True))
            await tx.cancel_reminders(game_id, user_id)
            return await tx.insert_reminder(game_id, user_id, due, seq, at)

        return await self._db.write(schedule)

    async def pending_reminders(self, game_id: int) -> list[Reminder]:
        """The game's pending reminders: an index lookup, however many the game has sent."""

        async def read(tx: Tx) -> list[Reminder]:
            return await tx.pending_reminders(game_id)

        return await self._db.read(read)

    async def turn_reminders(self, game_id: int, user_id: int, seq: int) -> list[Reminder]:
        """A member's reminders about one decision (the game at ``seq``): an index lookup."""

        async def read(tx: Tx) -> list[Reminder]:
            return await tx.turn_reminders(game_id, user_id, seq)

        return await self._db.read(read)

    async def due_reminders(self, now: datetime, limit: int = 100) -> list[Reminder]:
        """Pending reminders due at or before ``now`` whose game is active and still at the
        reminder's seq (a move since then makes them moot), whose user has not opted out of
        reminders, and which no process holds a claim on, earliest first. (Several processes:
        use ``claim_due_reminders``.)"""
        at = self._at(now)

        async def read(tx: Tx) -> list[Reminder]:
            return await tx.due_reminders(at, limit)

        return await self._db.read(read)

    async def claim_due_reminders(
        self,
        now: datetime,
        owner: str,
        lease: timedelta = REMINDER_LEASE,
        limit: int = 100,
        *,
        shards: Shards | None = None,
    ) -> list[Reminder]:
        """Claim the reminders ``due_reminders`` would list, for ``owner`` (a name unique to
        the process) until ``now + lease``: no other claimer gets them meanwhile. Then send
        each and ``mark_reminder_sent(id, owner=owner)``, or ``release_reminder`` to give it
        back. If the owner dies, its claims run out and another process claims them.

        With ``shards`` (a process that runs some of Discord's shards), only the reminders of
        games in those shards: the process of another shard never takes them, whatever its
        clock says of their leases."""
        at = self._at(now)
        until = at + lease

        async def claim(tx: Tx) -> list[Reminder]:
            return await tx.claim_reminders(at, owner, until, limit, shards)

        return await self._db.write(claim)

    async def release_reminder(self, reminder_id: int, owner: str) -> bool:
        """Give back a claimed reminder (e.g. it could not be sent): due again at once."""

        async def release(tx: Tx) -> bool:
            return await tx.release_reminder(reminder_id, owner)

        return await self._db.write(release)

    async def mark_reminder_sent(
        self, reminder_id: int, *, now: datetime | None = None, owner: str | None = None
    ) -> bool:
        """Record that a reminder went out (and end its claim). With ``owner``, only if it is
        still pending and that owner still holds the claim (or nobody does); returns whether it
        was recorded."""
        at = self._at(now)

        async def mark(tx: Tx) -> bool:
            return await tx.mark_reminder_sent(reminder_id, at, owner)

        return await self._db.write(mark)

    async def cancel_reminders(self, game_id: int, user_id: int | None = None) -> int:
        """Cancel the game's pending reminders (optionally one user's). Returns how many.
        (``apply_choice``, ``undo``, ``cancel_game`` already do this.)"""

        async def cancel(tx: Tx) -> int:
            return await tx.cancel_reminders(game_id, user_id)

        return await self._db.write(cancel)

    async def reminders(self, game_id: int) -> list[Reminder]:
        """Every reminder of a game, in scheduling order."""

        async def read(tx: Tx) -> list[Reminder]:
            return await tx.reminders(game_id)

        return await self._db.read(read)

    # ------------------------------------------------------------------ AI turns

    async def claim_ai_turn(
        self,
        game_id: int,
        owner: str,
        lease: timedelta = AI_TURN_LEASE,
        *,
        now: datetime | None = None,
        any_seat: bool = False,
    ) -> int | None:
        """Claim the right to play the pending turn of an active game, for ``owner`` until
        ``now + lease``. Returns the game's seq (pass it to ``apply_choice``), or None if it
        is not an AI seat's turn (``any_seat=True``: any seat's, for a stand-in), the game is
        not active, or another owner holds a live claim on this turn. Claiming again as the
        same owner renews the lease; a claim on an earlier turn is void."""
        at = self._at(now)

        async def claim(tx: Tx) -> int | None:
            game = found(await tx.game(game_id, lock=True))
            return await self._claim_turn(tx, game, owner, at, at + lease, any_seat)

        return await self._db.write(claim)

    async def release_ai_turn(self, game_id: int, owner: str) -> bool:
        """End ``owner``'s claim on the game's turn (played, or given up)."""

        async def release(tx: Tx) -> bool:
            return await tx.delete_ai_claim(game_id, owner)

        return await self._db.write(release)

    async def claim_waiting_ai_turns(
        self,
        owner: str,
        lease: timedelta = AI_TURN_LEASE,
        *,
        now: datetime | None = None,
        limit: int = 20,
    ) -> list[tuple[int, int]]:
        """Claim AI turns nobody is playing (never claimed, or the claimer's lease ran out:
        it died): [(game_id, seq)]. A sweep for a process to run now and then."""
        at = self._at(now)
        candidates = await self._db.read(lambda tx: tx.waiting_ai_games(at, limit))
        claimed = []
        for game_id in candidates:
            try:
                seq = await self.claim_ai_turn(game_id, owner, lease, now=at)
            except StoreError:
                continue
            if seq is not None:
                claimed.append((game_id, seq))
        return claimed

    async def _claim_turn(
        self,
        tx: Tx,
        game: GameRow,
        owner: str,
        at: datetime,
        until: datetime,
        any_seat: bool,
    ) -> int | None:
        if game.status != "active" or not isinstance(game.seq, int):
            return None
        player = game.to_move
        if player is None:  # a game from before to_move was kept: ask the verified state
            _, state = await self._state_in_tx(tx, game)  # type: ignore[attr-defined]
            decision = state.decision
            if decision is None:
                return None
            player = decision.player
            await tx.update_game(game.id, to_move=player)
        if not any_seat:
            seat = next((s for s in await tx.seats(game.id) if s.turn_index == player), None)
            if seat is None or not seat.is_ai:
                return None
        held = await tx.ai_claim(game.id)
        if held is not None and held.seq == game.seq and held.until > at and held.owner != owner:
            return None
        await tx.put_ai_claim(AiClaim(game.id, game.seq, owner, until))
        return game.seq
