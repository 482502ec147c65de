"""The offline table under load (issue 28): it republished its page every 2 s, so a click on a
page drawn before the republish was refused ("Action was not completed"), and a republish while
the bot was still at work made clicks fail ("Action outcome uncertain"). Now the page is
republished only when the bot changed something by itself, and only once the bot is idle.

A click is refused when the revision it carries is not the page's (simcord's preview): so a page
whose revision stays put while nothing happens never refuses a click for being republished."""

from __future__ import annotations

import asyncio
from typing import Any

from offline.table import Refresher


async def test_the_page_is_republished_only_after_the_bot_changed_something(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    thread = table.thread(game)
    games = table.env.bot.ada.games
    async with table.env.preview(
        thread, viewers=[table.alice, table.bob], layout="channel", port=0
    ) as preview:
        refresher = Refresher(table.env, preview, games)
        page = preview._open_page()  # a browser's page (as when the table's address is opened)
        shown = page.revision
        for _ in range(20):  # time passes, nobody plays: the page the player sees stays valid
            assert not await refresher.tick()
        assert page.revision == shown

        # moves made on the page: each click publishes every page itself, nothing is left over
        for _ in range(3):
            await table.move(game, lambda d: 0)
            preview._publish(page, reason="action")  # what a click on the page does at its end
            assert not await refresher.tick()
        shown = page.revision
        # the bot changes the thread by itself (an AI seat's turn, here played by a move made
        # elsewhere): the page is republished once, when the bot is idle
        await table.move(game, lambda d: 0)
        calls_before = len(table.env.http_requests)
        assert await refresher.tick()
        assert page.revision == shown + 1
        assert len(table.env.http_requests) == calls_before  # (republishing costs no REST call)
        for _ in range(5):
            assert not await refresher.tick()
        assert page.revision == shown + 1


async def test_no_republish_while_the_bot_is_busy(table: Any) -> None:
    game = await table.new_game("alice", ("bob",))
    games = table.env.bot.ada.games
    async with table.env.preview(
        table.thread(game), viewers=[table.alice], layout="channel", port=0
    ) as preview:
        refresher = Refresher(table.env, preview, games)
        page = preview._open_page()
        await table.alice.slash(table.thread(game), "ada rules")  # the bot answers: calls made
        thinking = asyncio.get_running_loop().create_future()  # an AI seat still thinking
        games.ai_tasks[-1] = thinking
        try:
            assert not refresher.idle() and not await refresher.tick()
        finally:
            thinking.cancel()
            del games.ai_tasks[-1]
        shown = page.revision
        assert refresher.idle() and await refresher.tick()
        assert page.revision == shown + 1
