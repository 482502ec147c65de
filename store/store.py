"""The game store: every SQL statement of the bot lives in this package."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import os
import secrets
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from engine import GameSetup, GameState, IllegalChoice, new_game, replay

from . import migrate as _migrate
from .backup import BackupResult, backup_database
from .config import database_path
from .errors import (
    CannotUndo,
    GameBroken,
    GameNotActive,
    GameNotFound,
    LobbyError,
    NotYourTurn,
    StaleMove,
    StoreError,
)
from .models import (
    OPEN_STATUSES,
    STATUSES,
    ChoiceRecord,
    GameCheck,
    GameRecord,
    GuildSettings,
    MessageRecord,
    Reminder,
    SeatRecord,
    UserSettings,
)
from .timeutil import from_db, to_db, utcnow

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 50
"""Besides the latest snapshot, keep the snapshot of every N-th move (audit checkpoints)
while a game runs; a finished game keeps only its first and final snapshots."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

_GAME_COLS = (
    "id, guild_id, channel_id, thread_id, status, broken_reason, seed, options, creator_id, "
    "seq, created_at, updated_at, started_at, finished_at"
)
_SEAT_COLS = "game_id, join_order, user_id, is_ai, ai_policy, name, colour, turn_index"
_CHOICE_COLS = "id, game_id, seq, seat, choice_id, applied_at, undone_at"
_MSG_COLS = "id, game_id, kind, channel_id, message_id, seq, created_at"
_REM_COLS = "id, game_id, user_id, due_at, seq, attempt, status, sent_at"


class _Corrupt(Exception):
    """Internal: stored data for one game can't be trusted (snapshot, setup...)."""


class Store:
    """Async SQLite game store. Create with ``await Store.open(path)``; close with
    ``await store.close()`` (or ``async with await Store.open(...) as store``).

    One aiosqlite connection per Store. Every operation holds an asyncio.Lock, and every
    write runs in a ``BEGIN IMMEDIATE`` transaction, so concurrent tasks in one process and
    several processes on the same file are both safe (``busy_timeout`` waits for the other).
    """

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        migrations_dir: str | os.PathLike[str] | None = None,
        synchronous: str = "FULL",
        busy_timeout_ms: int = 15_000,
    ) -> Store:
        """Open (creating if needed) the database at ``path`` (default: ``DATABASE_PATH``
        from the environment / ``.env``, else ``./adas_dream.db``), switch on WAL and foreign
        keys, and apply pending migrations.

        Raises ``SchemaTooNew`` if the file was written by a newer bot (nothing is changed).
        ``synchronous='FULL'`` makes each committed move survive power loss too; 'NORMAL'
        is faster and still survives a crashed or killed process.
        """
        if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"bad synchronous mode {synchronous!r}")
        p = Path(path) if path is not None else database_path()
        if p.parent and not p.parent.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(p, isolation_level=None, timeout=busy_timeout_ms / 1000)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await _enable_wal(db, busy_timeout_ms / 1000)
            await db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await db.execute("PRAGMA foreign_keys = ON")
            migrations = _migrate.load_migrations(
                Path(migrations_dir) if migrations_dir else _migrate.MIGRATIONS_DIR
            )
            await _migrate.migrate(db, migrations)
        except BaseException:
            await db.close()
            raise
        return cls(db, p)

    async def close(self) -> None:
        """Close the connection (waits for a running operation to finish)."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        async with self._lock:
            return await _migrate.current_version(self._db)

    async def backup(
        self, dest: str | os.PathLike[str], *, overwrite: bool = False
    ) -> BackupResult:
        """Consistent copy of the live database to ``dest`` (see ``store.backup``).
        Runs on a separate connection in a thread: the bot keeps playing meanwhile."""
        return await asyncio.to_thread(backup_database, self.path, dest, overwrite=overwrite)

    # ------------------------------------------------------------------ transactions

    @asynccontextmanager
    async def _tx(self, *, write: bool = True) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the lock and run one transaction (IMMEDIATE for writes, a consistent
        read snapshot otherwise). Commit on success, roll back on any exception."""
        async with self._lock:
            # Shielded: a task cancelled while BEGIN/COMMIT is queued on the connection's
            # thread must still leave the connection outside any transaction.
            if self._db.in_transaction:  # never expected; don't let it wedge the store
                log.warning("rolling back a transaction left open on the connection")
                await self._db.execute("ROLLBACK")
            begin = asyncio.ensure_future(self._exec("BEGIN IMMEDIATE" if write else "BEGIN"))
            try:
                await asyncio.shield(begin)
                yield self._db
            except BaseException:
                await asyncio.shield(self._rollback(begin))
                raise
            commit = asyncio.ensure_future(self._exec("COMMIT"))
            try:
                await asyncio.shield(commit)
            except BaseException:
                # Cancelled while COMMIT was queued: let it finish, then roll back only if
                # it failed. (The caller sees the cancellation; the move may be committed.)
                with contextlib.suppress(BaseException):
                    await commit
                await asyncio.shield(self._rollback(begin))
                raise

    async def _exec(self, sql: str) -> None:
        await self._db.execute(sql)

    async def _rollback(self, begin: asyncio.Future[None]) -> None:
        with contextlib.suppress(Exception):
            await begin
        if self._db.in_transaction:
            try:
                await self._db.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("rollback failed")

    async def _one(
        self, db: aiosqlite.Connection, sql: str, args: Sequence[Any] = ()
    ) -> sqlite3.Row | None:
        async with db.execute(sql, args) as cur:
            return await cur.fetchone()

    async def _all(
        self, db: aiosqlite.Connection, sql: str, args: Sequence[Any] = ()
    ) -> list[sqlite3.Row]:
        async with db.execute(sql, args) as cur:
            return list(await cur.fetchall())

    # ------------------------------------------------------------------ lobby

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        options: dict[str, Any] | None = None,
        *,
        now: datetime | None = None,
    ) -> int:
        """Create a game in 'lobby' status and return its id. ``options`` is any JSON-able
        dict, e.g. ``{"players": 3, "reminder_hours": 12}``; ``players`` caps the seats."""
        opts = json.dumps(options or {}, sort_keys=True)
        ts = to_db(now or utcnow())
        async with self._tx() as db:
            cur = await db.execute(
                "INSERT INTO games (guild_id, channel_id, creator_id, options, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, creator_id, opts, ts, ts),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

    async def set_thread(
        self, game_id: int, thread_id: int | None, *, now: datetime | None = None
    ) -> None:
        """Remember the thread the game is played in."""
        async with self._tx() as db:
            await self._game_row(db, game_id)
            await db.execute(
                "UPDATE games SET thread_id = ?, updated_at = ? WHERE id = ?",
                (thread_id, to_db(now or utcnow()), game_id),
            )

    async def set_options(
        self, game_id: int, options: dict[str, Any], *, now: datetime | None = None
    ) -> None:
        """Replace the game's options (lobby only)."""
        async with self._tx() as db:
            row = await self._game_row(db, game_id)
            _require_lobby(row)
            await db.execute(
                "UPDATE games SET options = ?, updated_at = ? WHERE id = ?",
                (json.dumps(options, sort_keys=True), to_db(now or utcnow()), game_id),
            )

    async def add_seat(
        self,
        game_id: int,
        *,
        name: str,
        user_id: int | None = None,
        is_ai: bool = False,
        ai_policy: str | None = None,
        colour: str | None = None,
        now: datetime | None = None,
    ) -> SeatRecord:
        """Seat a Discord user (``user_id``) or an AI (``is_ai=True``, ``user_id=None``).

        Names must be unique in a game (the engine maps seats by name): a clash gets a
        suffix (" 2", " 3"...); the returned SeatRecord has the name actually used.
        Raises LobbyError if the game has started, the user is already seated, or the
        game is full (``options['players']``).
        """
        if not is_ai and user_id is None:
            raise ValueError("a human seat needs a user_id")
        async with self._tx() as db:
            row = await self._game_row(db, game_id)
            _require_lobby(row)
            seats = await self._seats(db, game_id)
            if user_id is not None and any(s.user_id == user_id for s in seats):
                raise LobbyError("You're already in this game.")
            cap = _options(row).get("players")
            if isinstance(cap, int) and len(seats) >= cap:
                raise LobbyError("This game is full.")
            taken = {s.name for s in seats}
            final = name
            n = 2
            while final in taken:
                final, n = f"{name} {n}", n + 1
            order = max((s.join_order for s in seats), default=-1) + 1
            await db.execute(
                f"INSERT INTO seats ({_SEAT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                (game_id, order, user_id, int(is_ai), ai_policy, final, colour),
            )
            await self._touch(db, game_id, now)
            return SeatRecord(order, user_id, is_ai, ai_policy, final, colour, None)

    async def remove_seat(
        self,
        game_id: int,
        *,
        user_id: int | None = None,
        join_order: int | None = None,
        now: datetime | None = None,
    ) -> bool:
        """Remove a seat (by user, or by ``join_order`` for AI seats) from a lobby.
        Returns False if there was no such seat."""
        if (user_id is None) == (join_order is None):
            raise ValueError("pass exactly one of user_id, join_order")
        async with self._tx() as db:
            _require_lobby(await self._game_row(db, game_id))
            if user_id is not None:
                cur = await db.execute(
                    "DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)
                )
            else:
                cur = await db.execute(
                    "DELETE FROM seats WHERE game_id = ? AND join_order = ?", (game_id, join_order)
                )
            if cur.rowcount:
                await self._touch(db, game_id, now)
            return cur.rowcount > 0

    async def seats(self, game_id: int) -> list[SeatRecord]:
        """Seats in join order (``turn_index`` set once started)."""
        async with self._tx(write=False) as db:
            await self._game_row(db, game_id)
            return await self._seats(db, game_id)

    async def start_game(
        self, game_id: int, seed: int | None = None, *, now: datetime | None = None
    ) -> GameState:
        """Start a lobby game: build the engine ``GameSetup`` from the seats (names in join
        order; game options named like GameSetup fields, e.g. ``max_rounds``, are passed on),
        let the engine draw the turn order, record each seat's ``turn_index`` (and the
        engine's player colour unless the seat chose one), store
        the setup and the first snapshot. Returns the initial state.
        ``seed`` defaults to a random one. Raises LobbyError if not startable."""
        seed = secrets.randbits(62) if seed is None else seed
        ts = to_db(now or utcnow())
        async with self._tx() as db:
            row = await self._game_row(db, game_id)
            _require_lobby(row)
            seats = await self._seats(db, game_id)
            names = [s.name for s in seats]
            try:
                setup = GameSetup(
                    players=len(names), seed=seed, names=names, **_engine_options(row)
                )
                state = new_game(setup)
            except (ValueError, TypeError) as exc:
                raise LobbyError(f"The game can't start: {exc}") from exc
            order = list(state.seat_names)
            if sorted(order) != sorted(names):
                raise LobbyError("The game can't start: the engine returned different seats.")
            colours = [getattr(p, "colour", None) for p in getattr(state, "players", [])]
            for s in seats:
                index = order.index(s.name)
                colour = s.colour or (colours[index] if index < len(colours) else None)
                await db.execute(
                    "UPDATE seats SET turn_index = ?, colour = ? WHERE game_id = ? AND join_order = ?",
                    (index, colour, game_id, s.join_order),
                )
            status = "finished" if state.is_over else "active"
            await db.execute(
                "UPDATE games SET status = ?, seed = ?, setup = ?, seq = 0, started_at = ?,"
                " updated_at = ?, finished_at = CASE WHEN ? = 'finished' THEN ? END WHERE id = ?",
                (
                    status,
                    seed,
                    json.dumps(setup.to_dict(), sort_keys=True),
                    ts,
                    ts,
                    status,
                    ts,
                    game_id,
                ),
            )
            await self._write_snapshot(db, game_id, 0, state, ts)
            return state

    async def cancel_game(self, game_id: int, *, now: datetime | None = None) -> None:
        """Cancel a lobby or active game (idempotent); pending reminders are cancelled.
        Raises GameNotActive if it already finished."""
        async with self._tx() as db:
            row = await self._game_row(db, game_id)
            if row["status"] == "cancelled":
                return
            if row["status"] == "finished":
                raise GameNotActive("This game is already over.")
            ts = to_db(now or utcnow())
            await db.execute(
                "UPDATE games SET status = 'cancelled', updated_at = ?, finished_at = ? WHERE id = ?",
                (ts, ts, game_id),
            )
            await self._cancel_reminders(db, game_id, None)

    # ------------------------------------------------------------------ queries

    async def get_game(self, game_id: int) -> GameRecord:
        """The game's record with its seats. Raises GameNotFound."""
        async with self._tx(write=False) as db:
            row = await self._game_row(db, game_id)
            return _game(row, await self._seats(db, game_id))

    async def games_in_channel(
        self, channel_id: int, statuses: Iterable[str] | None = OPEN_STATUSES
    ) -> list[GameRecord]:
        """Games whose channel or thread is ``channel_id`` (default: lobby and active ones;
        ``statuses=None`` for all), oldest first."""
        return await self._games_where(
            "(channel_id = ? OR thread_id = ?)", (channel_id, channel_id), statuses
        )

    async def games_in_guild(
        self, guild_id: int, statuses: Iterable[str] | None = OPEN_STATUSES
    ) -> list[GameRecord]:
        """Games of a guild (default: lobby and active), oldest first."""
        return await self._games_where("guild_id = ?", (guild_id,), statuses)

    async def games_for_user(
        self, user_id: int, statuses: Iterable[str] | None = OPEN_STATUSES
    ) -> list[GameRecord]:
        """Games where the user has a seat (default: lobby and active), oldest first."""
        return await self._games_where(
            "id IN (SELECT game_id FROM seats WHERE user_id = ?)", (user_id,), statuses
        )

    async def game_ids(self, statuses: Iterable[str] | None = None) -> list[int]:
        """All game ids (optionally filtered by status), ascending."""
        sql, args = "SELECT id FROM games", []
        if statuses is not None:
            st = _statuses(statuses)
            sql += f" WHERE status IN ({','.join('?' * len(st))})"
            args = list(st)
        async with self._tx(write=False) as db:
            return [r[0] for r in await self._all(db, sql + " ORDER BY id", args)]

    async def _games_where(
        self, where: str, args: tuple[Any, ...], statuses: Iterable[str] | None
    ) -> list[GameRecord]:
        sql = f"SELECT {_GAME_COLS} FROM games WHERE {where}"
        params: list[Any] = list(args)
        if statuses is not None:
            st = _statuses(statuses)
            sql += f" AND status IN ({','.join('?' * len(st))})"
            params += st
        async with self._tx(write=False) as db:
            rows = await self._all(db, sql + " ORDER BY id", params)
            out = []
            for r in rows:
                out.append(_game(r, await self._seats(db, r["id"])))
            return out

    # ------------------------------------------------------------------ play

    async def load_state(self, game_id: int) -> tuple[GameState, int]:
        """The current state (from the latest snapshot) and its sequence number, which is
        what ``apply_choice`` expects next. Works for active, finished and cancelled games.
        Raises GameNotActive for a lobby, GameBroken if the saved data is damaged (the game
        is then marked 'broken')."""
        try:
            async with self._tx(write=False) as db:
                row = await self._game_row(db, game_id)
                if row["status"] == "broken":
                    raise GameBroken()
                if row["setup"] is None:
                    raise GameNotActive("This game hasn't started yet.")
                state = await self._latest_state(db, game_id, row["seq"])
                return state, row["seq"]
        except _Corrupt as exc:
            await self.mark_broken(game_id, str(exc))
            raise GameBroken() from exc

    async def load_setup(self, game_id: int) -> GameSetup:
        """The engine setup the game was started with."""
        try:
            async with self._tx(write=False) as db:
                row = await self._game_row(db, game_id)
                if row["setup"] is None:
                    raise GameNotActive("This game hasn't started yet.")
                return _setup(row)
        except _Corrupt as exc:
            await self.mark_broken(game_id, str(exc))
            raise GameBroken() from exc

    async def apply_choice(
        self,
        game_id: int,
        expected_seq: int,
        seat: int,
        choice_id: str,
        *,
        now: datetime | None = None,
    ) -> GameState:
        """Apply one choice, all or nothing, in one transaction: load the game, check
        ``expected_seq`` (the seq from ``load_state``/the button), check that ``seat`` (engine
        seat index) is the decision's player, apply with the engine, append the choice and
        the new snapshot, cancel the game's pending reminders, mark it finished if over,
        commit. Returns the new state (its seq is ``expected_seq + 1``).

        Raises StaleMove (seq differs: double click, second process), NotYourTurn,
        IllegalChoice (from the engine), GameNotActive, GameBroken, GameNotFound.
        On any exception nothing is changed.
        """
        ts = to_db(now or utcnow())
        try:
            async with self._tx() as db:
                row = await self._game_row(db, game_id)
                _require_playable(row)
                if row["seq"] != expected_seq:
                    raise StaleMove()
                state = await self._latest_state(db, game_id, expected_seq)
                decision = state.decision
                if decision is None:
                    raise GameNotActive("This game is over.")
                if decision.player != seat:
                    raise NotYourTurn()
                state.apply(choice_id)  # IllegalChoice propagates; the tx rolls back
                await db.execute(
                    "INSERT INTO choices (game_id, seq, seat, choice_id, applied_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, expected_seq, seat, choice_id, ts),
                )
                new_seq = expected_seq + 1
                await self._write_snapshot(db, game_id, new_seq, state, ts)
                await self._drop_snapshot_if_not_checkpoint(db, game_id, expected_seq)
                await self._set_progress(db, game_id, new_seq, state.is_over, ts)
                await self._cancel_reminders(db, game_id, None)
                if state.is_over:  # seed + choices + final state suffice from now on
                    await db.execute(
                        "DELETE FROM snapshots WHERE game_id = ? AND seq NOT IN (0, ?)",
                        (game_id, new_seq),
                    )
                return state
        except _Corrupt as exc:
            await self.mark_broken(game_id, str(exc))
            raise GameBroken() from exc

    async def undo(
        self, game_id: int, expected_seq: int, seat: int, *, now: datetime | None = None
    ) -> GameState:
        """Take back the last live choice, if ``seat`` made it and the engine allows it
        (not below ``state.undo_floor``). The choice row is kept and marked undone; the
        state is rebuilt by ``replay(setup, history[:-1])``. ``expected_seq`` guards against
        a double click exactly like ``apply_choice``. Returns the new state (seq - 1).
        Raises StaleMove, CannotUndo, GameNotActive, GameBroken."""
        ts = to_db(now or utcnow())
        try:
            async with self._tx() as db:
                row = await self._game_row(db, game_id)
                _require_playable(row)
                if row["seq"] != expected_seq:
                    raise StaleMove()
                state = await self._latest_state(db, game_id, expected_seq)
                if not state.history:
                    raise CannotUndo("There is nothing to take back.")
                last = await self._one(
                    db,
                    f"SELECT {_CHOICE_COLS} FROM choices WHERE game_id = ? AND seq = ?"
                    " AND undone_at IS NULL",
                    (game_id, expected_seq - 1),
                )
                if last is None or last["choice_id"] != state.history[-1]:
                    raise _Corrupt("the latest snapshot and the choices table disagree")
                if last["seat"] != seat:
                    raise CannotUndo("Only the player who made the last move can take it back.")
                if state.current_player != seat:
                    raise CannotUndo("A move can only be taken back during your own turn.")
                if len(state.history) - 1 < state.undo_floor:
                    raise CannotUndo("That move revealed something new, so it can't be taken back.")
                setup = _setup(row)
                previous = replay(setup, list(state.history[:-1]))
                await db.execute("UPDATE choices SET undone_at = ? WHERE id = ?", (ts, last["id"]))
                new_seq = expected_seq - 1
                await db.execute(
                    "DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (game_id, new_seq)
                )
                await self._write_snapshot(db, game_id, new_seq, previous, ts)
                await self._set_progress(db, game_id, new_seq, previous.is_over, ts)
                await self._cancel_reminders(db, game_id, None)
                return previous
        except _Corrupt as exc:
            await self.mark_broken(game_id, str(exc))
            raise GameBroken() from exc

    async def choices(self, game_id: int, *, include_undone: bool = False) -> list[ChoiceRecord]:
        """The game's choices in the order they were applied (live ones only by default)."""
        sql = f"SELECT {_CHOICE_COLS} FROM choices WHERE game_id = ?"
        if not include_undone:
            sql += " AND undone_at IS NULL"
        async with self._tx(write=False) as db:
            await self._game_row(db, game_id)
            rows = await self._all(db, sql + " ORDER BY id", (game_id,))
        return [_choice(r) for r in rows]

    async def mark_broken(self, game_id: int, reason: str, *, now: datetime | None = None) -> None:
        """Set the game aside as 'broken' with a reason (logged). Never raises for a
        missing game; the other games are untouched."""
        log.error("game %s marked broken: %s", game_id, reason)
        async with self._tx() as db:
            await db.execute(
                "UPDATE games SET broken_from = CASE WHEN status = 'broken' THEN broken_from"
                " ELSE status END, status = 'broken', broken_reason = ?, updated_at = ?"
                " WHERE id = ?",
                (reason[:1000], to_db(now or utcnow()), game_id),
            )
            await self._cancel_reminders(db, game_id, None)

    async def repair_game(self, game_id: int, *, now: datetime | None = None) -> GameCheck:
        """Rebuild a game's snapshots from seed + live choices (the source of truth) and put
        it back: status restored to what it was before it broke ('finished' if the rebuilt
        game is over). Only if every choice replays cleanly; otherwise the game is left as it
        is and the failing GameCheck says why. Returns the verification after the repair."""
        ts = to_db(now or utcnow())
        async with self._tx() as db:
            row = await self._game_row(db, game_id)
            if row["setup"] is None:
                return GameCheck(game_id, False, "never started: nothing to rebuild")
            rows = await self._all(
                db,
                "SELECT seq, seat, choice_id FROM choices WHERE game_id = ? AND undone_at IS NULL"
                " ORDER BY seq",
                (game_id,),
            )
            if [r["seq"] for r in rows] != list(range(len(rows))):
                return GameCheck(game_id, False, "the live choices are not numbered 0..n-1")
            try:
                setup = _setup(row)
            except _Corrupt as exc:
                return GameCheck(game_id, False, str(exc))
            state = new_game(setup)
            keep = [(0, *_json_and_digest(state))]  # computed first, written after
            for r in rows:
                decision = state.decision
                if decision is None or decision.player != r["seat"]:
                    problem = f"choice {r['seq']} was made by the wrong seat"
                    return GameCheck(game_id, False, problem, r["seq"])
                try:
                    state.apply(r["choice_id"])
                except IllegalChoice as exc:
                    problem = f"choice {r['seq']} ({r['choice_id']!r}) is illegal: {exc}"
                    return GameCheck(game_id, False, problem, r["seq"])
                n = r["seq"] + 1
                if n == len(rows) or (n % CHECKPOINT_EVERY == 0 and not state.is_over):
                    keep.append((n, *_json_and_digest(state)))
            await db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
            await db.executemany(
                "INSERT INTO snapshots (game_id, seq, state, digest, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(game_id, n, text, digest, ts) for n, text, digest in keep],
            )
            if state.is_over:
                status = "finished"
            elif row["status"] == "broken":
                status = (
                    row["broken_from"]
                    if row["broken_from"] in ("active", "cancelled")
                    else "active"
                )
            else:
                status = "cancelled" if row["status"] == "cancelled" else "active"
            await db.execute(
                "UPDATE games SET seq = ?, status = ?, broken_reason = NULL, broken_from = NULL,"
                " updated_at = ?, finished_at = CASE WHEN ? IN ('finished', 'cancelled')"
                " THEN COALESCE(finished_at, ?) END WHERE id = ?",
                (len(rows), status, ts, status, ts, game_id),
            )
        log.warning("game %s repaired from seed + %d choices", game_id, len(rows))
        return await self.verify_game(game_id, mark=False)

    # ------------------------------------------------------------------ audit

    async def verify_game(self, game_id: int, *, mark: bool = True) -> GameCheck:
        """Rebuild the game from setup + live choices and compare with the stored snapshots
        (latest and checkpoints). Any mismatch or unreadable row is reported in the result,
        never raised; with ``mark=True`` a failing game is marked 'broken'."""
        try:
            check = await self._verify(game_id)
        except Exception as exc:  # an unreadable row of any kind: report, don't raise
            check = GameCheck(game_id, False, f"unreadable: {type(exc).__name__}: {exc}")
        if not check.ok and mark:
            try:
                status = await self._status(game_id)
                if status != "broken":
                    await self.mark_broken(game_id, check.problem or "failed verification")
            except Exception:  # pragma: no cover - reporting must go on
                log.exception("could not mark game %s broken", game_id)
        return check

    async def _status(self, game_id: int) -> str | None:
        async with self._tx(write=False) as db:
            row = await self._one(db, "SELECT status FROM games WHERE id = ?", (game_id,))
        return None if row is None else row[0]

    async def _verify(self, game_id: int) -> GameCheck:
        async with self._tx(write=False) as db:
            row = await self._game_row(db, game_id)
            choices = await self._all(
                db,
                "SELECT seq, seat, choice_id FROM choices WHERE game_id = ? AND undone_at IS NULL"
                " ORDER BY seq",
                (game_id,),
            )
            snaps = await self._all(
                db,
                "SELECT seq, state, digest FROM snapshots WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        if row["setup"] is None:
            if choices or snaps:
                return GameCheck(game_id, False, "choices or snapshots for a game never started")
            return GameCheck(game_id, True)
        seq = row["seq"]
        if not isinstance(seq, int):
            return GameCheck(game_id, False, f"unreadable seq {seq!r}")
        if [c["seq"] for c in choices] != list(range(len(choices))):
            return GameCheck(game_id, False, "the live choices are not numbered 0..n-1")
        if len(choices) != seq:
            return GameCheck(
                game_id, False, f"games.seq is {seq} but {len(choices)} choices are stored"
            )
        try:
            setup = _setup(row)
        except _Corrupt as exc:
            return GameCheck(game_id, False, str(exc))
        # Replay step by step so that checkpoints and seats can be checked on the way.
        by_seq = {s["seq"]: s for s in snaps}
        state = new_game(setup)
        for c in choices:
            problem = _check_snapshot(by_seq.get(c["seq"]), state)
            if problem:
                return GameCheck(game_id, False, problem, c["seq"])
            decision = state.decision
            if decision is None or decision.player != c["seat"]:
                return GameCheck(
                    game_id, False, f"choice {c['seq']} was made by the wrong seat", c["seq"]
                )
            try:
                state.apply(c["choice_id"])
            except IllegalChoice as exc:
                return GameCheck(
                    game_id,
                    False,
                    f"choice {c['seq']} ({c['choice_id']!r}) is illegal on replay: {exc}",
                    c["seq"],
                )
        rebuilt = replay(setup, [c["choice_id"] for c in choices])
        if rebuilt.digest() != state.digest():
            return GameCheck(game_id, False, "replay() and step-by-step apply disagree", seq)
        if seq not in by_seq:
            return GameCheck(game_id, False, f"the latest snapshot (seq {seq}) is missing", seq)
        problem = _check_snapshot(by_seq[seq], rebuilt)
        if problem:
            return GameCheck(game_id, False, problem, seq)
        if any(s > seq for s in by_seq):
            return GameCheck(game_id, False, "a snapshot is newer than the last choice", seq)
        if row["status"] == "finished" and not rebuilt.is_over:
            return GameCheck(game_id, False, "marked finished but the game is not over", seq)
        if row["status"] == "active" and rebuilt.is_over:
            return GameCheck(game_id, False, "marked active but the game is over", seq)
        if row["status"] == "broken":
            return GameCheck(game_id, False, f"marked broken: {row['broken_reason']}", seq)
        return GameCheck(game_id, True, None, seq)

    # ------------------------------------------------------------------ messages

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
        """Remember a message the bot posted for a game (kind: 'lobby', 'board', 'prompt'...)."""
        async with self._tx() as db:
            await self._game_row(db, game_id)
            cur = await db.execute(
                f"INSERT INTO messages ({_MSG_COLS}) VALUES (NULL, ?, ?, ?, ?, ?, ?)",
                (game_id, kind, channel_id, message_id, seq, to_db(now or utcnow())),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

    async def latest_message(self, game_id: int, kind: str) -> MessageRecord | None:
        """The most recently recorded message of this kind, or None."""
        async with self._tx(write=False) as db:
            row = await self._one(
                db,
                f"SELECT {_MSG_COLS} FROM messages WHERE game_id = ? AND kind = ?"
                " ORDER BY id DESC LIMIT 1",
                (game_id, kind),
            )
        return None if row is None else _message(row)

    async def messages(self, game_id: int, kind: str | None = None) -> list[MessageRecord]:
        """All recorded messages of a game (optionally of one kind), oldest first."""
        sql, args = f"SELECT {_MSG_COLS} FROM messages WHERE game_id = ?", [game_id]
        if kind is not None:
            sql += " AND kind = ?"
            args.append(kind)
        async with self._tx(write=False) as db:
            rows = await self._all(db, sql + " ORDER BY id", args)
        return [_message(r) for r in rows]

    # ------------------------------------------------------------------ reminders

    async def schedule_reminder(
        self, game_id: int, user_id: int, due_at: datetime, seq: int, *, now: datetime | None = None
    ) -> Reminder:
        """Schedule a reminder for ``user_id`` about the turn at ``seq``. ``attempt`` counts
        the reminders already scheduled for the same (game, user, seq) + 1, for backoff.
        Any other pending reminder for the same user in this game is replaced."""
        due = to_db(due_at)
        async with self._tx() as db:
            await self._game_row(db, game_id)
            await self._cancel_reminders(db, game_id, user_id)
            prev = await self._one(
                db,
                "SELECT COUNT(*) FROM reminders WHERE game_id = ? AND user_id = ? AND seq = ?"
                " AND status = 'sent'",
                (game_id, user_id, seq),
            )
            attempt = (prev[0] if prev else 0) + 1
            cur = await db.execute(
                "INSERT INTO reminders (game_id, user_id, due_at, seq, attempt, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, user_id, due, seq, attempt, to_db(now or utcnow())),
            )
            assert cur.lastrowid is not None
            return Reminder(
                cur.lastrowid, game_id, user_id, _dt(due), seq, attempt, "pending", None
            )

    async def due_reminders(self, now: datetime, limit: int = 100) -> list[Reminder]:
        """Pending reminders due at or before ``now`` whose game is active and still at the
        reminder's seq (a move since then makes them moot) and whose user has not opted
        out of reminders, earliest first."""
        async with self._tx(write=False) as db:
            rows = await self._all(
                db,
                f"SELECT {', '.join('r.' + c for c in _REM_COLS.split(', '))} FROM reminders r"
                " JOIN games g ON g.id = r.game_id"
                " LEFT JOIN user_settings u ON u.user_id = r.user_id"
                " WHERE r.status = 'pending' AND r.due_at <= ? AND g.status = 'active'"
                " AND g.seq = r.seq AND COALESCE(u.reminders_enabled, 1) = 1"
                " ORDER BY r.due_at, r.id LIMIT ?",
                (to_db(now), limit),
            )
        return [_reminder(r) for r in rows]

    async def mark_reminder_sent(self, reminder_id: int, *, now: datetime | None = None) -> None:
        """Record that a reminder went out."""
        async with self._tx() as db:
            await db.execute(
                "UPDATE reminders SET status = 'sent', sent_at = ? WHERE id = ?",
                (to_db(now or utcnow()), reminder_id),
            )

    async def cancel_reminders(self, game_id: int, user_id: int | None = None) -> int:
        """Cancel the game's pending reminders (optionally one user's). Returns how many.
        (``apply_choice``, ``undo``, ``cancel_game`` already do this.)"""
        async with self._tx() as db:
            return await self._cancel_reminders(db, game_id, user_id)

    # ------------------------------------------------------------------ stand-in votes

    async def add_standin_vote(
        self, game_id: int, seq: int, voter_id: int, *, now: datetime | None = None
    ) -> list[int]:
        """Record a vote for an AI stand-in at decision ``seq`` (once per voter); returns every
        voter for that decision so far."""
        async with self._tx() as db:
            await self._game_row(db, game_id)
            await db.execute(
                "INSERT OR IGNORE INTO standin_votes (game_id, seq, voter_id, voted_at)"
                " VALUES (?, ?, ?, ?)",
                (game_id, seq, voter_id, to_db(now or utcnow())),
            )
            rows = await self._all(
                db,
                "SELECT voter_id FROM standin_votes WHERE game_id = ? AND seq = ? ORDER BY voted_at",
                (game_id, seq),
            )
        return [int(r["voter_id"]) for r in rows]

    async def reminders(self, game_id: int) -> list[Reminder]:
        """Every reminder of a game, in scheduling order."""
        async with self._tx(write=False) as db:
            rows = await self._all(
                db, f"SELECT {_REM_COLS} FROM reminders WHERE game_id = ? ORDER BY id", (game_id,)
            )
        return [_reminder(r) for r in rows]

    # ------------------------------------------------------------------ settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults if never set: reminders after 12 h, channel ping)."""
        async with self._tx(write=False) as db:
            row = await self._one(
                db,
                "SELECT reminder_hours, ping_mode FROM guild_settings WHERE guild_id = ?",
                (guild_id,),
            )
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, float(row["reminder_hours"]), row["ping_mode"])

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        reminder_hours: float | None = None,
        ping_mode: str | None = None,
        now: datetime | None = None,
    ) -> GuildSettings:
        """Change some of the guild's settings (None = leave as is). Returns the result."""
        cur_settings = await self.guild_settings(guild_id)
        hours = cur_settings.reminder_hours if reminder_hours is None else float(reminder_hours)
        mode = cur_settings.ping_mode if ping_mode is None else ping_mode
        _check_settings(hours, mode)
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, reminder_hours, ping_mode, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " reminder_hours = excluded.reminder_hours, ping_mode = excluded.ping_mode,"
                " updated_at = excluded.updated_at",
                (guild_id, hours, mode, to_db(now or utcnow())),
            )
        return GuildSettings(guild_id, hours, mode)  # type: ignore[arg-type]

    async def user_settings(self, user_id: int) -> UserSettings:
        """The user's settings (defaults: reminders on, follow the guild's mode and delay)."""
        async with self._tx(write=False) as db:
            row = await self._one(
                db,
                "SELECT reminders_enabled, ping_mode, reminder_hours FROM user_settings"
                " WHERE user_id = ?",
                (user_id,),
            )
        if row is None:
            return UserSettings(user_id)
        hours = row["reminder_hours"]
        return UserSettings(
            user_id,
            bool(row["reminders_enabled"]),
            row["ping_mode"],
            None if hours is None else float(hours),
        )

    _KEEP: Any = object()

    async def set_user_settings(
        self,
        user_id: int,
        *,
        reminders_enabled: bool | None = None,
        ping_mode: str | None | Any = _KEEP,
        reminder_hours: float | None | Any = _KEEP,
        now: datetime | None = None,
    ) -> UserSettings:
        """Change some of the user's settings. Omitted arguments are kept; ``ping_mode`` or
        ``reminder_hours`` = None means "follow the guild"."""
        cur_settings = await self.user_settings(user_id)
        enabled = cur_settings.reminders_enabled if reminders_enabled is None else reminders_enabled
        mode = cur_settings.ping_mode if ping_mode is Store._KEEP else ping_mode
        hours = cur_settings.reminder_hours if reminder_hours is Store._KEEP else reminder_hours
        _check_settings(hours, mode)
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, reminders_enabled, ping_mode, reminder_hours,"
                " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " reminders_enabled = excluded.reminders_enabled, ping_mode = excluded.ping_mode,"
                " reminder_hours = excluded.reminder_hours, updated_at = excluded.updated_at",
                (user_id, int(enabled), mode, hours, to_db(now or utcnow())),
            )
        return UserSettings(user_id, enabled, mode, hours)

    async def reminder_policy(self, guild_id: int, user_id: int) -> tuple[bool, str, float]:
        """Effective (enabled, ping_mode, reminder_hours) for a user in a guild."""
        g = await self.guild_settings(guild_id)
        u = await self.user_settings(user_id)
        return u.reminders_enabled, u.ping_mode or g.ping_mode, u.reminder_hours or g.reminder_hours

    # ------------------------------------------------------------------ maintenance

    async def integrity_check(self) -> list[str]:
        """SQLite's integrity_check and foreign_key_check; an empty list means all good."""
        async with self._lock:
            problems = [
                r[0] for r in await self._all(self._db, "PRAGMA integrity_check") if r[0] != "ok"
            ]
            for r in await self._all(self._db, "PRAGMA foreign_key_check"):
                problems.append(f"foreign key: table {r[0]} rowid {r[1]} -> {r[2]}")
        return problems

    # ------------------------------------------------------------------ internals

    async def _game_row(self, db: aiosqlite.Connection, game_id: int) -> sqlite3.Row:
        row = await self._one(
            db, f"SELECT {_GAME_COLS}, setup, broken_from FROM games WHERE id = ?", (game_id,)
        )
        if row is None:
            raise GameNotFound()
        return row

    async def _seats(self, db: aiosqlite.Connection, game_id: int) -> list[SeatRecord]:
        rows = await self._all(
            db, f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY join_order", (game_id,)
        )
        return [
            SeatRecord(
                r["join_order"],
                r["user_id"],
                bool(r["is_ai"]),
                r["ai_policy"],
                r["name"],
                r["colour"],
                r["turn_index"],
            )
            for r in rows
        ]

    async def _touch(self, db: aiosqlite.Connection, game_id: int, now: datetime | None) -> None:
        await db.execute(
            "UPDATE games SET updated_at = ? WHERE id = ?", (to_db(now or utcnow()), game_id)
        )

    async def _latest_state(self, db: aiosqlite.Connection, game_id: int, seq: int) -> GameState:
        row = await self._one(
            db, "SELECT state, digest FROM snapshots WHERE game_id = ? AND seq = ?", (game_id, seq)
        )
        if row is None:
            raise _Corrupt(f"the snapshot for seq {seq} is missing")
        text = row["state"]
        state = _parse_state(text)
        # Fast path: the engine's digest is the sha256 of to_json(), so hashing the stored
        # text proves it intact without re-serialising. Otherwise compare the engine's digest.
        if not (isinstance(text, str) and _sha256(text) == row["digest"]):
            if state.digest() != row["digest"]:
                raise _Corrupt(f"the snapshot for seq {seq} does not match its digest")
        if len(state.history) != seq:
            raise _Corrupt(f"the snapshot for seq {seq} holds {len(state.history)} choices")
        return state

    async def _write_snapshot(
        self, db: aiosqlite.Connection, game_id: int, seq: int, state: GameState, ts: str
    ) -> None:
        await db.execute(
            "INSERT OR REPLACE INTO snapshots (game_id, seq, state, digest, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (game_id, seq, *_json_and_digest(state), ts),
        )

    async def _drop_snapshot_if_not_checkpoint(
        self, db: aiosqlite.Connection, game_id: int, seq: int
    ) -> None:
        if seq % CHECKPOINT_EVERY:
            await db.execute("DELETE FROM snapshots WHERE game_id = ? AND seq = ?", (game_id, seq))

    async def _set_progress(
        self, db: aiosqlite.Connection, game_id: int, seq: int, over: bool, ts: str
    ) -> None:
        await db.execute(
            "UPDATE games SET seq = ?, updated_at = ?, status = ?, finished_at = ? WHERE id = ?",
            (seq, ts, "finished" if over else "active", ts if over else None, game_id),
        )

    async def _cancel_reminders(
        self, db: aiosqlite.Connection, game_id: int, user_id: int | None
    ) -> int:
        sql = "UPDATE reminders SET status = 'cancelled' WHERE game_id = ? AND status = 'pending'"
        args: list[Any] = [game_id]
        if user_id is not None:
            sql += " AND user_id = ?"
            args.append(user_id)
        cur = await db.execute(sql, args)
        return cur.rowcount


# ---------------------------------------------------------------------- row helpers


async def _enable_wal(db: aiosqlite.Connection, timeout: float) -> None:
    """Switch to WAL. Switching needs an exclusive lock for which SQLite does not always
    call the busy handler (several processes opening a new file at once): retry."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            async with db.execute("PRAGMA journal_mode = WAL") as cur:
                row = await cur.fetchone()
            if row is None or str(row[0]).lower() not in ("wal", "memory"):
                raise StoreError(
                    f"Could not switch the database to WAL mode (got {row and row[0]})"
                )
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.02)


def _require_lobby(row: sqlite3.Row) -> None:
    if row["status"] != "lobby":
        raise LobbyError(
            "This game has already started."
            if row["status"] == "active"
            else "This game is no longer open."
        )


def _require_playable(row: sqlite3.Row) -> None:
    status = row["status"]
    if status == "active":
        return
    if status == "broken":
        raise GameBroken()
    raise GameNotActive(
        {
            "lobby": "This game hasn't started yet.",
            "finished": "This game is over.",
            "cancelled": "This game was cancelled.",
        }.get(status, "This game isn't being played right now.")
    )


def _statuses(statuses: Iterable[str]) -> list[str]:
    st = list(statuses)
    bad = [s for s in st if s not in STATUSES]
    if bad or not st:
        raise ValueError(f"unknown statuses {bad or st!r}")
    return st


def _options(row: sqlite3.Row) -> dict[str, Any]:
    try:
        value = json.loads(row["options"])
        return value if isinstance(value, dict) else {}
    except (TypeError, ValueError):
        log.warning("game %s has unreadable options", row["id"])
        return {}


def _engine_options(row: sqlite3.Row) -> dict[str, Any]:
    """Game options that are also GameSetup fields (other than players/seed/names)."""
    names = {f.name for f in dataclasses.fields(GameSetup)} - {"players", "seed", "names"}
    return {k: v for k, v in _options(row).items() if k in names}


def _setup(row: sqlite3.Row) -> GameSetup:
    try:
        return GameSetup.from_dict(json.loads(row["setup"]))
    except Exception as exc:
        raise _Corrupt(f"the game setup is unreadable: {type(exc).__name__}: {exc}") from exc


def _parse_state(text: Any) -> GameState:
    try:
        return GameState.from_json(text)
    except Exception as exc:
        raise _Corrupt(f"the snapshot is unreadable: {type(exc).__name__}: {exc}") from exc


def _check_snapshot(snap: sqlite3.Row | None, expected: GameState) -> str | None:
    """None if the snapshot (when there is one) parses and equals ``expected``."""
    if snap is None:
        return None
    try:
        stored = _parse_state(snap["state"])
    except _Corrupt as exc:
        return f"snapshot {snap['seq']}: {exc}"
    want = expected.digest()
    if stored.digest() != snap["digest"]:
        return f"snapshot {snap['seq']}: its content does not match its stored digest"
    if snap["digest"] != want:
        return f"snapshot {snap['seq']} differs from the state rebuilt from seed + choices"
    return None


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


_digest_checks_left = 20  # then trust that digest() == sha256(to_json()) if it always was
_digest_is_sha_of_json = True


def _json_and_digest(state: GameState) -> tuple[str, str]:
    """``(state.to_json(), state.digest())`` serialising once when the engine's digest is
    the sha256 of its JSON (checked on the first snapshots of the process)."""
    global _digest_checks_left, _digest_is_sha_of_json
    text = state.to_json()
    if _digest_is_sha_of_json and _digest_checks_left <= 0:
        return text, _sha256(text)
    digest = state.digest()
    if _digest_checks_left > 0:
        _digest_checks_left -= 1
        _digest_is_sha_of_json = _digest_is_sha_of_json and digest == _sha256(text)
    return text, digest


def _dt(text: Any) -> datetime:
    try:
        return from_db(text) or _EPOCH
    except (TypeError, ValueError):
        return _EPOCH


def _game(row: sqlite3.Row, seats: list[SeatRecord]) -> GameRecord:
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        status=row["status"],
        broken_reason=row["broken_reason"],
        seed=row["seed"],
        options=_options(row),
        creator_id=row["creator_id"],
        seq=row["seq"],
        created_at=_dt(row["created_at"]),
        updated_at=_dt(row["updated_at"]),
        started_at=from_db(row["started_at"]) if row["started_at"] else None,
        finished_at=from_db(row["finished_at"]) if row["finished_at"] else None,
        seats=tuple(seats),
    )


def _choice(r: sqlite3.Row) -> ChoiceRecord:
    return ChoiceRecord(
        r["id"],
        r["game_id"],
        r["seq"],
        r["seat"],
        r["choice_id"],
        _dt(r["applied_at"]),
        from_db(r["undone_at"]) if r["undone_at"] else None,
    )


def _message(r: sqlite3.Row) -> MessageRecord:
    return MessageRecord(
        r["id"],
        r["game_id"],
        r["kind"],
        r["channel_id"],
        r["message_id"],
        r["seq"],
        _dt(r["created_at"]),
    )


def _reminder(r: sqlite3.Row) -> Reminder:
    return Reminder(
        r["id"],
        r["game_id"],
        r["user_id"],
        _dt(r["due_at"]),
        r["seq"],
        r["attempt"],
        r["status"],
        from_db(r["sent_at"]) if r["sent_at"] else None,
    )


def _check_settings(hours: float | None, mode: str | None) -> None:
    if hours is not None and not hours > 0:
        raise StoreError("The reminder delay must be a positive number of hours.")
    if mode is not None and mode not in ("dm", "channel"):
        raise StoreError("Reminders can go by 'dm' or in the 'channel'.")
