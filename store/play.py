"""Play: the current state, moves, undo, the choice log.

A move is one transaction: lock the game, check the expected sequence number (a double click or
an old button is refused as StaleMove), check the seat, apply the choice with the engine, append
the choice (with its running digest) and the new snapshot, advance the game, cancel its pending
reminders and, if asked, schedule the next player's first reminder. All or nothing.

A move of a game whose state this process holds is computed before its transaction, outside
the line of writes, and written only if the game's row and the end of its choice log are still
exactly what the process verified (``Tx.record_move_at``); if anything changed, the move goes
the full way above, in the same transaction, and fails or succeeds as it says.

Moves build only on states this process has verified by replay since it started
(``store.cache``): the first load of a game replays it in a worker thread; later moves extend
what was verified and check the end of the choice log (two rows) on the way. A choice row
rewritten or deleted further back is caught as well: the database's triggers (migration 15) then
change the game's log digest, so the next move or load replays the game and sets it aside.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal, overload

from engine import GameSetup, GameState, IllegalChoice, replay

from . import choicelog, codec
from .backend import (
    ChoiceRow,
    GameRow,
    LogEnd,
    MoveWrite,
    PostedTurn,
    SnapshotRow,
    Tx,
    UndoWrite,
)
from .base import StoreBase
from .common import (
    CHECKPOINT_EVERY,
    Corrupt,
    found,
    options_of,
    require_playable,
    setup_of,
)
from .errors import (
    CannotUndo,
    EditionMissing,
    GameBroken,
    GameNotActive,
    NotYourTurn,
    StaleMove,
    StoreError,
)
from .messages import record_posted
from .models import ChoiceRecord, GameRecord, GuildSettings, SeatRecord, UserSettings
from .verify import Replayed, Verified, replay_rows, to_move

log = logging.getLogger("store")


@dataclass
class Evidence:
    """The rows a replay needs (read in one transaction, replayed outside it)."""

    game: GameRow
    seats: list[SeatRecord]
    choices: list[ChoiceRow]
    snapshots: dict[int, SnapshotRow]
    start: tuple[Verified, GameState] | None


class PlayMixin(StoreBase):
    async def _record_game_end(self, tx: Tx, game_id: int, state: GameState, at: datetime) -> None:
        """The records a finished game leaves, in the transaction of the move that ended it
        (``store.records``)."""

    # ------------------------------------------------------------------ reading

    async def load_state(self, game_id: int) -> tuple[GameState, int]:
        """The current state and its sequence number, which is what ``apply_choice`` expects
        next (put it in the buttons' custom ids). Works for active, finished and cancelled
        games. Raises GameNotActive for a lobby, GameBroken if the saved data is damaged (the
        game is then marked 'broken'). The state is the caller's to change."""
        state, seq = await self._current(game_id)
        return codec.copy(state), seq

    async def game_and_state(self, game_id: int) -> tuple[GameRecord, GameState | None, int]:
        """The game's record, and its current state and seq as ``load_state`` gives them, in
        one read (what a click needs). The state is None when the game has none to play on
        (a lobby, a broken game): the record then says why. Raises GameNotFound."""
        try:
            rec, state, seq = await self._current(game_id, with_record=True)
        except (GameNotActive, GameBroken):
            return await self.get_game(game_id), None, 0
        assert rec is not None
        return rec, codec.copy(state), seq

    def position(self, game_id: int) -> tuple[int, str | None] | None:
        """(seq, log digest) of the game as this process last verified or moved it, or None:
        what a thread showing its current state shows (no database call)."""
        known = self._verified.fact(game_id)
        return None if known is None else (known.seq, known.log_digest)

    def forget_state(self, game_id: int) -> None:
        """Release what this process holds of a game (it ended or went quiet): its next load
        verifies it again."""
        self._verified.forget(game_id)

    async def load_setup(self, game_id: int) -> GameSetup:
        """The engine setup the game was started with."""

        async def read(tx: Tx) -> GameRow:
            return found(await tx.game(game_id))

        game = await self._db.read(read)
        if game.setup is None:
            raise GameNotActive("This game hasn't started yet.")
        try:
            return setup_of(game)
        except Corrupt as exc:
            await self.mark_broken(game_id, str(exc))
            raise GameBroken() from exc

    async def choices(self, game_id: int, *, include_undone: bool = False) -> list[ChoiceRecord]:
        """The game's choices in the order they were applied (live ones only by default)."""

        async def read(tx: Tx) -> list[ChoiceRecord]:
            found(await tx.game(game_id))
            return await tx.choice_records(game_id, include_undone)

        return await self._db.read(read)

    @overload
    async def _current(self, game_id: int) -> tuple[GameState, int]: ...
    @overload
    async def _current(
        self, game_id: int, *, with_record: Literal[True]
    ) -> tuple[GameRecord, GameState, int]: ...

    async def _current(self, game_id: int, *, with_record: bool = False) -> Any:
        """The verified current state (shared: copy before changing it) and its seq; with
        ``with_record``, the game's record first, read in the same transaction."""

        async def look(
            tx: Tx,
        ) -> tuple[GameRow, GameState | None, Evidence | None, list[SeatRecord] | None]:
            game = found(await tx.game(game_id))
            if game.status == "broken":
                raise GameBroken()
            if game.setup is None:
                raise GameNotActive("This game hasn't started yet.")
            state = await self._known_state(tx, game)
            if state is not None:
                return game, state, None, await tx.seats(game_id) if with_record else None
            evidence = await self._evidence(tx, game)
            return game, None, evidence, evidence.seats

        try:
            game, state, evidence, seats = await self._db.read(look)
            if state is None:
                assert evidence is not None
                replayed = await asyncio.to_thread(_replay, evidence)
                await self._settle(game, replayed)
                state = replayed.state
        except Corrupt as exc:
            await self.mark_broken(game_id, str(exc))
            raise GameBroken() from exc
        except GameBroken:  # set aside earlier (by check-db, say): the bot may not have said so
            self._set_aside(game_id, "broken")
            raise
        except EditionMissing:
            self._set_aside(game_id, "edition")
            raise
        if with_record:
            assert seats is not None
            # the seats checked against the digest of the game's start, as every read does
            return await self._checked(game, seats), state, game.seq  # type: ignore[attr-defined]
        return state, game.seq

    async def _known_state(self, tx: Tx, game: GameRow) -> GameState | None:
        """The state this process verified for the game as it now stands, or None. Checks the
        end of the choice log (raises Corrupt)."""
        known = self._verified.fact(game.id)
        if known is None or not known.matches(game):
            return None
        await _check_log_end(tx, game)
        state = self._verified.state(game.id, known)
        if state is None:  # pushed out of memory: the snapshot is it if it hashes the same
            snap = await tx.snapshot(game.id, game.seq)
            if snap is None or not isinstance(snap.state, str):
                return None
            if codec.sha256(snap.state) != known.state_digest:
                return None
            state = codec.decode(snap.state)
            self._verified.put(game.id, known, state)
        return state

    async def _evidence(self, tx: Tx, game: GameRow) -> Evidence:
        """Rows to verify the game by replay: from a state verified earlier if the log still
        runs through it (another process moved the game on), else from the start."""
        seats = await tx.seats(game.id)
        start, choices = None, None
        known = self._verified.fact(game.id)
        if known is not None and isinstance(game.seq, int) and 0 < known.seq <= game.seq:
            state = self._verified.state(game.id, known)
            if state is not None:
                rows = await tx.live_choices(game.id, known.seq - 1)
                if rows and rows[0].seq == known.seq - 1 and rows[0].digest == known.log_digest:
                    start, choices = (known, state), rows[1:]
        if choices is None:
            choices = await tx.live_choices(game.id)
        snaps: dict[int, SnapshotRow] = {}
        if isinstance(game.seq, int):
            snap = await tx.snapshot(game.id, game.seq)
            if snap is not None:
                snaps[snap.seq] = snap
        return Evidence(game, seats, choices, snaps, start)

    async def _settle(self, game: GameRow, replayed: Replayed) -> None:
        """Remember a replayed game; fill in digests of old choice rows, the log digest and
        whose move it is, if the rows lack them (games from before migration 6)."""
        v = replayed.verified
        self._verified.put(game.id, v, replayed.state)
        if not _needs_fix(game, replayed):
            return

        async def fix(tx: Tx) -> None:
            now = await tx.game(game.id, lock=True)
            if now is not None and now.seq == game.seq and now.log_digest == game.log_digest:
                await _write_fix(tx, game, replayed)

        with contextlib.suppress(StoreError):
            await self._db.write(fix)

    async def _state_in_tx(self, tx: Tx, game: GameRow) -> tuple[Verified, GameState]:
        """Inside a write: the verified state of the locked game (shared: copy before
        changing it). Replays here only if another process changed the game since the
        caller's warm-up (``_warm``)."""
        state = await self._known_state(tx, game)
        if state is None:
            replayed = _replay(await self._evidence(tx, game))
            if _needs_fix(game, replayed):
                await _write_fix(tx, game, replayed)
            self._verified.put(game.id, replayed.verified, replayed.state)
            state = replayed.state
        known = self._verified.fact(game.id)
        assert known is not None
        return known, state

    async def _warm(self, game_id: int) -> None:
        """Verify a game this process has not seen yet, in a worker thread, before a write
        needs it (errors surface in the write)."""
        if game_id not in self._verified:
            with contextlib.suppress(StoreError):
                await self._current(game_id)

    # ------------------------------------------------------------------ moves

    async def apply_choice(
        self,
        game_id: int,
        expected_seq: int,
        seat: int,
        choice_id: str,
        *,
        now: datetime | None = None,
        remind: bool = False,
        posted: PostedTurn | None = None,
    ) -> GameState:
        """Apply one choice, all or nothing, in one transaction (see the module doc). Returns
        the new state (its seq is ``expected_seq + 1``).

        ``posted``: the game's turn message posted since its last write, recorded in the same
        transaction (``record_message`` with ``shows``), so a click stays one write.

        ``remind=True`` also schedules, in the same transaction, the first reminder for the
        person who must decide next (none for an AI seat, a finished game, or a user who
        turned reminders off), due after their delay (the game's ``reminder_hours`` option,
        else the user's, else the guild's setting), as ``schedule_reminder`` would.

        Raises StaleMove (seq differs: double click, second process), NotYourTurn,
        IllegalChoice (from the engine), GameNotActive, GameBroken, GameNotFound.
        On any exception nothing is changed.
        """
        at = self._at(now)
        await self._warm(game_id)
        ready = self._prepared(game_id, expected_seq, seat, choice_id, at)

        async def with_reminder(tx: Tx, write: MoveWrite, to_move: int | None) -> MoveWrite:
            """The write with the next person's first reminder, if asked (read: no undo)."""
            if not remind:
                return write
            return replace(write, reminder=await self._next_reminder(tx, game_id, to_move, at))

        async def move(tx: Tx) -> GameState:
            # the move that ends a game goes the full way: its records are written with it,
            # and a move written ahead must be its job's only write
            if ready is not None and not ready.write.over:
                write = await with_reminder(tx, ready.write, ready.verified.to_move)
                if await tx.record_move_at(write, ready.end):
                    tx.after_commit(
                        lambda: self._verified.put(game_id, ready.verified, ready.state)
                    )
                    return ready.state
                # the log is not what this process verified (another process moved, or a row
                # was damaged): verify the whole game again, by replay, before building on it
                self._verified.forget(game_id)
            # the full way: read and lock the game, check it, and apply the choice here
            game = found(await tx.game(game_id, lock=True))
            require_playable(game)
            if game.seq != expected_seq:
                raise StaleMove()
            known, state = await self._state_in_tx(tx, game)
            player = to_move(state)
            if player is None:
                raise GameNotActive("This game is over.")
            if player != seat:
                raise NotYourTurn()
            new = codec.copy(state)
            new.apply(choice_id)  # IllegalChoice propagates; the transaction rolls back
            text, digest = codec.encode(new)
            verified, write = _move_write(known, game_id, seat, choice_id, new, text, digest, at)
            await tx.record_move(await with_reminder(tx, write, verified.to_move))
            if write.over:
                await self._record_game_end(tx, game_id, new, at)
            tx.after_commit(lambda: self._verified.put(game_id, verified, new))
            return new

        async def move_and_record(tx: Tx) -> GameState:
            # the message first: the move's one-statement write must be its job's last write
            if posted is not None:
                await record_posted(tx, game_id, posted, at)
            return await move(tx)

        try:
            new = await self._db.write(move_and_record)
        except Corrupt as exc:
            await self.mark_broken(game_id, str(exc))
            raise GameBroken() from exc
        return codec.copy(new)

    def _prepared(
        self, game_id: int, expected_seq: int, seat: int, choice_id: str, at: datetime
    ) -> PreparedMove | None:
        """The move computed before its transaction, from the state this process verified for
        the game at ``expected_seq``, or None (not known here, not this seat's turn, an illegal
        choice...: the full way in the transaction finds out and says why). Its transaction
        then only writes it, if the game is still exactly there (``Tx.record_move_at``): the
        engine's work is done while other moves' statements run, not in the line for writing."""
        known = self._verified.fact(game_id)
        if known is None or known.seq != expected_seq:
            return None
        state = self._verified.state(game_id, known)
        if state is None or to_move(state) != seat:
            return None
        if expected_seq > 0 and (known.last_seat is None or not state.history):
            return None
        new = codec.copy(state)
        try:
            new.apply(choice_id)
        except IllegalChoice:
            return None
        text, digest = codec.encode(new)
        verified, write = _move_write(known, game_id, seat, choice_id, new, text, digest, at)
        last_choice = state.history[-1] if expected_seq > 0 else None
        end = LogEnd(expected_seq, known.log_digest, known.last_seat, last_choice)
        return PreparedMove(new, verified, write, end)

    async def undo(
        self,
        game_id: int,
        expected_seq: int,
        seat: int,
        *,
        now: datetime | None = None,
        remind: bool = False,
    ) -> GameState:
        """Take back the last live choice, if ``seat`` made it and the engine allows it (not
        below ``state.undo_floor``). The choice row is kept and marked undone; the state is
        rebuilt by ``replay(setup, history[:-1])`` (in a worker thread, before the
        transaction). ``expected_seq`` guards against a double click exactly like
        ``apply_choice``; ``remind`` too. Returns the new state (seq - 1).
        Raises StaleMove, CannotUndo, GameNotActive, GameBroken."""
        at = self._at(now)
        try:
            state, seq = await self._current(game_id)
            if seq != expected_seq:
                raise StaleMove()

            async def rows(tx: Tx) -> tuple[GameRow, list[ChoiceRow]]:
                return found(await tx.game(game_id)), await tx.live_choices(game_id)

            game, live = await self._db.read(rows)
            if game.seq != expected_seq:
                raise StaleMove()
            previous, previous_log = await asyncio.to_thread(_undone, game, live, state)

            async def take_back(tx: Tx) -> GameState:
                now_game = found(await tx.game(game_id, lock=True))
                require_playable(now_game)
                if now_game.seq != expected_seq:
                    raise StaleMove()
                known, current = await self._state_in_tx(tx, now_game)
                if current.history != state.history:  # changed between our reads and the lock
                    raise StaleMove()
                if not current.history:
                    raise CannotUndo("There is nothing to take back.")
                last = live[-1]
                if last.seat != seat:
                    raise CannotUndo("Only the player who made the last move can take it back.")
                if current.current_player != seat:
                    raise CannotUndo("A move can only be taken back during your own turn.")
                if len(current.history) - 1 < current.undo_floor:
                    raise CannotUndo("That move revealed something new, so it can't be taken back.")
                text, digest = codec.encode(previous)
                before = live[-2].seat if len(live) >= 2 else None  # who made the new last move
                verified = Verified(
                    expected_seq - 1, previous_log, digest, to_move(previous), before
                )
                await tx.record_undo(
                    UndoWrite(
                        game_id=game_id,
                        choice_row_id=last.id,
                        seq=expected_seq - 1,
                        log_digest=previous_log,
                        state=text,
                        state_digest=digest,
                        over=previous.is_over,
                        to_move=verified.to_move,
                        at=at,
                    )
                )
                if remind:
                    reminder = await self._next_reminder(tx, game_id, verified.to_move, at)
                    if reminder is not None:
                        user_id, due = reminder
                        await tx.insert_reminder(game_id, user_id, due, verified.seq, at)
                tx.after_commit(lambda: self._verified.put(game_id, verified, previous))
                return previous

            result = await self._db.write(take_back)
        except Corrupt as exc:
            await self.mark_broken(game_id, str(exc))
            raise GameBroken() from exc
        return codec.copy(result)

    async def mark_broken(self, game_id: int, reason: str, *, now: datetime | None = None) -> None:
        """Set the game aside as 'broken' with a reason (logged). Never raises for a
        missing game; the other games are untouched."""
        log.error("game %s marked broken: %s", game_id, reason)
        at = self._at(now)
        self._verified.forget(game_id)

        async def mark(tx: Tx) -> None:
            game = await tx.game(game_id, lock=True)
            if game is None:
                return
            await tx.update_game(
                game_id,
                status="broken",
                broken_reason=reason[:1000],
                broken_from=game.broken_from if game.status == "broken" else game.status,
                updated_at=at,
            )
            await tx.cancel_reminders(game_id, None)

        await self._db.write(mark)
        self._set_aside(game_id, "broken")

    # ------------------------------------------------------------------ reminders in a move

    async def _next_reminder(
        self, tx: Tx, game_id: int, to_move: int | None, at: datetime
    ) -> tuple[int, datetime] | None:
        """(user id, due) of the first reminder for the person who decides next: none for an
        AI seat, a finished game, or a user who turned reminders off; due after the game's
        ``reminder_hours`` option, else the user's, else the guild's setting."""
        if to_move is None:
            return None
        facts = await tx.reminder_facts(game_id, to_move)
        if facts is None or facts.is_ai or facts.user_id is None:
            return None
        user = facts.user or UserSettings(facts.user_id)
        if not user.reminders_enabled:
            return None
        hours = user.reminder_hours or (facts.guild or GuildSettings(facts.guild_id)).reminder_hours
        game_hours = options_of(game_id, facts.options).get("reminder_hours")
        if (
            isinstance(game_hours, int | float)
            and not isinstance(game_hours, bool)
            and game_hours > 0
        ):
            hours = float(game_hours)
        return facts.user_id, at + timedelta(hours=hours)


# ---------------------------------------------------------------------- pure helpers


@dataclass(frozen=True)
class PreparedMove:
    state: GameState
    verified: Verified
    write: MoveWrite
    end: LogEnd


def _move_write(
    known: Verified,
    game_id: int,
    seat: int,
    choice_id: str,
    new: GameState,
    text: str,
    digest: str,
    at: datetime,
) -> tuple[Verified, MoveWrite]:
    """What a move from ``known`` to ``new`` (text and digest) writes, and then verifies."""
    seq = known.seq
    log_digest = choicelog.next_digest(known.log_digest, seq, seat, choice_id)
    verified = Verified(seq + 1, log_digest, digest, to_move(new), seat)
    write = MoveWrite(
        game_id=game_id,
        seq=seq,
        seat=seat,
        choice_id=choice_id,
        digest=log_digest,
        state=text,
        state_digest=digest,
        over=new.is_over,
        to_move=verified.to_move,
        at=at,
        drop_previous=seq % CHECKPOINT_EVERY != 0,
    )
    return verified, write


def _replay(ev: Evidence) -> Replayed:
    return replay_rows(ev.game, ev.choices, ev.seats, ev.snapshots, start=ev.start)


def _needs_fix(game: GameRow, replayed: Replayed) -> bool:
    v = replayed.verified
    return (
        bool(replayed.fill_digests)
        or game.log_digest != v.log_digest
        or game.to_move != v.to_move
        or (game.seats_digest is None and replayed.seats_digest is not None)
    )


async def _write_fix(tx: Tx, game: GameRow, replayed: Replayed) -> None:
    if replayed.fill_digests:
        await tx.fill_choice_digests(game.id, replayed.fill_digests)
    v = replayed.verified
    seats = {"seats_digest": replayed.seats_digest} if game.seats_digest is None else {}
    await tx.update_game(game.id, log_digest=v.log_digest, to_move=v.to_move, **seats)


async def _check_log_end(tx: Tx, game: GameRow) -> None:
    """The last live choice row is the one the game's log digest names, and chains from the
    row before it (a cheap check on every load and move; a full one on the first)."""
    seq = game.seq
    first = max(0, seq - 2)
    rows = await tx.live_choices(game.id, first)
    if [r.seq for r in rows] != list(range(first, seq)):
        raise Corrupt("the choice log does not end at the game's move count")
    if seq == 0:
        return
    last = rows[-1]
    previous = rows[0].digest if seq >= 2 else choicelog.start_digest(game.setup or "")
    if (
        previous is None
        or last.digest != game.log_digest
        or choicelog.next_digest(previous, last.seq, last.seat, last.choice_id) != last.digest
    ):
        raise Corrupt(f"the choice log is damaged at choice {last.seq} (its digest differs)")


def _undone(game: GameRow, live: list[ChoiceRow], state: GameState) -> tuple[GameState, str]:
    """The state and log digest without the last live choice (the rows must be the state's)."""
    if [c.choice_id for c in live] != list(state.history):
        raise StaleMove()
    if not live:
        raise CannotUndo("There is nothing to take back.")
    setup = setup_of(game)
    previous = replay(setup, [c.choice_id for c in live[:-1]])
    digest = choicelog.start_digest(game.setup or "")
    for c in live[:-1]:
        digest = choicelog.next_digest(digest, c.seq, c.seat, c.choice_id)
    return previous, digest
