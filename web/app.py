"""The board page's aiohttp application, served by the bot's own process.

    app = make_app(ctx)                  # ctx: web.context.WebContext
    server = await start(ctx)            # WEB_PORT set: bot.py starts it at start-up
    await server.stop()                  # and stops it on shutdown

What every response gets, as Discord's Activities require and as a page holding a session should:
- a Content-Security-Policy that allows only this origin (an Activity reaches the server only
  through Discord's proxy, on the paths the URL mapping maps: everything here is under one
  mapping, ``/``);
- static files under names carrying a digest of their content (``/static/board.3f2a9c1e.js``),
  cached for a year; the HTML itself is never cached, so a new version is picked up at once;
- no cookie: the page holds its session token and sends it in an ``Authorization`` header;
- request bodies of at most ``MAX_BODY`` bytes (413 beyond), JSON only (415 otherwise), and
  every error answered as JSON with a message in the asker's language.

A file added to ``webapp/`` is served the same way (``/static/<name>.<digest>.<ext>``); a page
or a stylesheet names it ``{{file.ext}}`` and gets its digested address (as ``board.html`` names
``board.js``). ``web.discord_auth.setup(app, ctx)`` adds the Activity's side (with
ACTIVITY_CLIENT_ID set: its routes, its bundle, and a middleware checking Discord's proxy
signatures).
"""

from __future__ import annotations

import hashlib
import logging
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

import i18n
from i18n import N_
from web.context import WebContext

log = logging.getLogger(__name__)

WEBAPP = Path(__file__).resolve().parent.parent / "webapp"
MAX_BODY = 8 * 1024  # a move is a few dozen bytes
CTX = web.AppKey("ctx", WebContext)
ASSETS = web.AppKey("assets", dict)
CSP = (
    "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'self' https://discord.com https://*.discord.com "
    "https://*.discordsays.com"
)
SOMETHING_WRONG = N_("Something went wrong on my side; nothing was changed. Please try again.")
PAGES = ("board.html", "local.html")
"""The pages: their asset names are replaced by the digested ones when served."""


@dataclass(frozen=True)
class Asset:
    name: str  # the digested name: board.3f2a9c1e.js
    body: bytes
    content_type: str


FONTS = Path(__file__).resolve().parent.parent / "render" / "fonts"
WEB_FONTS = ("NotoSansJP-Regular.ttf", "NotoSansJP-Bold.ttf")
"""The Japanese fonts the pictures use, served to the page too (a device may have no Japanese
font); a browser fetches one only for a page with Japanese text in it (``unicode-range``)."""


def _asset(name: str, body: bytes) -> Asset:
    digest = hashlib.sha256(body).hexdigest()[:10]
    stem, dot, ext = name.rpartition(".")
    kind = "text/javascript" if ext == "js" else mimetypes.guess_type(name)[0]
    return Asset(f"{stem}.{digest}{dot}{ext}", body, kind or "application/octet-stream")


def load_assets(root: Path = WEBAPP, fonts: Path = FONTS) -> dict[str, Asset]:
    """Every static file of webapp/ (and the Japanese fonts) by its plain name, with its
    digested name. A file naming another as ``{{name}}`` gets that file's digested name (so a
    changed font changes the stylesheet's name too)."""
    assets = {name: _asset(name, (fonts / name).read_bytes()) for name in WEB_FONTS}
    for path in sorted(root.iterdir()):
        if not path.is_file() or path.name in PAGES or path.name.startswith("."):
            continue
        body = path.read_bytes()
        for plain, asset in list(assets.items()):
            body = body.replace(b"{{" + plain.encode() + b"}}", asset.name.encode())
        assets[path.name] = _asset(path.name, body)
    return assets


def page_html(name: str, assets: dict[str, Asset], root: Path = WEBAPP) -> str:
    """A page with ``{{file}}`` replaced by the file's digested address."""
    html = (root / name).read_text(encoding="utf-8")
    for plain, asset in assets.items():
        html = html.replace("{{" + plain + "}}", f"static/{asset.name}")
    return html


@web.middleware
async def guarded(request: web.Request, handler: Any) -> web.StreamResponse:
    """Security headers on every answer, and errors answered as JSON."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        if exc.content_type == "application/json" or exc.status < 400:
            secure_headers(exc)
            raise
        response = web.json_response({"error": exc.reason}, status=exc.status)
    except Exception:  # a fault of ours: logged, and told without its details
        log.exception("the board page failed on %s %s", request.method, request.path)
        first = request.headers.get("Accept-Language", "").split(",")[0].split(";")[0]
        text = i18n.get(first or None)._(SOMETHING_WRONG)
        response = web.json_response({"error": text}, status=500)
    secure_headers(response)
    return response


def secure_headers(response: web.StreamResponse) -> None:
    """The headers every answer carries (an answer may set its own Cache-Control)."""
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Cache-Control", "no-store")


async def static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    for asset in request.app[ASSETS].values():
        if asset.name == name:
            return web.Response(
                body=asset.body,
                content_type=asset.content_type,
                headers={"Cache-Control": "public, max-age=31536000, immutable"},
            )
    raise web.HTTPNotFound()


def make_app(ctx: WebContext) -> web.Application:
    """The board page's application for a running bot (``ctx``)."""
    from web import board, discord_auth

    app = web.Application(client_max_size=MAX_BODY, middlewares=[guarded])
    app[CTX] = ctx
    app[ASSETS] = load_assets()
    app.router.add_get("/static/{name}", static)
    board.setup(app, ctx)
    # the Activity's side (OAuth2, Discord's proxy): with the Activity off, only a route that
    # says so to a page Discord's App Launcher opened all the same
    discord_auth.setup(app, ctx)
    app.on_shutdown.append(_close_streams)
    return app


async def _close_streams(app: web.Application) -> None:
    app[CTX].live.close()


class Server:
    """The running board page (``start``): its address, and ``stop``."""

    def __init__(self, runner: web.AppRunner, site: web.TCPSite, ctx: WebContext) -> None:
        self.runner, self.site, self.ctx = runner, site, ctx

    @property
    def port(self) -> int:
        server = self.site._server
        sockets = getattr(server, "sockets", None) or []
        return int(sockets[0].getsockname()[1]) if sockets else 0

    @property
    def url(self) -> str:
        """The page's address as players reach it (PUBLIC_URL, else this host and port)."""
        public = self.ctx.config.public_url.rstrip("/")
        return public or f"http://{self.ctx.config.web_host}:{self.port}"

    async def stop(self) -> None:
        self.ctx.live.close()
        await self.runner.cleanup()
        log.info("the board page stopped")


async def start(ctx: WebContext, port: int | None = None) -> Server:
    """Serve the board page on WEB_HOST:WEB_PORT (``port`` overrides; 0: any free port)."""
    app = make_app(ctx)
    ctx.live.closing = False  # (a server started again after a stop follows games again)
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=2.0)
    await runner.setup()
    site = web.TCPSite(runner, ctx.config.web_host, ctx.config.web_port if port is None else port)
    await site.start()
    server = Server(runner, site, ctx)
    log.info("the board page is served on %s", server.url)
    return server
