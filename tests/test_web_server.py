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


async def test_the_activity_side_is_set_up_only_when_configured(table: Any) -> None:
    """``web.discord_auth`` adds the Activity's routes only with ACTIVITY_CLIENT_ID set;
    without it, a page Discord opened all the same learns the Activity is off (404, said in
    its language), and the board page loads no Discord client."""
    from aiohttp.test_utils import TestClient, TestServer

    from cogs.config import ActivitySettings
    from web.app import make_app
    from web.context import WebContext

    ctx = WebContext.of(table.env.bot.ada.games)
    assert {"service", "store", "sessions", "config", "clock"} <= set(vars(ctx))
    async with TestClient(TestServer(make_app(ctx))) as client:
        off = await client.get("/api/discord/config")
        assert off.status == 404 and "error" in await off.json()
        assert (await client.post("/api/discord/token", json={})).status in (404, 405)
        assert "/activity/" not in await (await client.get("/")).text()
    ctx.config.activity = ActivitySettings(
        client_id="1234", client_secret="s", public_key="ab" * 32
    )
    async with TestClient(TestServer(make_app(ctx))) as client:
        on = await client.get("/api/discord/config")
        assert on.status == 200 and (await on.json())["client_id"] == "1234"
        assert "/activity/" in await (await client.get("/")).text() or not script_built()


def script_built() -> bool:
    from web import discord_auth

    return discord_auth.script_path() is not None


async def test_a_launch_on_a_bot_without_the_built_client_says_why(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord opens the page (a ``frame_id``) but the operator never built the client (no
    node): the page says so, in the asker's language, instead of failing."""
    from aiohttp.test_utils import TestClient, TestServer

    from cogs.config import ActivitySettings
    from web import discord_auth
    from web.app import make_app
    from web.context import WebContext

    monkeypatch.setattr(discord_auth, "script_path", lambda *args: None)
    ctx = WebContext.of(table.env.bot.ada.games)
    ctx.config.activity = ActivitySettings(
        client_id="1234", client_secret="s", public_key="ab" * 32
    )
    async with TestClient(TestServer(make_app(ctx))) as client:
        page = await client.get("/?frame_id=f-1", headers={"Accept-Language": "es-ES"})
        text = await page.text()
    assert page.status == 200, text
    assert "/activity/" not in text
    assert "El tablero dentro de Discord no está preparado en este bot" in text


async def test_a_launch_on_a_bot_without_the_activity_says_it_is_not_set_up(table: Any) -> None:
    """Discord opens the page (its App Launcher does, whatever the bot says) on a bot whose
    Activity is off: the page says the Activity is not set up, not that it was never built."""
    from aiohttp.test_utils import TestClient, TestServer

    from web.app import make_app
    from web.context import WebContext

    ctx = WebContext.of(table.env.bot.ada.games)
    assert not ctx.config.activity.enabled
    async with TestClient(TestServer(make_app(ctx))) as client:
        page = await client.get("/?frame_id=f-1", headers={"Accept-Language": "en-US"})
        text = await page.text()
    assert page.status == 200
    assert "The board inside Discord is not set up on this bot" in text
    assert "not built" not in text
