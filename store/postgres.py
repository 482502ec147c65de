"""The PostgreSQL backend (``DATABASE_URL=postgresql://...``): every PostgreSQL statement of the
store is in this file. For several bot processes sharing one database.

A pool of asyncpg connections; each store operation takes one for one transaction. A write
that changes a game locks its row first (``SELECT ... FOR UPDATE``), so moves of one game are
serialised across every process by the database, and moves of different games run side by
side. A move's writes go in one statement (``record_move``); PostgreSQL commits concurrent
transactions with shared WAL flushes, and answers nothing before the commit is durable.

Times are TIMESTAMPTZ, Discord ids BIGINT, flags BOOLEAN; otherwise the schema is the SQLite
one (``migrations/postgres`` mirrors ``migrations/sqlite`` number for number).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar

import asyncpg

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
from .errors import MigrationError, SchemaTooNew
from .models import (
    ChoiceRecord,
    GuildSettings,
    MessageRecord,
    Reminder,
    SeatRecord,
    UserSettings,
)
from .timeutil import to_db, utcnow
from .upgrade import DATA_TABLES, UpgradeGuard

log = logging.getLogger(__name__)
T = TypeVar("T")

MIGRATION_LOCK = 0x4164_6144  # pg_advisory_xact_lock key: one migrating process at a time

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


class PostgresDatabase:
    """A pool of connections to one PostgreSQL database."""

    name = "postgres"
    path = None

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.location = url

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrations: list[migrate.Migration],
        pool_size: int = 10,
        guard: UpgradeGuard | None = None,
    ) -> PostgresDatabase:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        try:
            async with pool.acquire() as conn:
                if guard is not None and migrations:
                    await guard.before_migrating(
                        await current_version(conn),
                        migrations[-1].version,
                        holds_data=await _holds_data(conn),
                    )
                await migrate_postgres(conn, migrations)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url)

    async def read(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        async with (
            self._pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            return await fn(PostgresTx(conn))

    async def write(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        async with self._pool.acquire() as conn:
            tx = PostgresTx(conn)
            async with conn.transaction():
                result = await fn(tx)
            tx.committed()
            return result

    async def call(self, fn: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """Run ``fn(connection)`` outside any transaction the store opens (maintenance)."""
        async with self._pool.acquire() as conn:
            return await fn(conn)

    async def schema_version(self) -> int:
        return await self.call(current_version)

    async def close(self) -> None:
        await self._pool.close()


# ---------------------------------------------------------------------------- migrations


async def _holds_data(conn: asyncpg.Connection) -> bool:
    """Whether the database has games or settings (in the tables that exist yet)."""
    for table in DATA_TABLES:
        if await conn.fetchval("SELECT to_regclass($1)", table) is not None:
            if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                return True
    return False


async def current_version(conn: asyncpg.Connection) -> int:
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def migrate_postgres(
    conn: asyncpg.Connection, migrations: list[migrate.Migration], *, target: int | None = None
) -> list[int]:
    """Apply pending migrations (up to ``target``), each in its own transaction under an
    advisory lock, re-checking the version first (several processes starting at once)."""
    latest = migrations[-1].version if migrations else 0
    version = await current_version(conn)
    if version > latest:
        raise SchemaTooNew(migrate.too_new_message(version, latest))
    applied = []
    for mig in migrate.pending(migrations, version, target):
        try:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await conn.execute(migrate.VERSION_TABLE)
                version = await current_version(conn)
                if version > latest:
                    raise SchemaTooNew(migrate.too_new_message(version, latest))
                if version >= mig.version:  # another process got here first
                    continue
                if version != mig.version - 1:
                    raise MigrationError(f"Cannot apply {mig.name} on top of version {version}")
                await conn.execute(mig.sql)  # the whole file: PostgreSQL runs scripts itself
                await conn.execute(
                    "INSERT INTO schema_version (version, name, checksum, applied_at)"
                    " VALUES ($1, $2, $3, $4)",
                    mig.version,
                    mig.name,
                    mig.checksum,
                    to_db(utcnow()),
                )
        except asyncpg.PostgresError as exc:
            raise MigrationError(f"Migration {mig.name} failed: {exc}") from exc
        log.info("applied migration %s", mig.name)
        applied.append(mig.version)
    return applied


# ---------------------------------------------------------------------------- statements


class PostgresTx:
    """Every SQL statement of the PostgreSQL backend (see ``store.backend.Tx``)."""

    def __init__(self, conn: asyncpg.Connection) -> None:
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

    # -- games and seats -------------------------------------------------------------------

    async def game(self, game_id: int, *, lock: bool = False) -> GameRow | None:
        sql = f"SELECT {_GAME_COLS} FROM games WHERE id = $1"
        row = await self._c.fetchrow(sql + (" FOR UPDATE" if lock else ""), game_id)
        return None if row is None else _game_row(row)

    async def insert_game(
        self, guild_id: int, channel_id: int, creator_id: int, options: str, at: datetime
    ) -> int:
        return int(
            await self._c.fetchval(
                "INSERT INTO games (guild_id, channel_id, creator_id, options, created_at,"
                " updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id",
                guild_id,
                channel_id,
                creator_id,
                options,
                at,
            )
        )

    async def update_game(self, game_id: int, **values: Any) -> None:
        bad = set(values) - GAME_COLUMNS
        if bad:
            raise ValueError(f"not a games column: {sorted(bad)}")
        cols = ", ".join(f"{k} = ${i}" for i, k in enumerate(values, start=2))
        await self._c.execute(f"UPDATE games SET {cols} WHERE id = $1", game_id, *values.values())

    async def find_games(
        self, by: str, key: int, statuses: list[str] | None
    ) -> list[tuple[GameRow, list[SeatRecord]]]:
        where = {
            "channel": "(channel_id = $1 OR thread_id = $1)",
            "guild": "guild_id = $1",
            "user": "id IN (SELECT game_id FROM seats WHERE user_id = $1)",
        }[by]
        args: list[Any] = [key]
        if by == "user" and open_only(statuses):
            # from the member's open seats (index seats_open), not every seat they ever had
            where = "id IN (SELECT game_id FROM seats WHERE user_id = $1 AND open)"
        if statuses is not None:
            where += " AND status = ANY($2::text[])"
            args.append(statuses)
        games = [
            _game_row(r)
            for r in await self._c.fetch(
                f"SELECT {_GAME_COLS} FROM games WHERE {where} ORDER BY id", *args
            )
        ]
        seats: dict[int, list[SeatRecord]] = {g.id: [] for g in games}
        for r in await self._c.fetch(
            f"SELECT game_id, {_SEAT_COLS} FROM seats WHERE game_id IN"
            f" (SELECT id FROM games WHERE {where}) ORDER BY game_id, join_order",
            *args,
        ):
            seats.setdefault(r["game_id"], []).append(_seat(r))
        return [(g, seats[g.id]) for g in games]

    async def games_created(self, guild_id: int, creator_id: int, since: datetime) -> int:
        return int(
            await self._c.fetchval(
                "SELECT count(*) FROM games"
                " WHERE guild_id = $1 AND creator_id = $2 AND created_at >= $3",
                guild_id,
                creator_id,
                since,
            )
        )

    async def game_in_thread(self, thread_id: int) -> GameRow | None:
        r = await self._c.fetchrow(
            f"SELECT {_GAME_COLS} FROM games WHERE thread_id = $1 ORDER BY id DESC LIMIT 1",
            thread_id,
        )
        return None if r is None else _game_row(r)

    async def active_games(self) -> list[ActiveGame]:
        return [active_game(r, r["updated_at"]) for r in await self._c.fetch(ACTIVE_GAMES)]

    async def game_ids(self, statuses: list[str] | None) -> list[int]:
        if statuses is None:
            rows = await self._c.fetch("SELECT id FROM games ORDER BY id")
        else:
            rows = await self._c.fetch(
                "SELECT id FROM games WHERE status = ANY($1::text[]) ORDER BY id", statuses
            )
        return [r[0] for r in rows]

    async def seats(self, game_id: int) -> list[SeatRecord]:
        rows = await self._c.fetch(
            f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = $1 ORDER BY join_order", game_id
        )
        return [_seat(r) for r in rows]

    async def insert_seat(self, game_id: int, seat: SeatRecord) -> None:
        await self._c.execute(
            f"INSERT INTO seats (game_id, {_SEAT_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            game_id,
            seat.join_order,
            seat.user_id,
            seat.is_ai,
            seat.ai_policy,
            seat.name,
            seat.colour,
            seat.turn_index,
        )

    async def delete_seat(
        self, game_id: int, *, user_id: int | None, join_order: int | None
    ) -> bool:
        if user_id is not None:
            status = await self._c.execute(
                "DELETE FROM seats WHERE game_id = $1 AND user_id = $2", game_id, user_id
            )
        else:
            status = await self._c.execute(
                "DELETE FROM seats WHERE game_id = $1 AND join_order = $2", game_id, join_order
            )
        return _count(status) > 0

    async def set_seat_turn(
        self, game_id: int, join_order: int, turn_index: int, colour: str | None
    ) -> None:
        await self._c.execute(
            "UPDATE seats SET turn_index = $1, colour = $2 WHERE game_id = $3 AND join_order = $4",
            turn_index,
            colour,
            game_id,
            join_order,
        )

    # -- choices and snapshots -------------------------------------------------------------

    async def live_choices(self, game_id: int, from_seq: int = 0) -> list[ChoiceRow]:
        rows = await self._c.fetch(
            "SELECT id, seq, seat, choice_id, digest FROM choices"
            " WHERE game_id = $1 AND undone_at IS NULL AND seq >= $2 ORDER BY seq",
            game_id,
            from_seq,
        )
        return [ChoiceRow(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def last_live_choice(self, game_id: int) -> ChoiceRow | None:
        r = await self._c.fetchrow(
            "SELECT id, seq, seat, choice_id, digest FROM choices"
            " WHERE game_id = $1 AND undone_at IS NULL ORDER BY seq DESC LIMIT 1",
            game_id,
        )
        return None if r is None else ChoiceRow(r[0], r[1], r[2], r[3], r[4])

    async def choice_records(self, game_id: int, include_undone: bool) -> list[ChoiceRecord]:
        sql = f"SELECT {_CHOICE_COLS} FROM choices WHERE game_id = $1"
        if not include_undone:
            sql += " AND undone_at IS NULL"
        return [_choice(r) for r in await self._c.fetch(sql + " ORDER BY id", game_id)]

    async def fill_choice_digests(self, game_id: int, digests: list[tuple[int, str]]) -> None:
        await self._c.executemany(
            "UPDATE choices SET digest = $1 WHERE id = $2 AND game_id = $3 AND digest IS NULL",
            [(d, i, game_id) for i, d in digests],
        )

    async def snapshot(self, game_id: int, seq: int) -> SnapshotRow | None:
        r = await self._c.fetchrow(
            "SELECT seq, state, digest FROM snapshots WHERE game_id = $1 AND seq = $2",
            game_id,
            seq,
        )
        return None if r is None else SnapshotRow(r[0], r[1], r[2])

    async def snapshots(self, game_id: int) -> list[SnapshotRow]:
        rows = await self._c.fetch(
            "SELECT seq, state, digest FROM snapshots WHERE game_id = $1 ORDER BY seq", game_id
        )
        return [SnapshotRow(r[0], r[1], r[2]) for r in rows]

    async def replace_snapshots(
        self, game_id: int, snapshots: list[tuple[int, str, str]], at: datetime
    ) -> None:
        await self._c.execute("DELETE FROM snapshots WHERE game_id = $1", game_id)
        await self._c.executemany(
            "INSERT INTO snapshots (game_id, seq, state, digest, created_at)"
            " VALUES ($1, $2, $3, $4, $5)",
            [(game_id, seq, text, digest, at) for seq, text, digest in snapshots],
        )

    async def record_move(self, m: MoveWrite) -> None:
        await self._write_move(m, LogEnd(m.seq, None, None, None))

    async def reminder_facts(self, game_id: int, turn_index: int) -> ReminderFacts | None:
        r = await self._c.fetchrow(reminder_facts_sql("$1", "$2"), turn_index, game_id)
        return None if r is None else _reminder_facts(r)

    async def record_move_at(self, m: MoveWrite, end: LogEnd) -> bool:
        return await self._write_move(m, end)

    async def _write_move(self, m: MoveWrite, end: LogEnd) -> bool:
        # One statement, one round trip. `g` locks the game row; given an end to check
        # (`record_move_at`), only if the game is still where the process left it (after
        # waiting for another transaction's lock, PostgreSQL checks the row as that one left
        # it); a choice rewritten or deleted further back changed `log_digest` then (migration
        # 14's triggers). Every write takes its row from `g`, so nothing is written otherwise.
        # The parts see the same snapshot and touch different rows: the new snapshot is never
        # among those deleted, the reminder inserted here not among those cancelled.
        written = await self._c.fetchval(
            """
            WITH g AS (
                SELECT id FROM games WHERE id = $1 AND ($12::text IS NULL OR (
                    status = 'active' AND seq = $2 AND log_digest = $12
                    AND NOT EXISTS (SELECT 1 FROM choices WHERE game_id = $1 AND seq >= $2
                        AND undone_at IS NULL)
                    AND ($2 = 0 OR EXISTS (SELECT 1 FROM choices WHERE game_id = $1
                        AND seq = $2 - 1 AND undone_at IS NULL AND seat = $13
                        AND choice_id = $14 AND digest = $12))))
                FOR UPDATE
            ), choice AS (
                INSERT INTO choices (game_id, seq, seat, choice_id, applied_at, digest)
                SELECT $1, $2, $3, $4, $5, $6 FROM g
            ), snapshot AS (
                INSERT INTO snapshots (game_id, seq, state, digest, created_at)
                SELECT $1, $2 + 1, $7, $8, $5 FROM g
                ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state,
                    digest = excluded.digest, created_at = excluded.created_at
            ), dropped AS (
                DELETE FROM snapshots WHERE game_id = $1 AND EXISTS (SELECT 1 FROM g) AND (
                    ($9::boolean AND seq NOT IN (0, $2 + 1))
                    OR (NOT $9::boolean AND $10::boolean AND seq = $2))
            ), reminded AS (
                -- a move makes the game's pending reminders moot: gone, not kept (issue 29)
                DELETE FROM reminders
                WHERE game_id = $1 AND status = 'pending' AND EXISTS (SELECT 1 FROM g)
            ), reminder AS (
                INSERT INTO reminders (game_id, user_id, due_at, seq, attempt, created_at)
                SELECT $1, $15::bigint, $16::timestamptz, $2 + 1, 1 + (SELECT COUNT(*)
                    FROM reminders WHERE game_id = $1 AND user_id = $15::bigint
                    AND seq = $2 + 1 AND status = 'sent'), $5
                FROM g WHERE $15::bigint IS NOT NULL
            )
            UPDATE games SET seq = $2 + 1, log_digest = $6, to_move = $11, updated_at = $5,
                status = CASE WHEN $9::boolean THEN 'finished' ELSE 'active' END,
                finished_at = CASE WHEN $9::boolean THEN $5 END
            WHERE id IN (SELECT id FROM g)
            RETURNING id
            """,
            m.game_id,
            m.seq,
            m.seat,
            m.choice_id,
            m.at,
            m.digest,
            m.state,
            m.state_digest,
            m.over,
            m.drop_previous,
            m.to_move,
            end.digest,
            end.last_seat,
            end.last_choice,
            None if m.reminder is None else m.reminder[0],
            None if m.reminder is None else m.reminder[1],
        )
        return written is not None

    async def record_undo(self, u: UndoWrite) -> None:
        await self._c.execute(
            """
            WITH undone AS (
                UPDATE choices SET undone_at = $2 WHERE id = $3
            ), dropped AS (
                DELETE FROM snapshots WHERE game_id = $1 AND seq > $4
            ), reminded AS (
                DELETE FROM reminders WHERE game_id = $1 AND status = 'pending'
            ), game AS (
                UPDATE games SET seq = $4, log_digest = $5, to_move = $6, updated_at = $2,
                    status = CASE WHEN $9::boolean THEN 'finished' ELSE 'active' END,
                    finished_at = CASE WHEN $9::boolean THEN $2 END
                WHERE id = $1
            )
            INSERT INTO snapshots (game_id, seq, state, digest, created_at)
            VALUES ($1, $4, $7, $8, $2)
            ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state,
                digest = excluded.digest, created_at = excluded.created_at
            """,
            u.game_id,
            u.at,
            u.choice_row_id,
            u.seq,
            u.log_digest,
            u.to_move,
            u.state,
            u.state_digest,
            u.over,
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
        return int(
            await self._c.fetchval(
                "INSERT INTO messages (game_id, kind, channel_id, message_id, seq, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                game_id,
                kind,
                channel_id,
                message_id,
                seq,
                at,
            )
        )

    async def latest_message(self, game_id: int, kind: str) -> MessageRecord | None:
        r = await self._c.fetchrow(
            f"SELECT {_MSG_COLS} FROM messages WHERE game_id = $1 AND kind = $2"
            " ORDER BY id DESC LIMIT 1",
            game_id,
            kind,
        )
        return None if r is None else _message(r)

    async def messages(self, game_id: int, kind: str | None) -> list[MessageRecord]:
        rows = await self._c.fetch(
            f"SELECT {_MSG_COLS} FROM messages WHERE game_id = $1"
            " AND ($2::text IS NULL OR kind = $2) ORDER BY id",
            game_id,
            kind,
        )
        return [_message(r) for r in rows]

    # -- reminders and AI turns ------------------------------------------------------------

    async def put_shows(self, game_id: int, shows: Shows, at: datetime) -> None:
        await self._c.execute(
            "INSERT INTO thread_shows (game_id, message_id, seq, log_digest, player, updated_at)"
            " SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM games WHERE id = $1)"
            " ON CONFLICT (game_id) DO UPDATE SET message_id = EXCLUDED.message_id,"
            " seq = EXCLUDED.seq, log_digest = EXCLUDED.log_digest, player = EXCLUDED.player,"
            " updated_at = EXCLUDED.updated_at",
            game_id,
            shows.message_id,
            shows.seq,
            shows.log_digest,
            shows.player,
            at,
        )

    async def turn_reminders(self, game_id: int, user_id: int, seq: int) -> list[Reminder]:
        rows = await self._c.fetch(
            f"SELECT {_REM_COLS} FROM reminders WHERE game_id = $1 AND user_id = $2"
            " AND seq = $3 ORDER BY id",
            game_id,
            user_id,
            seq,
        )
        return [_reminder(r) for r in rows]

    async def pending_reminders(self, game_id: int) -> list[Reminder]:
        rows = await self._c.fetch(
            f"SELECT {_REM_COLS} FROM reminders WHERE game_id = $1 AND status = 'pending'"
            " ORDER BY id",
            game_id,
        )
        return [_reminder(r) for r in rows]

    async def cancel_reminders(self, game_id: int, user_id: int | None) -> int:
        status = await self._c.execute(
            # moot rows are deleted, not kept as 'cancelled': the table stays small (issue 29)
            "DELETE FROM reminders WHERE game_id = $1 AND status = 'pending'"
            " AND ($2::bigint IS NULL OR user_id = $2)",
            game_id,
            user_id,
        )
        return _count(status)

    async def insert_reminder(
        self, game_id: int, user_id: int, due_at: datetime, seq: int, at: datetime
    ) -> Reminder:
        r = await self._c.fetchrow(
            "INSERT INTO reminders (game_id, user_id, due_at, seq, attempt, created_at)"
            " VALUES ($1, $2, $3, $4, 1 + (SELECT COUNT(*) FROM reminders WHERE game_id = $1"
            " AND user_id = $2 AND seq = $4 AND status = 'sent'), $5)"
            f" RETURNING {_REM_COLS}",
            game_id,
            user_id,
            due_at,
            seq,
            at,
        )
        return _reminder(r)

    _DUE = (
        " FROM reminders r JOIN games g ON g.id = r.game_id"
        " LEFT JOIN user_settings u ON u.user_id = r.user_id"
        " WHERE r.status = 'pending' AND r.due_at <= $1 AND g.status = 'active'"
        " AND g.seq = r.seq AND COALESCE(u.reminders_enabled, TRUE)"
        " AND (r.claimed_until IS NULL OR r.claimed_until <= $1)"
    )

    async def due_reminders(self, now: datetime, limit: int) -> list[Reminder]:
        rows = await self._c.fetch(
            f"SELECT {_R_REM_COLS}{self._DUE} ORDER BY r.due_at, r.id LIMIT $2", now, limit
        )
        return [_reminder(r) for r in rows]

    async def claim_reminders(
        self, now: datetime, owner: str, until: datetime, limit: int, shards: Shards | None
    ) -> list[Reminder]:
        # SKIP LOCKED: rows another claimer is taking right now are left to it; a row it took
        # and committed meanwhile no longer passes the WHERE (rechecked on the newest version).
        rows = await self._c.fetch(
            f"UPDATE reminders SET claimed_by = $3, claimed_until = $4 WHERE id IN"
            f" (SELECT r.id{self._DUE}{in_shards_sql(shards)}"
            f" ORDER BY r.due_at, r.id LIMIT $2 FOR UPDATE OF r SKIP LOCKED)"
            f" RETURNING {_REM_COLS}",
            now,
            limit,
            owner,
            until,
        )
        return sorted((_reminder(r) for r in rows), key=lambda r: (r.due_at, r.id))

    async def release_reminder(self, reminder_id: int, owner: str) -> bool:
        status = await self._c.execute(
            "UPDATE reminders SET claimed_by = NULL, claimed_until = NULL"
            " WHERE id = $1 AND claimed_by = $2",
            reminder_id,
            owner,
        )
        return _count(status) > 0

    async def mark_reminder_sent(self, reminder_id: int, at: datetime, owner: str | None) -> bool:
        status = await self._c.execute(
            "UPDATE reminders SET status = 'sent', sent_at = $2, claimed_by = NULL,"
            " claimed_until = NULL WHERE id = $1 AND ($3::text IS NULL OR (status = 'pending'"
            " AND (claimed_by IS NULL OR claimed_by = $3)))",
            reminder_id,
            at,
            owner,
        )
        return _count(status) > 0

    async def reminders(self, game_id: int) -> list[Reminder]:
        rows = await self._c.fetch(
            f"SELECT {_REM_COLS} FROM reminders WHERE game_id = $1 ORDER BY id", game_id
        )
        return [_reminder(r) for r in rows]

    async def ai_claim(self, game_id: int) -> AiClaim | None:
        r = await self._c.fetchrow(
            "SELECT game_id, seq, owner, claimed_until FROM ai_turns WHERE game_id = $1", game_id
        )
        return None if r is None else AiClaim(r[0], r[1], r[2], r[3])

    async def put_ai_claim(self, claim: AiClaim) -> None:
        await self._c.execute(
            "INSERT INTO ai_turns (game_id, seq, owner, claimed_until) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, owner = excluded.owner,"
            " claimed_until = excluded.claimed_until",
            claim.game_id,
            claim.seq,
            claim.owner,
            claim.until,
        )

    async def delete_ai_claim(self, game_id: int, owner: str | None) -> bool:
        status = await self._c.execute(
            "DELETE FROM ai_turns WHERE game_id = $1 AND ($2::text IS NULL OR owner = $2)",
            game_id,
            owner,
        )
        return _count(status) > 0

    async def waiting_ai_games(self, now: datetime, limit: int) -> list[int]:
        rows = await self._c.fetch(
            "SELECT g.id FROM games g"
            " JOIN seats s ON s.game_id = g.id AND s.turn_index = g.to_move"
            " LEFT JOIN ai_turns a ON a.game_id = g.id"
            " WHERE g.status = 'active' AND s.is_ai"
            " AND (a.game_id IS NULL OR a.claimed_until <= $1 OR a.seq <> g.seq)"
            " ORDER BY g.id LIMIT $2",
            now,
            limit,
        )
        return [r[0] for r in rows]

    # -- votes and settings ----------------------------------------------------------------

    async def add_vote(self, game_id: int, seq: int, voter_id: int, at: datetime) -> None:
        await self._c.execute(
            "INSERT INTO standin_votes (game_id, seq, voter_id, voted_at) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT DO NOTHING",
            game_id,
            seq,
            voter_id,
            at,
        )

    async def votes(self, game_id: int, seq: int) -> list[int]:
        rows = await self._c.fetch(
            "SELECT voter_id FROM standin_votes WHERE game_id = $1 AND seq = $2"
            " ORDER BY voted_at, voter_id",
            game_id,
            seq,
        )
        return [int(r[0]) for r in rows]

    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        r = await self._c.fetchrow(
            f"SELECT {_GUILD_SETTINGS} FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return None if r is None else _guild_settings(guild_id, tuple(r))

    async def put_guild_settings(self, s: GuildSettings, at: datetime) -> None:
        await self._c.execute(
            f"INSERT INTO guild_settings (guild_id, {_GUILD_SETTINGS}, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (guild_id) DO UPDATE SET"
            f" {_set_excluded(_GUILD_SETTINGS)}, updated_at = excluded.updated_at",
            s.guild_id,
            *_guild_values(s),
            at,
        )

    async def user_settings(self, user_id: int) -> UserSettings | None:
        r = await self._c.fetchrow(
            f"SELECT {_USER_SETTINGS} FROM user_settings WHERE user_id = $1", user_id
        )
        return None if r is None else _user_settings(user_id, tuple(r))

    async def put_user_settings(self, s: UserSettings, at: datetime) -> None:
        enabled, *rest = _user_values(s)
        await self._c.execute(
            f"INSERT INTO user_settings (user_id, {_USER_SETTINGS}, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id) DO UPDATE SET"
            f" {_set_excluded(_USER_SETTINGS)}, updated_at = excluded.updated_at",
            s.user_id,
            bool(enabled),
            *rest,
            at,
        )

    # -- the bot's own facts and counts (operations) ------------------------------------------

    async def bot_value(self, name: str) -> str | None:
        value = await self._c.fetchval("SELECT value FROM bot_state WHERE name = $1", name)
        return None if value is None else str(value)

    async def put_bot_value(self, name: str, value: str, at: datetime) -> None:
        await self._c.execute(
            "INSERT INTO bot_state (name, value, updated_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (name) DO UPDATE SET value = excluded.value,"
            " updated_at = excluded.updated_at",
            name,
            value,
            at,
        )

    async def status_counts(self, guild_id: int | None) -> dict[str, int]:
        if guild_id is None:
            rows = await self._c.fetch("SELECT status, COUNT(*) FROM games GROUP BY status")
        else:
            rows = await self._c.fetch(
                "SELECT status, COUNT(*) FROM games WHERE guild_id = $1 GROUP BY status", guild_id
            )
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
        rows = await self._c.fetch(
            f"SELECT {_GAME_COLS}, archived_at FROM games"
            " WHERE ($1::bigint IS NULL OR guild_id = $1)"
            " AND ($2::text[] IS NULL OR status = ANY($2::text[]))"
            " AND ($3::timestamptz IS NULL OR updated_at < $3)"
            " AND ($5::bigint IS NULL OR id = $5)"
            " ORDER BY id DESC LIMIT $4",
            guild_id,
            statuses,
            updated_before,
            limit,
            game_id,
        )
        return [(_game_row(r), r["archived_at"]) for r in rows]

    async def archivable(self, finished_before: datetime, limit: int) -> list[int]:
        rows = await self._c.fetch(
            "SELECT id FROM games WHERE status = 'finished' AND archived_at IS NULL"
            " AND finished_at < $1 ORDER BY finished_at, id LIMIT $2",
            finished_before,
            limit,
        )
        return [int(r[0]) for r in rows]

    async def archive_game(self, game_id: int, keep_seq: int, at: datetime) -> dict[str, int]:
        status = await self._c.execute(
            "DELETE FROM snapshots WHERE game_id = $1 AND seq <> $2", game_id, keep_seq
        )
        gone = {"snapshots": _count(status)}
        for table in ARCHIVE_DROPS:
            status = await self._c.execute(f"DELETE FROM {table} WHERE game_id = $1", game_id)
            gone[table] = _count(status)
        await self._c.execute("UPDATE games SET archived_at = $2 WHERE id = $1", game_id, at)
        return gone

    # -- audit and copying -----------------------------------------------------------------

    async def integrity_problems(self) -> list[str]:
        # PostgreSQL checks types, constraints and foreign keys on every write; nothing to
        # scan here (pg_amcheck checks the files themselves).
        return []

    async def dump_game(self, game_id: int) -> GameDump:
        game = await self.game(game_id)
        assert game is not None
        c = self._c
        choices = [
            (_choice(r), r["digest"])
            for r in await c.fetch(
                f"SELECT {_CHOICE_COLS}, digest FROM choices WHERE game_id = $1 ORDER BY id",
                game_id,
            )
        ]
        snaps = [
            (SnapshotRow(r[0], r[1], r[2]), r[3])
            for r in await c.fetch(
                "SELECT seq, state, digest, created_at FROM snapshots WHERE game_id = $1"
                " ORDER BY seq",
                game_id,
            )
        ]
        rems = [
            (_reminder(r), r["created_at"])
            for r in await c.fetch(
                f"SELECT {_REM_COLS}, created_at FROM reminders WHERE game_id = $1 ORDER BY id",
                game_id,
            )
        ]
        votes = [
            (r[0], r[1], r[2])
            for r in await c.fetch(
                "SELECT seq, voter_id, voted_at FROM standin_votes WHERE game_id = $1", game_id
            )
        ]
        archived = await c.fetchval("SELECT archived_at FROM games WHERE id = $1", game_id)
        return GameDump(
            game, await self.seats(game_id), choices, snaps, await self.messages(game_id, None),
            rems, votes, archived,
        )  # fmt: skip

    async def load_game(self, dump: GameDump) -> None:
        g = dump.game
        c = self._c
        await c.execute(
            f"INSERT INTO games ({_GAME_COLS}) VALUES ({', '.join(f'${i}' for i in range(1, 20))})",
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
            g.created_at,
            g.updated_at,
            g.started_at,
            g.finished_at,
            g.seats_digest,
        )
        for s in dump.seats:
            await self.insert_seat(g.id, s)
        await c.executemany(
            f"INSERT INTO choices ({_CHOICE_COLS}, digest) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [
                (ch.id, g.id, ch.seq, ch.seat, ch.choice_id, ch.applied_at, ch.undone_at, digest)
                for ch, digest in dump.choices
            ],
        )
        await c.executemany(
            "INSERT INTO snapshots (game_id, seq, state, digest, created_at)"
            " VALUES ($1, $2, $3, $4, $5)",
            [(g.id, s.seq, s.state, s.digest, at) for s, at in dump.snapshots],
        )
        await c.executemany(
            f"INSERT INTO messages ({_MSG_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                (m.id, g.id, m.kind, m.channel_id, m.message_id, m.seq, m.created_at)
                for m in dump.messages
            ],
        )
        await c.executemany(
            f"INSERT INTO reminders ({_REM_COLS}, created_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            [
                (r.id, g.id, r.user_id, r.due_at, r.seq, r.attempt, r.status, r.sent_at, at)
                for r, at in dump.reminders
            ],
        )
        await c.executemany(
            "INSERT INTO standin_votes (game_id, seq, voter_id, voted_at) VALUES ($1, $2, $3, $4)",
            [(g.id, seq, voter, at) for seq, voter, at in dump.votes],
        )
        if dump.archived_at is not None:
            await c.execute(
                "UPDATE games SET archived_at = $2 WHERE id = $1", g.id, dump.archived_at
            )

    async def reset_ids(self) -> None:
        """After rows were inserted with their ids: new rows continue after the highest."""
        for table in ("games", "choices", "messages", "reminders"):
            await self._c.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
            )

    async def dump_settings(self) -> SettingsDump:
        out = SettingsDump()
        for r in await self._c.fetch(
            f"SELECT guild_id, {_GUILD_SETTINGS}, updated_at FROM guild_settings"
        ):
            out.guilds.append((_guild_settings(r[0], tuple(r)[1:-1]), r[-1]))
        for r in await self._c.fetch(
            f"SELECT user_id, {_USER_SETTINGS}, updated_at FROM user_settings"
        ):
            out.users.append((_user_settings(r[0], tuple(r)[1:-1]), r[-1]))
        return out

    async def load_settings(self, dump: SettingsDump) -> None:
        for g, at in dump.guilds:
            await self.put_guild_settings(g, at)
        for u, at in dump.users:
            await self.put_user_settings(u, at)


# ---------------------------------------------------------------------------- rows


def _count(status: str) -> int:
    """Rows affected, from a command status such as 'UPDATE 3'."""
    return int(status.rsplit(" ", 1)[-1])


def _game_row(r: asyncpg.Record) -> GameRow:
    return GameRow(**{k: r[k] for k in r.keys() if k != "archived_at"})


def _seat(r: asyncpg.Record) -> SeatRecord:
    return SeatRecord(
        r["join_order"],
        r["user_id"],
        r["is_ai"],
        r["ai_policy"],
        r["name"],
        r["colour"],
        r["turn_index"],
    )


def _choice(r: asyncpg.Record) -> ChoiceRecord:
    return ChoiceRecord(
        r["id"], r["game_id"], r["seq"], r["seat"], r["choice_id"], r["applied_at"], r["undone_at"]
    )


def _message(r: asyncpg.Record) -> MessageRecord:
    return MessageRecord(
        r["id"],
        r["game_id"],
        r["kind"],
        r["channel_id"],
        r["message_id"],
        r["seq"],
        r["created_at"],
    )


def _reminder(r: asyncpg.Record) -> Reminder:
    return Reminder(
        r["id"],
        r["game_id"],
        r["user_id"],
        r["due_at"],
        r["seq"],
        r["attempt"],
        r["status"],
        r["sent_at"],
    )
