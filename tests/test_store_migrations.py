"""Migrations: from empty, from each earlier version, idempotent, too-new refused."""

from __future__ import annotations

import shutil
import sqlite3

import aiosqlite
import pytest

from store import MigrationError, SchemaTooNew, Store
from store.migrate import (
    MIGRATIONS_DIR,
    current_version,
    load_migrations,
    migrate,
    split_statements,
)

MIGRATIONS = load_migrations()
LATEST = MIGRATIONS[-1].version


def schema(path) -> dict[str, str]:
    """Every table/index/trigger definition, by name (what the schema *is*)."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name != 'schema_version'"
        ).fetchall()
    finally:
        conn.close()
    return dict(rows)


async def raw(path) -> aiosqlite.Connection:
    return await aiosqlite.connect(path, isolation_level=None)


class TestMigrationFiles:
    def test_numbered_without_gaps(self):
        assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
        assert LATEST >= 2

    def test_bad_name_or_gap_refused(self, tmp_path):
        (tmp_path / "0001_a.sql").write_text("CREATE TABLE a (x);")
        (tmp_path / "0003_c.sql").write_text("CREATE TABLE c (x);")
        with pytest.raises(MigrationError, match="gaps"):
            load_migrations(tmp_path)
        (tmp_path / "0003_c.sql").unlink()
        (tmp_path / "two.sql").write_text("")
        with pytest.raises(MigrationError, match="name"):
            load_migrations(tmp_path)

    def test_split_statements_handles_triggers_strings_and_comments(self):
        sql = """
        -- a comment; with a semicolon
        CREATE TABLE t (x TEXT DEFAULT 'a;b');
        CREATE TRIGGER tr BEFORE DELETE ON t BEGIN SELECT RAISE(ABORT, 'no;'); END;
        """
        stmts = split_statements(sql)
        assert len(stmts) == 2 and stmts[1].rstrip().endswith("END;")


class TestMigrate:
    async def test_from_empty(self, tmp_path):
        s = await Store.open(tmp_path / "a.db")
        assert await s.schema_version() == LATEST
        await s.close()
        conn = sqlite3.connect(tmp_path / "a.db")
        rows = conn.execute("SELECT version, name FROM schema_version ORDER BY version").fetchall()
        conn.close()
        assert rows == [(m.version, m.name) for m in MIGRATIONS]

    async def test_idempotent(self, tmp_path):
        path = tmp_path / "a.db"
        for _ in range(3):
            s = await Store.open(path)
            await s.close()
        db = await raw(path)
        try:
            assert await migrate(db) == []
            assert await current_version(db) == LATEST
        finally:
            await db.close()

    @pytest.mark.parametrize("start", range(0, LATEST))
    async def test_from_each_earlier_version(self, tmp_path, start):
        fresh = tmp_path / "fresh.db"
        s = await Store.open(fresh)
        await s.close()
        old = tmp_path / "old.db"
        db = await raw(old)
        try:
            assert await migrate(db, MIGRATIONS, target=start) == list(range(1, start + 1))
            assert await current_version(db) == start
            if start >= 1:  # data written by the old version must survive
                await db.execute(
                    "INSERT INTO games (guild_id, channel_id, creator_id, created_at, updated_at)"
                    " VALUES (1, 2, 3, '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z')"
                )
        finally:
            await db.close()
        s = await Store.open(old)
        try:
            assert await s.schema_version() == LATEST
            if start >= 1:
                rec = await s.get_game(1)
                assert (rec.guild_id, rec.channel_id, rec.status) == (1, 2, "lobby")
        finally:
            await s.close()
        assert schema(old) == schema(fresh)

    async def test_database_newer_than_code_is_refused_untouched(self, tmp_path):
        path = tmp_path / "a.db"
        s = await Store.open(path)
        await s.close()
        conn = sqlite3.connect(path)
        conn.execute(
            "INSERT INTO schema_version VALUES (?, 'future', 'x', '2030-01-01T00:00:00.000000Z')",
            (LATEST + 1,),
        )
        conn.commit()
        conn.close()
        before = schema(path)
        with pytest.raises(SchemaTooNew, match=rf"version {LATEST + 1}.*newer bot"):
            await Store.open(path)
        assert schema(path) == before

    async def test_failed_migration_rolls_back_alone(self, tmp_path):
        mdir = tmp_path / "migrations"
        shutil.copytree(MIGRATIONS_DIR, mdir)
        bad = LATEST + 1
        (mdir / f"{bad:04d}_bad.sql").write_text(
            "CREATE TABLE half_done (x);\nINSERT INTO no_such_table VALUES (1);\n"
        )
        path = tmp_path / "a.db"
        with pytest.raises(MigrationError, match="bad"):
            await Store.open(path, migrations_dir=mdir)
        # The earlier migrations were each committed; the failed one left nothing.
        s = await Store.open(path)
        try:
            assert await s.schema_version() == LATEST
        finally:
            await s.close()
        assert "half_done" not in schema(path)

    async def test_two_openers_at_once(self, tmp_path):
        import asyncio

        path = tmp_path / "a.db"
        stores = await asyncio.gather(*(Store.open(path) for _ in range(4)))
        try:
            assert {await s.schema_version() for s in stores} == {LATEST}
        finally:
            for s in stores:
                await s.close()
        conn = sqlite3.connect(path)
        assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == LATEST
        conn.close()
