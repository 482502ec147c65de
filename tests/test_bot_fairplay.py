"""Fair play and honest answers (issue 19): what a hostile member, a careless admin or a flaky
host could do, and how the bot answers. Each case was a hole before its fix."""

from __future__ import annotations

import inspect
import sqlite3
from typing import Any

import discord

from cogs import ui
from offline.driver import custom_ids, decision_shown, pinged, texts
from tests.test_bot_errors import consistent, private_text, who_moves
from tests.test_bot_reminders import HOUR, wait


class TestHonestAnswers:
    async def test_a_move_saved_before_a_failure_is_reported_as_counted(
        self, table: Any, monkeypatch: Any
    ) -> None:
        game = await table.new_game("alice", ("bob",))
        _, seq = await table.store.load_state(game)
        games = table.env.bot.ada.games
        real = games.publish_turn
        calls = {"n": 0}

        async def locked(*args: Any, **kwargs: Any) -> Any:
            calls["n"] += 1
            if calls["n"] == 1:  # updating the thread fails once, after the move's commit
                raise sqlite3.OperationalError("database is locked")
            return await real(*args, **kwargs)

        monkeypatch.setattr(games, "publish_turn", locked)
        res = await table.move(game, lambda d: 0)
        text = private_text(res)
        assert "counted" in text and "nothing was changed" not in text
        assert (await table.store.load_state(game))[1] == seq + 1
        stale = await table.turn_message(game)
        assert decision_shown(stale, game) == seq  # the thread could not show the move
        # the next event (here a click on the stale message) repairs the thread
        mover, _other, _state, _seq = await who_moves(table, game)
        res = await mover.click(stale, custom_id=next(i for i in custom_ids(stale) if ":c:" in i))
        assert "out of date" in private_text(res)
        assert decision_shown(await table.turn_message(game), game) == seq + 1
        await table.move(game, lambda d: 0)  # and play goes on from it
        state, now = await table.store.load_state(game)
        assert decision_shown(await table.turn_message(game), game) == now == seq + 2
        await consistent(table, game)

    async def test_a_broken_game_says_so_in_its_own_thread(self, table: Any) -> None:
        game = await table.new_game("alice", ("bob",))
        mover, _other, _state, seq = await who_moves(table, game)
        msg = await table.turn_message(game)
        await table.store.mark_broken(game, "a test damaged it")
        res = await mover.slash(table.thread(game), "ada hand")
        assert "damaged" in private_text(res)
        first = next(i for i in custom_ids(msg) if i.startswith(("ada:c:", "ada:g:")))
        res = await mover.click(msg, custom_id=first)
        assert "damaged" in private_text(res)
        assert "can't tell" not in private_text(res)


class TestFairPlay:
    async def test_refresh_is_for_players_rarely_and_without_a_new_ping(self, table: Any) -> None:
        game = await table.new_game("alice", ("bob",))
        thread = table.thread(game)
        res = await table.carol.slash(thread, "ada refresh")
        assert "Only the players" in private_text(res)
        res = await table.bob.slash(thread, "ada refresh")
        assert "Posted" in private_text(res)
        again = await table.turn_message(game)
        assert pinged(table.env, again) == []  # a re-post is not a new ping
        res = await table.alice.slash(thread, "ada refresh")
        assert "posted again" in private_text(res)
        assert (await table.turn_message(game)).id == again.id
        await wait(table.env, 6 * 60)
        res = await table.alice.slash(thread, "ada refresh")
        assert "Posted" in private_text(res)
        # only one message with controls in the thread at any time
        assert len([m for m in thread.history() if custom_ids(m)]) == 1

    async def test_refresh_pings_when_a_reminder_is_due(self, table: Any, monkeypatch: Any) -> None:
        game = await table.new_game("alice", ("bob",))
        mover, other, _state, _seq = await who_moves(table, game)
        cog = table.env.bot.get_cog("Reminders")
        monkeypatch.setattr(cog.reminder_loop, "is_running", lambda: False)
        cog.reminder_loop.cancel()  # the reminder falls due but is not sent yet
        await wait(table.env, 13 * HOUR)
        res = await other.slash(table.thread(game), "ada refresh")
        assert "Posted" in private_text(res)
        assert pinged(table.env, await table.turn_message(game)) == [mover.id]

    async def test_buttons_act_only_in_their_games_place(self, table: Any) -> None:
        game = await table.new_game("alice", ("bob",))
        other_guild = table.env.create_guild("Elsewhere")
        elsewhere = other_guild.create_text_channel("general")
        intruder = other_guild.add_member(table.env.create_user("mallory"))
        alice_there = other_guild.add_member(table.alice.user)
        channel = table.env.bot.get_channel(elsewhere.id)
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="hand", custom_id=ui.cid_hand(game)))
        view.add_item(discord.ui.Button(label="start", custom_id=ui.cid_lobby("cancel", game)))
        view.stop()
        await channel.send("copied buttons", view=view)
        msg = elsewhere.last_message
        for who in (intruder, alice_there):
            res = await who.click(msg, custom_id=ui.cid_hand(game))
            assert "another place" in private_text(res)
        res = await alice_there.click(msg, custom_id=ui.cid_lobby("cancel", game))
        assert "another place" in private_text(res)
        assert (await table.store.get_game(game)).status == "active"

    async def test_public_text_says_nothing_about_the_hand(self, table: Any) -> None:
        import random

        game = await table.new_game("alice", ("bob",))
        rng = random.Random(8)
        for _ in range(300):
            state, _seq = await table.store.load_state(game)
            if state.decision.kind == "partner_play":
                break
            await table.move(game, lambda d: rng.randrange(len(d.choices)))
        else:
            raise AssertionError("no Partner card decision")
        public = texts(await table.turn_message(game))
        assert "Partner card" not in public and "active die" not in public
        assert "a decision about your hand" in public


class TestLimits:
    async def test_a_member_cannot_open_lobbies_without_end(self, table: Any) -> None:
        from cogs.lobby import MAX_OPEN_LOBBIES_PER_MEMBER

        results = [await table.alice.slash(table.channel, "ada new", players=2) for _ in range(8)]
        refused = [r for r in results if "before creating another" in texts(r.response)]
        games = await table.store.games_in_guild(table.guild.id)
        assert len(games) == MAX_OPEN_LOBBIES_PER_MEMBER
        assert len(refused) == 8 - MAX_OPEN_LOBBIES_PER_MEMBER
        assert len(table.channel.threads) == MAX_OPEN_LOBBIES_PER_MEMBER
        # another member still can
        res = await table.bob.slash(table.channel, "ada new", players=2)
        assert "is set up" in private_text(res)
        assert "created **Ada's Dream game" in texts(table.channel.last_message)

    async def test_a_server_has_a_cap(self, table: Any, monkeypatch: Any) -> None:
        # the module the bot runs: each bot loads its extensions afresh, so `from cogs import
        # lobby` may give an older copy (one imported before, e.g. by i18n.extract)
        lobby = inspect.getmodule(table.env.bot.get_cog("Lobby"))
        monkeypatch.setattr(lobby, "MAX_GAMES_PER_SERVER", 2)
        await table.alice.slash(table.channel, "ada new", players=2)
        await table.bob.slash(table.channel, "ada new", players=2)
        res = await table.carol.slash(table.channel, "ada new", players=2)
        assert "already has 2 games" in texts(res.response)


class TestServerSettings:
    async def test_admins_set_the_limits_and_the_edition(self, table: Any) -> None:
        admins = table.guild.create_role(
            "Admins", permissions=discord.Permissions(manage_guild=True)
        )
        admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
        res = await admin.slash(table.channel, "ada-admin settings", max_open_lobbies=1)
        assert "1 open lobby per member" in private_text(res)
        await table.alice.slash(table.channel, "ada new", players=2)
        res = await table.alice.slash(table.channel, "ada new", players=2)
        assert "You already have 1 game waiting for players" in texts(res.response)
        assert "start or cancel it before creating another" in texts(res.response)
        res = await admin.slash(table.channel, "ada-admin edition")
        assert "designed-1" in private_text(res) and "bot default" in private_text(res)
        res = await admin.slash(table.channel, "ada-admin edition", name="no-such-edition")
        assert "no-such-edition" in private_text(res)  # refused, saying which
        assert (await table.store.guild_settings(table.guild.id)).edition is None
        res = await admin.slash(table.channel, "ada-admin edition", name="designed-1")
        assert "kept for this server" in private_text(res)
