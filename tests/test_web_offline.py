"""The offline table serves the board page too, with its local login, and says where."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

import aiohttp

from offline.table import _parser, run_table


async def test_the_offline_table_serves_the_board_page_with_a_local_login(capsys: Any) -> None:
    args = _parser().parse_args(["--players", "2", "--ai", "0", "--port", "0", "--web-port", "0"])
    args.no_images = True
    ready = asyncio.Event()
    table = asyncio.create_task(run_table(args, lambda url: ready.set()))
    try:
        await asyncio.wait_for(ready.wait(), 60)  # a bound against a hang, not a speed
        printed = capsys.readouterr().out
        (local,) = re.findall(r"http://127\.0\.0\.1:\d+/local", printed)
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
    finally:
        table.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await table
