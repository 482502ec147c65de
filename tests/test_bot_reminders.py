"""Turn pings and reminders, on virtual time (simcord moves ``discord.utils.utcnow()``)."""

from __future__ import annotations

from typing import Any

import pytest
from simcord_settle import HOUR
from simcord_settle import advance as wait  # virtual time, in steps of 2 h

from offline.driver import pinged, texts


def dms(member: Any) -> list[str]:
    return [m.content for m in member.user.dm_channel.history()]


def thread_reminders(table: Any, game: int) -> list[str]:
    return [m.content for m in table.thread(game).history() if "Reminder" in (m.content or "")]


async def to_move(table: Any, game: int) -> tuple[Any, Any]:
    state, _ = await table.store.load_state(game)
    rec = await table.store.get_game(game)
    mover = table.by_id[rec.seat_at(state.decision.player).user_id]
    other = next(table.by_id[s.user_id] for s in rec.seats if s.user_id != mover.id)
    return mover, other


async def test_ping_then_dm_reminders_with_backoff(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    mover, other = await to_move(table, game)
    turn = await table.turn_message(game)
    assert mover.mention in texts(turn)  # the turn ping
    assert pinged(table.env, turn) == [mover.id]
    await wait(table.env, 11.5 * HOUR)
    assert dms(mover) == []
    await wait(table.env, 0.75 * HOUR)  # 12 h 15 min: the first reminder
    sent = dms(mover)
    assert len(sent) == 1 and "your turn" in sent[0] and f"/{turn.id}" in sent[0]
    assert dms(other) == []
    await wait(table.env, 6 * HOUR)  # backoff: nothing new yet
    assert len(dms(mover)) == 1
    await wait(table.env, 19 * HOUR)  # 24 h after the first: the second one
    assert len(dms(mover)) == 2 and "reminder 2" in dms(mover)[1]
    rems = await table.store.reminders(game)
    assert [r.status for r in rems].count("sent") == 2
    assert [r.status for r in rems].count("pending") == 1


async def test_a_move_resets_the_reminder(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    await wait(table.env, 10 * HOUR)
    first, _ = await to_move(table, game)
    for _ in range(40):  # play to the end of the first player's turn
        mover, _ = await to_move(table, game)
        if mover is not first:
            break
        await table.move(game, lambda d: 0)
    second = mover
    turn = await table.turn_message(game)
    assert second.mention in texts(turn)
    await wait(table.env, 4 * HOUR)  # 14 h after the start: the first player moved
    assert dms(first) == [] and dms(second) == []
    await wait(table.env, 8.5 * HOUR)
    assert dms(first) == [] and len(dms(second)) == 1


async def test_fallback_to_the_thread_when_dms_are_closed(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    mover, _ = await to_move(table, game)
    dm = mover.user.dm_channel
    table.env.inject_error(
        "POST",
        f"/channels/{dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await wait(table.env, 12.5 * HOUR)
    reminders = thread_reminders(table, game)
    assert len(reminders) == 1 and mover.mention in reminders[0]
    assert dms(mover) == []
    table.env.errors  # noqa: B018 - the refused DM was expected and handled


async def test_reminders_in_the_thread_by_choice_and_opt_out(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    mover, _ = await to_move(table, game)
    res = await mover.slash(table.channel, "ada reminders", enabled=True, via="thread")
    assert res.ephemeral and "on" in res.response.content
    await wait(table.env, 12.5 * HOUR)
    assert len(thread_reminders(table, game)) == 1 and dms(mover) == []
    res = await mover.slash(table.channel, "ada reminders", enabled=False)
    assert "off" in res.response.content
    await wait(table.env, 26 * HOUR)
    assert len(thread_reminders(table, game)) == 1
    assert all(r.status != "pending" for r in await table.store.reminders(game))


async def test_game_and_server_delays(table: Any) -> None:
    import discord

    # server settings are an admin command Discord hides from other members
    assert "ada-admin settings" not in table.bob.available_commands(table.channel)
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    assert "ada-admin settings" in admin.available_commands(table.channel)
    res = await admin.slash(table.channel, "ada-admin settings", reminder_hours=2)
    assert "2 h" in res.response.content
    g1 = await table.new_game("alice", ("bob",))  # the server's delay: 2 h
    g2 = await table.new_game("carol", ("dave",), reminder_hours=3)  # the game's own: 3 h
    m1, _ = await to_move(table, g1)
    m2, _ = await to_move(table, g2)
    await wait(table.env, 2.25 * HOUR)
    assert len(dms(m1)) == 1 and dms(m2) == []
    await wait(table.env, 1 * HOUR)
    assert len(dms(m1)) == 1 and len(dms(m2)) == 1


@pytest.mark.parametrize("bot_options", [{"reminder_interval": 300.0}])
async def test_catch_up_after_a_restart_sends_once(
    table: Any, make_bot: Any, bot_options: dict[str, Any]
) -> None:
    game = await table.new_game("alice", ("bob",))
    mover, _ = await to_move(table, game)
    await table.env.bot.close()  # the bot is down for two days
    await wait(table.env, 50 * HOUR)
    assert dms(mover) == []
    await table.env.restart_bot(make_bot(**bot_options))
    await wait(table.env, 60)
    assert len(dms(mover)) == 1  # once, not once per missed period
    await wait(table.env, HOUR)
    assert len(dms(mover)) == 1
    # and a second restart does not send it again
    await table.env.bot.close()
    await table.env.restart_bot(make_bot(**bot_options))
    await wait(table.env, 60)
    assert len(dms(mover)) == 1
    pending = [r for r in await table.store.reminders(game) if r.status == "pending"]
    assert len(pending) == 1 and pending[0].attempt == 2


async def test_a_player_who_left_gets_no_reminders(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    mover, _ = await to_move(table, game)
    table.guild.remove_member(mover)
    await wait(table.env, 12.5 * HOUR)
    assert dms(mover) == []
    notes = [m.content for m in table.thread(game).history() if "has left" in (m.content or "")]
    assert len(notes) == 1 and "/ada cancel" in notes[0]
    await wait(table.env, 14 * HOUR)
    assert len([m for m in table.thread(game).history() if "has left" in (m.content or "")]) == 1


async def test_a_shard_process_leaves_another_shards_reminders_alone(make_bot: Any) -> None:
    """A process running shards 2 and 3 of 4 never claims the reminder of a game in shard 0,
    even when by its own clock another process's claim on it ran out (clocks of machines differ;
    the two-process shard test once saw such a reminder taken mid-send and DM'd twice)."""
    import simcord

    from store.testing import started_game

    async with simcord.run(make_bot(shard_count=4, shard_ids=[2, 3])) as env:
        store, games = env.bot.ada.store, env.bot.ada.games
        game, _ = await started_game(store, guild_id=(0 << 22) + 5)  # shard 0: another's
        now = games.now()
        rem = await store.schedule_reminder(game, 1000, now, 0, now=now)
        assert [
            r.id for r in await store.claim_due_reminders(now, "other", shards=(4, (0, 1)))
        ] == [rem.id]
        await wait(env, 2 * HOUR)  # reminder rounds run; the other's lease ran out long ago
        assert await env.bot.get_cog("Reminders").send_due_reminders() == 0
        assert await store.release_reminder(rem.id, "other")  # still the other's claim
        await env.bot.close()
