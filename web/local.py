"""The local login of the offline table: pick a seat of a game (or watch) in a plain browser.

Only the offline table turns it on (``BotConfig.web_local_login``); a bot serving Discord never
has it, since it lets anyone on the page's address speak for any seat. A session issued here is
a ``Viewer(via="local")``, read and checked by the board's routes like any other.

    GET  /local              the page listing the games and their seats
    GET  /api/local/games    the games in play or finished, with their seats
    POST /api/local/login    {"game": id, "seat": n or null}: a session token for that seat
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from store import StoreError
from web.app import ASSETS, CTX, page_html
from web.board import BAD_BODY, NOT_SEATED, asker_lang, page_words, read_body, refuse
from web.context import WebContext
from web.sessions import Viewer

SPECTATOR = 0  # the user id of a local spectator (nobody: Discord ids are never 0)


async def local_page(request: web.Request) -> web.Response:
    html = page_html("local.html", request.app[ASSETS])
    return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-store"})


async def games(request: web.Request) -> web.Response:
    ctx = request.app[CTX]
    out: list[dict[str, Any]] = []
    for game_id in await ctx.store.game_ids(["active", "finished"]):
        rec = await ctx.store.get_game(game_id)
        seats = [
            {"seat": s.turn_index, "name": s.name, "ai": s.is_ai} for s in rec.seats_in_turn_order
        ]
        out.append({"game": rec.id, "status": rec.status, "seats": seats})
    return web.json_response({"games": out, "words": page_words(asker_lang(request))})


async def login(request: web.Request) -> web.Response:
    ctx = request.app[CTX]
    tr = asker_lang(request)
    body = await read_body(request, tr)
    game, seat = body.get("game"), body.get("seat")
    if type(game) is not int or not (seat is None or type(seat) is int):
        raise refuse(400, tr._(BAD_BODY))
    try:
        rec = await ctx.store.get_game(game)
    except StoreError:
        raise refuse(404, tr._(NOT_SEATED, id=game)) from None
    user_id = SPECTATOR
    if seat is not None:
        held = rec.seat_at(seat)
        if held is None or held.is_ai or held.user_id is None:
            raise refuse(403, tr._(NOT_SEATED, id=game))
        user_id = held.user_id
    token = ctx.sessions.issue(Viewer(user_id=user_id, game_id=game, seat=seat, via="local"))
    return web.json_response({"token": token})


def setup(app: web.Application, ctx: WebContext) -> None:
    assert ctx.config.web_local_login, "the local login is for the offline table only"
    app.router.add_get("/local", local_page)
    app.router.add_get("/api/local/games", games)
    app.router.add_post("/api/local/login", login)
