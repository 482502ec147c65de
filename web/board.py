"""The board page's routes: one game, one viewer, named by the session token.

Every route under ``/api/`` (but the local login's) reads the viewer from the token in the
``Authorization: Bearer`` header (``web.sessions``): the game is the token's, never the
request's. What a viewer gets is the engine's view for their seat (``engine.view.redact``: a
spectator, seat None, gets the public view), its words in the viewer's language:

    GET  /api/view               the viewer's view (JSON): players, the viewer's hand, the log,
                                 the decision with its legal choices, groups and hotspots,
                                 and a digest of what each picture shows
    GET  /api/board.png          the board as the viewer sees it
    GET  /api/mill/{seat}.png    a player's Mill as the viewer sees it
    POST /api/move               {"seq": n, "choice": id}: GameService.play, as a button click
    POST /api/undo               {"seq": n}: GameService.undo, as the Undo button
    GET  /api/events             server-sent events: the view again when the game moved
    GET  /api/replay             the number of moves of the game (the replay's slider)
    GET  /api/replay/{n}         the public view after the first n moves
    GET  /api/replay/{n}/board.png
    GET  /api/replay/{n}/mill/{seat}.png    (the public view: a player's Mill, as everyone sees it)
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
from typing import Any

from aiohttp import web

import i18n
from cogs import ui
from cogs.activity import NOT_SET_UP
from cogs.base import friendly_text
from cogs.service import STATUS_TEXT, Oops, game_lang
from engine import GameState, IllegalChoice
from engine.rules import apply, replay
from engine.scoring import ranking
from engine.view import redact
from i18n import ENGLISH, N_, Lang
from i18n import game as words
from render.keys import page_keys
from render.spots import choice_spots
from store import GameRecord, StoreError
from web import discord_auth
from web.app import ASSETS, CTX, MAX_BODY, page_html, secure_headers
from web.context import WebContext
from web.sessions import BadSession, Viewer

log = logging.getLogger(__name__)

KEEPALIVE = 15.0  # seconds between two keep-alive lines of an idle event stream
REPLAYS_KEPT = 8  # games whose replayed states are kept in memory

PAGE_WORDS = {
    "title": N_("Ada's Dream: the board"),
    "your_turn": N_("Your turn"),
    "waiting": N_("Waiting for {name}"),
    "spectating": N_("You are watching (public view)."),
    "over": N_("The game is over."),
    "choose_here": N_("Choose here"),
    "cancel": N_("Cancel"),
    "undo": N_("Undo"),
    "zoom": N_("Zoom"),
    "mills": N_("Mills"),
    "players": N_("Players"),
    "hand": N_("Your hand"),
    "log": N_("Game log"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "sending": N_("Sending…"),
    "replay": N_("Replay"),
    "watch": N_("Watch"),
    "pick_seat": N_("Pick your seat, or watch the game."),
    "move_n": N_("Move {n} of {total}"),
    "money": N_("Money"),
    "innovation": N_("Innovation"),
    "coal": N_("Coal"),
    "brass": N_("Brass"),
    "books": N_("Books"),
    "steam": N_("Steam"),
    "cards": N_("Cards in hand"),
    "prestige": N_("Prestige"),
    "you": N_("you"),
}

SIGN_IN_AGAIN = N_("Your session has ended: open the board again.")
NOT_SEATED = N_("You're not playing in game #{id}.")
SPECTATOR_MOVE = N_("You are watching this game: spectators can't move.")
BAD_BODY = N_("That request was not understood; nothing was changed.")
TOO_BIG = N_("That request is too large; nothing was changed.")
NOT_BUILT = N_(
    "The board inside Discord is not built on this bot: its operator needs node and npm (see the README)."
)
NO_SUCH_MOVE = N_("There is no move {n} in this game.")
GONE = N_("There is no game #{id}.")
ILLEGAL = N_("That's not a legal choice now; nothing was changed.")


REFUSALS: dict[int, type[web.HTTPException]] = {
    400: web.HTTPBadRequest,
    401: web.HTTPUnauthorized,
    403: web.HTTPForbidden,
    404: web.HTTPNotFound,
    409: web.HTTPConflict,
    415: web.HTTPUnsupportedMediaType,
    422: web.HTTPUnprocessableEntity,
}


def refuse(status: int, text: str) -> web.HTTPException:
    """An answer refusing a request: its status and a message for the page to show."""
    body = json.dumps({"error": text}, ensure_ascii=False)
    if status == 413:
        return web.HTTPRequestEntityTooLarge(
            MAX_BODY, 0, text=body, content_type="application/json"
        )
    return REFUSALS[status](text=body, content_type="application/json")


def asker_lang(request: web.Request) -> Lang:
    """The language of an asker not yet known (their browser's first language)."""
    first = request.headers.get("Accept-Language", "").split(",")[0].split(";")[0]
    return i18n.get(first or None)


def viewer_of(request: web.Request) -> Viewer:
    """The viewer named by the request's session token (401 otherwise)."""
    ctx = request.app[CTX]
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    try:
        if scheme.lower() != "bearer":
            raise BadSession("no session")
        return ctx.sessions.read(token.strip())
    except BadSession:
        raise refuse(401, asker_lang(request)._(SIGN_IN_AGAIN)) from None


async def viewer_lang(ctx: WebContext, viewer: Viewer, rec: GameRecord) -> Lang:
    """The viewer's own language setting, else the game's."""
    code = await ctx.service.user_language(viewer.user_id) if viewer.user_id else None
    return i18n.get(code) if code else game_lang(rec)


async def seen_by(
    ctx: WebContext, viewer: Viewer
) -> tuple[GameRecord, GameState | None, int, int | None, Lang]:
    """The viewer's game, its state and seq, the seat the viewer sees from (None: the public
    view) and the viewer's language. A token naming a seat its user no longer holds is
    refused: the page signs in again."""
    try:
        rec, state, seq = await ctx.store.game_and_state(viewer.game_id)
    except StoreError:  # the game is gone (deleted, archived away)
        raise refuse(404, ENGLISH._(GONE, id=viewer.game_id)) from None
    tr = await viewer_lang(ctx, viewer, rec)
    if viewer.seat is not None and rec.seat_of(viewer.user_id) != viewer.seat:
        raise refuse(403, tr._(NOT_SEATED, id=rec.id))
    return rec, state, seq, viewer.seat, tr


async def read_body(request: web.Request, tr: Lang) -> dict[str, Any]:
    """The request's JSON object (413 when too large, 415 when not JSON, 400 when malformed)."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise refuse(413, tr._(TOO_BIG))
    if request.content_type != "application/json":
        raise refuse(415, tr._(BAD_BODY))
    try:
        raw = await request.read()
    except web.HTTPRequestEntityTooLarge:
        raise refuse(413, tr._(TOO_BIG)) from None
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise refuse(400, tr._(BAD_BODY)) from None
    if not isinstance(body, dict):
        raise refuse(400, tr._(BAD_BODY))
    return body


def page_words(tr: Lang) -> dict[str, str]:
    return {key: tr._(text) for key, text in PAGE_WORDS.items()}


def players_of(view: dict[str, Any], rec: GameRecord, seat: int | None) -> list[dict[str, Any]]:
    """Each player's public state, from the viewer's view (another's hand: a count only)."""
    out = []
    for i, p in enumerate(view["players"]):
        hand = p["hand"]
        out.append(
            {
                "seat": i,
                "name": p["name"],
                "colour": p["colour"],
                "you": i == seat,
                "ai": bool((s := rec.seat_at(i)) and s.is_ai),
                "money": p["money"],
                "innovation": p["innovation"],
                "coal": p["coal"],
                "brass": p["brass"],
                "books": p["books"],
                "steam": p["steam"],
                "cards": hand if isinstance(hand, int) else len(hand),
                "city": p["city"],
            }
        )
    return out


def hand_of(state: GameState, seat: int | None, tr: Lang) -> list[dict[str, str]]:
    """The viewer's own hand, its cards' effects in the viewer's language."""
    if seat is None:
        return []
    cards = []
    for card in state.players[seat].hand:
        info = state.edition.partner[card]
        cards.append(
            {
                "name": str(info["name"]),
                "text": words.content(tr, "effect", str(info.get("text", ""))),
            }
        )
    return cards


def decision_of(state: GameState, seat: int | None, rec: GameRecord, tr: Lang) -> dict[str, Any]:
    """The decision in front of the game: whose it is and, for its player only, the legal
    choices with their labels, groups (as the turn message's buttons group them) and spots."""
    dec = state.decision
    if dec is None:
        return {"over": True, **final_result(state, rec, tr)}
    deciding = rec.seat_at(dec.player)
    out: dict[str, Any] = {
        "player": dec.player,
        "name": deciding.name if deciding else state.players[dec.player].name,
        "prompt": words.prompt(tr, dec) if dec.player == seat else "",
        "mine": dec.player == seat,
    }
    if dec.player != seat:
        return out
    labels = words.labels(tr, state, dec)
    direct, groups = ui.choice_layout(state, tr)
    group_of = {i: g for g, group in enumerate(groups) for i in group.indexes}
    spots = choice_spots(state)
    choices = []
    for i, c in enumerate(dec.choices):
        spot = spots.get(c.id)
        choices.append(
            {
                "id": c.id,
                "label": labels[i],
                "group": group_of.get(i),
                "spot": None
                if spot is None
                else {"picture": spot.picture, "key": spot.key, "box": list(spot.box)},
            }
        )
    out["choices"] = choices
    out["groups"] = [g.label for g in groups]
    out["direct"] = direct
    out["undo"] = state.can_undo()
    return out


def final_result(state: GameState, rec: GameRecord, tr: Lang) -> dict[str, Any]:
    """Once the game is over (everything is public then): who won, in the words of the
    thread's final message, and every player's final Prestige, in the final ranking."""
    if not state.over:
        return {}
    names, scores = state.seat_names, state.final_scores()
    winner = names[state.winner()]
    return {
        "result": tr._("Game #{id} is over — {name} wins!", id=rec.id, name=winner),
        "scores": [  # from the winner down (ties broken as the rules break them)
            {"name": names[seat], "prestige": scores[seat]["Total"]} for seat in ranking(state)
        ],
    }


def log_of(state: GameState, tr: Lang, lines: int = 30) -> list[str]:
    return [words.log_line(tr, state, line) for line in state.log[-lines:]]


async def view(request: web.Request) -> web.Response:
    body = await view_of(request.app[CTX], viewer_of(request))
    return web.json_response(body, dumps=_dumps)


async def view_of(ctx: WebContext, viewer: Viewer) -> dict[str, Any]:
    """The viewer's view of their game now (``GET /api/view``, and each live update)."""
    rec, state, seq, seat, tr = await seen_by(ctx, viewer)
    body: dict[str, Any] = {
        "game": rec.id,
        "seq": seq,
        "status": rec.status,
        "lang": tr.code,
        "seat": seat,
        "words": page_words(tr),
    }
    if rec.status in ("lobby", "cancelled", "broken"):  # nothing to play on: say why
        body["notice"] = tr._(STATUS_TEXT[rec.status], id=rec.id)
    if state is not None:
        public = redact(state, seat)  # the engine's view for this viewer, nothing more
        body |= {
            "round": state.round,
            "players": players_of(public, rec, seat),
            "hand": hand_of(state, seat, tr),
            "decision": decision_of(state, seat, rec, tr) if "notice" not in body else None,
            "log": log_of(state, tr),
            "pictures": picture_keys(state, seat, tr),
        }
    return body


def picture_keys(state: GameState, seat: int | None, tr: Lang) -> dict[str, Any]:
    """What each picture the viewer may load shows, as a digest (``render.image_key``: of the
    viewer's view only): the page loads a picture again only when its digest changed."""
    board, mills = page_keys(state, seat)
    return {"board": f"{tr.code}-{board}", "mills": [f"{tr.code}-{mill}" for mill in mills]}


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


async def picture(ctx: WebContext, name: str, state: GameState, *args: Any, lang: str) -> bytes:
    image = await ctx.pictures.get(name, state, *args, lang=lang)
    if image is None or image.data is None:
        raise web.HTTPServiceUnavailable()
    return image.data


def png(data: bytes) -> web.Response:
    return web.Response(body=data, content_type="image/png", headers={"Cache-Control": "no-store"})


async def board_picture(request: web.Request) -> web.Response:
    ctx = request.app[CTX]
    rec, state, _seq, seat, tr = await seen_by(ctx, viewer_of(request))
    if state is None:
        raise web.HTTPNotFound()
    return png(await picture(ctx, "board", state, seat, lang=tr.code))


async def mill_picture(request: web.Request) -> web.Response:
    ctx = request.app[CTX]
    rec, state, _seq, seat, tr = await seen_by(ctx, viewer_of(request))
    try:
        of = int(request.match_info["seat"])
    except ValueError:
        raise web.HTTPNotFound() from None
    if state is None or not 0 <= of < len(state.players):
        raise web.HTTPNotFound()
    return png(await picture(ctx, "mill", state, of, seat, lang=tr.code))


async def _act(request: web.Request, undo: bool) -> web.Response:
    """A move or an undo from the page: through the game service, as a button click."""
    ctx = request.app[CTX]
    viewer = viewer_of(request)
    rec, state, seq, seat, tr = await seen_by(ctx, viewer)
    body = await read_body(request, tr)
    asked_seq = body.get("seq")
    choice = body.get("choice")
    if type(asked_seq) is not int or (not undo and not isinstance(choice, str)):
        raise refuse(400, tr._(BAD_BODY))
    if seat is None:
        raise refuse(403, tr._(SPECTATOR_MOVE))
    try:
        if undo:
            played = await ctx.service.undo(viewer.user_id, rec, asked_seq)
        else:
            if len(choice) > 200:
                raise IllegalChoice(choice[:200])
            known = (state, seq) if state is not None else None
            played = await ctx.service.play(
                viewer.user_id, rec, asked_seq, choice_id=choice, known=known
            )
    except IllegalChoice:
        raise refuse(422, tr._(ILLEGAL)) from None
    except (Oops, StoreError) as exc:
        raise refuse(409, friendly_text(exc, tr)) from None
    return web.json_response({"ok": True, "label": played.label(tr)}, dumps=_dumps)


async def move(request: web.Request) -> web.Response:
    return await _act(request, undo=False)


async def undo(request: web.Request) -> web.Response:
    return await _act(request, undo=True)


async def events(request: web.Request) -> web.StreamResponse:
    """Server-sent events: "hello" with the viewer's view at once, then "changed" with the
    view again after every committed change (the page needs no request of its own to follow
    the game); after a lost connection the page connects again and the "hello" resynchronises
    it. Should the view be refused meanwhile (the game gone, the seat lost), a last "changed"
    without a view sends the page to ask, and hear why."""
    ctx = request.app[CTX]
    viewer = viewer_of(request)
    hello = await view_of(ctx, viewer)
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",  # a proxy in front must not hold the events back
        }
    )
    secure_headers(response)
    await response.prepare(request)
    with ctx.live.follow(viewer.game_id) as follower:
        await response.write(live_event("hello", hello))
        while not ctx.live.closing:
            try:
                now = await follower.wait(KEEPALIVE)
            except TimeoutError:
                await response.write(b": still here\n\n")
                continue
            if now is None:
                break
            try:
                changed = await view_of(ctx, viewer)
            except web.HTTPException:
                await response.write(live_event("changed", None))
                break
            await response.write(live_event("changed", changed))
    return response


def live_event(name: str, view: dict[str, Any] | None) -> bytes:
    """One server-sent event carrying a view (JSON on one line: its strings escape newlines)."""
    return f"event: {name}\ndata: {_dumps(view)}\n\n".encode()


# -- the replay (public view only) ---------------------------------------------------------


class Replays:
    """The states of a few games replayed from their stored choices, kept by game and length."""

    def __init__(self) -> None:
        self.kept: dict[int, tuple[int, list[GameState]]] = {}

    async def state_at(self, ctx: WebContext, game_id: int, n: int) -> GameState | None:
        choices = [c.choice_id for c in await ctx.store.choices(game_id)]
        if not 0 <= n <= len(choices):
            return None
        kept = self.kept.get(game_id)
        if kept is None or kept[0] != len(choices):
            setup = await ctx.store.load_setup(game_id)
            states = await asyncio.to_thread(_replay_all, setup, choices)
            self.kept[game_id] = kept = (len(choices), states)
            while len(self.kept) > REPLAYS_KEPT:
                del self.kept[next(iter(self.kept))]
        return kept[1][n]


def _replay_all(setup: Any, choices: list[str]) -> list[GameState]:
    """The state after each number of moves, 0 to all (in a worker thread)."""
    state = replay(setup, [])
    states = [state.copy()]
    for choice in choices:
        apply(state, choice)
        states.append(state.copy())
    return states


REPLAYS = web.AppKey("replays", Replays)


async def replay_info(request: web.Request) -> web.Response:
    ctx = request.app[CTX]
    viewer = viewer_of(request)
    rec, _state, seq, _seat, tr = await seen_by(ctx, viewer)
    return web.json_response(
        {"game": rec.id, "moves": seq, "lang": tr.code, "words": page_words(tr)}, dumps=_dumps
    )


async def _replayed(request: web.Request) -> tuple[GameState, GameRecord, Lang]:
    ctx = request.app[CTX]
    rec, _state, _seq, _seat, tr = await seen_by(ctx, viewer_of(request))
    try:
        n = int(request.match_info["n"])
    except ValueError:
        raise refuse(404, tr._(NO_SUCH_MOVE, n=request.match_info["n"][:10])) from None
    state = await request.app[REPLAYS].state_at(ctx, rec.id, n)
    if state is None:
        raise refuse(404, tr._(NO_SUCH_MOVE, n=n))
    return state, rec, tr


async def replay_view(request: web.Request) -> web.Response:
    state, rec, tr = await _replayed(request)
    public = redact(state, None)  # the public view, even for a finished game
    body = {
        "game": rec.id,
        "round": state.round,
        "players": players_of(public, rec, None),
        "decision": decision_of(state, None, rec, tr),
        "log": log_of(state, tr),
    }
    return web.json_response(body, dumps=_dumps)


async def replay_board(request: web.Request) -> web.Response:
    state, _rec, tr = await _replayed(request)
    return png(await picture(request.app[CTX], "board", state, None, lang=tr.code))


async def replay_mill(request: web.Request) -> web.Response:
    state, _rec, tr = await _replayed(request)
    try:
        of = int(request.match_info["seat"])
    except ValueError:
        raise web.HTTPNotFound() from None
    if not 0 <= of < len(state.players):
        raise web.HTTPNotFound()
    return png(await picture(request.app[CTX], "mill", state, of, None, lang=tr.code))


async def board_page(request: web.Request) -> web.Response:
    page = page_html("board.html", request.app[ASSETS])
    enabled = request.app[CTX].config.activity.enabled
    bundle = discord_auth.script_path() if enabled else None
    if bundle:  # the Activity's sign-in, which starts the board inside Discord
        page = page.replace("</head>", f'<script src="{bundle}"></script>\n</head>', 1)
    elif request.query.get("frame_id"):  # launched by Discord, but the Activity can't start
        why = NOT_BUILT if enabled else NOT_SET_UP
        said = html.escape(discord_auth.lang_of(request)._(why))
        page = page.replace('aria-live="polite"></p>', f'aria-live="polite">{said}</p>', 1)
    return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})


def setup(app: web.Application, ctx: WebContext) -> None:
    app[REPLAYS] = Replays()
    app.router.add_get("/", board_page)
    app.router.add_get("/api/view", view)
    app.router.add_get("/api/board.png", board_picture)
    app.router.add_get("/api/mill/{seat}.png", mill_picture)
    app.router.add_post("/api/move", move)
    app.router.add_post("/api/undo", undo)
    app.router.add_get("/api/events", events)
    app.router.add_get("/api/replay", replay_info)
    app.router.add_get("/api/replay/{n}", replay_view)
    app.router.add_get("/api/replay/{n}/board.png", replay_board)
    app.router.add_get("/api/replay/{n}/mill/{seat}.png", replay_mill)
    if ctx.config.web_local_login:
        from web import local

        local.setup(app, ctx)
