"""Migrations, in both dialects: from empty, from each earlier version, idempotent, too-new
refused, a failed one rolled back alone, several openers at once."""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
from typing import Any

import aiosqlite
import pytest
from store_backends import raw

from store import MigrationError, SchemaTooNew, Store
from store.migrate import DIALECTS, directory, load_migrations, split_statements
from store.sqlite import current_version, migrate_sqlite
from store.testing import play, started_game

MIGRATIONS = load_migrations("sqlite")
LATEST = MIGRATIONS[-1].version
CREATED = "2026-01-01T00:00:00.000000Z"


def schema(location: str) -> list[tuple[Any, ...]]:
    """Every table, column, index, trigger and constraint (what the schema *is*)."""
    if location.startswith("postgresql:"):
        return (
            raw(
                location,
                "SELECT table_name, column_name, data_type, is_nullable, column_default"
                " FROM information_schema.columns WHERE table_schema = 'public'"
                " AND table_name <> 'schema_version' ORDER BY 1, 2",
            )
            + raw(location, "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'"
                  " AND tablename <> 'schema_version' ORDER BY 1")
            + raw(location, "SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger"
                  " WHERE NOT tgisinternal ORDER BY 1")
            + raw(location, "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
                  " WHERE connamespace = 'public'::regnamespace ORDER BY 1")
            + raw(location, "SELECT proname, prosrc FROM pg_proc"
                  " WHERE pronamespace = 'public'::regnamespace ORDER BY 1")
        )  # fmt: skip
    return raw(
        location,
        "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name != 'schema_version'"
        " ORDER BY name",
    )


@pytest.fixture
def empty_location(request, backend, tmp_path) -> str:
    """A database with nothing in it, not even migrated."""
    if backend == "sqlite":
        return str(tmp_path / "empty.db")
    server = request.getfixturevalue("pg_server")
    return server.create_database(f"m{random.randrange(10**9)}")


async def migrate_to(location: str, target: int) -> list[int]:
    """Bring an empty database to schema version ``target`` (as an older bot would have)."""
    if location.startswith("postgresql:"):
        import asyncpg

        from store.postgres import migrate_postgres

        conn = await asyncpg.connect(location)
        try:
            return await migrate_postgres(conn, load_migrations("postgres"), target=target)
        finally:
            await conn.close()
    async with aiosqlite.connect(location, isolation_level=None) as conn:
        return await migrate_sqlite(conn, MIGRATIONS, target=target)


class TestMigrationFiles:
    def test_numbered_without_gaps(self):
        assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
        assert LATEST >= 7

    def test_both_dialects_have_the_same_migrations(self):
        names = {d: [m.name for m in load_migrations(d)] for d in DIALECTS}
        assert names["sqlite"] == names["postgres"]
        assert directory("postgres") != directory("sqlite")

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
    async def test_from_empty(self, empty_location):
        s = await Store.open(empty_location)
        assert await s.schema_version() == LATEST
        await s.close()
        rows = raw(empty_location, "SELECT version, name FROM schema_version ORDER BY version")
        assert rows == [(m.version, m.name) for m in MIGRATIONS]

    async def test_idempotent(self, empty_location):
        for _ in range(3):
            s = await Store.open(empty_location)
            await s.close()
        assert await migrate_to(empty_location, LATEST) == []
        assert raw(empty_location, "SELECT COUNT(*) FROM schema_version") == [(LATEST,)]

    @pytest.mark.parametrize("start", range(0, LATEST))
    async def test_from_each_earlier_version(self, request, backend, tmp_path, start):
        from store_backends import new_location

        fresh = new_location(request, backend, tmp_path)  # migrated by the template / on open
        s = await Store.open(fresh)
        await s.close()
        old = request.getfixturevalue("empty_location")
        assert await migrate_to(old, start) == list(range(1, start + 1))
        if start >= 1:  # data written by the old version must survive
            created = CREATED if backend == "sqlite" else "2026-01-01T00:00:00Z"
            raw(
                old,
                "INSERT INTO games (guild_id, channel_id, creator_id, created_at, updated_at)"
                f" VALUES (1, 2, 3, '{created}', '{created}')",
            )
        s = await Store.open(old, upgrade="apply")  # (the upgrade's backup: test_store_operator)
        try:
            assert await s.schema_version() == LATEST
            if start >= 1:
                rec = await s.get_game(1)
                assert (rec.guild_id, rec.channel_id, rec.status) == (1, 2, "lobby")
        finally:
            await s.close()
        assert schema(old) == schema(fresh)

    async def test_a_game_saved_at_version_5_plays_on(self, tmp_path):
        """A game as the bot before issue 19 wrote it (no digests) is verified on first load,
        gets its digests filled in, and plays on."""
        new = tmp_path / "new.db"
        store = await Store.open(new)
        gid, _ = await started_game(store, seed=9)
        state = await play(store, gid, random.Random(9), 30)
        await store.close()
        old = str(tmp_path / "old.db")
        await migrate_to(old, 5)
        conn = sqlite3.connect(old)
        conn.execute(f"ATTACH '{new}' AS new")
        games_v5 = ", ".join(c[1] for c in conn.execute("PRAGMA main.table_info(games)").fetchall())
        conn.execute(f"INSERT INTO games ({games_v5}) SELECT {games_v5} FROM new.games")
        for table in ("seats", "snapshots"):  # the columns version 5 had
            cols = ", ".join(c[1] for c in conn.execute(f"PRAGMA main.table_info({table})"))
            conn.execute(f"INSERT INTO {table} ({cols}) SELECT {cols} FROM new.{table}")
        cols = "id, game_id, seq, seat, choice_id, applied_at, undone_at"
        conn.execute(f"INSERT INTO choices ({cols}) SELECT {cols} FROM new.choices")
        conn.commit()
        conn.close()
        store = await Store.open(old)
        try:
            loaded, seq = await store.load_state(gid)
            assert seq == 30 and loaded.digest() == state.digest()
            await play(store, gid, random.Random(1), 5)
            assert (await store.verify_game(gid)).ok
        finally:
            await store.close()
        assert raw(
            old, f"SELECT COUNT(*) FROM choices WHERE game_id = {gid} AND digest IS NULL"
        ) == [(0,)]

    async def test_database_newer_than_code_is_refused_untouched(self, empty_location):
        s = await Store.open(empty_location)
        await s.close()
        raw(
            empty_location,
            "INSERT INTO schema_version VALUES (?, 'future', 'x', '2030-01-01T00:00:00.000000Z')",
            LATEST + 1,
        )
        before = schema(empty_location)
        with pytest.raises(SchemaTooNew, match=rf"version {LATEST + 1}.*newer bot"):
            await Store.open(empty_location)
        assert schema(empty_location) == before

    async def test_failed_migration_rolls_back_alone(self, empty_location, backend, tmp_path):
        mdir = tmp_path / "migrations"
        shutil.copytree(directory(backend), mdir)
        (mdir / f"{LATEST + 1:04d}_bad.sql").write_text(
            "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
        )
        with pytest.raises(MigrationError, match="bad"):
            await Store.open(empty_location, migrations_dir=mdir)
        # The earlier migrations were each committed; the failed one left nothing.
        s = await Store.open(empty_location)
        try:
            assert await s.schema_version() == LATEST
        finally:
            await s.close()
        assert "half_done" not in str(schema(empty_location))

    async def test_several_openers_at_once(self, empty_location):
        stores = await asyncio.gather(*(Store.open(empty_location) for _ in range(4)))
        try:
            assert {await s.schema_version() for s in stores} == {LATEST}
        finally:
            for s in stores:
                await s.close()
        assert raw(empty_location, "SELECT COUNT(*) FROM schema_version") == [(LATEST,)]


async def test_sqlite_version_helper_on_an_empty_file(tmp_path):
    async with aiosqlite.connect(tmp_path / "x.db") as conn:
        assert await current_version(conn) == 0
