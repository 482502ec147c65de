"""Both store backends for the store tests: a fresh SQLite file or a fresh PostgreSQL database
per test, and raw SQL on either (to damage rows on purpose).

The PostgreSQL server is started once per test session (``store.pgtemp``) and deleted at the
end; each test gets its own database, copied from a migrated template over one connection kept
for the session (a ``psql`` process per CREATE and DROP cost about 10 CPU-seconds a suite
run). Where no PostgreSQL is
installed those tests skip, saying why; under CI (``CI=true``) that is a failure instead.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from store import Store
from store.config import is_postgres
from store.pgtemp import TempPostgres

BACKENDS = ["sqlite", "postgres"]
TEMPLATE = "ada_template"
_names = itertools.count(1)


def _in_thread(coro: Any) -> Any:
    """Run a coroutine on its own event loop in another thread (callable from sync code and
    from inside a running loop)."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = asyncio.run(coro)
        except BaseException as exc:
            out["error"] = exc

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out.get("value")


class _Admin:
    """One connection to the server's ``postgres`` database, kept for the session on an event
    loop of its own thread (callable from sync fixtures and from inside a test's loop)."""

    def __init__(self, url: str) -> None:
        import asyncpg

        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._conn = self._call(asyncpg.connect(url))

    def _call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=120)

    def execute(self, sql: str) -> None:
        self._call(self._conn.execute(sql))

    def close(self) -> None:
        try:
            self._call(self._conn.close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()


@pytest.fixture(scope="session")
def pg_admin(pg_server: TempPostgres) -> Iterator[_Admin]:
    admin = _Admin(pg_server.database_url("postgres"))
    yield admin
    admin.close()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[TempPostgres]:
    why = TempPostgres.available()
    if why:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"PostgreSQL is needed under CI but cannot start: {why}")
        pytest.skip(f"PostgreSQL tests skipped: {why}")
    server = TempPostgres.start()
    try:
        server.create_database(TEMPLATE)

        async def migrate() -> None:
            store = await Store.open(server.database_url(TEMPLATE))
            await store.close()

        _in_thread(migrate())
        yield server
    finally:
        server.stop()


def new_location(request: pytest.FixtureRequest, backend: str, tmp_path: Any) -> str:
    """A fresh, empty (migrated on open) database of the backend."""
    if backend == "sqlite":
        return str(tmp_path / f"game{next(_names)}.db")
    server: TempPostgres = request.getfixturevalue("pg_server")
    admin: _Admin = request.getfixturevalue("pg_admin")
    name = f"t{os.getpid()}_{next(_names)}"
    admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
    return server.database_url(name)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_location(request: pytest.FixtureRequest, backend: str, tmp_path: Any) -> Iterator[str]:
    location = new_location(request, backend, tmp_path)
    yield location
    if backend == "postgres":  # each copy of the template takes a few MB: drop it
        admin: _Admin = request.getfixturevalue("pg_admin")
        admin.execute(f'DROP DATABASE IF EXISTS "{location.rsplit("/", 1)[1]}" WITH (FORCE)')


@pytest.fixture
async def store(db_location: str) -> Any:
    s = await Store.open(db_location)
    yield s
    await s.close()


def _pg_sql(sql: str) -> str:
    n = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(n)}", sql)


def raw(location: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Run one statement with ``?`` placeholders on either backend, outside the store;
    returns the rows (if any)."""
    if is_postgres(location):
        import asyncpg

        async def run() -> list[tuple[Any, ...]]:
            conn = await asyncpg.connect(location)
            try:
                rows = await conn.fetch(_pg_sql(sql), *params)
                return [tuple(r) for r in rows]
            finally:
                await conn.close()

        return _in_thread(run())  # type: ignore[no-any-return]
    conn = sqlite3.connect(location)
    try:
        rows = conn.execute(sql, params).fetchall()
        conn.commit()
        return rows
    finally:
        conn.close()


def tamper(location: str, *statements: str, params: tuple[Any, ...] = ()) -> None:
    """Damage rows on purpose (``params`` for statements with ``?``)."""
    for sql in statements:
        raw(location, sql, *(params if "?" in sql else ()))


def drop_rewrite_trigger(location: str, name: str = "choices_no_rewrite") -> str:
    """SQL that lets choice rows be rewritten (to damage the log); ``choices_no_delete``: that
    lets them be deleted."""
    if is_postgres(location):
        return f"DROP TRIGGER {name} ON choices"
    return f"DROP TRIGGER {name}"
