"""The board inside Discord, end to end (issue 32, "Done when"): headless Chromium opens a fake
Discord client's page (tests/fake_discord.py: it speaks the Embedded App SDK's handshake,
AUTHORIZE and AUTHENTICATE), which iframes the *real* board page, served by the *real* bot's web
server (``web.app.make_app`` of a simcord bot whose Activity is set up against the fake Discord
API), with the query parameters Discord gives: the game's thread is the instance's channel.

The launch, the token exchange, the board starting with the viewer's decision, and a move made
by clicking in the page with the mouse: the store's game advances, the thread's turn message
follows, and another viewer's page follows too. A member who is not seated gets the spectator
view: no choices, and a move they send anyway is refused with nothing changed."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web

from cogs import config
from offline.driver import Table, decision_shown
from offline.screenshots import ScreenshotError
from tests.board_browser import (
    FRAME_BOARD,
    FRAME_DOC,
    HANG,
    BlankPictures,
    browser_tab,
    shows,
)
from tests.fake_discord import (
    APP_ID,
    BOT_TOKEN,
    SECRET,
    FakeDiscord,
    activity_settings,
    api_base_of,
    fake_discord_api,
    need_browser_and_client,
    parent_page,
)
from web.app import make_app
from web.context import WebContext

pytestmark = pytest.mark.parametrize("bot_options", [{"activity": activity_settings()}])
INSTANCE = "i-42"

# Where a choice's hotspot is in the fake client's window (the iframe's offset added), after
# scrolling it into view in the page: a person's click goes there.
SPOT_AT = """((id) => {
  const frame = document.getElementById("activity");
  const doc = frame.contentDocument;
  const spot = [...doc.querySelectorAll("button.spot")]
    .find((b) => b.dataset.choices.split(" ").includes(id));
  if (!spot) return null;
  spot.scrollIntoView({block: "center", inline: "center"});
  const outer = frame.getBoundingClientRect(), r = spot.getBoundingClientRect();
  return {x: outer.left + frame.clientLeft + r.left + r.width / 2,
          y: outer.top + frame.clientTop + r.top + r.height / 2,
          several: spot.dataset.choices.includes(" ")};
})(%s)"""
MENU_AT = """((id) => {
  const frame = document.getElementById("activity");
  const b = frame.contentDocument.querySelector(`#menubox button[data-choice="${CSS.escape(id)}"]`);
  const outer = frame.getBoundingClientRect(), r = b.getBoundingClientRect();
  return {x: outer.left + frame.clientLeft + r.left + r.width / 2,
          y: outer.top + frame.clientTop + r.top + r.height / 2};
})(%s)"""
# Every document of the tab (the fake client and the Activity in its frame) records what its
# Content-Security-Policy blocked, in the fake client's window.
WATCH_CSP = """window.top.__csp = window.top.__csp || [];
document.addEventListener("securitypolicyviolation",
  (e) => window.top.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));"""
# What the fake client saw and what the page says, when the board did not start.
WHY = f"""JSON.stringify({{
  log: window.__log,
  status: {FRAME_DOC}.getElementById("status")?.textContent,
  problem: {FRAME_DOC}.querySelector(".ada-discord-problem")?.textContent,
  href: document.getElementById("activity").contentWindow.location.href,
}})"""
# Discord's mobile client sets these on the Activity's page; the page's top bar moves below them.
SAFE_AREA_TOP = f"""(() => {{
  const doc = {FRAME_DOC};
  for (const [side, px] of [["top", 59], ["bottom", 34], ["left", 0], ["right", 0]])
    doc.documentElement.style.setProperty(`--discord-safe-area-inset-${{side}}`, `${{px}}px`);
  return doc.getElementById("top").getBoundingClientRect().top;
}})()"""
# A move sent from the page with its own session, whatever the page shows (a spectator's).
SEND_MOVE = """(async (seq, choice) => {
  const board = BOARD;
  const res = await fetch("/api/move", {method: "POST", headers: {
    "Content-Type": "application/json", Authorization: "Bearer " + board.token},
    body: JSON.stringify({seq, choice})});
  return {status: res.status, body: await res.json()};
})(%s, %s)""".replace("BOARD", FRAME_BOARD)


@contextlib.asynccontextmanager
async def bot_web_server(table: Table, api_base: str) -> AsyncIterator[str]:
    """The bot's own web server (its Activity pointed at the fake Discord API), with the fake
    Discord client's page on the same origin (the SDK answers only its parent's origin or
    Discord's); yields its address."""
    games = table.env.bot.ada.games
    games.cfg.activity = config.activity_settings(  # as .env sets it up, but for the fake API
        {
            "ACTIVITY_CLIENT_ID": APP_ID,
            "ACTIVITY_CLIENT_SECRET": SECRET,
            "ACTIVITY_PUBLIC_KEY": "00" * 32,
            "DISCORD_TOKEN": BOT_TOKEN,
            "ACTIVITY_API_BASE": api_base,
        }
    )
    ctx = WebContext.of(games)
    ctx.pictures = BlankPictures()  # type: ignore[assignment]
    app = make_app(ctx)

    async def discord_client(request: web.Request) -> web.Response:
        thread = int(request.query["channel"])
        page = parent_page(
            "/", INSTANCE, thread, table.guild.id, request.query["user"], width=700, height=900
        )
        # (Discord's own page, not the bot's: the bot's Content-Security-Policy is not for it)
        csp = "default-src 'self'; script-src 'unsafe-inline'"
        return web.Response(
            text=page, content_type="text/html", headers={"Content-Security-Policy": csp}
        )

    app.router.add_get("/fake-discord", discord_client)
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        ctx.live.close()
        await runner.cleanup()


async def launch(tab: Any, url: str, user: int, thread: int) -> None:
    """The fake Discord client launches the Activity for ``user``; returns once the board
    inside shows the game (or fails saying what the page said)."""
    await tab.call("Page.enable")
    await tab.call("Page.addScriptToEvaluateOnNewDocument", source=WATCH_CSP)
    await tab.call("Page.navigate", url=f"{url}/fake-discord?user={user}&channel={thread}")
    try:
        await tab.wait_for(f"{FRAME_DOC}.body.dataset.ready === '1'", HANG)
    except ScreenshotError:
        raise AssertionError(f"the board did not start: {await tab.evaluate(WHY)}") from None


async def nothing_blocked(tab: Any) -> None:
    """Nothing the page or its Discord client loaded was blocked by a Content-Security-Policy
    (the bundle, the pictures, the API, the frame itself)."""
    assert await tab.evaluate("JSON.stringify(window.__csp)") == "[]"


async def mouse_click(tab: Any, at: dict[str, float]) -> None:
    for kind in ("mousePressed", "mouseReleased"):
        await tab.call(
            "Input.dispatchMouseEvent",
            type=kind,
            x=at["x"],
            y=at["y"],
            button="left",
            clickCount=1,
        )


async def frame_text(tab: Any, element: str) -> str:
    return str(await tab.evaluate(f"{FRAME_DOC}.getElementById({element!r}).textContent"))


async def test_launch_sign_in_and_a_move_by_clicking_the_board(
    table: Table, chromium_port: int
) -> None:
    need_browser_and_client()
    game = await table.new_game("alice", ("bob",))
    thread = table.thread(game).id
    rec = await table.store.get_game(game)
    state, seq = await table.store.load_state(game)
    assert state.decision is not None
    mover = table.by_id[rec.seat_at(state.decision.player).user_id]
    other = table.bob if mover is table.alice else table.alice
    fake = FakeDiscord()
    fake.add_instance(INSTANCE, thread, table.guild.id, [mover.id, other.id, table.carol.id])
    # a choice with a hotspot on the board (a Workshop space, a city...)
    view_choices = [c.id for c in state.decision.choices]

    async with fake_discord_api(fake) as api, bot_web_server(table, api_base_of(api)) as url:
        async with (
            browser_tab(chromium_port, 720, 940) as first,
            browser_tab(chromium_port, 720, 940) as second,
        ):
            await launch(first, url, mover.id, thread)
            assert fake.calls == ["token", "me", "instance"]  # the exchange, with Discord
            await launch(second, url, other.id, thread)

            # the mover's board starts on their decision, the choices on the board itself
            assert await frame_text(first, "turn") != ""
            assert (await frame_text(first, "turn")).startswith("Your turn")
            spots = await first.evaluate(
                f"[...{FRAME_DOC}.querySelectorAll('button.spot')]"
                ".map(b => b.dataset.choices.split(' ')).flat()"
            )
            assert spots and set(spots) <= set(view_choices)
            assert (await frame_text(second, "turn")).startswith(f"Waiting for {mover.name}")

            # on a phone, Discord's client says how much of the frame its own controls and the
            # notch cover (its CSS variables): the page keeps clear of it
            top = await second.evaluate(SAFE_AREA_TOP)
            assert top == 59, top

            # the move: a mouse click on the hotspot (and on the menu, if it holds several)
            choice = spots[0]
            at = await first.evaluate(SPOT_AT % json.dumps(choice))
            await mouse_click(first, at)
            if at["several"]:
                await first.wait_for(f"!{FRAME_DOC}.getElementById('menu').hidden", HANG)
                await mouse_click(first, await first.evaluate(MENU_AT % json.dumps(choice)))
            for _ in range(int(HANG / 0.05)):
                _state, now = await table.store.load_state(game)
                if now > seq:
                    break
                await asyncio.sleep(0.05)
            assert now == seq + 1
            assert (await table.store.choices(game))[-1].choice_id == choice
            for tab in (first, second):  # both pages follow, the mover's and the other's
                await tab.wait_for(shows(now, FRAME_DOC), HANG)
            await first.wait_for(f"!{FRAME_BOARD}.busy", HANG)  # the move answered, thread too
            turn = await table.turn_message(game)
            assert decision_shown(turn, game) == now  # the thread follows the page
            for tab in (first, second):
                await nothing_blocked(tab)

            # a member in the Activity but not seated: the public view, no way to move
            await launch(first, url, table.carol.id, thread)
            turn_text = await frame_text(first, "turn")
            assert "You are watching (public view)." in turn_text
            assert (
                await first.evaluate(
                    f"{FRAME_DOC}.querySelectorAll('button.spot, #turn button.choice').length"
                )
                == 0
            )
            assert await first.evaluate(f"{FRAME_DOC}.getElementById('hand').hidden")
            state, seq = await table.store.load_state(game)
            assert state.decision is not None
            some = state.decision.choices[0].id
            refused = await first.evaluate(SEND_MOVE % (seq, json.dumps(some)))
            assert refused["status"] == 403
            assert refused["body"]["error"] == "You are watching this game: spectators can't move."
            assert (await table.store.load_state(game))[1] == seq  # nothing changed
            await nothing_blocked(first)
