"""Benchmark: does the bot answer as fast with years of games as with a few (issue 34)?

    .venv/bin/python bench/bench_growth.py [--sizes 10,1000,10000] [--repeat 20] [--no-postgres]

Plays a few real games through the bot (simcord, SQLite, no images): two to their end and two
left in progress, one of each with the member "alice". Then, for each size N, builds a database
of N games by copying those (rows copied as they are, with new game ids: every copy replays as
its original does), one game in ten active (at least the two played), the rest finished, and
alice seated in every finished copy (her history grows with N; her open games do not). Every
active copy gets a real thread and turn message in the simulated Discord, as the bot had left
them. Printed per size:

- find_game: the game of a command used in the games channel, not in a thread (ms, median);
- autocomplete: ``/ada`` player option's suggestions there, as on every keystroke (ms, median);
- games_for_user: alice's open games (ms, median);
- reminder round: one round of the reminder loop with nothing due (ms, median);
- restart: a new bot process brought up on the database with its active games unchanged
  (seconds from the bot's start until it is idle) and the Discord message edits it made;
- memory: the process's resident memory after the restart, and the per-game entries held
  (the game service's locks, shown messages and AI tasks, and the store's game states);
- store calls per click: calls into the store while a member clicks a choice (12 clicks;
  the clicks that open a group of choices on the way are not counted).

Then the same database, copied row for row into PostgreSQL (a throwaway server started with
``store.pgtemp``, as the tests do; skipped, saying why, where PostgreSQL is not installed), is
measured the same way by a bot on ``DATABASE_URL``: one row per size and backend (its build
time is SQLite's plus the copy's).

Figures are wall-clock on this machine (Discord simulated, answering instantly).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from store.pgtemp import TempPostgres  # noqa: E402
from store.testing import StoreCalls  # noqa: E402
from store.timeutil import from_db  # noqa: E402

NAMES = ("alice", "bob", "carol", "dave")
OTHERS = 5_000_000_000  # user ids of the copies' other members (never a simcord id)


class Edits:
    """Counts the bot's message edits (PATCH of a message) by wrapping simcord's router."""

    def __init__(self) -> None:
        from simcord.http import router

        self.count = 0
        real = router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            if method == "PATCH" and re.search(r"/messages/\d+$", path):
                self.count += 1
            return real(backend, method, path, **kwargs)

        router.dispatch = dispatch


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def play_seed(table: Any, rng: random.Random) -> dict[str, list[int]]:
    """Two games to their end and two in progress; alice plays one of each."""
    finished, active = [], []
    for players in (("alice", "bob"), ("carol", "dave")):
        game = await table.new_game(players[0], players[1:])
        while (await table.store.load_state(game))[0].decision is not None:
            await table.move(game, lambda dec: rng.randrange(len(dec.choices)))
        finished.append(game)
    for players in (("alice", "bob"), ("carol", "dave")):
        game = await table.new_game(players[0], players[1:])
        for _ in range(40):
            await table.move(game, lambda dec: rng.randrange(len(dec.choices)))
        active.append(game)
    return {"finished": finished, "active": active}


def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def active_copies(seed: dict[str, list[int]], total: int) -> int:
    """How many active copies a database of ``total`` games gets (one game in ten active)."""
    return max(len(seed["active"]), total // 10) - len(seed["active"])


def grow(
    path: Path,
    seed: dict[str, list[int]],
    total: int,
    alice: int,
    threads: list[tuple[int, int]],
) -> list[int]:
    """Copy the seed games until the database holds ``total`` games, one in ten active, each
    active copy in one of ``threads`` (thread id, turn message id); returns their ids."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA synchronous = OFF")
    have = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    top = conn.execute("SELECT MAX(id) FROM games").fetchone()[0]
    plan = []
    for k in range(total - have):
        copy_active = k < len(threads)
        tmpl = (seed["active"] if copy_active else seed["finished"])[k % 2]
        plan.append((top + 1 + k, tmpl, k, int(copy_active)))
    conn.execute("CREATE TEMP TABLE plan (new_id INTEGER PRIMARY KEY, tmpl, k, active)")
    conn.executemany("INSERT INTO plan VALUES (?, ?, ?, ?)", plan)
    tables = [t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]

    def copy(table: str, key: str, remap: dict[str, str]) -> None:
        cols = [c for c in columns(conn, table) if not (c == "id" and table != "games")]
        exprs = [remap.get(c, f"t.{c}") for c in cols]
        conn.execute(
            f"INSERT INTO {table} ({', '.join(cols)}) SELECT {', '.join(exprs)}"
            f" FROM plan p JOIN {table} t ON t.{key} = p.tmpl"
        )

    # a copy's seats get other members: its seats digest (issue 33) is left to be recorded at
    # its first verification, as for a game from before that digest
    # and another member set it up (alice's and carol's daily limit counts only their own)
    games = {"id": "p.new_id", "thread_id": f"{OTHERS} + p.k", "creator_id": f"{OTHERS} + p.k * 8"}
    if "seats_digest" in columns(conn, "games"):
        games["seats_digest"] = "NULL"
    copy("games", "id", games)
    others = f"{OTHERS} + p.k * 8 + t.join_order"
    copy(
        "seats",
        "game_id",
        {
            "game_id": "p.new_id",
            # alice keeps her seat in finished copies: her history grows, her open games don't
            "user_id": f"CASE WHEN t.user_id = {alice} AND NOT p.active THEN t.user_id"
            f" WHEN t.user_id IS NULL THEN NULL ELSE {others} END",
        },
    )
    for table in ("choices", "snapshots", "messages", "reminders", "thread_shows"):
        if table in tables:
            copy(table, "game_id", {"game_id": "p.new_id"})
    active = [r[0] for r in conn.execute("SELECT new_id FROM plan WHERE active ORDER BY new_id")]
    has_shows = "thread_shows" in tables
    for game, (thread_id, message_id) in zip(active, threads, strict=True):
        conn.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game))
        conn.execute(
            "UPDATE messages SET channel_id = ?, message_id = ? WHERE id = (SELECT MAX(id)"
            " FROM messages WHERE game_id = ? AND kind = 'turn')",
            (thread_id, message_id, game),
        )
        if has_shows:
            conn.execute(
                "UPDATE thread_shows SET message_id = ? WHERE game_id = ?", (message_id, game)
            )
    conn.commit()
    conn.close()
    return active


async def to_postgres(path: Path, url: str) -> float:
    """Copy every row of the SQLite database at ``path`` into the empty PostgreSQL database at
    ``url`` (its schema made by the store), as they are: the same games, ids, threads and
    records, so both backends are measured on the same data. ``migrate-to-postgres`` would
    verify each game by replay, minutes at 10,000 games; a benchmark needs only the rows.
    Returns the seconds it took."""
    import asyncpg

    from store import Store

    t0 = time.perf_counter()
    await (await Store.open(url)).close()  # the schema
    conn = sqlite3.connect(path)
    tables = [
        t
        for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if t != "schema_version" and not t.startswith("sqlite_")
    ]
    tables.sort(key=lambda t: (t != "games", t))  # the games first: the others refer to them
    pg = await asyncpg.connect(url)
    try:
        for table in tables:
            types = {
                r["column_name"]: r["data_type"]
                for r in await pg.fetch(
                    "SELECT column_name, data_type FROM information_schema.columns"
                    " WHERE table_name = $1",
                    table,
                )
            }
            cols = [c for c in columns(conn, table) if c in types]
            convert = [_PG_VALUE.get(types[c], _same) for c in cols]
            rows = [
                tuple(None if v is None else f(v) for f, v in zip(convert, r, strict=True))
                for r in conn.execute(f"SELECT {', '.join(cols)} FROM {table}")
            ]
            if rows:
                await pg.copy_records_to_table(table, records=rows, columns=cols)
        for table in ("games", "choices", "messages", "reminders"):  # new rows after the copies
            await pg.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
            )
        await pg.execute("ANALYZE")
    finally:
        await pg.close()
        conn.close()
    return time.perf_counter() - t0


def _same(value: Any) -> Any:
    return value


_PG_VALUE = {"timestamp with time zone": from_db, "boolean": bool, "double precision": float}
"""How a SQLite value becomes the PostgreSQL column's (times are ISO text in SQLite)."""


async def make_threads(env: Any, channel_id: int, count: int) -> list[tuple[int, int]]:
    """Threads with a message from the bot, for the active copies (thread id, message id)."""
    import discord

    channel = env.bot.get_channel(channel_id)
    made = []
    for k in range(count):
        thread = await channel.create_thread(
            name=f"Ada's Dream copy {k}", type=discord.ChannelType.public_thread
        )
        made.append((thread.id, (await thread.send(f"copy {k}")).id))
    return made


async def restart(env: Any, bot: Any) -> float:
    """Seconds from starting ``bot`` until it is idle, its active games brought up to date
    (simcord gives a starting bot 5 s to settle: given more here, as a slow start needs, but
    less than the 300 s after which asyncpg's pool closes an idle connection: simcord would
    wait for that timer, as for any callback due before its deadline)."""
    real = env._settle_internal

    async def patient(*args: Any, **kwargs: Any) -> Any:
        kwargs["timeout"] = 240.0
        return await real(*args, **kwargs)

    env._settle_internal = patient
    try:
        t0 = time.perf_counter()
        await env.restart_bot(bot)
        await env.settle()
        return time.perf_counter() - t0
    finally:
        del env._settle_internal


async def timed(repeat: int, make: Any) -> float:
    """Median milliseconds of ``await make()`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        await make()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


async def measure(env: Any, table: Any, alice: int, repeat: int) -> dict[str, Any]:
    bot = env.bot
    info, reminders = bot.get_cog("Info"), bot.get_cog("Reminders")
    asked = SimpleNamespace(
        guild_id=table.guild.id,
        channel_id=table.channel.id,
        user=SimpleNamespace(id=alice),
        namespace=SimpleNamespace(game=None),
    )

    async def find() -> None:
        try:
            await info.find_game(asked, None)
        except Exception:  # "several games": the lookups were made all the same
            pass

    return {
        "find_game": await timed(repeat, find),
        "autocomplete": await timed(repeat, lambda: info.player_autocomplete(asked, "")),
        "games_for_user": await timed(repeat, lambda: bot.ada.store.games_for_user(alice)),
        "reminder round": await timed(repeat, reminders.send_due_reminders),
    }


class CountingClicker:
    """Store calls of each choice click (a click on a choice button or select, not the clicks
    that open a group or the private choices on the way)."""

    def __init__(self, env: Any, store: Any) -> None:
        from offline.driver import Clicker

        calls = StoreCalls(store)
        self.per_click: list[int] = []
        outer = self

        class Counting(Clicker):
            async def act(self, actor: Any, verb: str, target: Any, *a: Any, **kw: Any) -> Any:
                mark = len(calls.names)
                res = await super().act(actor, verb, target, *a, **kw)
                if kw.get("custom_id", "").startswith(("ada:c:", "ada:s:")):
                    outer.per_click.append(len(calls.since(mark)))
                return res

        self.clicker = Counting(env)


async def clicks(env: Any, table: Any, game: int, rng: random.Random, n: int) -> float:
    counting = CountingClicker(env, table.store)
    table.clicker = counting.clicker
    for _ in range(n):
        await table.move(game, lambda dec: rng.randrange(len(dec.choices)))
    return statistics.mean(counting.per_click)


async def main(args: argparse.Namespace) -> None:
    import simcord

    from bot import create_bot
    from offline.driver import Table

    sizes = [int(s) for s in args.sizes.split(",")]
    work = Path(tempfile.mkdtemp(prefix="ada-growth-"))
    seed_db = work / "seed.db"
    rng = random.Random(args.seed)

    def make(db: Path | str) -> Any:
        return create_bot(db, images=False, ai_delay=0, seed=args.seed, ai_workers=0)

    pg_server = None
    if args.postgres:
        why = TempPostgres.available()
        if why:
            print(f"(PostgreSQL skipped: {why})\n", file=sys.stderr)
        else:
            pg_server = TempPostgres.start(durable=True)

    print(
        f"Growth of the bot's costs with stored games (seed {args.seed}, median of {args.repeat})\n"
    )
    print(
        "| backend | games | active | build s | find_game ms | autocomplete ms | games_for_user ms | "
        "reminder round ms | restart s | restart edits | RSS MiB | held entries | "
        "store calls/click |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    bot = make(seed_db)
    try:
        async with simcord.run(bot, settle_timeout=240) as env:  # see restart()
            edits = Edits()
            table = Table(env, NAMES, guild="Growth")
            # a server of years: more games than the default cap of a server's open games
            await table.store.set_guild_settings(
                table.guild.id, max_games=1_000_000, max_new_games=100
            )
            t0 = time.perf_counter()
            seed = await play_seed(table, rng)
            played = time.perf_counter() - t0
            alice = table.alice.id
            await env.bot.close()
            print(f"(seed games played through the bot in {played:.0f} s)\n", file=sys.stderr)
            for size in sizes:
                db = work / f"growth-{size}.db"
                shutil.copy(seed_db, db)
                t0 = time.perf_counter()
                # the active copies' threads, made by the bot before the copies exist
                await restart(env, make(db))
                threads = await make_threads(env, table.channel.id, active_copies(seed, size))
                await env.bot.close()
                active = grow(db, seed, size, alice, threads)
                built = time.perf_counter() - t0
                runs: list[tuple[str, str | Path]] = [("SQLite", db)]
                if pg_server is not None:
                    runs.append(("PostgreSQL", ""))
                for backend, location in runs:
                    if backend == "PostgreSQL":  # the same rows, SQLite's bot closed
                        location = pg_server.create_database(f"growth_{size}")
                        copied = await to_postgres(db, location)
                        built += copied
                    # the restart: a new bot on a database whose active games are unchanged
                    edits.count = 0
                    took = await restart(env, make(location))
                    restart_edits = edits.count
                    service = env.bot.ada.games
                    held = len(service.shown) + len(service.locks) + len(service.ai_tasks)
                    held += len(env.bot.ada.store._verified._states)  # game states held
                    rss = rss_mib()
                    figures = await measure(env, table, alice, args.repeat)
                    fresh = await table.new_game("carol", ("dave",))  # (the seed's moved on)
                    per_click = await clicks(env, table, fresh, rng, 12)
                    print(
                        f"| {backend} | {size:,} | {len(active) + len(seed['active']):,} | "
                        f"{built:.0f} | {figures['find_game']:.2f} | "
                        f"{figures['autocomplete']:.2f} | {figures['games_for_user']:.2f} | "
                        f"{figures['reminder round']:.2f} | {took:.2f} | {restart_edits} | "
                        f"{rss:.0f} | {held} | {per_click:.2f} |",
                        flush=True,
                    )
                    await env.bot.close()
                if not args.keep:
                    for f in work.glob(f"growth-{size}.db*"):
                        f.unlink()
            await restart(env, make(seed_db))
    finally:
        await env.bot.close() if "env" in locals() else await bot.close()
        if pg_server is not None:
            pg_server.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10,1000")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    parser.add_argument(
        "--no-postgres",
        dest="postgres",
        action="store_false",
        help="SQLite only (else also PostgreSQL, where it is installed)",
    )
    asyncio.run(main(parser.parse_args()))
