"""``bot.py migrate-to-postgres`` then a start on the copy (issue 29): the copy holds everything a
running bot needs, so the first start on PostgreSQL edits no thread and syncs no command, and
the records (results, stats, ratings, time away) are those of the SQLite database."""

from __future__ import annotations

import asyncio
import random
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import bot
from bot import create_bot
from store import Store
from store.testing import play, started_game


def edits(env: Any) -> int:
    return sum(
        1 for r in env.http_requests if r.method == "PATCH" and re.search(r"/messages/\d+$", r.path)
    )


def syncs(env: Any) -> int:
    return sum(1 for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))


async def records(store: Store, guild_id: int, users: list[int], now: datetime) -> tuple:
    return (
        [await store.profile(guild_id, u) for u in users],
        await store.leaderboard(guild_id),
        [await store.history(guild_id, u) for u in users],
        [await store.away_until(u, now) for u in users],
    )


async def test_a_bot_started_on_the_copy_edits_no_thread_and_syncs_no_command(
    table: Any, db_path: Any, pg_server: Any
) -> None:
    env = table.env
    rng = random.Random(29)
    active = [await table.new_game("alice", ("bob",)), await table.new_game("carol", ("dave",))]
    for game in active:
        for _ in range(5):
            await table.move(game, lambda dec: rng.randrange(len(dec.choices)))
    lobby = await table.new_game("alice", ("bob",), start=False)
    cancelled = await table.new_game("carol", ("dave",))
    assert (await table.carol.slash(table.thread(cancelled), "ada cancel")).acknowledged
    now = datetime.now(UTC)
    await table.store.set_away(table.bob.id, now + timedelta(days=3))
    await table.store.set_hidden(table.dave.id, True)
    await env.bot.close()

    # a finished game with records, played in the same server while the bot was down
    source = await Store.open(db_path)
    try:
        finished, _ = await started_game(
            source, players=2, seed=3, guild_id=table.guild.id, first_user=table.alice.id
        )
        await play(source, finished, random.Random(3))
        statuses = {g.status for g in await source.list_games()}
        assert statuses == {"lobby", "active", "finished", "cancelled"}, statuses
        assert lobby in {g.id for g in await source.list_games(statuses=["lobby"])}
        users = [m.id for m in table.members.values()] + [table.alice.id + 1]
        before = await records(source, table.guild.id, users, now)
    finally:
        await source.close()
    assert before[1], "the finished game is rated"

    url = pg_server.create_database("bot_copy")
    assert await asyncio.to_thread(bot.main, ["migrate-to-postgres", str(db_path), url]) == 0

    requests_before, edits_before, syncs_before = len(env.http_requests), edits(env), syncs(env)
    on_pg = create_bot(
        url, images=False, ai_delay=0.0, reminder_interval=600.0, seed=7, ai_workers=0
    )
    try:
        await env.restart_bot(on_pg)
        await env.settle()
        assert syncs(env) == syncs_before  # the commands synced from SQLite are known
        assert edits(env) == edits_before  # every thread shows what the copy holds
        made = [f"{r.method} {r.path}" for r in env.http_requests[requests_before:]]
        assert not [m for m in made if not m.startswith("GET")], made
        assert await records(table.store, table.guild.id, users, now) == before
        seq = (await table.store.load_state(active[0]))[1]
        await table.move(active[0], lambda dec: 0)  # and play goes on in PostgreSQL
        assert (await table.store.load_state(active[0]))[1] == seq + 1
    finally:
        await on_pg.close()
