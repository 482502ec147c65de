"""The offline table serves the board page too, with its local login, and says where."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp

from offline.table import _parser, run_table


@contextlib.asynccontextmanager
async def offline_table(capsys: Any, ai: int) -> AsyncIterator[str]:
    """The offline table (2 seats, ``ai`` of them AI, no pictures) running; yields the address
    of its board page's local login, as it printed it."""
    args = _parser().parse_args(
        ["--players", "2", "--ai", str(ai), "--port", "0", "--web-port", "0"]
    )
    args.no_images = True
    ready = asyncio.Event()
    table = asyncio.create_task(run_table(args, lambda url: ready.set()))
    try:
        await asyncio.wait_for(ready.wait(), 60)  # a bound against a hang, not a speed
        (local,) = re.findall(r"http://127\.0\.0\.1:\d+/local", capsys.readouterr().out)
        yield local
    finally:
        table.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await table


async def test_the_offline_table_serves_the_board_page_with_a_local_login(capsys: Any) -> None:
    async with offline_table(capsys, ai=0) as local:
        async with aiohttp.ClientSession() as http:
            async with http.get(local) as res:
                assert res.status == 200 and "local." in await res.text()
            games = local.replace("/local", "/api/local/games")
            async with http.get(games) as res:
                (game,) = (await res.json())["games"]
            login = local.replace("/local", "/api/local/login")
            seat = game["seats"][0]["seat"]
            async with http.post(login, json={"game": game["game"], "seat": seat}) as res:
                token = (await res.json())["token"]
            view = local.replace("/local", "/api/view")
            async with http.get(view, headers={"Authorization": f"Bearer {token}"}) as res:
                assert (await res.json())["seat"] == seat


async def test_an_ai_seat_answers_a_move_made_on_the_board_page(capsys: Any) -> None:
    """On the offline table the bot runs on simcord's clock: a pause it sleeps passes only as
    the Discord-like page drives that clock, never for a move made on the board page. The AI
    seat must play its turn after a board-page move all the same."""
    async with offline_table(capsys, ai=1) as local:
        base = local.removesuffix("/local")
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/api/local/games") as res:
                (game,) = (await res.json())["games"]
            (human,) = [s["seat"] for s in game["seats"] if not s["ai"]]
            body = {"game": game["game"], "seat": human}
            async with http.post(f"{base}/api/local/login", json=body) as res:
                auth = {"Authorization": f"Bearer {(await res.json())['token']}"}

            async def view() -> Any:
                async with http.get(f"{base}/api/view", headers=auth) as res:
                    return await res.json()

            now = await view()
            moves = 0
            while now["decision"]["player"] == human:  # the person's turn, from the page
                move = {"seq": now["seq"], "choice": now["decision"]["choices"][0]["id"]}
                async with http.post(f"{base}/api/move", json=move, headers=auth) as res:
                    assert res.status == 200, await res.text()
                moves += 1
                now = await view()
            waited_at = now["seq"]
            for _ in range(1200):  # 60 s: a bound against a hang, not a speed
                now = await view()
                if now["seq"] > waited_at:
                    break
                await asyncio.sleep(0.05)
            assert now["seq"] > waited_at, "the AI seat never played its turn"
