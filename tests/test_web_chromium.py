"""The board page in headless Chromium (Debian's ``chromium``; skipped without it), on the
offline table: two people sign in locally, each in a tab of their own, and play a whole game by
clicking the board's hotspots and the page's buttons, while the thread's turn message follows
every move; the server goes away for a while and the pages reconnect and catch up by themselves;
a third tab watches the replay, whose slider grows with the game.

Pictures are blank here (of the real sizes, so the hotspots sit where they would): this test
looks at the page's behaviour; ``offline.board_shots`` takes the pictures people look at."""

from __future__ import annotations

import random
import shutil
from typing import Any

import pytest

from offline.driver import Table, decision_shown
from tests.board_browser import HANG, BlankPictures, browser_tab, click, shows
from web.app import start
from web.context import WebContext

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
    reason="headless Chromium is not installed (Debian: apt-get install chromium)",
)


async def sign_in(tab: Any, url: str, name: str) -> None:
    """The offline table's local login: the seat picker, then the person's seat (or the
    game's replay)."""
    await tab.call("Page.enable")
    await tab.call("Page.navigate", url=f"{url}/local")
    await tab.wait_for("document.querySelectorAll('button.seat').length > 0", HANG)
    await tab.evaluate(
        f"[...document.querySelectorAll('button')].find(b => b.textContent === {name!r}).click()"
    )


# The replay's slider moved by hand to move ``n``.
SLIDE = """((n) => {
  const s = document.getElementById("slider");
  s.value = String(n);
  s.dispatchEvent(new Event("input"));
})(%d)"""


async def test_two_people_play_a_whole_game_from_the_page(table: Table, chromium_port: int) -> None:
    game = await table.new_game("alice", ("bob",))
    games = table.env.bot.ada.games
    games.cfg.web_local_login = True
    ctx = WebContext.of(games)
    ctx.pictures = BlankPictures()  # type: ignore[assignment]
    server = await start(ctx, port=0)
    port = server.port
    rec = await table.store.get_game(game)
    rng = random.Random(3)
    clicks: dict[str, int] = {}
    try:
        async with (
            browser_tab(chromium_port, 700, 1000) as first,
            browser_tab(chromium_port, 700, 1000) as second,
            browser_tab(chromium_port, 700, 1000) as replay,
        ):
            # inside Discord (a frame_id in the address) the page waits for the Activity's
            # bootstrap to call startBoard: it neither signs in nor goes to the seat picker
            await first.call("Page.enable")
            await first.call("Page.navigate", url=f"{server.url}/?frame_id=1&instance_id=2")
            await first.wait_for("typeof window.startBoard === 'function'", HANG)
            assert await first.evaluate(
                "location.pathname === '/' && document.body.dataset.ready === undefined"
            )
            tabs = {}
            for tab, name in ((first, "alice"), (second, "bob")):
                await sign_in(tab, server.url, name)
                tabs[rec.seat_of(table.members[name].id)] = tab
            moves = 0
            while True:
                state, seq = await table.store.load_state(game)
                for tab in tabs.values():  # both pages follow, the mover's and the other's
                    await tab.wait_for(shows(seq), HANG)
                if state.decision is None:
                    break
                if seq > 0:
                    turn = await table.turn_message(game)
                    assert decision_shown(turn, game) == seq  # the thread follows the page
                if moves == 10:  # someone watches the replay from its start as the game goes on
                    await sign_in(replay, server.url, "Replay")
                    await replay.wait_for(shows(seq), HANG)
                    await replay.evaluate(SLIDE % 0)
                    await replay.wait_for(shows(0), HANG)
                if moves == 20:
                    server = await lose_the_connection(server, ctx, table, game, tabs, port)
                    moves += 1
                    continue
                tab = tabs[state.decision.player]
                choice = rng.choice(state.decision.choices).id
                with ctx.live.follow(game) as moved:
                    how = await tab.evaluate(click(choice))
                    await moved.wait(HANG)  # the move is made through the service
                clicks[how] = clicks.get(how, 0) + 1
                assert (await table.store.choices(game))[-1].choice_id == choice
                await tab.wait_for("!window.adaBoard.busy", HANG)  # and answered (thread too)
                moves += 1
            for tab in tabs.values():
                text = await tab.evaluate("document.getElementById('turn').textContent")
                assert f"Game #{game} is over — " in text and " wins!" in text
                assert text.count(" Prestige") == 2  # both players' final Prestige
            # the replay's slider grew with the game, still showing the first move; taken to
            # the end, it shows the last one, its board and a Mill
            await replay.wait_for(f"document.getElementById('slider').max === '{seq}'", HANG)
            assert await replay.evaluate("document.getElementById('moveof').textContent") == (
                f"Move 0 of {seq}"
            )
            await replay.evaluate(SLIDE % seq)
            await replay.wait_for(shows(seq), HANG)
            assert await replay.evaluate(
                "document.querySelector('#mill img').naturalWidth > 0"
                " && !document.getElementById('millpane').hidden"
            )
    finally:
        await server.stop()
    assert clicks.get("spot", 0) + clicks.get("spot and menu", 0) > 0, clicks
    assert clicks.get("button", 0) > 0, clicks


async def lose_the_connection(
    server: Any, ctx: WebContext, table: Table, game: int, tabs: dict[int, Any], port: int
) -> Any:
    """The server goes away; a move is made in the thread meanwhile; the server comes back on
    the same address: both pages say they are reconnecting, then catch up by themselves."""
    await server.stop()
    for tab in tabs.values():
        await tab.wait_for("document.body.dataset.live === '0'", HANG)
        status = await tab.evaluate("document.getElementById('status').textContent")
        assert status == "Connection lost: reconnecting…"
    await table.move(game, lambda d: 0)  # a button click in the thread while the pages are away
    _state, seq = await table.store.load_state(game)
    server = await start(ctx, port=port)
    for tab in tabs.values():
        await tab.wait_for(shows(seq), HANG)
        await tab.wait_for("document.body.dataset.live === '1'", HANG)
    return server
