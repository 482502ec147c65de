"""``bot.py migrate-to-postgres SQLITE_PATH DATABASE_URL``: every game copied, each verified by
replay, and play goes on in PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import pytest
from store_backends import tamper

import bot
from store import GameBroken, Store
from store.cli import main
from store.testing import pick, play, started_game

T0 = datetime(2026, 2, 1, tzinfo=UTC)


async def sqlite_with_every_kind_of_game(path) -> dict[str, int]:
    store = await Store.open(path)
    try:
        finished, _ = await started_game(store, seed=1, channel_id=1)
        await play(store, finished, random.Random(1))
        assert (await store.prune_finished(timedelta(0))).games == [finished]  # archived
        mid, state = await started_game(store, seed=2, channel_id=2)
        state = await play(store, mid, random.Random(2), 40)
        # an undone move keeps its row
        for _ in range(60):
            seat, choice = pick(state, random.Random(len(state.history)))
            state = await store.apply_choice(mid, len(state.history), seat, choice)
            n = len(state.history)
            if n - 1 >= state.undo_floor and state.current_player == seat:
                state = await store.undo(mid, n, seat)
                break
        await store.record_message(mid, "turn", 2, 555, len(state.history), now=T0)
        await store.schedule_reminder(mid, 1000, T0 + timedelta(hours=1), len(state.history))
        await store.add_standin_vote(mid, len(state.history), 1001, now=T0)
        lobby = await store.create_game(1, 3, 7, {"players": 2})
        await store.add_seat(lobby, name="x", user_id=7)
        cancelled, _ = await started_game(store, seed=4, channel_id=4)
        await store.cancel_game(cancelled)
        broken, _ = await started_game(store, seed=5, channel_id=5)
        await play(store, broken, random.Random(5), 5)
        await store.set_guild_settings(1, reminder_hours=3, ping_mode="channel")
        await store.set_user_settings(1000, reminders_enabled=False)
        await store.set_bot_value("command_hash:1:global", "abc")
    finally:
        await store.close()
    tamper(str(path), f"UPDATE snapshots SET state = 'junk' WHERE game_id = {broken}")
    store = await Store.open(path)
    try:
        with pytest.raises(GameBroken):
            await store.load_state(broken)
    finally:
        await store.close()
    return {
        "finished": finished,
        "mid": mid,
        "lobby": lobby,
        "cancelled": cancelled,
        "broken": broken,
    }


async def everything(store: Store, gid: int) -> tuple:
    rec = await store.get_game(gid)
    state = None
    if rec.status not in ("lobby", "broken"):
        state = (await store.load_state(gid))[0].digest()
    return (
        rec,
        state,
        await store.choices(gid, include_undone=True),
        await store.messages(gid),
        await store.reminders(gid),
        (await store.list_games(game_id=gid))[0].archived_at,
    )


async def test_every_game_is_copied_and_verified(tmp_path, pg_server, capsys):
    path = tmp_path / "old.db"
    games = await sqlite_with_every_kind_of_game(path)
    url = pg_server.create_database("copied")
    code = await asyncio.to_thread(bot.main, ["migrate-to-postgres", str(path), url])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Copied 5 game(s), 1 server and 1 user setting(s)" in out
    assert "every copy verified by replay" in out
    assert f"game {games['broken']}: 5 move(s) copied, replays copied as it was" in out
    source, target = await Store.open(path), await Store.open(url)
    try:
        for gid in games.values():
            assert await everything(source, gid) == await everything(target, gid), gid
        assert await target.guild_settings(1) == await source.guild_settings(1)
        assert await target.user_settings(1000) == await source.user_settings(1000)
        # what the bot remembers: the synced commands, and who has which open game (seats.open)
        assert await target.bot_value("command_hash:1:global") == "abc"
        for user in (7, 1000, 1001, 1002):
            assert await target.games_for_user(user) == await source.games_for_user(user)
        # play goes on in PostgreSQL, and new rows get new ids
        state, seq = await target.load_state(games["mid"])
        seat, choice = pick(state, random.Random(0))
        await target.apply_choice(games["mid"], seq, seat, choice)
        assert await target.create_game(1, 9, 9) == max(games.values()) + 1
    finally:
        await source.close()
        await target.close()


async def test_refuses_a_target_that_has_games(tmp_path, pg_server, capsys):
    path = tmp_path / "old.db"
    store = await Store.open(path)
    await started_game(store)
    await store.close()
    url = pg_server.create_database("not_empty", template="ada_template")
    target = await Store.open(url)
    await target.create_game(1, 2, 3)
    await target.close()
    assert await asyncio.to_thread(main, ["migrate-to-postgres", str(path), url]) == 2
    assert "already has games" in capsys.readouterr().err
    assert await asyncio.to_thread(main, ["migrate-to-postgres", str(tmp_path / "no.db"), url]) == 2
    assert "No database" in capsys.readouterr().err
