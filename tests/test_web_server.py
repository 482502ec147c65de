"""The board page's server in the bot's process: started at start-up when WEB_PORT is set, off
otherwise, and stopped with the bot (an open page's event stream ends, the port is free)."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from bot import metrics_port_setting


@pytest.fixture
def bot_options() -> dict[str, Any]:
    return {"web_port": 0}


async def test_the_bot_serves_the_board_page_and_stops_it_when_it_closes(table: Any) -> None:
    bot = table.env.bot
    server = bot.web
    assert server is not None and server.port > 0
    assert server.url == f"http://127.0.0.1:{server.port}"
    game = await table.new_game("alice", ("bob",))
    from web.sessions import Viewer

    token = server.ctx.sessions.issue(Viewer(table.alice.id, game, None, "local"))
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{server.url}/") as res:
            assert res.status == 200 and "Content-Security-Policy" in res.headers
        headers = {"Authorization": f"Bearer {token}"}
        stream = await http.get(f"{server.url}/api/events", headers=headers)
        assert (await stream.content.readline()).startswith(b"event: hello")
        assert server.ctx.live.following() == 1
        await bot.close()
        assert bot.web is None
        assert b"changed" not in await stream.content.read()  # the stream ended with the bot
        with pytest.raises(aiohttp.ClientConnectionError):
            async with http.get(f"{server.url}/"):
                pass


async def test_no_board_page_unless_asked(make_bot: Any) -> None:
    bot = make_bot()
    assert bot.ada.web_port is None and bot.web is None


def test_the_web_port_setting() -> None:
    assert metrics_port_setting("", "WEB_PORT") is None
    assert metrics_port_setting(" 8080 ", "WEB_PORT") == 8080
    for bad in ("0", "-1", "70000", "http"):
        with pytest.raises(SystemExit, match="WEB_PORT"):
            metrics_port_setting(bad, "WEB_PORT")


async def test_a_taken_port_leaves_the_bot_running_without_the_page(
    make_bot: Any, caplog: Any
) -> None:
    import socket

    import simcord

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        bot = make_bot(web_port=taken.getsockname()[1])
        async with simcord.run(bot) as env:
            assert bot.web is None
            assert "could not listen" in caplog.text
            guild = env.create_guild("Club")
            member = guild.add_member(env.create_user("alice"))
            res = await member.slash(guild.create_text_channel("games"), "ada rules")
            assert res.acknowledged  # the bot still serves Discord


async def test_the_activity_side_is_set_up_only_when_configured(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``web.discord_auth`` (the Activity's OAuth2 and Discord's proxy checks) is another
    module's: make_app hands it the application and the context when ACTIVITY_CLIENT_ID is set."""
    import sys
    import types

    import web
    from web.app import make_app
    from web.context import WebContext

    calls = []
    fake = types.ModuleType("web.discord_auth")
    fake.setup = lambda app, ctx: calls.append((app, ctx))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "web.discord_auth", fake)
    monkeypatch.setattr(web, "discord_auth", fake, raising=False)
    ctx = WebContext.of(table.env.bot.ada.games)
    make_app(ctx)
    assert calls == []  # off by default
    ctx.config.activity_client_id = "1234"
    app = make_app(ctx)
    assert calls == [(app, ctx)]
    assert {"service", "store", "sessions", "config", "clock"} <= set(vars(ctx))
