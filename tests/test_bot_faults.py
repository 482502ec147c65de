"""Fair play under faults and abuse, round 2 (issue 33): each test reproduces a finding of the
second review (it failed before its fix) and shows the fixed behaviour."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord

from cogs.text import clean_name, escape, unescape
from offline.driver import texts
from tests.test_bot_errors import private_text

# The review's nicknames: a masked link, a timestamp, a command and a channel mention, emphasis.
LINK = "[gift](https://x.co/nitro)"
MENTIONS = "<t:0:R> </ada new:1> <#1>"
EMPHASIS = "**b** __u__ ||s||"


class TestNames:
    def test_escape_shows_the_exact_examples_as_typed(self) -> None:
        assert escape(LINK) == r"\[gift\]\(https\://x.co/nitro\)"
        assert escape(MENTIONS) == r"\<t\:0\:R\> \</ada new\:1\> \<\#1\>"
        assert escape(EMPHASIS) == r"\*\*b\*\* \_\_u\_\_ \|\|s\|\|"
        for name in (LINK, MENTIONS, EMPHASIS, "a\\b", "Zoë 🦊"):
            assert unescape(escape(name)) == name
        assert escape("Zoë 🦊") == "Zoë 🦊"  # nothing to escape: unchanged

    def test_a_line_break_in_a_name_is_a_space(self) -> None:
        assert clean_name("Ann\nBob") == "Ann Bob"
        assert clean_name("Ann\r\n\tBob") == "Ann Bob"

    async def test_names_are_not_markdown_in_the_lobby_or_the_turn(self, table: Any) -> None:
        members = [
            table.guild.add_member(table.env.create_user(f"m{i}"), nick=nick)
            for i, nick in enumerate((LINK, MENTIONS, EMPHASIS))
        ]
        res = await members[0].slash(table.channel, "ada new", players=3)
        assert "is set up" in private_text(res)
        game = max(g.id for g in await table.store.games_in_channel(table.channel.id))
        lobby = await table.lobby_message(game)
        for m in members[1:]:
            await m.click(lobby, custom_id=f"ada:l:join:{game}")
        lobby = await table.lobby_message(game)
        shown = texts(lobby)
        for name in (LINK, MENTIONS, EMPHASIS):
            assert escape(name) in shown and name not in shown
        await members[0].click(lobby, custom_id=f"ada:l:start:{game}")
        headline = texts(await table.turn_message(game)).split("\n")[0]
        rec = await table.store.get_game(game)
        state, _ = await table.store.load_state(game)
        deciding = rec.seat_at(state.decision.player).name
        assert escape(deciding) in headline and deciding not in headline


class TestFlood:
    async def test_started_games_count_against_a_members_daily_limit(self, table: Any) -> None:
        """Issue 33: `/ada new players:2 ai:1` then Start left no lobby, so one member filled
        the server's cap in half a minute."""
        from cogs.lobby import MAX_NEW_GAMES_PER_MEMBER

        made = []
        for _ in range(MAX_NEW_GAMES_PER_MEMBER + 3):
            res = await table.alice.slash(table.channel, "ada new", players=2, ai=1)
            if "is set up" not in private_text(res):
                assert "in the last 24 hours" in private_text(res)
                continue
            game = max(g.id for g in await table.store.games_in_channel(table.channel.id))
            await table.alice.click(
                await table.lobby_message(game), custom_id=f"ada:l:start:{game}"
            )
            made.append(game)
        assert len(made) == MAX_NEW_GAMES_PER_MEMBER
        assert len(table.channel.threads) == MAX_NEW_GAMES_PER_MEMBER
        res = await table.bob.slash(table.channel, "ada new", players=2)  # others still can
        assert "is set up" in private_text(res)
        clock = table.env.bot.ada.clock  # a day later alice can again
        table.env.bot.ada.clock = lambda: clock() + timedelta(hours=25)
        res = await table.alice.slash(table.channel, "ada new", players=2)
        assert "is set up" in private_text(res)

    async def test_the_daily_limit_is_a_server_setting(self, table: Any, monkeypatch: Any) -> None:
        """Issue 33: a server's admins set how many games one member may set up in a day
        (1-100), beside the other limits; the answer shows it in the admin's language."""
        from cogs.lobby import MAX_NEW_GAMES_PER_MEMBER

        admin = server_admin(table)
        res = await admin.slash(table.channel, "ada-admin settings")
        assert f"{MAX_NEW_GAMES_PER_MEMBER} new games per member a day" in private_text(res)
        res = await admin.slash(table.channel, "ada-admin settings", max_new_games=2)
        assert "2 new games per member a day" in private_text(res)
        for _ in range(2):
            res = await table.alice.slash(table.channel, "ada new", players=2, ai=1)
            game = max(g.id for g in await table.store.games_in_channel(table.channel.id))
            await table.alice.click(
                await table.lobby_message(game), custom_id=f"ada:l:start:{game}"
            )
        res = await table.alice.slash(table.channel, "ada new", players=2)
        assert "in the last 24 hours" in private_text(res)
        assert len(await table.store.games_in_guild(table.guild.id)) == 2
        forge_options(monkeypatch)  # values Discord's client would not send
        for bad in (0, 101):
            res = await admin.slash(table.channel, "ada-admin settings", max_new_games=bad)
            assert "`max_new_games` must be between 1 and 100" in private_text(res)
        assert (await table.store.guild_settings(table.guild.id)).max_new_games == 2
        for language, said in (
            ("es", "2 partidas nuevas por miembro al día"),
            ("ja", "1日に2個まで"),
        ):
            await admin.slash(table.channel, "ada language", language=language)
            res = await admin.slash(table.channel, "ada-admin settings")
            assert said in private_text(res), language


def server_admin(table: Any) -> Any:
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user("admin"), roles=[admins])


def forge_options(monkeypatch: Any) -> None:
    """Let the members send option values Discord's client would not (a modified client or a
    raw API call): simcord then passes them on as they are."""
    from simcord import interactions

    monkeypatch.setattr(
        interactions, "check_options", lambda name, spec, provided, partial=False: dict(provided)
    )


class TestForgedOptions:
    async def test_values_beyond_the_declared_ranges_are_refused(
        self, table: Any, monkeypatch: Any
    ) -> None:
        forge_options(monkeypatch)
        for options, said in [
            ({"players": 50}, "`players` must be between 2 and 4"),
            ({"players": 2, "standin_hours": 0.0001}, "`standin_hours` must be between 1.0"),
            ({"players": 2, "reminder_hours": float("nan")}, "`reminder_hours` must be a number"),
            ({"players": 2, "ai": -1}, "`ai` must be between 0 and 3"),
            ({"players": 2, "language": "xx"}, "`language` must be one of: en, es, ja"),
        ]:
            res = await table.alice.slash(table.channel, "ada new", **options)
            assert said in private_text(res) and "Nothing was changed" in private_text(res)
        assert await table.store.games_in_guild(table.guild.id) == []
        assert table.channel.threads == []

    async def test_an_overflowing_game_number_gets_a_clear_answer(
        self, table: Any, monkeypatch: Any
    ) -> None:
        forge_options(monkeypatch)
        res = await table.alice.slash(table.channel, "ada board", game=2**70)
        assert "`game` must be between" in private_text(res)
        assert "went wrong" not in private_text(res)
        res = await table.alice.slash(table.channel, "ada board", game=2**40)  # within: no game
        assert "went wrong" not in private_text(res) and "#" in private_text(res)

    async def test_forged_choices_get_a_clear_answer(self, table: Any, monkeypatch: Any) -> None:
        game = await table.new_game("alice", ("bob",))
        state, seq = await table.store.load_state(game)
        rec = await table.store.get_game(game)
        mover = table.by_id[rec.seat_at(state.decision.player).user_id]
        thread = table.thread(game)
        for forged in (f"#{seq}:{10**30}", f"#{10**30}:0", "x" * 90, "#-1:0", "0", "🦊"):
            res = await mover.slash(thread, "ada play", choice=forged)
            assert res.ephemeral and "went wrong" not in private_text(res), forged
        assert (await table.store.load_state(game))[1] == seq  # nothing played


class TestBoundedCaches:
    def test_the_language_cache_holds_one_entry_per_language(self) -> None:
        import i18n

        for n in range(500):
            assert i18n.get(f"xx-{n}").code == "en"
            i18n.get(f"es-{n}")
        assert i18n._language.cache_info().currsize <= len(i18n.LANGUAGES)

    async def test_members_languages_are_kept_in_bounded_memory(
        self, table: Any, monkeypatch: Any
    ) -> None:
        games = table.env.bot.ada.games
        monkeypatch.setattr(games._languages, "limit", 50)  # LANGUAGES_KEPT, made small
        for user in range(200):
            await games.user_language(user)
        assert len(games._languages) <= 50


def notices(table: Any, game: int) -> list[str]:
    return [m.content for m in table.thread(game).history() if "is paused" in (m.content or "")]


class TestSetAside:
    async def test_a_damaged_game_is_announced_once_and_stops_reminding(self, table: Any) -> None:
        """Issue 33: a changed seats.user_id let a non-player read that seat's hand and play
        its turns; and players learned that a game was set aside only by acting."""
        import sqlite3

        from tests.test_bot_errors import who_moves

        game = await table.new_game("alice", ("bob",))
        mover, other, _state, _seq = await who_moves(table, game)
        assert [r for r in await table.store.reminders(game) if r.status == "pending"]
        with sqlite3.connect(table.env.bot.ada.db_path) as db:  # carol takes the other's seat
            db.execute(
                "UPDATE seats SET user_id = ? WHERE game_id = ? AND user_id = ?",
                (table.carol.id, game, other.id),
            )
        res = await table.carol.slash(table.thread(game), "ada hand")
        assert "damaged" in private_text(res) and "Partner" not in private_text(res)
        assert len(notices(table, game)) == 1 and "saved data is damaged" in notices(table, game)[0]
        for _ in range(2):  # acting on it again says so privately, and posts nothing more
            res = await mover.slash(table.thread(game), "ada hand")
            assert "damaged" in private_text(res)
        assert len(notices(table, game)) == 1
        assert not [r for r in await table.store.reminders(game) if r.status == "pending"]
        rec = await table.store.get_game(game)
        assert rec.status == "broken" and "seat rows" in (rec.broken_reason or "")

    async def test_a_choice_rewritten_mid_log_is_caught_at_the_next_click(self, table: Any) -> None:
        """Issue 33: a rewritten choice at seq 1, with the bot running, let three more moves be
        appended. Now the next click is refused, the game set aside and announced, nothing
        written (migration 15's guard marks the game; the move's own checks stay O(1))."""
        import sqlite3

        from tests.test_bot_errors import first_choice, press, who_moves

        game = await table.new_game("alice", ("bob",))
        for _ in range(3):
            await table.move(game, lambda d: 0)
        mover, _other, _state, seq = await who_moves(table, game)
        msg = await table.turn_message(game)
        with sqlite3.connect(table.env.bot.ada.db_path) as db:  # with the bot running
            db.execute("DROP TRIGGER choices_no_rewrite")
            db.execute(
                "UPDATE choices SET choice_id = 'ws:0:Y1:0' WHERE game_id = ? AND seq = 1", (game,)
            )
        res = await press(mover, msg, first_choice(msg))
        assert "damaged" in private_text(res)
        assert len(notices(table, game)) == 1
        rec = await table.store.get_game(game)
        assert rec.status == "broken" and rec.seq == seq
        assert len(await table.store.choices(game, include_undone=True)) == seq

    async def test_a_game_without_its_edition_is_announced_and_not_reminded(
        self, table: Any, tmp_path: Any
    ) -> None:
        import shutil

        from engine.edition import EDITIONS_DIR, EditionLibrary, library, use_library
        from tests.test_bot_reminders import HOUR, wait

        game = await table.new_game("alice", ("bob",))
        directory = tmp_path / "editions"
        shutil.copytree(EDITIONS_DIR, directory)
        edition = (await table.store.load_setup(game)).edition
        previous = library()
        (directory / f"{edition}.toml").unlink()
        table.store._verified.forget(game)  # as after a restart on a bot without that edition
        use_library(EditionLibrary(directory))
        try:
            await wait(table.env, 13 * HOUR)  # the first reminder would be due
            assert len(notices(table, game)) == 1 and "edition" in notices(table, game)[0]
            assert not [r for r in await table.store.reminders(game) if r.status == "pending"]
            assert not [r for r in await table.store.reminders(game) if r.status == "sent"]
            assert (await table.store.get_game(game)).status == "active"  # kept as it is
        finally:
            use_library(previous)

    async def test_a_game_set_aside_by_check_db_is_announced_when_next_used(
        self, table: Any
    ) -> None:
        import sqlite3

        from tests.test_bot_errors import who_moves

        game = await table.new_game("alice", ("bob",))
        mover, _other, _state, _seq = await who_moves(table, game)
        with sqlite3.connect(table.env.bot.ada.db_path) as db:  # check-db, with the bot running
            db.execute("UPDATE games SET status = 'broken' WHERE id = ?", (game,))
        for _ in range(2):
            res = await mover.slash(table.thread(game), "ada hand")
            assert "damaged" in private_text(res)
        assert len(notices(table, game)) == 1
