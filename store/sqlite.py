"""The SQLite backend (the default): every SQLite statement of the store is in this file.

SQLite through aiosqlite (its public API: ``connect``, ``execute``, ``execute_fetchall``...),
on three connections to one file in WAL mode, each with aiosqlite's thread:

- one **write** connection, used by a writer task that runs while write jobs (``write(fn)``)
  wait in its queue and ends when none is left (no task stays parked: simcord's tests see the
  bot settle). The jobs waiting together run in one ``BEGIN IMMEDIATE ... COMMIT`` (group
  commit). Each job after the first opens its own SAVEPOINT before its first write, so a job
  that fails rolls back alone (a job that wrote nothing has nothing to undo; the first one,
  with nothing else yet to keep, rolls the transaction back). No job is answered before the
  COMMIT has returned: with ``synchronous=FULL`` every acknowledged move is on disk, and moves
  arriving together share one fsync. ``BEGIN IMMEDIATE`` takes SQLite's write lock, which
  serialises writers across processes too (``busy_timeout`` waits for another process's
  transaction).
- two **read** connections (``PRAGMA query_only``), each running one ``read(fn)`` at a time in
  a plain ``BEGIN``: WAL gives the transaction the last committed state, never a write job's
  uncommitted rows, and reads do not wait for writes.

Each statement is one hand-off to aiosqlite's thread and back (about 30-80 µs of CPU), so a move
is one statement where it can be. A move of a game this process verified is computed before
its transaction (``PlayMixin._prepared``) and written by one ``INSERT`` into a temporary view
whose trigger checks that the game is still exactly where the process left it and then does
every write (SQLite has no data-modifying ``WITH``; ``postgres.py`` writes in one statement
too); one statement is all or nothing by itself, so it needs no savepoint. Otherwise (another
process moved the game, a first move after start-up, damage) the move goes the full way: its
SAVEPOINT if it is not first in its transaction, the game row read together with the end of
its choice log, which the move checks next, and the same INSERT. A transaction adds BEGIN and
COMMIT: a lone move is three statements.

A write job's ``fn`` (the store's logic; on the full way, the engine applying the move) runs in
the writer task on the event loop, as on PostgreSQL; only the statements go to aiosqlite's
thread.

aiosqlite logs every statement with its parameters (saved states, hands) at DEBUG: ``store.logs``
keeps its logger at INFO.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from . import migrate
from .backend import (
    ARCHIVE_DROPS,
    GAME_COLUMNS,
    ActiveGame,
    AiClaim,
    ChoiceRow,
    GameDump,
    GameRow,
    LogEnd,
    MoveWrite,
    ReminderFacts,
    SettingsDump,
    Shards,
    Shows,
    SnapshotRow,
    UndoWrite,
)
from .common import (
    _GUILD_SETTINGS,
    _USER_SETTINGS,
    ACTIVE_GAMES,
    EPOCH,
    _guild_settings,
    _guild_values,
    _reminder_facts,
    _set_excluded,
    _user_settings,
    _user_values,
    active_game,
    in_shards_sql,
    open_only,
    reminder_facts_sql,
)
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
from .upgrade import DATA_TABLES, UpgradeGuard

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_BATCH = 64
"""Write jobs committed together at most (group commit)."""

READERS = 2
"""Read connections: a long read (a listing, a check) does not hold up the others."""

_GAME_COLS = (
    "id, guild_id, channel_id, thread_id, status, broken_reason, broken_from, seed, options,"
    " setup, creator_id, seq, log_digest, to_move, created_at, updated_at, started_at,"
    " finished_at, seats_digest"
)
_SEAT_COLS = "join_order, user_id, is_ai, ai_policy, name, colour, turn_index"
_CHOICE_COLS = "id, game_id, seq, seat, choice_id, applied_at, undone_at"
_MSG_COLS = "id, game_id, kind, channel_id, message_id, seq, created_at"
_REM_COLS = "id, game_id, user_id, due_at, seq, attempt, status, sent_at"
_R_REM_COLS = ", ".join("r." + c for c in _REM_COLS.split(", "))

_GAME_AND_LOG_END = (
    f"SELECT {', '.join('g.' + c for c in _GAME_COLS.split(', '))}, c.id AS c_id, c.seq AS c_seq,"
    " c.seat AS c_seat, c.choice_id AS c_choice_id, c.digest AS c_digest"
    " FROM games g LEFT JOIN choices c ON c.game_id = g.id AND c.undone_at IS NULL"
    " AND typeof(g.seq) = 'integer' AND c.seq >= MAX(0, g.seq - 2)"
    " WHERE g.id = ? ORDER BY c.seq"
)
"""A game row with the last two live choices (one row each; one row with NULLs if none)."""

_MOVE_COLS = (
    "game_id, seq, seat, choice_id, digest, state, state_digest, over, to_move, at, drop_previous,"
    " end_digest, end_seat, end_choice, remind_user, remind_due"
)
_MOVED_ON = "store: the game is no longer where this process left it"
MOVE_WRITES = (
    # Every write of a move (``Tx.record_move``) as one statement: an INSERT into this view.
    # TEMP: the view and its trigger live in the write connection only, never in the file.
    f"CREATE TEMP VIEW move_writes ({_MOVE_COLS}) AS"
    f" SELECT {', '.join(['NULL'] * len(_MOVE_COLS.split(', ')))} WHERE 0",
    f"""
    CREATE TEMP TRIGGER move_writes_insert INSTEAD OF INSERT ON move_writes BEGIN
        -- ``record_move_at``: the game must still be active and its choice log end where the
        -- process verified it (the game row, and the last live choice row exactly), else the
        -- statement fails having written nothing (RAISE(ABORT) undoes this statement only).
        -- A choice rewritten or deleted further back fails it too: migration 15's triggers
        -- changed the game's log digest then (a constant cost, however long the game)
        SELECT RAISE(ABORT, '{_MOVED_ON}') WHERE NEW.end_digest IS NOT NULL AND (
            NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND status = 'active'
                AND seq = NEW.seq AND log_digest = NEW.end_digest)
            OR (NEW.seq > 0 AND NOT EXISTS (SELECT 1 FROM choices WHERE game_id = NEW.game_id
                AND seq = NEW.seq - 1 AND undone_at IS NULL AND seat = NEW.end_seat
                AND choice_id = NEW.end_choice AND digest = NEW.end_digest))
            OR EXISTS (SELECT 1 FROM choices WHERE game_id = NEW.game_id
                AND seq >= NEW.seq AND undone_at IS NULL));
        INSERT INTO choices (game_id, seq, seat, choice_id, applied_at, digest)
        VALUES (NEW.game_id, NEW.seq, NEW.seat, NEW.choice_id, NEW.at, NEW.digest);
        INSERT OR REPLACE INTO snapshots (game_id, seq, state, digest, created_at)
        VALUES (NEW.game_id, NEW.seq + 1, NEW.state, NEW.state_digest, NEW.at);
        -- once over, seed + choices + final state suffice; else drop a non-checkpoint
        DELETE FROM snapshots WHERE game_id = NEW.game_id AND (
            (NEW.over AND seq NOT IN (0, NEW.seq + 1))
            OR (NOT NEW.over AND NEW.drop_previous AND seq = NEW.seq));
        UPDATE games SET seq = NEW.seq + 1, log_digest = NEW.digest, to_move = NEW.to_move,
            updated_at = NEW.at, status = CASE WHEN NEW.over THEN 'finished' ELSE 'active' END,
            finished_at = CASE WHEN NEW.over THEN NEW.at END
        WHERE id = NEW.game_id;
        -- a move makes the game's pending reminders moot: gone, not kept (issue 29)
        DELETE FROM reminders WHERE game_id = NEW.game_id AND status = 'pending';
        -- the next person's first reminder (``insert_reminder``'s row)
        INSERT INTO reminders (game_id, user_id, due_at, seq, attempt, created_at)
        SELECT NEW.game_id, NEW.remind_user, NEW.remind_due, NEW.seq + 1,
            1 + (SELECT COUNT(*) FROM reminders WHERE game_id = NEW.game_id
                AND user_id = NEW.remind_user AND seq = NEW.seq + 1 AND status = 'sent'),
            NEW.at
        WHERE NEW.remind_user IS NOT NULL;
    END
    """,
)


def _dt(text: Any) -> datetime:
    try:
        return from_db(text) or EPOCH
    except (TypeError, ValueError):
        return EPOCH


def _opt_dt(text: Any) -> datetime | None:
    return _dt(text) if text else None


# ---------------------------------------------------------------------------- the database


class _Job:
    """A write transaction (``fn(tx)``) or a maintenance call (``fn(connection)``) waiting for
    the writer task, which answers ``future``."""

    __slots__ = ("abandoned", "call", "fn", "future", "started")

    def __init__(self, fn: Callable[[Any], Awaitable[Any]], *, call: bool = False) -> None:
        self.fn = fn
        self.call = call
        self.started = False
        self.abandoned = False
        """Its caller was cancelled before it started: the writer drops it."""
        self.future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def succeed(self, result: Any) -> None:
        if not self.future.done():
            self.future.set_result(result)

    def fail(self, error: BaseException) -> None:
        if not self.future.done() and not self.abandoned:
            self.future.set_exception(error)

    async def outcome(self) -> Any:
        """Wait for the answer. A caller cancelled while its job runs waits for the job to
        commit or roll back before it stops, so that what it wrote, or not, is settled (a read
        that follows sees it); one cancelled before its job started stops at once."""
        try:
            return await asyncio.shield(self.future)
        except asyncio.CancelledError:
            if not self.started:
                self.abandoned = True
                raise
            self.future.add_done_callback(_retrieve)
            with contextlib.suppress(Exception):
                await asyncio.shield(self.future)
            raise


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark an answer nobody may wait for any more as read (no 'never retrieved' warning)."""
    if not future.cancelled():
        future.exception()


class SQLiteDatabase:
    """The store's SQLite database file. Make with ``await SQLiteDatabase.open(path)``."""

    name = "sqlite"

    def __init__(
        self, path: Path, writer: aiosqlite.Connection, readers: list[aiosqlite.Connection]
    ) -> None:
        self.path = path
        self.location = str(path)
        self._writer = writer
        self._connections = [writer, *readers]
        self._readers: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for conn in readers:
            self._readers.put_nowait(conn)
        self._jobs: deque[_Job] = deque()
        self._writer_task: asyncio.Task[None] | None = None
        """Runs while there are write jobs, and ends when there are none."""
        self._closing = False
        self.commits = 0
        """COMMITs of write transactions so far (for the benchmark)."""
        self.statements = 0
        """Statements sent by reads and writes so far, BEGIN and COMMIT included: each is one
        hand-off to an aiosqlite thread and back (for the benchmark)."""

    @classmethod
    async def open(
        cls,
        path: Path,
        *,
        migrations: list[migrate.Migration],
        synchronous: str = "FULL",
        busy_timeout_ms: int = 15_000,
        guard: UpgradeGuard | None = None,
    ) -> SQLiteDatabase:
        if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"bad synchronous mode {synchronous!r}")
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        opened: list[aiosqlite.Connection] = []
        try:
            if guard is not None and migrations:  # before anything touches the file
                version, data = await asyncio.to_thread(_file_version, path, busy_timeout_ms)
                await guard.before_migrating(version, migrations[-1].version, holds_data=data)
            writer = await _connect(path, synchronous.upper(), busy_timeout_ms, opened)
            await migrate_sqlite(writer, migrations)
            for sql in MOVE_WRITES:
                await writer.execute(sql)
            readers = [
                await _connect(path, synchronous.upper(), busy_timeout_ms, opened, read_only=True)
                for _ in range(READERS)
            ]
        except BaseException:
            for conn in opened:
                with contextlib.suppress(Exception):
                    await conn.close()
            raise
        return cls(path, writer, readers)

    # -- reads -----------------------------------------------------------------------------

    async def read(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        """``fn(tx)`` in one read transaction on a read connection: the last committed state,
        the same for each of its statements."""
        if self._closing:
            raise StoreError("The game store is closed.")
        conn = await self._readers.get()
        tx = SQLiteTx(conn)
        try:
            try:
                await conn.execute("BEGIN")
                return await fn(tx)
            finally:
                self.statements += tx.statements + 2
                # queued behind any statement still running for a cancelled caller, and
                # shielded: the connection goes back to the pool out of its transaction
                await asyncio.shield(conn.rollback())
        finally:
            self._readers.put_nowait(conn)

    async def schema_version(self) -> int:
        return await self.read(lambda tx: current_version(tx.connection))

    # -- writes ----------------------------------------------------------------------------

    def _submit(self, job: _Job) -> _Job:
        if self._closing:
            raise StoreError("The game store is closed.")
        self._jobs.append(job)
        if self._writer_task is None or self._writer_task.done():
            self._writer_task = asyncio.get_running_loop().create_task(
                self._write_loop(), name="store-sqlite-writer"
            )
        return job

    async def write(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        """``fn(tx)`` in a write transaction, answered once it has committed. ``fn`` runs in
        the writer task and holds the write lock: it should await only ``tx`` methods (and
        never ``read`` or ``write``)."""
        return await self._submit(_Job(fn)).outcome()  # type: ignore[no-any-return]

    async def call(self, fn: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """``await fn(connection)`` on the write connection between transactions
        (maintenance: pragmas, raw statements in tests)."""
        return await self._submit(_Job(fn, call=True)).outcome()  # type: ignore[no-any-return]

    async def trace_statements(self, callback: Callable[[str], None] | None) -> None:
        """SQLite's trace hook on every connection (tests count statements). The text holds
        the parameters: never log it. A trigger's statements are traced too, under the text
        of the statement that fired it."""
        for conn in self._connections:
            await conn.set_trace_callback(callback)

    async def _write_loop(self) -> None:
        """The writer task: the jobs in order, write jobs in batches, until none is left."""
        try:
            while self._jobs:
                if self._jobs[0].abandoned:
                    self._jobs.popleft()
                elif self._jobs[0].call:
                    job = self._jobs.popleft()
                    job.started = True
                    try:
                        job.succeed(await job.fn(self._writer))
                    except Exception as exc:
                        job.fail(exc)
                else:
                    try:
                        await self._write_batch()
                    except Exception:  # pragma: no cover - the jobs are answered; keep going
                        log.exception("a batch of store writes failed")
                        with contextlib.suppress(Exception):
                            await self._writer.rollback()
        finally:
            while self._jobs:
                self._jobs.popleft().fail(StoreError("The game store is closed."))

    async def _write_batch(self) -> None:
        """Run the write jobs waiting now, and those arriving meanwhile (up to MAX_BATCH), in
        one transaction; answer them once it has committed."""
        conn = self._writer
        done: list[tuple[_Job, Any, SQLiteTx]] = []
        job: _Job | None = None
        try:
            self.statements += 1
            await conn.execute("BEGIN IMMEDIATE")
        except Exception as exc:  # another process held the lock past busy_timeout...
            job = self._jobs.popleft()
            job.started = True
            job.fail(exc)
            return
        try:
            while self._jobs and not self._jobs[0].call and len(done) < MAX_BATCH:
                job = self._jobs.popleft()
                if job.abandoned:
                    continue
                job.started = True
                # While the transaction holds nothing to keep, a job needs no savepoint: if it
                # fails after writing, it all rolls back. The others' savepoints are opened by
                # the tx before their first write (see SQLiteTx.savepoint). A savepoint's name
                # is new in the transaction: a failed SAVEPOINT must not name an older one.
                tx = SQLiteTx(conn, f"job{len(done)}" if done else None)
                try:
                    result = await job.fn(tx)
                except Exception as exc:
                    job.fail(exc)
                    if not tx.unguarded_writes and conn.in_transaction:
                        if not tx.savepoint_open:
                            continue  # it wrote nothing: nothing to undo
                        self.statements += 1
                        if await _roll_back_to(conn, tx.savepoint or ""):
                            continue  # that job alone is undone
                    self.statements += 1
                    with contextlib.suppress(sqlite3.Error):
                        await conn.rollback()
                    for other, _, _ in done:  # lost with the transaction (disk full, I/O...)
                        other.fail(exc)
                    return  # the jobs still waiting go in a new transaction
                finally:
                    self.statements += tx.statements
                done.append((job, result, tx))
            job = None
            self.statements += 1
            if not done:
                await conn.rollback()
                return
            try:
                await conn.commit()
            except Exception as exc:
                with contextlib.suppress(Exception):
                    await conn.rollback()
                for job, _, _ in done:
                    job.fail(exc)
                return
        except BaseException as exc:  # the writer task is cancelled, or worse: no COMMIT
            error = exc if isinstance(exc, Exception) else StoreError("The game store is closed.")
            if job is not None:
                job.fail(error)
            for other, _, _ in done:
                other.fail(error)
            raise
        self.commits += 1
        for job, result, tx in done:
            tx.committed()
            job.succeed(result)

    async def close(self) -> None:
        """Finish the queued writes and the running reads, then close the connections."""
        if self._closing:
            return
        self._closing = True
        try:
            if self._writer_task is not None:
                await asyncio.shield(self._writer_task)
        except asyncio.CancelledError:
            # a shutdown may have cancelled the writer task itself: the connections must be
            # closed all the same (an open one keeps a thread that holds the process alive)
            if not self._writer_task or not self._writer_task.cancelled():
                raise
        except Exception:  # pragma: no cover - the writer answers its jobs' errors itself
            log.exception("the store's writer task failed")
        finally:
            while self._jobs:
                self._jobs.popleft().fail(StoreError("The game store is closed."))
            for _ in range(len(self._connections) - 1):  # every reader back from its read
                await self._readers.get()
            for conn in self._connections:
                with contextlib.suppress(Exception):
                    await conn.close()


async def _roll_back_to(conn: aiosqlite.Connection, savepoint: str) -> bool:
    """Undo one job; False if that cannot be done (the caller rolls everything back)."""
    if not conn.in_transaction:  # some errors (disk full, I/O) make SQLite roll back everything
        return False
    try:
        await conn.execute(f"ROLLBACK TO {savepoint}")
        return True
    except sqlite3.Error:
        log.exception("rolling back one write job failed")
        return False


async def _connect(
    path: Path,
    synchronous: str,
    busy_timeout_ms: int,
    opened: list[aiosqlite.Connection],
    *,
    read_only: bool = False,
) -> aiosqlite.Connection:
    # isolation_level=None: the store writes BEGIN/COMMIT itself
    conn = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout_ms / 1000)
    opened.append(conn)
    conn.row_factory = aiosqlite.Row
    await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    await _enable_wal(conn, busy_timeout_ms / 1000)
    await conn.execute(f"PRAGMA synchronous = {synchronous}")
    await conn.execute("PRAGMA foreign_keys = ON")
    if read_only:
        await conn.execute("PRAGMA query_only = ON")
    return conn


async def _enable_wal(conn: aiosqlite.Connection, timeout: float) -> None:
    """Switch to WAL. Switching needs an exclusive lock for which SQLite does not always
    call the busy handler (several processes opening a new file at once): retry."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            mode = str(rows[0][0]).lower() if rows else None
            if mode not in ("wal", "memory"):
                raise StoreError(f"Could not switch the database to WAL mode (got {mode})")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.02)


# ---------------------------------------------------------------------------- migrations


def _file_version(path: Path, busy_timeout_ms: int) -> tuple[int, bool]:
    """The schema version of a SQLite file (0: no file, or empty) and whether it holds games
    or settings, read without changing it."""
    if not path.is_file():
        return 0, False
    conn = sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=busy_timeout_ms / 1000
    )
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "schema_version" not in tables:
            return 0, False
        version = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
        data = any(
            conn.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone()
            for t in DATA_TABLES
            if t in tables
        )
        return int(version[0]), data
    finally:
        conn.close()


async def current_version(conn: aiosqlite.Connection) -> int:
    """Highest applied migration version (0 for an empty database)."""
    if not list(
        await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'"
        )
    ):
        return 0
    rows = list(await conn.execute_fetchall("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
    return int(rows[0][0]) if rows else 0


async def migrate_sqlite(
    conn: aiosqlite.Connection, migrations: list[migrate.Migration], *, target: int | None = None
) -> list[int]:
    """Apply pending migrations (up to ``target``), each in its own ``BEGIN IMMEDIATE``
    transaction that re-checks the version (two processes starting at once are safe).
    ``conn`` must be opened with ``isolation_level=None``."""
    latest = migrations[-1].version if migrations else 0
    version = await current_version(conn)
    if version > latest:
        raise SchemaTooNew(migrate.too_new_message(version, latest))
    applied = []
    for mig in migrate.pending(migrations, version, target):
        await conn.execute("BEGIN IMMEDIATE")
        try:
            await conn.execute(migrate.VERSION_TABLE)
            version = await current_version(conn)
            if version > latest:
                raise SchemaTooNew(migrate.too_new_message(version, latest))
            if version >= mig.version:  # another process got here first
                await conn.rollback()
                continue
            if version != mig.version - 1:
                raise MigrationError(f"Cannot apply {mig.name} on top of version {version}")
            for stmt in migrate.split_statements(mig.sql):
                await conn.execute(stmt)
            await conn.execute(
                "INSERT INTO schema_version (version, name, checksum, applied_at)"
                " VALUES (?, ?, ?, ?)",
                (mig.version, mig.name, mig.checksum, to_db(utcnow())),
            )
            await conn.commit()
        except BaseException as exc:
            if conn.in_transaction:
                await conn.rollback()
            if isinstance(exc, sqlite3.Error):
                raise MigrationError(f"Migration {mig.name} failed: {exc}") from exc
            raise
        log.info("applied migration %s", mig.name)
        applied.append(mig.version)
    return applied


# ---------------------------------------------------------------------------- statements


class SQLiteTx:
    """Every SQL statement of the SQLite backend (see ``store.backend.Tx`` for the contract)."""

    def __init__(self, conn: aiosqlite.Connection, savepoint: str | None = None) -> None:
        self._c = conn
        self._after: list[Callable[[], None]] = []
        self.statements = 0
        self.savepoint = savepoint
        """The SAVEPOINT that isolates this job's writes from the jobs before it in the same
        transaction (None for the first job: it has nothing to keep). Issued just before the
        job's first write, so a job that writes nothing, or only one statement that is atomic
        by itself (``record_move_at``), costs no statement for it."""
        self.savepoint_open = False
        self.unguarded_writes = 0
        """Write statements that succeeded outside a savepoint: a job that fails after one
        cannot be undone alone (the writer then rolls back the whole transaction)."""
        self._log_end: tuple[int, int, list[ChoiceRow]] | None = None
        """(game id, from seq, live choices from there) read with the game row by ``game``,
        for a ``live_choices`` asked next (before any other statement)."""

    @property
    def connection(self) -> aiosqlite.Connection:
        return self._c

    def after_commit(self, callback: Callable[[], None]) -> None:
        self._after.append(callback)

    def committed(self) -> None:
        for callback in self._after:
            try:
                callback()
            except Exception:  # pragma: no cover - a cache update must not fail a commit
                log.exception("after-commit callback failed")

    # Every statement is one hand-off to aiosqlite's thread and back.

    async def _all(
        self, sql: str, args: Iterable[Any] = (), *, writes: bool = False
    ) -> list[sqlite3.Row]:
        if writes:
            await self._guard()
        self._log_end = None
        self.statements += 1
        rows = list(await self._c.execute_fetchall(sql, args))
        if writes:
            self._wrote()
        return rows

    async def _one(self, sql: str, args: Iterable[Any] = ()) -> sqlite3.Row | None:
        return next(iter(await self._all(sql, args)), None)

    async def _run(
        self, sql: str, args: Iterable[Any] = (), *, atomic: bool = False
    ) -> aiosqlite.Cursor:
        """A write statement. ``atomic``: the job's only write, undone by SQLite itself if it
        fails (a statement is all or nothing), so it needs no savepoint."""
        if not atomic:
            await self._guard()
        self._log_end = None
        self.statements += 1
        cursor = await self._c.execute(sql, args)
        self._wrote()
        return cursor

    async def _run_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        await self._guard()
        self._log_end = None
        self.statements += 1
        await self._c.executemany(sql, rows)
        self._wrote()

    def _wrote(self) -> None:
        if not self.savepoint_open:
            self.unguarded_writes += 1

    async def _guard(self) -> None:
        """Open the job's savepoint before its first write (see ``savepoint``)."""
        if self.savepoint is not None and not self.savepoint_open:
            if self.unguarded_writes:
                raise RuntimeError("a job wrote more after its one atomic write")
            self.statements += 1
            await self._c.execute(f"SAVEPOINT {self.savepoint}")
            self.savepoint_open = True

    # -- games and seats -------------------------------------------------------------------

    async def game(self, game_id: int, *, lock: bool = False) -> GameRow | None:
        # lock: the write transaction already holds SQLite's (database-wide) write lock.
        # The same statement reads the end of the choice log (the last two live choices), which
        # every load and move checks next (``play._check_log_end``): one hand-off, not two.
        rows = await self._all(_GAME_AND_LOG_END, (game_id,))
        if not rows:
            return None
        game = _game_row(rows[0])
        if isinstance(game.seq, int):
            self._log_end = (
                game_id,
                max(0, game.seq - 2),
                [_choice_row(r) for r in rows if r["c_id"] is not None],
            )
        return game

    async def insert_game(
        self, guild_id: int, channel_id: int, creator_id: int, options: str, at: datetime
    ) -> int:
        ts = to_db(at)
        cur = await self._run(
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
        await self._run(f"UPDATE games SET {cols} WHERE id = ?", (*args, game_id))

    async def find_games(
        self, by: str, key: int, statuses: list[str] | None
    ) -> list[tuple[GameRow, list[SeatRecord]]]:
        where, args = {
            "channel": ("(channel_id = ? OR thread_id = ?)", [key, key]),
            "guild": ("guild_id = ?", [key]),
            "user": ("id IN (SELECT game_id FROM seats WHERE user_id = ?)", [key]),
        }[by]
        if by == "user" and open_only(statuses):
            # from the member's open seats (index seats_open), not every seat they ever had
            where = (
                "id IN (SELECT game_id FROM seats INDEXED BY seats_open"
                " WHERE user_id = ? AND open = 1)"
            )
        if statuses is not None:
            where += f" AND status IN ({','.join('?' * len(statuses))})"
            args += statuses
        games = [
            _game_row(r)
            for r in await self._all(
                f"SELECT {_GAME_COLS} FROM games WHERE {where} ORDER BY id", args
            )
        ]
        seats: dict[int, list[SeatRecord]] = {g.id: [] for g in games}
        for r in await self._all(
            f"SELECT game_id, {_SEAT_COLS} FROM seats WHERE game_id IN"
            f" (SELECT id FROM games WHERE {where}) ORDER BY game_id, join_order",
            args,
        ):
            seats.setdefault(r["game_id"], []).append(_seat(r))
        return [(g, seats[g.id]) for g in games]

    async def games_created(self, guild_id: int, creator_id: int, since: datetime) -> int:
        row = await self._one(
            "SELECT count(*) FROM games WHERE guild_id = ? AND creator_id = ? AND created_at >= ?",
            (guild_id, creator_id, to_db(since)),
        )
        return int(row[0]) if row else 0

    async def game_in_thread(self, thread_id: int) -> GameRow | None:
        r = await self._one(
            f"SELECT {_GAME_COLS} FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1",
            (thread_id,),
        )
        return None if r is None else _game_row(r)

    async def active_games(self) -> list[ActiveGame]:
        return [active_game(r, _dt(r["updated_at"])) for r in await self._all(ACTIVE_GAMES)]

    async def game_ids(self, statuses: list[str] | None) -> list[int]:
        sql, args = "SELECT id FROM games", list(statuses or [])
        if statuses is not None:
            sql += f" WHERE status IN ({','.join('?' * len(statuses))})"
        return [r[0] for r in await self._all(sql + " ORDER BY id", args)]

    async def seats(self, game_id: int) -> list[SeatRecord]:
        return [
            _seat(r)
            for r in await self._all(
                f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY join_order", (game_id,)
            )
        ]

    async def insert_seat(self, game_id: int, seat: SeatRecord) -> None:
        await self._run(
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
            cur = await self._run(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
        else:
            cur = await self._run(
                "DELETE FROM seats WHERE game_id = ? AND join_order = ?", (game_id, join_order)
            )
        return cur.rowcount > 0

    async def set_seat_turn(
        self, game_id: int, join_order: int, turn_index: int, colour: str | None
    ) -> None:
        await self._run(
            "UPDATE seats SET turn_index = ?, colour = ? WHERE game_id = ? AND join_order = ?",
            (turn_index, colour, game_id, join_order),
        )

    # -- choices and snapshots -------------------------------------------------------------

    async def live_choices(self, game_id: int, from_seq: int = 0) -> list[ChoiceRow]:
        end = self._log_end
        if end is not None and end[:2] == (game_id, from_seq):
            self._log_end = None
            return end[2]
        return [
            _choice_row(r)
            for r in await self._all(
                "SELECT id AS c_id, seq AS c_seq, seat AS c_seat, choice_id AS c_choice_id,"
                " digest AS c_digest FROM choices"
                " WHERE game_id = ? AND undone_at IS NULL AND seq >= ? ORDER BY seq",
                (game_id, from_seq),
            )
        ]

    async def last_live_choice(self, game_id: int) -> ChoiceRow | None:
        r = await self._one(
            "SELECT id, seq, seat, choice_id, digest FROM choices"
            " WHERE game_id = ? AND undone_at IS NULL ORDER BY seq DESC LIMIT 1",
            (game_id,),
        )
        return None if r is None else ChoiceRow(r[0], r[1], r[2], r[3], r[4])

    async def choice_records(self, game_id: int, include_undone: bool) -> list[ChoiceRecord]:
        sql = f"SELECT {_CHOICE_COLS} FROM choices WHERE game_id = ?"
        if not include_undone:
            sql += " AND undone_at IS NULL"
        return [_choice(r) for r in await self._all(sql + " ORDER BY id", (game_id,))]

    async def fill_choice_digests(self, game_id: int, digests: list[tuple[int, str]]) -> None:
        await self._run_many(
            "UPDATE choices SET digest = ? WHERE id = ? AND game_id = ? AND digest IS NULL",
            [(d, i, game_id) for i, d in digests],
        )

    async def snapshot(self, game_id: int, seq: int) -> SnapshotRow | None:
        r = await self._one(
            "SELECT seq, state, digest FROM snapshots WHERE game_id = ? AND seq = ?",
            (game_id, seq),
        )
        return None if r is None else SnapshotRow(r[0], r[1], r[2])

    async def snapshots(self, game_id: int) -> list[SnapshotRow]:
        return [
            SnapshotRow(r[0], r[1], r[2])
            for r in await self._all(
                "SELECT seq, state, digest FROM snapshots WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        ]

    async def replace_snapshots(
        self, game_id: int, snapshots: list[tuple[int, str, str]], at: datetime
    ) -> None:
        await self._run("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
        await self._run_many(
            "INSERT INTO snapshots (game_id, seq, state, digest, created_at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, seq, text, digest, to_db(at)) for seq, text, digest in snapshots],
        )

    async def record_move(self, m: MoveWrite) -> None:
        await self._insert_move(m, LogEnd(m.seq, None, None, None))

    async def reminder_facts(self, game_id: int, turn_index: int) -> ReminderFacts | None:
        r = await self._one(reminder_facts_sql("?", "?"), (turn_index, game_id))
        return None if r is None else _reminder_facts(r)

    async def record_move_at(self, m: MoveWrite, end: LogEnd) -> bool:
        try:
            await self._insert_move(m, end, atomic=True)
        except sqlite3.IntegrityError as exc:
            if str(exc) == _MOVED_ON:
                return False
            raise
        return True

    async def _insert_move(self, m: MoveWrite, end: LogEnd, *, atomic: bool = False) -> None:
        # one statement, one hand-off: the trigger of the move_writes view does every write
        await self._run(
            f"INSERT INTO move_writes ({_MOVE_COLS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                m.game_id,
                m.seq,
                m.seat,
                m.choice_id,
                m.digest,
                m.state,
                m.state_digest,
                int(m.over),
                m.to_move,
                to_db(m.at),
                int(m.drop_previous),
                end.digest,
                end.last_seat,
                end.last_choice,
                None if m.reminder is None else m.reminder[0],
                None if m.reminder is None else to_db(m.reminder[1]),
            ),
            atomic=atomic,
        )

    async def record_undo(self, u: UndoWrite) -> None:
        ts = to_db(u.at)
        await self._run("UPDATE choices SET undone_at = ? WHERE id = ?", (ts, u.choice_row_id))
        await self._run("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (u.game_id, u.seq))
        await self._run(
            "INSERT INTO snapshots (game_id, seq, state, digest, created_at) VALUES (?, ?, ?, ?, ?)",
            (u.game_id, u.seq, u.state, u.state_digest, ts),
        )
        await self._run(
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
        await self._run(
            "DELETE FROM reminders WHERE game_id = ? AND status = 'pending'", (u.game_id,)
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
        cur = await self._run(
            "INSERT INTO messages (game_id, kind, channel_id, message_id, seq, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, kind, channel_id, message_id, seq, to_db(at)),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def latest_message(self, game_id: int, kind: str) -> MessageRecord | None:
        r = await self._one(
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
        return [_message(r) for r in await self._all(sql + " ORDER BY id", args)]

    async def put_shows(self, game_id: int, shows: Shows, at: datetime) -> None:
        await self._run(
            "INSERT OR REPLACE INTO thread_shows"
            " (game_id, message_id, seq, log_digest, player, updated_at)"
            " SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE id = ?)",
            (
                game_id,
                shows.message_id,
                shows.seq,
                shows.log_digest,
                shows.player,
                to_db(at),
                game_id,
            ),
        )

    # -- reminders and AI turns ------------------------------------------------------------

    async def turn_reminders(self, game_id: int, user_id: int, seq: int) -> list[Reminder]:
        return [
            _reminder(r)
            for r in await self._all(
                f"SELECT {_REM_COLS} FROM reminders WHERE game_id = ? AND user_id = ?"
                " AND seq = ? ORDER BY id",
                (game_id, user_id, seq),
            )
        ]

    async def pending_reminders(self, game_id: int) -> list[Reminder]:
        return [
            _reminder(r)
            for r in await self._all(
                f"SELECT {_REM_COLS} FROM reminders WHERE game_id = ? AND status = 'pending'"
                " ORDER BY id",
                (game_id,),
            )
        ]

    async def cancel_reminders(self, game_id: int, user_id: int | None) -> int:
        # moot rows are deleted, not kept as 'cancelled': the table stays small (issue 29)
        sql = "DELETE FROM reminders WHERE game_id = ? AND status = 'pending'"
        args: list[Any] = [game_id]
        if user_id is not None:
            sql += " AND user_id = ?"
            args.append(user_id)
        return (await self._run(sql, args)).rowcount

    async def insert_reminder(
        self, game_id: int, user_id: int, due_at: datetime, seq: int, at: datetime
    ) -> Reminder:
        [r] = await self._all(  # fetch all: a RETURNING statement ends when its rows are read
            "INSERT INTO reminders (game_id, user_id, due_at, seq, attempt, created_at)"
            " VALUES (?, ?, ?, ?, 1 + (SELECT COUNT(*) FROM reminders WHERE game_id = ?"
            " AND user_id = ? AND seq = ? AND status = 'sent'), ?)"
            f" RETURNING {_REM_COLS}",
            (game_id, user_id, to_db(due_at), seq, game_id, user_id, seq, to_db(at)),
            writes=True,
        )
        return _reminder(r)

    _DUE = (  # CROSS JOIN: from the pending reminders that are due (index reminders_due) to
        # their games, not from every active game to its reminders
        " FROM reminders r CROSS JOIN games g ON g.id = r.game_id"
        " LEFT JOIN user_settings u ON u.user_id = r.user_id"
        " WHERE r.status = 'pending' AND r.due_at <= ? AND g.status = 'active'"
        " AND g.seq = r.seq AND COALESCE(u.reminders_enabled, 1) = 1"
        " AND (r.claimed_until IS NULL OR r.claimed_until <= ?)"
    )

    async def due_reminders(
        self, now: datetime, limit: int, shards: Shards | None = None
    ) -> list[Reminder]:
        ts = to_db(now)
        rows = await self._all(
            f"SELECT {_R_REM_COLS}{self._DUE}{in_shards_sql(shards)}"
            " ORDER BY r.due_at, r.id LIMIT ?",
            (ts, ts, limit),
        )
        return [_reminder(r) for r in rows]

    async def claim_reminders(
        self, now: datetime, owner: str, until: datetime, limit: int, shards: Shards | None
    ) -> list[Reminder]:
        due = await self.due_reminders(now, limit, shards)
        await self._run_many(
            "UPDATE reminders SET claimed_by = ?, claimed_until = ? WHERE id = ?",
            [(owner, to_db(until), r.id) for r in due],
        )
        return due

    async def release_reminder(self, reminder_id: int, owner: str) -> bool:
        cur = await self._run(
            "UPDATE reminders SET claimed_by = NULL, claimed_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            (reminder_id, owner),
        )
        return cur.rowcount > 0

    async def mark_reminder_sent(self, reminder_id: int, at: datetime, owner: str | None) -> bool:
        cur = await self._run(
            "UPDATE reminders SET status = 'sent', sent_at = ?, claimed_by = NULL,"
            " claimed_until = NULL WHERE id = ? AND (? IS NULL OR (status = 'pending'"
            " AND (claimed_by IS NULL OR claimed_by = ?)))",
            (to_db(at), reminder_id, owner, owner),
        )
        return cur.rowcount > 0

    async def reminders(self, game_id: int) -> list[Reminder]:
        return [
            _reminder(r)
            for r in await self._all(
                f"SELECT {_REM_COLS} FROM reminders WHERE game_id = ? ORDER BY id", (game_id,)
            )
        ]

    async def ai_claim(self, game_id: int) -> AiClaim | None:
        r = await self._one(
            "SELECT game_id, seq, owner, claimed_until FROM ai_turns WHERE game_id = ?", (game_id,)
        )
        return None if r is None else AiClaim(r[0], r[1], r[2], _dt(r[3]))

    async def put_ai_claim(self, claim: AiClaim) -> None:
        await self._run(
            "INSERT OR REPLACE INTO ai_turns (game_id, seq, owner, claimed_until)"
            " VALUES (?, ?, ?, ?)",
            (claim.game_id, claim.seq, claim.owner, to_db(claim.until)),
        )

    async def delete_ai_claim(self, game_id: int, owner: str | None) -> bool:
        cur = await self._run(
            "DELETE FROM ai_turns WHERE game_id = ? AND (? IS NULL OR owner = ?)",
            (game_id, owner, owner),
        )
        return cur.rowcount > 0

    async def waiting_ai_games(self, now: datetime, limit: int) -> list[int]:
        return [
            r[0]
            for r in await self._all(
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
        await self._run(
            "INSERT OR IGNORE INTO standin_votes (game_id, seq, voter_id, voted_at)"
            " VALUES (?, ?, ?, ?)",
            (game_id, seq, voter_id, to_db(at)),
        )

    async def votes(self, game_id: int, seq: int) -> list[int]:
        return [
            int(r[0])
            for r in await self._all(
                "SELECT voter_id FROM standin_votes WHERE game_id = ? AND seq = ?"
                " ORDER BY voted_at, voter_id",
                (game_id, seq),
            )
        ]

    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        r = await self._one(
            f"SELECT {_GUILD_SETTINGS} FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if r is None else _guild_settings(guild_id, r)

    async def put_guild_settings(self, s: GuildSettings, at: datetime) -> None:
        await self._run(
            f"INSERT INTO guild_settings (guild_id, {_GUILD_SETTINGS}, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            f" {_set_excluded(_GUILD_SETTINGS)}, updated_at = excluded.updated_at",
            (s.guild_id, *_guild_values(s), to_db(at)),
        )

    async def user_settings(self, user_id: int) -> UserSettings | None:
        r = await self._one(
            f"SELECT {_USER_SETTINGS} FROM user_settings WHERE user_id = ?", (user_id,)
        )
        return None if r is None else _user_settings(user_id, r)

    async def put_user_settings(self, s: UserSettings, at: datetime) -> None:
        await self._run(
            f"INSERT INTO user_settings (user_id, {_USER_SETTINGS}, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
            f" {_set_excluded(_USER_SETTINGS)}, updated_at = excluded.updated_at",
            (s.user_id, *_user_values(s), to_db(at)),
        )

    # -- the bot's own facts and counts (operations) ------------------------------------------

    async def bot_value(self, name: str) -> str | None:
        r = await self._one("SELECT value FROM bot_state WHERE name = ?", (name,))
        return None if r is None else str(r[0])

    async def put_bot_value(self, name: str, value: str, at: datetime) -> None:
        await self._run(
            "INSERT INTO bot_state (name, value, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (name) DO UPDATE SET value = excluded.value,"
            " updated_at = excluded.updated_at",
            (name, value, to_db(at)),
        )

    async def status_counts(self, guild_id: int | None) -> dict[str, int]:
        where, args = ("", ()) if guild_id is None else (" WHERE guild_id = ?", (guild_id,))
        rows = await self._all(f"SELECT status, COUNT(*) FROM games{where} GROUP BY status", args)
        return {str(r[0]): int(r[1]) for r in rows}

    # -- the operator's commands -----------------------------------------------------------

    async def list_games(
        self,
        game_id: int | None,
        guild_id: int | None,
        statuses: list[str] | None,
        updated_before: datetime | None,
        limit: int,
    ) -> list[tuple[GameRow, datetime | None]]:
        where: list[str] = ["1 = 1"]
        args: list[Any] = []
        if game_id is not None:
            where.append("id = ?")
            args.append(game_id)
        if guild_id is not None:
            where.append("guild_id = ?")
            args.append(guild_id)
        if statuses is not None:
            where.append(f"status IN ({','.join('?' * len(statuses))})")
            args += statuses
        if updated_before is not None:
            where.append("updated_at < ?")
            args.append(to_db(updated_before))
        rows = await self._all(
            f"SELECT {_GAME_COLS}, archived_at FROM games WHERE {' AND '.join(where)}"
            " ORDER BY id DESC LIMIT ?",
            (*args, limit),
        )
        return [(_game_row(r), _opt_dt(r["archived_at"])) for r in rows]

    async def archivable(self, finished_before: datetime, limit: int) -> list[int]:
        rows = await self._all(
            "SELECT id FROM games WHERE status = 'finished' AND archived_at IS NULL"
            " AND finished_at < ? ORDER BY finished_at, id LIMIT ?",
            (to_db(finished_before), limit),
        )
        return [int(r[0]) for r in rows]

    async def archive_game(self, game_id: int, keep_seq: int, at: datetime) -> dict[str, int]:
        cur = await self._run(
            "DELETE FROM snapshots WHERE game_id = ? AND seq <> ?", (game_id, keep_seq)
        )
        gone = {"snapshots": cur.rowcount}
        for table in ARCHIVE_DROPS:
            cur = await self._run(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            gone[table] = cur.rowcount
        await self._run("UPDATE games SET archived_at = ? WHERE id = ?", (to_db(at), game_id))
        return gone

    # -- audit and copying -----------------------------------------------------------------

    async def integrity_problems(self) -> list[str]:
        problems = [r[0] for r in await self._all("PRAGMA integrity_check") if r[0] != "ok"]
        for r in await self._all("PRAGMA foreign_key_check"):
            problems.append(f"foreign key: table {r[0]} rowid {r[1]} -> {r[2]}")
        return problems

    async def dump_game(self, game_id: int) -> GameDump:
        game = await self.game(game_id)
        assert game is not None
        choices = [
            (_choice(r), r["digest"])
            for r in await self._all(
                f"SELECT {_CHOICE_COLS}, digest FROM choices WHERE game_id = ? ORDER BY id",
                (game_id,),
            )
        ]
        snaps = [
            (SnapshotRow(r[0], r[1], r[2]), _dt(r[3]))
            for r in await self._all(
                "SELECT seq, state, digest, created_at FROM snapshots WHERE game_id = ?"
                " ORDER BY seq",
                (game_id,),
            )
        ]
        rems = [
            (_reminder(r), _dt(r["created_at"]))
            for r in await self._all(
                f"SELECT {_REM_COLS}, created_at FROM reminders WHERE game_id = ? ORDER BY id",
                (game_id,),
            )
        ]
        votes = [
            (r[0], r[1], _dt(r[2]))
            for r in await self._all(
                "SELECT seq, voter_id, voted_at FROM standin_votes WHERE game_id = ?", (game_id,)
            )
        ]
        [archived] = await self._all("SELECT archived_at FROM games WHERE id = ?", (game_id,))
        return GameDump(
            game,
            await self.seats(game_id),
            choices,
            snaps,
            await self.messages(game_id, None),
            rems,
            votes,
            _opt_dt(archived[0]),
        )

    async def load_game(self, dump: GameDump) -> None:
        g = dump.game
        await self._run(
            f"INSERT INTO games ({_GAME_COLS}) VALUES ({', '.join('?' * 19)})",
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
                g.seats_digest,
            ),
        )
        for s in dump.seats:
            await self.insert_seat(g.id, s)
        await self._run_many(
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
        await self._run_many(
            "INSERT INTO snapshots (game_id, seq, state, digest, created_at) VALUES (?, ?, ?, ?, ?)",
            [(g.id, s.seq, s.state, s.digest, to_db(at)) for s, at in dump.snapshots],
        )
        await self._run_many(
            f"INSERT INTO messages ({_MSG_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (m.id, g.id, m.kind, m.channel_id, m.message_id, m.seq, to_db(m.created_at))
                for m in dump.messages
            ],
        )
        await self._run_many(
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
        await self._run_many(
            "INSERT INTO standin_votes (game_id, seq, voter_id, voted_at) VALUES (?, ?, ?, ?)",
            [(g.id, seq, voter, to_db(at)) for seq, voter, at in dump.votes],
        )
        if dump.archived_at is not None:
            await self._run(
                "UPDATE games SET archived_at = ? WHERE id = ?", (to_db(dump.archived_at), g.id)
            )

    async def reset_ids(self) -> None:
        pass  # INTEGER PRIMARY KEY continues after the highest id by itself

    async def dump_settings(self) -> SettingsDump:
        out = SettingsDump()
        for r in await self._all(
            f"SELECT guild_id, {_GUILD_SETTINGS}, updated_at FROM guild_settings"
        ):
            out.guilds.append((_guild_settings(r[0], r[1:-1]), _dt(r[-1])))
        for r in await self._all(
            f"SELECT user_id, {_USER_SETTINGS}, updated_at FROM user_settings"
        ):
            out.users.append((_user_settings(r[0], r[1:-1]), _dt(r[-1])))
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
        seats_digest=r["seats_digest"],
    )


def _choice_row(r: sqlite3.Row) -> ChoiceRow:
    return ChoiceRow(r["c_id"], r["c_seq"], r["c_seat"], r["c_choice_id"], r["c_digest"])


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
