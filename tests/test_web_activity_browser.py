"""The Activity's client in a real browser (issue 32): headless Chromium (Debian's ``chromium``,
driven as offline.screenshots drives it) runs the real built bundle (webapp/dist, built by the
project's scripts) inside a fake Discord parent frame. The parent page iframes the Activity page
with the query parameters Discord gives (frame_id, instance_id, channel_id, guild_id, platform)
and speaks the SDK's postMessage protocol as Discord's client does: the HANDSHAKE answered by the
READY event, then the AUTHORIZE and AUTHENTICATE commands. The token exchange goes to the server's
route, which asks the fake Discord API (tests/fake_discord.py); the test's stub ``startBoard``
records the session it is given (tests/test_web_activity_e2e.py runs the real board page)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from aiohttp import web

from store import Store
from tests.board_browser import browser_tab
from tests.fake_discord import (
    APP_ID,
    FakeDiscord,
    board_server,
    need_browser_and_client,
    parent_page,
)
from web import discord_auth
from web.sessions import Viewer

GUILD, CHANNEL, THREAD = 900, 901, 902
ALICE, BOB, STRANGER = 10, 11, 99
WAIT = 60.0  # a bound against a hang (the browser on a busy machine), not a speed


@pytest.fixture
def browser_ready() -> None:
    need_browser_and_client()


ACTIVITY = """<!doctype html>
<meta charset="utf-8"><title>The board</title>
<body>
<script src="%(script)s"></script>
<script>
// A stub of the board page's entry (webapp/board.js's startBoard).
function startBoard({token, apiBase}) {
  window.parent.__started = {token, apiBase};
}
window.parent.__launched = AdaDiscord.launchedByDiscord();
if (window.parent.__launched) {
  AdaDiscord.openInDiscord({apiBase: "", startBoard}).then(() => { window.parent.__done = true; });
} else {
  window.parent.__done = true;
}
</script>
"""

STATE = """JSON.stringify({
  done: !!window.__done,
  launched: window.__launched === undefined ? null : window.__launched,
  started: window.__started || null,
  log: window.__log || [],
  problem: (() => {
    const frame = document.getElementById("activity");
    const doc = frame ? frame.contentDocument : document;
    const box = doc && doc.querySelector(".ada-discord-problem");
    return box ? box.textContent : null;
  })(),
})"""


def add_pages(app: web.Application) -> None:
    async def parent(request: web.Request) -> web.Response:
        q = request.query
        user = q.get("user", str(ALICE))
        page = parent_page("/activity.html", q.get("instance", "i-1"), THREAD, GUILD, user)
        return web.Response(text=page, content_type="text/html")

    async def activity(request: web.Request) -> web.Response:
        page = ACTIVITY % {"script": discord_auth.script_path()}
        return web.Response(text=page, content_type="text/html")

    app.router.add_get("/parent.html", parent)
    app.router.add_get("/activity.html", activity)


async def open_page(tools: Any, url: str) -> dict[str, Any]:
    await tools.call("Page.navigate", url=url)
    for _ in range(int(WAIT / 0.1)):
        got = await tools.call("Runtime.evaluate", expression=STATE, returnByValue=True)
        value = got.get("result", {}).get("value")
        state = json.loads(value) if isinstance(value, str) else {}
        if state.get("done"):
            return state
        await asyncio.sleep(0.1)
    raise AssertionError(f"the page did not finish within {WAIT:.0f} s: {state}")


@pytest.fixture
async def store(tmp_path: Any) -> Any:
    s = await Store.open(str(tmp_path / "web.db"))
    yield s
    await s.close()


async def test_launch_exchange_and_start_inside_a_fake_discord(
    browser_ready: None, store: Any, chromium_port: int
) -> None:
    game = await store.create_game(GUILD, CHANNEL, ALICE, {"players": 2})
    for user, name in ((ALICE, "alice"), (BOB, "bob")):
        await store.add_seat(game, name=name, user_id=user)
    await store.set_thread(game, THREAD)
    await store.start_game(game, 7)
    seat = (await store.get_game(game)).seat_of(ALICE)
    fake = FakeDiscord()
    fake.add_instance("i-1", THREAD, GUILD, [ALICE, STRANGER])

    async with board_server(store, fake, pages=add_pages) as (client, ctx, _):
        base = str(client.server.make_url("")).rstrip("/")
        async with browser_tab(chromium_port, 800, 600) as tools:
            await tools.call("Page.enable")
            alice = await open_page(tools, f"{base}/parent.html?user={ALICE}&instance=i-1")
            assert fake.calls == ["token", "me", "instance"]
            outsider = await open_page(tools, f"{base}/parent.html?user={BOB}&instance=i-1")
            plain = await open_page(tools, f"{base}/activity.html")

    # the launch: the SDK's handshake with its client id and frame, then authorize, authenticate
    handshake = alice["log"][0]
    assert handshake["op"] == 0 and handshake["frame_id"] == "f-1"
    assert handshake["client_id"] == APP_ID
    commands = [(e["cmd"], e["args"]) for e in alice["log"] if e["op"] == 1]
    authorize = next(args for cmd, args in commands if cmd == "AUTHORIZE")
    assert authorize["scope"] == ["identify"] and authorize["prompt"] == "none"
    assert authorize["client_id"] == APP_ID and authorize["response_type"] == "code"
    authenticate = next(args for cmd, args in commands if cmd == "AUTHENTICATE")
    assert authenticate == {"access_token": f"token-{ALICE}"}
    # startBoard got a valid session for alice's seat, found on the server
    assert alice["problem"] is None and alice["started"]["apiBase"] == ""
    assert ctx.sessions.read(alice["started"]["token"]) == Viewer(ALICE, game, seat, "discord")
    # bob is seated but not in this Activity instance: refused in words, the board not started
    assert outsider["started"] is None
    assert "does not show you in this board's session" in outsider["problem"]
    assert [e["cmd"] for e in outsider["log"] if e["op"] == 1].count("AUTHENTICATE") == 0
    # outside Discord (no frame_id), the SDK path does not run at all
    assert plain["launched"] is False and plain["started"] is None
    assert len(ctx.sessions.issued) == 1
