"""The board inside Discord, on the bot's side (issue 32): the turn message's **Open board**
button (only when the Activity is set up) launches the Activity in one REST call, refusals as
for any game button; the command sync keeps the Entry Point command Discord creates with
Activities; reminders carry a link that opens the game. Through simcord, with the test-side
shims of tests/simcord_activity.py for what simcord does not know of Activities."""

from __future__ import annotations

from typing import Any

import pytest

from cogs import ui
from cogs.config import ActivitySettings
from offline.driver import custom_ids, texts
from tests.simcord_activity import PRIMARY_ENTRY_POINT, entry_point_commands, launch_activity

APP = "111222333444555666"
ACTIVITY = ActivitySettings(client_id=APP, client_secret="s", public_key="00" * 32, bot_token="t")


def private_texts(res: Any) -> str:
    parts = [res.response] if res.response is not None else []
    return "\n".join(texts(m) or m.content for m in parts + list(res.followups))


class TestWithoutTheActivity:
    async def test_no_open_board_button(self, table: Any) -> None:
        game = await table.new_game("alice", ("bob",))
        ids = custom_ids(await table.turn_message(game))
        assert ui.cid_board(game) in ids  # the picture button is there, as always
        assert ui.cid_open_board(game) not in ids


@pytest.mark.parametrize("bot_options", [{"activity": ACTIVITY}])
class TestOpenBoard:
    async def test_the_button_launches_the_activity_in_one_rest_call(
        self, table: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        launches = launch_activity(monkeypatch)
        game = await table.new_game("alice", ("bob",), language="es")
        message = await table.turn_message(game)
        assert ui.cid_open_board(game) in custom_ids(message)
        labels = [c.get("label") for c in _buttons(message)]
        assert "Abrir el tablero" in labels  # in the game's language
        before = len(table.env.http_requests)
        for who in (table.bob, table.dave):  # a player, and a member watching
            res = await who.click(message, custom_id=ui.cid_open_board(game))
            assert res.acknowledged and not res.ephemeral and not res.followups
        calls = table.env.http_requests[before:]
        assert [(r.method, r.path.split("/")[-1]) for r in calls] == [("POST", "callback")] * 2
        thread = table.thread(game)
        assert [(x["user"], x["channel"]) for x in launches.seen] == [
            (table.bob.id, thread.id),
            (table.dave.id, thread.id),
        ]
        # nothing posted or edited: the Activity opens instead
        now = table.message(thread, message.id)
        assert (custom_ids(now), texts(now)) == (custom_ids(message), texts(message))
        assert thread.last_message.id == message.id

    async def test_a_cancelled_game_is_refused_and_nothing_launched(
        self, table: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        launches = launch_activity(monkeypatch)
        game = await table.new_game("alice", ("bob",))
        message = await table.turn_message(game)
        await table.store.cancel_game(game)  # (behind the bot's back: the button is still there)
        res = await table.bob.click(message, custom_id=ui.cid_open_board(game))
        assert res.ephemeral and "cancelled" in private_texts(res)
        assert launches.seen == []

    async def test_discord_refusing_the_launch_is_said_clearly(
        self, table: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Activities not enabled in the Developer Portal: Discord refuses the callback."""
        launch_activity(monkeypatch)
        game = await table.new_game("alice", ("bob",))
        message = await table.turn_message(game)
        table.env.inject_error("POST", "/interactions/*/callback", status=400, times=1)
        res = await table.bob.click(message, custom_id=ui.cid_open_board(game))
        assert "Discord could not open the board here" in private_texts(res)


@pytest.mark.parametrize("bot_options", [{"activity": ACTIVITY}, {}], ids=["activity", "none"])
async def test_a_reminder_links_the_turn_and_with_the_activity_the_board(
    table: Any, bot_options: dict[str, Any]
) -> None:
    from tests.test_bot_reminders import HOUR, dms, to_move, wait

    game = await table.new_game("alice", ("bob",))
    mover, _ = await to_move(table, game)
    turn = await table.turn_message(game)
    await wait(table.env, 12.25 * HOUR)
    [sent] = dms(mover)
    assert f"/{turn.id}" in sent  # the turn message (in the game's thread)
    board = f"https://discord.com/activities/{APP}?custom_id=game-{game}"
    assert (board in sent) == bool(bot_options)


class TestAStaleButton:
    async def test_the_activity_switched_off_since(
        self, table: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        launches = launch_activity(monkeypatch)
        table.env.bot.ada.activity = ACTIVITY
        game = await table.new_game("alice", ("bob",))
        message = await table.turn_message(game)
        assert ui.cid_open_board(game) in custom_ids(message)
        table.env.bot.ada.activity = ActivitySettings()
        res = await table.bob.click(message, custom_id=ui.cid_open_board(game))
        assert "not set up on this bot" in private_texts(res)
        assert launches.seen == []


def _buttons(message: Any) -> list[dict[str, Any]]:
    from offline.driver import flat_components

    return [c for c in flat_components(message) if c.get("type") == 2]


class TestTheEntryPointCommand:
    async def test_a_global_sync_keeps_it(
        self, make_bot: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Without keeping it, Discord refuses the whole sync (50240): the shim says so."""
        import simcord

        bot = make_bot(force_sync=True)
        async with simcord.run(bot, strict_sync=False) as env:
            launch = entry_point_commands(monkeypatch, env.backend)
            before = len(env.http_requests)
            await bot.sync_commands()
            calls = [(r.method, r.params) for r in env.http_requests[before:]]
            assert calls == [("GET", {"with_localizations": "true"}), ("PUT", {})]
            stored = list(env.backend.commands[None].values())
            kinds = sorted((c["name"], c["type"]) for c in stored)
            assert ("launch", PRIMARY_ENTRY_POINT) in kinds and ("ada", 1) in kinds
            kept = env.backend.commands[None]["launch", PRIMARY_ENTRY_POINT]
            assert kept["id"] == launch["id"] and kept["handler"] == 2
            # and the shim does refuse a sync that drops it, as Discord does
            import discord

            with pytest.raises(discord.HTTPException) as refused:
                await bot.tree.sync()
            assert refused.value.code == 50240
            await bot.close()
