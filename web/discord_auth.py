"""The Activity's side of the board page: who is asking, found from Discord itself (issue 32).

Inside Discord the page is an Activity: Discord's client runs it in an iframe behind Discord's
proxy. The page (``webapp/discord.js``) asks Discord's client for an OAuth2 ``code`` and posts it
here with the Activity instance's id. The server then, on its own, without believing anything
else the browser says:

1. exchanges the code for an access token (the client secret never leaves the server);
2. asks Discord who the token belongs to (``GET /users/@me``);
3. asks Discord about the Activity instance (``GET /applications/{id}/activity-instances/{id}``,
   with the bot's token): its channel, and the users in it, who must include this user;
4. finds the game played in that channel (a game's thread), and the user's seat in it (none: a
   spectator, who sees the public view only).

It answers with a session token (``web.sessions``) and the access token, which the page hands to
the SDK's ``authenticate``. An Activity instance is a session, not a game: the game comes from
the instance's channel. A launch from a link (``custom_id`` ``game-<id>``, as turn reminders
carry) outside the game's thread names a game only where the user holds a seat.

Discord's proxy signs the requests it forwards (Ed25519: ``X-Signature-Ed25519`` over
``X-Signature-Timestamp`` + body, with the application's public key). ``proxy_signatures``
refuses a request whose signature is forged, stale or replayed, and, with
``ACTIVITY_REQUIRE_SIGNATURES``, every request that is not signed.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
from aiohttp import web
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

import i18n
from cogs.activity import NOT_SET_UP
from cogs.service import NOT_PLAYED, STATUS_TEXT
from i18n import N_, Lang
from web.sessions import Viewer

log = logging.getLogger(__name__)

TOKEN_ROUTE = "/api/discord/token"
CONFIG_ROUTE = "/api/discord/config"
BUNDLE_ROUTE = "/activity/"
BUNDLE_DIR = Path(__file__).resolve().parent.parent / "webapp" / "dist"
"""The Activity's client, built by the project's scripts (webapp/build.mjs): its file name
carries a hash of its content, so it is served as never changing."""
MAX_BODY = 2048  # a code, an instance id and a custom id: far less than this
MAX_FIELD = 256
MAX_SIGNED_BODY = 64 * 1024  # what the signature check reads whole
SIGNATURE_WINDOW = 60  # seconds a signed request stays acceptable (clock skew and the network)
DISCORD_TIMEOUT = aiohttp.ClientTimeout(total=10)
CUSTOM_GAME = re.compile(r"game-([0-9]{1,18})")
NUMBER = re.compile(r"[0-9]{1,20}")  # a timestamp or a snowflake, ASCII digits only

HTTP: web.AppKey[aiohttp.ClientSession] = web.AppKey("discord_http", aiohttp.ClientSession)

# What a refused page is told (in the language of the browser's Discord client).
BAD_REQUEST = N_(
    "The board could not start: the request was malformed. Close it and open it again."
)
BAD_CODE = N_("Discord did not confirm who you are. Close the board and open it again.")
NOT_IN_INSTANCE = N_(
    "Discord does not show you in this board's session. Open it again from the game's thread."
)
NO_GAME = N_(
    "No game of Ada's Dream is played in this channel. Open the board from a game's thread."
)
DISCORD_DOWN = N_("Discord did not answer in time. Please try again in a moment.")
BAD_SIGNATURE = N_("This request did not come through Discord, or came too late.")


class Refused(Exception):
    """A request that gets a clear refusal and changes nothing."""

    def __init__(self, status: int, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.fields = status, message, fields

    def response(self, tr: Lang) -> web.Response:
        text = tr._(self.message, **self.fields)
        return web.json_response({"error": text}, status=self.status)


def lang_of(request: web.Request) -> Lang:
    """The page's language: its Discord client's (the browser's Accept-Language)."""
    first = request.headers.get("Accept-Language", "").split(",")[0].split(";")[0]
    return i18n.get(first or None)


# -------------------------------------------------------------------- Discord's proxy signatures


@dataclass
class ProxySignatures:
    """Checks Discord's proxy signatures; remembers the signatures seen within the window, so
    that a request replayed while its timestamp is still fresh is refused too."""

    public_key: str
    clock: Callable[[], Any]
    required: bool
    window: int = SIGNATURE_WINDOW
    seen: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.key = VerifyKey(bytes.fromhex(self.public_key))

    def check(self, signature: str | None, timestamp: str | None, body: bytes) -> None:
        """Raise Refused unless the request is signed well and fresh (or unsigned, when
        signatures are not required)."""
        if signature is None and timestamp is None and not self.required:
            return
        if (
            not signature
            or not timestamp
            or not NUMBER.fullmatch(timestamp)
            or len(signature) != 128
        ):
            raise Refused(401, BAD_SIGNATURE)
        now = int(self.clock().timestamp())
        if abs(now - int(timestamp)) > self.window:
            raise Refused(401, BAD_SIGNATURE)
        try:
            self.key.verify(timestamp.encode() + body, bytes.fromhex(signature))
        except (BadSignatureError, ValueError):
            raise Refused(401, BAD_SIGNATURE) from None
        if not body:
            # (every bodiless request of one second has the same signature: only the window
            # bounds their replay; they change nothing)
            return
        for old in [s for s, at in self.seen.items() if now - at > self.window]:
            del self.seen[old]
        if signature in self.seen:
            raise Refused(401, BAD_SIGNATURE)
        self.seen[signature] = int(timestamp)


def proxy_signatures(
    checker: ProxySignatures,
) -> Callable[[web.Request, Any], Awaitable[web.StreamResponse]]:
    """The middleware: each request through Discord's proxy checked before any handler runs."""

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        signature = request.headers.get("X-Signature-Ed25519")
        timestamp = request.headers.get("X-Signature-Timestamp")
        if signature is None and timestamp is None and not checker.required:
            return await handler(request)  # not through Discord's proxy (offline table)
        try:
            if (request.content_length or 0) > MAX_SIGNED_BODY:
                raise Refused(413, BAD_REQUEST)  # a signed body is read whole to check it
            body = await request.read() if request.can_read_body else b""
            checker.check(signature, timestamp, body)
        except Refused as refused:
            log.info("refused %s %s: %s", request.method, request.path, refused.message)
            return refused.response(lang_of(request))
        return await handler(request)

    return middleware


# -------------------------------------------------------------------- the code exchange


@dataclass(frozen=True)
class Launch:
    """What the page posts: the OAuth2 code, its Activity instance and the launch's custom id."""

    code: str
    instance_id: str
    custom_id: str | None


def read_launch(body: bytes) -> Launch:
    """The posted JSON, checked field by field (Refused if anything is off)."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, BAD_REQUEST) from None
    if not isinstance(data, dict):
        raise Refused(400, BAD_REQUEST)
    code, instance, custom = data.get("code"), data.get("instance_id"), data.get("custom_id")
    for value, needed in ((code, True), (instance, True), (custom, False)):
        if value is None and not needed:
            continue
        if not isinstance(value, str) or not 0 < len(value) <= MAX_FIELD or not value.isprintable():
            raise Refused(400, BAD_REQUEST)
    return Launch(code, instance, custom)  # type: ignore[arg-type]


class Discord:
    """The three calls to Discord's API the exchange makes."""

    def __init__(self, http: aiohttp.ClientSession, settings: Any) -> None:
        self.http, self.settings = http, settings

    async def _json(self, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
        url = self.settings.api_base + path
        try:
            async with self.http.request(method, url, timeout=DISCORD_TIMEOUT, **kwargs) as res:
                if res.status >= 500:
                    raise Refused(502, DISCORD_DOWN)
                try:
                    return res.status, await res.json(content_type=None)
                except ValueError:
                    return res.status, None
        except (aiohttp.ClientError, TimeoutError):
            log.warning("Discord's API did not answer %s %s", method, path, exc_info=True)
            raise Refused(502, DISCORD_DOWN) from None

    async def access_token(self, code: str) -> str:
        status, data = await self._json(
            "POST",
            "/oauth2/token",
            data={
                "client_id": self.settings.client_id,
                "client_secret": self.settings.client_secret,
                "grant_type": "authorization_code",
                "code": code,
            },
        )
        token = data.get("access_token") if status == 200 and isinstance(data, dict) else None
        if not isinstance(token, str) or not token:
            raise Refused(401, BAD_CODE)
        return token

    async def user_id(self, access_token: str) -> int:
        status, data = await self._json(
            "GET", "/users/@me", headers={"Authorization": f"Bearer {access_token}"}
        )
        user = data.get("id") if status == 200 and isinstance(data, dict) else None
        if not isinstance(user, str) or not NUMBER.fullmatch(user):
            raise Refused(401, BAD_CODE)
        return int(user)

    async def instance(self, instance_id: str) -> dict[str, Any]:
        app = self.settings.client_id
        status, data = await self._json(
            "GET",
            f"/applications/{app}/activity-instances/{quote(instance_id, safe='')}",
            headers={"Authorization": f"Bot {self.settings.bot_token}"},
        )
        if status != 200 or not isinstance(data, dict) or str(data.get("application_id")) != app:
            raise Refused(403, NOT_IN_INSTANCE)
        return data


async def viewer_of(ctx: Any, discord: Discord, launch: Launch) -> tuple[Viewer, str]:
    """The viewer this launch is for, established with Discord (Refused otherwise), and the
    user's access token."""
    access_token = await discord.access_token(launch.code)
    user_id = await discord.user_id(access_token)
    instance = await discord.instance(launch.instance_id)
    users = instance.get("users")
    location = instance.get("location")
    if not isinstance(users, list) or str(user_id) not in map(str, users):
        raise Refused(403, NOT_IN_INSTANCE)
    channel = str(location.get("channel_id", "")) if isinstance(location, dict) else ""
    rec = await ctx.store.game_in_thread(int(channel)) if NUMBER.fullmatch(channel) else None
    if rec is None and launch.custom_id:  # a link (a reminder's): a game where they are seated
        named = CUSTOM_GAME.fullmatch(launch.custom_id)
        if named:
            mine = await ctx.store.games_for_user(user_id, None)
            rec = next((g for g in mine if g.id == int(named[1])), None)
    if rec is None:
        raise Refused(404, NO_GAME)
    if rec.status not in ("active", "finished"):  # (a finished game: its replay)
        raise Refused(409, STATUS_TEXT.get(rec.status, NOT_PLAYED), id=rec.id)
    return Viewer(user_id, rec.id, rec.seat_of(user_id), via="discord"), access_token


def script_path(dist: Path = BUNDLE_DIR) -> str | None:
    """The URL path of the Activity's client for the board page's ``<script>`` (the built
    bundle's content-hashed name), or None when it was not built (no node/npm)."""
    try:
        name = json.loads((dist / "manifest.json").read_text())["discord.js"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return BUNDLE_ROUTE + name if (dist / name).is_file() else None


def setup(app: web.Application, ctx: Any) -> None:
    """Add the Activity's routes (the token exchange, the client and its settings) and the
    proxy signature check to ``app``; when the Activity is off (ACTIVITY_CLIENT_ID empty), only
    a settings route that says so."""
    settings = ctx.config.activity
    if not settings.enabled:
        # (launched from Discord's App Launcher all the same: the page says why it can't open)
        async def off(request: web.Request) -> web.Response:
            return Refused(404, NOT_SET_UP).response(lang_of(request))

        app.router.add_get(CONFIG_ROUTE, off)
        return
    app.middlewares.append(
        proxy_signatures(
            ProxySignatures(settings.public_key, ctx.clock, settings.require_signatures)
        )
    )

    async def open_http(app: web.Application) -> Any:
        app[HTTP] = aiohttp.ClientSession()
        yield
        await app[HTTP].close()

    app.cleanup_ctx.append(open_http)

    async def exchange(request: web.Request) -> web.Response:
        """POST {code, instance_id[, custom_id]} -> {token, access_token, game, seat}."""
        tr = lang_of(request)
        try:
            if request.content_length is None or request.content_length > MAX_BODY:
                raise Refused(400, BAD_REQUEST)
            launch = read_launch(await request.read())
            viewer, access_token = await viewer_of(ctx, Discord(app[HTTP], settings), launch)
        except Refused as refused:
            log.info("Activity sign-in refused: %s", refused.message)
            return refused.response(tr)
        log.info("Activity sign-in: user %s, game %s, seat %s", *_who(viewer))
        return web.json_response(
            {
                "token": ctx.sessions.issue(viewer),
                "access_token": access_token,  # the SDK's authenticate() needs it
                "game": viewer.game_id,
                "seat": viewer.seat,
            },
            headers={"Cache-Control": "no-store"},
        )

    async def config(request: web.Request) -> web.Response:
        """The public part of the settings the page's SDK needs: the application's id."""
        return web.json_response({"client_id": settings.client_id})

    async def bundle(request: web.Request) -> web.StreamResponse:
        """The built client: its name changes with its content, so it may be cached for good."""
        name = request.match_info["name"]
        path = BUNDLE_DIR / name
        if not re.fullmatch(r"discord-[A-Z0-9]+\.js", name) or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(
            path,
            headers={
                "Content-Type": "text/javascript; charset=utf-8",
                "Cache-Control": "public, max-age=31536000, immutable",
            },
        )

    app.router.add_post(TOKEN_ROUTE, exchange)
    app.router.add_get(CONFIG_ROUTE, config)
    app.router.add_get(BUNDLE_ROUTE + "{name}", bundle)


def _who(viewer: Viewer) -> tuple[int, int, int | None]:
    return viewer.user_id, viewer.game_id, viewer.seat
