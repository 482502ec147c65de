"""The SQLite backend (the default): every SQLite statement of the store is in this file.

One connection, owned by one database thread. A store operation is one job for that thread:
the whole transaction runs there in one hand-off (aiosqlite, used before, handed each statement
over separately, 13 times a move, and logged each statement with its parameters at DEBUG).

Group commit: write jobs waiting in the queue when the thread gets to them run in one
``BEGIN IMMEDIATE ... COMMIT``, each inside its own SAVEPOINT, so one failing job rolls back
alone. No job is answered before the COMMIT has returned, so with ``synchronous=FULL`` every
acknowledged move is on disk; several moves share one fsync when they arrive together.

``BEGIN IMMEDIATE`` takes SQLite's write lock, which serialises writers across processes too
(``busy_timeout`` waits for another process's transaction).

Transactions are written as ``async def fn(tx)`` (see ``store.backend``). Here every ``tx``
method is synchronous under its ``async`` mask, so ``run_to_end`` drives ``fn(tx)`` to its end
on the database thread without an event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from . import migrate
from .backend import (
    GAME_COLUMNS,
    AiClaim,
    ChoiceRow,
    GameDump,
    GameRow,
    MoveWrite,
    SettingsDump,
    SnapshotRow,
    UndoWrite,
)
from .common import EPOCH
from .errors import MigrationError, SchemaTooNew, StoreError
from .models import (
    ChoiceRecord,
    GuildSettings,
    MessageRecord,
    Reminder,
    SeatRecord,
    UserSettings,
)
from .timeutil import from_db, to_db, utcnow

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_BATCH = 64
"""Write jobs committed together at most (group commit)."""

_GAME_COLS = (
    "id, guild_id, channel_id, thread_id, status, broken_reason, broken_from, seed, options,"
    " setup, creator_id, seq, log_digest, to_move, created_at, updated_at, started_at,"
    " finished_at"
)
_SEAT_COLS = "join_order, user_id, is_ai, ai_policy, name, colour, turn_index"
_CHOICE_COLS = "id, game_id, seq, seat, choice_id, applied_at, undone_at"
_MSG_COLS = "id, game_id, kind, channel_id, message_id, seq, created_at"
_REM_COLS = "id, game_id, user_id, due_at, seq, attempt, status, sent_at"
_R_REM_COLS = ", ".join("r." + c for c in _REM_COLS.split(", "))


def run_to_end(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never really waits (every await is a synchronous ``tx`` call)."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("a store transaction awaited something else than its tx on SQLite")


def _dt(text: Any) -> datetime:
    try:
        return from_db(text) or EPOCH
    except (TypeError, ValueError):
        return EPOCH


def _opt_dt(text: Any) -> datetime | None:
    return _dt(text) if text else None


# ---------------------------------------------------------------------------- the thread


class _Job:
    __slots__ = ("kind", "fn", "future", "loop")

    def __init__(self, kind: str, fn: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.kind = kind  # 'read' | 'write' | 'call' | 'stop'
        self.fn = fn
        self.loop = loop
        self.future: asyncio.Future[Any] = loop.create_future()

    def answer(self, result: Any = None, error: BaseException | None = None) -> None:
        def resolve() -> None:
            if self.future.done():  # the caller was cancelled: the work stands or not, as is
                return
            if error is not None:
                self.future.set_exception(error)
            else:
                self.future.set_result(result)

        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            self.loop.call_soon_threadsafe(resolve)


class SQLiteDatabase:
    """The store's SQLite database file. Make with ``await SQLiteDatabase.open(path)``."""

    name = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.location = str(path)
        self._conn: sqlite3.Connection | None = None
        self._queue: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="store-sqlite", daemon=True)
        self._closed = False
        self.commits = 0
        """COMMITs of write transactions so far (for the benchmark)."""

    @classmethod
    async def open(
        cls,
        path: Path,
        *,
        migrations: list[migrate.Migration],
        synchronous: str = "FULL",
        busy_timeout_ms: int = 15_000,
    ) -> SQLiteDatabase:
        if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"bad synchronous mode {synchronous!r}")
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        db = cls(path)
        db._thread.start()
        try:
            await db.call(lambda _: db._connect(synchronous.upper(), busy_timeout_ms))
            await db.call(lambda conn: migrate_sqlite(conn, migrations))
        except BaseException:
            await db.close()
            raise
        return db

    def _connect(self, synchronous: str, busy_timeout_ms: int) -> None:
        conn = sqlite3.connect(
            self.path, isolation_level=None, timeout=busy_timeout_ms / 1000, check_same_thread=False
        )
        try:
            conn.row_factory = sqlite3.Row
            conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            _enable_wal(conn, busy_timeout_ms / 1000)
            conn.execute(f"PRAGMA synchronous = {synchronous}")
            conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    # -- submitting jobs -------------------------------------------------------------------

    def _submit(self, kind: str, fn: Any) -> asyncio.Future[Any]:
        if self._closed:
            raise StoreError("The game store is closed.")
        job = _Job(kind, fn, asyncio.get_running_loop())
        self._queue.put(job)
        return job.future

    async def read(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        return await self._submit("read", fn)  # type: ignore[no-any-return]

    async def write(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        return await self._submit("write", fn)  # type: ignore[no-any-return]

    async def call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(connection)`` on the database thread, outside any transaction the store
        opens (maintenance: pragmas, migrations, raw statements in tests)."""
        return await self._submit("call", fn)  # type: ignore[no-any-return]

    async def schema_version(self) -> int:
        return await self.call(current_version)

    async def close(self) -> None:
        if self._closed:
            return
        job = _Job("stop", None, asyncio.get_running_loop())
        self._closed = True
        self._queue.put(job)
        await asyncio.shield(job.future)
        await asyncio.to_thread(self._thread.join)

    # -- the database thread -----------------------------------------------------------------

    def _work(self) -> None:
        leftover: _Job | None = None
        while True:
            job = leftover or self._queue.get()
            leftover = None
            if job.kind == "write":
                batch = [job]
                while len(batch) < MAX_BATCH:
                    try:
                        nxt = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if nxt.kind != "write":
                        leftover = nxt
                        break
                    batch.append(nxt)
                self._write_batch(batch)
            elif job.kind == "read":
                self._read(job)
            elif job.kind == "call":
                try:
                    job.answer(job.fn(self._conn))
                except BaseException as exc:
                    job.answer(error=exc)
            else:  # stop
                if self._conn is not None:
                    with contextlib.suppress(Exception):
                        self._conn.close()
                    self._conn = None
                job.answer()
                self._drain_after_stop()
                return

    def _drain_after_stop(self) -> None:
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                return
            job.answer(error=StoreError("The game store is closed."))

    def _read(self, job: _Job) -> None:
        conn = self._conn
        assert conn is not None
        try:
            conn.execute("BEGIN")
            try:
                result = run_to_end(job.fn(SQLiteTx(conn)))
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")
        except BaseException as exc:
            job.answer(error=exc)
            return
        job.answer(result)

    def _write_batch(self, batch: list[_Job]) -> None:
        conn = self._conn
        assert conn is not None
        try:
            conn.execute("BEGIN IMMEDIATE")
        except BaseException as exc:
            for job in batch:
                job.answer(error=exc)
            return
        done: list[tuple[_Job, Any, SQLiteTx]] = []
        for job in batch:
            tx = SQLiteTx(conn)
            try:
                conn.execute("SAVEPOINT job")
                result = run_to_end(job.fn(tx))
                conn.execute("RELEASE job")
            except BaseException as exc:
                if conn.in_transaction:
                    try:
                        conn.execute("ROLLBACK TO job")
                        conn.execute("RELEASE job")
                    except sqlite3.Error:
                        log.exception("rolling back one job failed")
                job.answer(error=exc)
                if not conn.in_transaction:  # SQLite rolled the whole transaction back
                    for other, _, _ in done:
                        other.answer(error=exc)
                    done = []
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("BEGIN IMMEDIATE")
                continue
            done.append((job, result, tx))
        try:
            conn.execute("COMMIT" if done else "ROLLBACK")
            if done:
                self.commits += 1
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            for job, _, _ in done:
                job.answer(error=exc)
            return
        for job, result, tx in done:
            tx.committed()
            job.answer(result)


def _enable_wal(conn: sqlite3.Connection, timeout: float) -> None:
    """Switch to WAL. Switching needs an exclusive lock for which SQLite does not always
    call the busy handler (several processes opening a new file at once): retry."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            row = conn.execute("PRAGMA journal_mode = WAL").fetchone()
            if row is None or str(row[0]).lower() not in ("wal", "memory"):
                raise StoreError(
                    f"Could not switch the database to WAL mode (got {row and row[0]})"
                )
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


# ---------------------------------------------------------------------------- migrations


def current_version(conn: sqlite3.Connection) -> int:
    """Highest applied migration version (0 for an empty database)."""
    if (
        conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'"
        ).fetchone()
        is None
    ):
        return 0
    row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate_sqlite(
    conn: sqlite3.Connection, migrations: list[migrate.Migration], *, target: int | None = None
) -> list[int]:
    """Apply pending migrations (up to ``target``), each in its own ``BEGIN IMMEDIATE``
    transaction that re-checks the version (two processes starting at once are safe)."""
    latest = migrations[-1].version if migrations else 0
    version = current_version(conn)
    if version > latest:
        raise SchemaTooNew(migrate.too_new_message(version, latest))
    applied = []
    for mig in migrate.pending(migrations, version, target):
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(migrate.VERSION_TABLE)
            version = current_version(conn)
            if version > latest:
                raise SchemaTooNew(migrate.too_new_message(version, latest))
            if version >= mig.version:  # another process got here first
                conn.execute("ROLLBACK")
                continue
            if version != mig.version - 1:
                raise MigrationError(f"Cannot apply {mig.name} on top of version {version}")
            for stmt in migrate.split_statements(mig.sql):
                conn.execute(stmt)
            conn.execute(
                "INSERT INTO schema_version (version, name, checksum, applied_at)"
                " VALUES (?, ?, ?, ?)",
                (mig.version, mig.name, mig.checksum, to_db(utcnow())),
            )
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise MigrationError(f"Migration {mig.name} failed: {exc}") from exc
            raise
        log.info("applied migration %s", mig.name)
        applied.append(mig.version)
    return applied


# ---------------------------------------------------------------------------- statements


class SQLiteTx:
    """Every SQL statement of the SQLite backend (see ``store.backend.Tx`` for the contract)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._c = conn
        self._after: list[Callable[[], None]] = []

    def after_commit(self, callback: Callable[[], None]) -> None:
        self._after.append(callback)

    def committed(self) -> None:
        for callback in self._after:
            try:
                callback()
            except Exception:  # pragma: no cover - a cache update must not fail a commit
                log.exception("after-commit callback failed")

    def _one(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Row | None:
        return self._c.execute(sql, args).fetchone()  # type: ignore[no-any-return]

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self._c.execute(sql, args).fetchall()

    # -- games and seats -------------------------------------------------------------------

    async def game(self, game_id: int, *, lock: bool = False) -> GameRow | None:
        # lock: the write transaction already holds SQLite's (database-wide) write lock.
        row = self._one(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game_row(row)

    async def insert_game(
        self, guild_id: int, channel_id: int, creator_id: int, options: str, at: datetime
    ) -> int:
        ts = to_db(at)
        cur = self._c.execute(
            "INSERT INTO games (guild_id, channel_id, creator_id, options, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (guild_id, channel_id, creator_id, options, ts, ts),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def update_game(self, game_id: int, **values: Any) -> None:
        bad = set(values) - GAME_COLUMNS
        if bad:
            raise ValueError(f"not a games column: {sorted(bad)}")
        cols = ", ".join(f"{k} = ?" for k in values)
        args = [to_db(v) if isinstance(v, datetime) else v for v in values.values()]
        self._c.execute(f"UPDATE games SET {cols} WHERE id = ?", (*args, game_id))

    async def find_games(
        self, by: str, key: int, statuses: list[str] | None
    ) -> list[tuple[GameRow, list[SeatRecord]]]:
        where, args = {
            "channel": ("(channel_id = ? OR thread_id = ?)", [key, key]),
            "guild": ("guild_id = ?", [key]),
            "user": ("id IN (SELECT game_id FROM seats WHERE user_id = ?)", [key]),
        }[by]
        if statuses is not None:
            where += f" AND status IN ({','.join('?' * len(statuses))})"
            args += statuses
        games = [
            _game_row(r)
            for r in self._all(f"SELECT {_GAME_COLS} FROM games WHERE {where} ORDER BY id", args)
        ]
        seats: dict[int, list[SeatRecord]] = {g.id: [] for g in games}
        for r in self._all(
            f"SELECT game_id, {_SEAT_COLS} FROM seats WHERE game_id IN"
            f" (SELECT id FROM games WHERE {where}) ORDER BY game_id, join_order",
            args,
        ):
            seats.setdefault(r["game_id"], []).append(_seat(r))
        return [(g, seats[g.id]) for g in games]

    async def game_ids(self, statuses: list[str] | None) -> list[int]:
        sql, args = "SELECT id FROM games", list(statuses or [])
        if statuses is not None:
            sql += f" WHERE status IN ({','.join('?' * len(statuses))})"
        return [r[0] for r in self._all(sql + " ORDER BY id", args)]

    async def seats(self, game_id: int) -> list[SeatRecord]:
        return [
            _seat(r)
            for r in self._all(
                f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY join_order", (game_id,)
            )
        ]

    async def insert_seat(self, game_id: int, seat: SeatRecord) -> None:
        self._c.execute(
            f"INSERT INTO seats (game_id, {_SEAT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                seat.join_order,
                seat.user_id,
                int(seat.is_ai),
                seat.ai_policy,
                seat.name,
                seat.colour,
                seat.turn_index,
            ),
        )

    async def delete_seat(
        self, game_id: int, *, user_id: int | None, join_order: int | None
    ) -> bool:
        if user_id is not None:
            cur = self._c.execute(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
        else:
            cur = self._c.execute(
                "DELETE FROM seats WHERE game_id = ? AND join_order = ?", (game_id, join_order)
            )
        return cur.rowcount > 0

    async def set_seat_turn(
        self, game_id: int, join_order: int, turn_index: int, colour: str | None
    ) -> None:
        self._c.execute(
            "UPDATE seats SET turn_index = ?, colour = ? WHERE game_id = ? AND join_order = ?",
            (turn_index, colour, game_id, join_order),
        )

    # -- choices and snapshots -------------------------------------------------------------

    async def live_choices(self, game_id: int, from_seq: int = 0) -> list[ChoiceRow]:
        return [
            ChoiceRow(r[0], r[1], r[2], r[3], r[4])
            for r in self._all(
                "SELECT id, seq, seat, choice_id, digest FROM choices"
                " WHERE game_id = ? AND undone_at IS NULL AND seq >= ? ORDER BY seq",
                (game_id, from_seq),
            )
        ]

    async def last_live_choice(self, game_id: int) -> ChoiceRow | None:
        r = self._one(
            "SELECT id, seq, seat, choice_id, digest FROM choices"
            " WHERE game_id = ? AND undone_at IS NULL ORDER BY seq DESC LIMIT 1",
            (game_id,),
        )
        return None if r is None else ChoiceRow(r[0], r[1], r[2], r[3], r[4])

    async def choice_records(self, game_id: int, include_undone: bool) -> list[ChoiceRecord]:
        sql = f"SELECT {_CHOICE_COLS} FROM choices WHERE game_id = ?"
        if not include_undone:
            sql += " AND undone_at IS NULL"
        return [_choice(r) for r in self._all(sql + " ORDER BY id", (game_id,))]

    async def fill_choice_digests(self, game_id: int, digests: list[tuple[int, str]]) -> None:
        self._c.executemany(
            "UPDATE choices SET digest = ? WHERE id = ? AND game_id = ? AND digest IS NULL",
            [(d, i, game_id) for i, d in digests],
        )

    async def snapshot(self, game_id: int, seq: int) -> SnapshotRow | None:
        r = self._one(
            "SELECT seq, state, digest FROM snapshots WHERE game_id = ? AND seq = ?",
            (game_id, seq),
        )
        return None if r is None else SnapshotRow(r[0], r[1], r[2])

    async def snapshots(self, game_id: int) -> list[SnapshotRow]:
        return [
            SnapshotRow(r[0], r[1], r[2])
            for r in self._all(
                "SELECT seq, state, digest FROM snapshots WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        ]

    async def replace_snapshots(
        self, game_id: int, snapshots: list[tuple[int, str, str]], at: datetime
    ) -> None:
        self._c.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
        self._c.executemany(
            "INSERT INTO snapshots (game_id, seq, state, digest, created_at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, seq, text, digest, to_db(at)) for seq, text, digest in snapshots],
        )

    async def record_move(self, m: MoveWrite) -> None:
        ts, new_seq = to_db(m.at), m.seq + 1
        c = self._c
        c.execute(
            "INSERT INTO choices (game_id, seq, seat, choice_id, applied_at, digest)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (m.game_id, m.seq, m.seat, m.choice_id, ts, m.digest),
        )
        c.execute(
            "INSERT OR REPLACE INTO snapshots (game_id, seq, state, digest, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (m.game_id, new_seq, m.state, m.state_digest, ts),
        )
        if m.over:  # seed + choices + final state suffice from now on
            c.execute(
                "DELETE FROM snapshots WHERE game_id = ? AND seq NOT IN (0, ?)",
                (m.game_id, new_seq),
            )
        elif m.drop_previous:
            c.execute("DELETE FROM snapshots WHERE game_id = ? AND seq = ?", (m.game_id, m.seq))
        c.execute(
            "UPDATE games SET seq = ?, log_digest = ?, to_move = ?, updated_at = ?, status = ?,"
            " finished_at = ? WHERE id = ?",
            (
                new_seq,
                m.digest,
                m.to_move,
                ts,
                "finished" if m.over else "active",
                ts if m.over else None,
                m.game_id,
            ),
        )
        c.execute(
            "UPDATE reminders SET status = 'cancelled' WHERE game_id = ? AND status = 'pending'",
            (m.game_id,),
        )

    async def record_undo(self, u: UndoWrite) -> None:
        ts = to_db(u.at)
        c = self._c
        c.execute("UPDATE choices SET undone_at = ? WHERE id = ?", (ts, u.choice_row_id))
        c.execute("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (u.game_id, u.seq))
        c.execute(
            "INSERT INTO snapshots (game_id, seq, state, digest, created_at) VALUES (?, ?, ?, ?, ?)",
            (u.game_id, u.seq, u.state, u.state_digest, ts),
        )
        c.execute(
            "UPDATE games SET seq = ?, log_digest = ?, to_move = ?, updated_at = ?, status = ?,"
            " finished_at = ? WHERE id = ?",
            (
                u.seq,
                u.log_digest,
                u.to_move,
                ts,
                "finished" if u.over else "active",
                ts if u.over else None,
                u.game_id,
            ),
        )
        c.execute(
            "UPDATE reminders SET status = 'cancelled' WHERE game_id = ? AND status = 'pending'",
            (u.game_id,),
        )

    # -- messages --------------------------------------------------------------------------

    async def insert_message(
        self,
        game_id: int,
        kind: str,
        channel_id: int,
        message_id: int,
        seq: int | None,
        at: datetime,
    ) -> int:
        cur = self._c.execute(
            "INSERT INTO messages (game_id, kind, channel_id, message_id, seq, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, kind, channel_id, message_id, seq, to_db(at)),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def latest_message(self, game_id: int, kind: str) -> MessageRecord | None:
        r = self._one(
            f"SELECT {_MSG_COLS} FROM messages WHERE game_id = ? AND kind = ?"
            " ORDER BY id DESC LIMIT 1",
            (game_id, kind),
        )
        return None if r is None else _message(r)

    async def messages(self, game_id: int, kind: str | None) -> list[MessageRecord]:
        sql, args = f"SELECT {_MSG_COLS} FROM messages WHERE game_id = ?", [game_id]
        if kind is not None:
            sql += " AND kind = ?"
            args.append(kind)
        return [_message(r) for r in self._all(sql + " ORDER BY id", args)]

    # -- reminders and AI turns ------------------------------------------------------------

    async def cancel_reminders(self, game_id: int, user_id: int | None) -> int:
        sql = "UPDATE reminders SET status = 'cancelled' WHERE game_id = ? AND status = 'pending'"
        args: list[Any] = [game_id]
        if user_id is not None:
            sql += " AND user_id = ?"
            args.append(user_id)
        return self._c.execute(sql, args).rowcount

    async def insert_reminder(
        self, game_id: int, user_id: int, due_at: datetime, seq: int, at: datetime
    ) -> Reminder:
        [r] = self._all(  # fetch all: a RETURNING statement ends when its rows are read
            "INSERT INTO reminders (game_id, user_id, due_at, seq, attempt, created_at)"
            " VALUES (?, ?, ?, ?, 1 + (SELECT COUNT(*) FROM reminders WHERE game_id = ?"
            " AND user_id = ? AND seq = ? AND status = 'sent'), ?)"
            f" RETURNING {_REM_COLS}",
            (game_id, user_id, to_db(due_at), seq, game_id, user_id, seq, to_db(at)),
        )
        return _reminder(r)

    _DUE = (
        " FROM reminders r JOIN games g ON g.id = r.game_id"
        " LEFT JOIN user_settings u ON u.user_id = r.user_id"
        " WHERE r.status = 'pending' AND r.due_at <= ? AND g.status = 'active'"
        " AND g.seq = r.seq AND COALESCE(u.reminders_enabled, 1) = 1"
        " AND (r.claimed_until IS NULL OR r.claimed_until <= ?)"
    )

    async def due_reminders(self, now: datetime, limit: int) -> list[Reminder]:
        ts = to_db(now)
        rows = self._all(
            f"SELECT {_R_REM_COLS}{self._DUE} ORDER BY r.due_at, r.id LIMIT ?", (ts, ts, limit)
        )
        return [_reminder(r) for r in rows]

    async def claim_reminders(
        self, now: datetime, owner: str, until: datetime, limit: int
    ) -> list[Reminder]:
        due = await self.due_reminders(now, limit)
        self._c.executemany(
            "UPDATE reminders SET claimed_by = ?, claimed_until = ? WHERE id = ?",
            [(owner, to_db(until), r.id) for r in due],
        )
        return due

    async def release_reminder(self, reminder_id: int, owner: str) -> bool:
        cur = self._c.execute(
            "UPDATE reminders SET claimed_by = NULL, claimed_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            (reminder_id, owner),
        )
        return cur.rowcount > 0

    async def mark_reminder_sent(self, reminder_id: int, at: datetime, owner: str | None) -> bool:
        cur = self._c.execute(
            "UPDATE reminders SET status = 'sent', sent_at = ?, claimed_by = NULL,"
            " claimed_until = NULL WHERE id = ? AND (? IS NULL OR (status = 'pending'"
            " AND (claimed_by IS NULL OR claimed_by = ?)))",
            (to_db(at), reminder_id, owner, owner),
        )
        return cur.rowcount > 0

    async def reminders(self, game_id: int) -> list[Reminder]:
        return [
            _reminder(r)
            for r in self._all(
                f"SELECT {_REM_COLS} FROM reminders WHERE game_id = ? ORDER BY id", (game_id,)
            )
        ]

    async def ai_claim(self, game_id: int) -> AiClaim | None:
        r = self._one(
            "SELECT game_id, seq, owner, claimed_until FROM ai_turns WHERE game_id = ?", (game_id,)
        )
        return None if r is None else AiClaim(r[0], r[1], r[2], _dt(r[3]))

    async def put_ai_claim(self, claim: AiClaim) -> None:
        self._c.execute(
            "INSERT OR REPLACE INTO ai_turns (game_id, seq, owner, claimed_until)"
            " VALUES (?, ?, ?, ?)",
            (claim.game_id, claim.seq, claim.owner, to_db(claim.until)),
        )

    async def delete_ai_claim(self, game_id: int, owner: str | None) -> bool:
        cur = self._c.execute(
            "DELETE FROM ai_turns WHERE game_id = ? AND (? IS NULL OR owner = ?)",
            (game_id, owner, owner),
        )
        return cur.rowcount > 0

    async def waiting_ai_games(self, now: datetime, limit: int) -> list[int]:
        return [
            r[0]
            for r in self._all(
                "SELECT g.id FROM games g"
                " JOIN seats s ON s.game_id = g.id AND s.turn_index = g.to_move"
                " LEFT JOIN ai_turns a ON a.game_id = g.id"
                " WHERE g.status = 'active' AND s.is_ai = 1"
                " AND (a.game_id IS NULL OR a.claimed_until <= ? OR a.seq <> g.seq)"
                " ORDER BY g.id LIMIT ?",
                (to_db(now), limit),
            )
        ]

    # -- votes and settings ----------------------------------------------------------------

    async def add_vote(self, game_id: int, seq: int, voter_id: int, at: datetime) -> None:
        self._c.execute(
            "INSERT OR IGNORE INTO standin_votes (game_id, seq, voter_id, voted_at)"
            " VALUES (?, ?, ?, ?)",
            (game_id, seq, voter_id, to_db(at)),
        )

    async def votes(self, game_id: int, seq: int) -> list[int]:
        return [
            int(r[0])
            for r in self._all(
                "SELECT voter_id FROM standin_votes WHERE game_id = ? AND seq = ?"
                " ORDER BY voted_at, voter_id",
                (game_id, seq),
            )
        ]

    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        r = self._one(
            "SELECT reminder_hours, ping_mode, edition FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return None if r is None else GuildSettings(guild_id, float(r[0]), r[1], r[2])

    async def put_guild_settings(self, s: GuildSettings, at: datetime) -> None:
        self._c.execute(
            "INSERT INTO guild_settings (guild_id, reminder_hours, ping_mode, edition, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " reminder_hours = excluded.reminder_hours, ping_mode = excluded.ping_mode,"
            " edition = excluded.edition, updated_at = excluded.updated_at",
            (s.guild_id, s.reminder_hours, s.ping_mode, s.edition, to_db(at)),
        )

    async def user_settings(self, user_id: int) -> UserSettings | None:
        r = self._one(
            "SELECT reminders_enabled, ping_mode, reminder_hours FROM user_settings"
            " WHERE user_id = ?",
            (user_id,),
        )
        if r is None:
            return None
        return UserSettings(user_id, bool(r[0]), r[1], None if r[2] is None else float(r[2]))

    async def put_user_settings(self, s: UserSettings, at: datetime) -> None:
        self._c.execute(
            "INSERT INTO user_settings (user_id, reminders_enabled, ping_mode, reminder_hours,"
            " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
            " reminders_enabled = excluded.reminders_enabled, ping_mode = excluded.ping_mode,"
            " reminder_hours = excluded.reminder_hours, updated_at = excluded.updated_at",
            (s.user_id, int(s.reminders_enabled), s.ping_mode, s.reminder_hours, to_db(at)),
        )

    # -- audit and copying -----------------------------------------------------------------

    async def integrity_problems(self) -> list[str]:
        problems = [r[0] for r in self._all("PRAGMA integrity_check") if r[0] != "ok"]
        for r in self._all("PRAGMA foreign_key_check"):
            problems.append(f"foreign key: table {r[0]} rowid {r[1]} -> {r[2]}")
        return problems

    async def dump_game(self, game_id: int) -> GameDump:
        game = await self.game(game_id)
        assert game is not None
        choices = [
            (_choice(r), r["digest"])
            for r in self._all(
                f"SELECT {_CHOICE_COLS}, digest FROM choices WHERE game_id = ? ORDER BY id",
                (game_id,),
            )
        ]
        snaps = [
            (SnapshotRow(r[0], r[1], r[2]), _dt(r[3]))
            for r in self._all(
                "SELECT seq, state, digest, created_at FROM snapshots WHERE game_id = ?"
                " ORDER BY seq",
                (game_id,),
            )
        ]
        rems = [
            (_reminder(r), _dt(r["created_at"]))
            for r in self._all(
                f"SELECT {_REM_COLS}, created_at FROM reminders WHERE game_id = ? ORDER BY id",
                (game_id,),
            )
        ]
        votes = [
            (r[0], r[1], _dt(r[2]))
            for r in self._all(
                "SELECT seq, voter_id, voted_at FROM standin_votes WHERE game_id = ?", (game_id,)
            )
        ]
        return GameDump(
            game,
            await self.seats(game_id),
            choices,
            snaps,
            await self.messages(game_id, None),
            rems,
            votes,
        )

    async def load_game(self, dump: GameDump) -> None:
        g = dump.game
        c = self._c
        c.execute(
            f"INSERT INTO games ({_GAME_COLS}) VALUES ({', '.join('?' * 18)})",
            (
                g.id,
                g.guild_id,
                g.channel_id,
                g.thread_id,
                g.status,
                g.broken_reason,
                g.broken_from,
                g.seed,
                g.options,
                g.setup,
                g.creator_id,
                g.seq,
                g.log_digest,
                g.to_move,
                to_db(g.created_at),
                to_db(g.updated_at),
                g.started_at and to_db(g.started_at),
                g.finished_at and to_db(g.finished_at),
            ),
        )
        for s in dump.seats:
            await self.insert_seat(g.id, s)
        c.executemany(
            f"INSERT INTO choices ({_CHOICE_COLS}, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    ch.id,
                    g.id,
                    ch.seq,
                    ch.seat,
                    ch.choice_id,
                    to_db(ch.applied_at),
                    ch.undone_at and to_db(ch.undone_at),
                    digest,
                )
                for ch, digest in dump.choices
            ],
        )
        c.executemany(
            "INSERT INTO snapshots (game_id, seq, state, digest, created_at) VALUES (?, ?, ?, ?, ?)",
            [(g.id, s.seq, s.state, s.digest, to_db(at)) for s, at in dump.snapshots],
        )
        c.executemany(
            f"INSERT INTO messages ({_MSG_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (m.id, g.id, m.kind, m.channel_id, m.message_id, m.seq, to_db(m.created_at))
                for m in dump.messages
            ],
        )
        c.executemany(
            f"INSERT INTO reminders ({_REM_COLS}, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    r.id,
                    g.id,
                    r.user_id,
                    to_db(r.due_at),
                    r.seq,
                    r.attempt,
                    r.status,
                    r.sent_at and to_db(r.sent_at),
                    to_db(at),
                )
                for r, at in dump.reminders
            ],
        )
        c.executemany(
            "INSERT INTO standin_votes (game_id, seq, voter_id, voted_at) VALUES (?, ?, ?, ?)",
            [(g.id, seq, voter, to_db(at)) for seq, voter, at in dump.votes],
        )

    async def reset_ids(self) -> None:
        pass  # INTEGER PRIMARY KEY continues after the highest id by itself

    async def dump_settings(self) -> SettingsDump:
        out = SettingsDump()
        for r in self._all(
            "SELECT guild_id, reminder_hours, ping_mode, edition, updated_at FROM guild_settings"
        ):
            out.guilds.append((GuildSettings(r[0], float(r[1]), r[2], r[3]), _dt(r[4])))
        for r in self._all(
            "SELECT user_id, reminders_enabled, ping_mode, reminder_hours, updated_at"
            " FROM user_settings"
        ):
            hours = None if r[3] is None else float(r[3])
            out.users.append((UserSettings(r[0], bool(r[1]), r[2], hours), _dt(r[4])))
        return out

    async def load_settings(self, dump: SettingsDump) -> None:
        for g, at in dump.guilds:
            await self.put_guild_settings(g, at)
        for u, at in dump.users:
            await self.put_user_settings(u, at)


# ---------------------------------------------------------------------------- rows


def _game_row(r: sqlite3.Row) -> GameRow:
    return GameRow(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        thread_id=r["thread_id"],
        status=r["status"],
        broken_reason=r["broken_reason"],
        broken_from=r["broken_from"],
        seed=r["seed"],
        options=r["options"],
        setup=r["setup"],
        creator_id=r["creator_id"],
        seq=r["seq"],
        log_digest=r["log_digest"],
        to_move=r["to_move"],
        created_at=_dt(r["created_at"]),
        updated_at=_dt(r["updated_at"]),
        started_at=_opt_dt(r["started_at"]),
        finished_at=_opt_dt(r["finished_at"]),
    )


def _seat(r: sqlite3.Row) -> SeatRecord:
    return SeatRecord(
        r["join_order"],
        r["user_id"],
        bool(r["is_ai"]),
        r["ai_policy"],
        r["name"],
        r["colour"],
        r["turn_index"],
    )


def _choice(r: sqlite3.Row) -> ChoiceRecord:
    return ChoiceRecord(
        r["id"],
        r["game_id"],
        r["seq"],
        r["seat"],
        r["choice_id"],
        _dt(r["applied_at"]),
        _opt_dt(r["undone_at"]),
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
        _opt_dt(r["sent_at"]),
    )
