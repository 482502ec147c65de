"""Running the store for months (issue 29): reminder rows that do not pile up, schema upgrades
that keep a way back, on both backends."""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from store_backends import raw

from store import SchemaUpgradeNeeded, Store
from store.migrate import load_migrations
from store.sqlite import migrate_sqlite
from store.testing import pick, started_game

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
LATEST = load_migrations("sqlite")[-1].version


class TestReminderRows:
    async def test_moves_do_not_pile_up_reminder_rows(self, store: Store, db_location: str):
        """Every move schedules the next person's reminder and makes the previous one moot:
        the moot rows go, so a long game keeps a handful of rows, not one per move."""
        gid, state = await started_game(store, now=T0)
        rng = random.Random(3)
        seq = 0
        for _ in range(60):
            seat, choice = pick(state, rng)
            state = await store.apply_choice(
                gid, seq, seat, choice, now=T0 + timedelta(minutes=seq), remind=True
            )
            seq += 1
        rows = raw(db_location, "SELECT status FROM reminders WHERE game_id = ?", gid)
        assert [r[0] for r in rows] == ["pending"]  # only the reminder still to come
        [due] = await store.due_reminders(T0 + timedelta(days=30))
        assert due.seq == seq

    async def test_sent_reminders_of_the_turn_still_count_for_backoff(self, store: Store):
        gid, _ = await started_game(store, now=T0)
        r1 = await store.schedule_reminder(gid, 1000, T0, 0, now=T0)
        await store.mark_reminder_sent(r1.id, now=T0)
        r2 = await store.schedule_reminder(gid, 1000, T0 + timedelta(hours=6), 0, now=T0)
        r3 = await store.schedule_reminder(gid, 1000, T0 + timedelta(hours=7), 0, now=T0)
        assert (r2.attempt, r3.attempt) == (2, 2)
        assert [r.status for r in await store.reminders(gid)] == ["sent", "pending"]

    async def test_cancelling_a_game_leaves_no_pending_rows(self, store: Store):
        gid, _ = await started_game(store, now=T0)
        await store.schedule_reminder(gid, 1000, T0, 0, now=T0)
        await store.cancel_game(gid)
        assert await store.reminders(gid) == []


async def old_sqlite(path: Path, version: int) -> None:
    """A SQLite file as an older bot left it (schema ``version``), with a game in it."""
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate_sqlite(conn, load_migrations("sqlite"), target=version)
    conn2 = sqlite3.connect(path)
    conn2.execute(
        "INSERT INTO games (guild_id, channel_id, creator_id, created_at, updated_at)"
        " VALUES (1, 2, 3, '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z')"
    )
    conn2.commit()
    conn2.close()


def version_of(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])
    finally:
        conn.close()


class TestUpgrades:
    async def test_an_upgrade_backs_the_file_up_first(self, tmp_path: Path):
        db = tmp_path / "bot.db"
        await old_sqlite(db, LATEST - 1)
        store = await Store.open(db)
        try:
            assert await store.schema_version() == LATEST
            backup = store.upgrade_backup
            assert backup is not None and backup.dest.parent == tmp_path
            assert store.upgraded_from == LATEST - 1
        finally:
            await store.close()
        # the copy is the old database as it was: the old bot can open it again
        assert version_of(backup.dest) == LATEST - 1
        assert sqlite3.connect(backup.dest).execute("SELECT COUNT(*) FROM games").fetchone() == (1,)

    async def test_a_new_or_current_database_is_not_copied(self, tmp_path: Path):
        db = tmp_path / "new.db"
        for _ in range(2):
            store = await Store.open(db)
            assert store.upgrade_backup is None and store.upgraded_from is None
            await store.close()
        assert sorted(p.name for p in tmp_path.iterdir() if ".bak" in p.name) == []

    async def test_refuse_leaves_an_old_database_untouched(self, tmp_path: Path):
        db = tmp_path / "bot.db"
        await old_sqlite(db, LATEST - 1)
        before = db.read_bytes()
        with pytest.raises(SchemaUpgradeNeeded, match="migrate"):
            await Store.open(db, upgrade="refuse")
        assert version_of(db) == LATEST - 1 and db.read_bytes() == before

    async def test_postgres_is_refused_without_a_backup(self, request: Any):
        server = request.getfixturevalue("pg_server")
        url = server.create_database(f"up{random.randrange(10**9)}")
        import asyncpg

        from store.postgres import migrate_postgres

        conn = await asyncpg.connect(url)
        try:
            await migrate_postgres(conn, load_migrations("postgres"), target=LATEST - 1)
        finally:
            await conn.close()
        store = await Store.open(url)  # holding nothing yet (or being set up): upgraded
        await store.close()
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
            await migrate_postgres(conn, load_migrations("postgres"), target=LATEST - 1)
        finally:
            await conn.close()
        raw(
            url,
            "INSERT INTO games (guild_id, channel_id, creator_id, created_at, updated_at)"
            " VALUES (1, 2, 3, now(), now())",
        )
        with pytest.raises(SchemaUpgradeNeeded, match="pg_dump"):
            await Store.open(url)
        assert raw(url, "SELECT MAX(version) FROM schema_version") == [(LATEST - 1,)]
        store = await Store.open(url, upgrade="apply")  # the operator made a copy
        try:
            assert await store.schema_version() == LATEST
        finally:
            await store.close()
