"""A fake of the few Discord API endpoints the Activity's sign-in calls (issue 32), as an aiohttp
server on 127.0.0.1, and a small web app around ``web.discord_auth`` for the tests.

Endpoints, as Discord documents them:
- ``POST /oauth2/token`` (form: client_id, client_secret, grant_type=authorization_code, code):
  a code ``code-<user id>`` gives the access token ``token-<user id>``; any other code, or the
  wrong client secret, is ``400 invalid_grant``.
- ``GET /users/@me`` (``Authorization: Bearer <access token>``): ``{"id": "<user id>", ...}``.
- ``GET /applications/{app}/activity-instances/{instance}`` (``Authorization: Bot <token>``):
  the instance's ``application_id``, ``instance_id``, ``launch_id``, ``location``
  (``{id, kind: "gc", channel_id, guild_id}``) and ``users``, or ``404`` (code 10xxx).

``board_server`` is a small web app around ``web.discord_auth`` alone (a context of the same
field names as ``web.context.WebContext``: ``service, store, sessions, config, clock``);
tests/test_web_activity_e2e.py points the real bot's web server at the fake instead
(``fake_discord_api``, ``activity_settings``). ``parent_page`` is a fake Discord client's page,
which iframes the Activity and speaks the Embedded App SDK's side of Discord's client.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from cogs.config import ActivitySettings
from web import discord_auth
from web.sessions import Sessions, Viewer

APP_ID = "111222333444555666"
SECRET = "the-client-secret"
BOT_TOKEN = "the-bot-token"
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@dataclass
class FakeDiscord:
    """The fake's state: its Activity instances, and every call it was asked."""

    instances: dict[str, dict[str, Any]] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    down: bool = False

    def add_instance(self, instance_id: str, channel_id: int, guild_id: int, users: list[int]):
        self.instances[instance_id] = {
            "application_id": APP_ID,
            "instance_id": instance_id,
            "launch_id": "1276580072400224306",
            "location": {
                "id": f"gc-{guild_id}-{channel_id}",
                "kind": "gc",
                "channel_id": str(channel_id),
                "guild_id": str(guild_id),
            },
            "users": [str(u) for u in users],
        }

    def app(self) -> web.Application:
        app = web.Application()

        async def token(request: web.Request) -> web.Response:
            self.calls.append("token")
            if self.down:
                return web.json_response({"message": "down"}, status=503)
            form = await request.post()
            code = str(form.get("code", ""))
            ok = (
                form.get("client_id") == APP_ID
                and form.get("client_secret") == SECRET
                and form.get("grant_type") == "authorization_code"
                and code.startswith("code-")
            )
            if not ok:
                return web.json_response({"error": "invalid_grant"}, status=400)
            return web.json_response(
                {
                    "access_token": "token-" + code[5:],
                    "token_type": "Bearer",
                    "expires_in": 604800,
                    "scope": "identify",
                }
            )

        async def me(request: web.Request) -> web.Response:
            self.calls.append("me")
            auth = request.headers.get("Authorization", "")
            if not auth.startswith("Bearer token-"):
                return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
            user = auth.removeprefix("Bearer token-")
            return web.json_response({"id": user, "username": f"user{user}", "discriminator": "0"})

        async def instance(request: web.Request) -> web.Response:
            self.calls.append("instance")
            if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
                return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
            found = self.instances.get(request.match_info["instance"])
            if request.match_info["app"] != APP_ID or found is None:
                return web.json_response({"message": "Unknown", "code": 10064}, status=404)
            return web.json_response(found)

        app.router.add_post("/api/v10/oauth2/token", token)
        app.router.add_get("/api/v10/users/@me", me)
        app.router.add_get("/api/v10/applications/{app}/activity-instances/{instance}", instance)
        return app


class CountingSessions(Sessions):
    """Sessions that count what they issued (a refusal must issue nothing)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.issued: list[Viewer] = []

    def issue(self, viewer: Viewer) -> str:
        self.issued.append(viewer)
        return super().issue(viewer)


@contextlib.asynccontextmanager
async def fake_discord_api(fake: FakeDiscord) -> AsyncIterator[TestServer]:
    """The fake's endpoints served on 127.0.0.1 (``api_base_of`` gives their base address)."""
    server = TestServer(fake.app())
    await server.start_server()
    try:
        yield server
    finally:
        await server.close()


def api_base_of(server: TestServer) -> str:
    """What ACTIVITY_API_BASE is set to for the fake (Discord's is .../api/v10)."""
    return str(server.make_url("/api/v10"))


def activity_settings(
    api_base: str = "", *, public_key: str = "", required: bool = False
) -> ActivitySettings:
    """The Activity's settings of the fake's application (``api_base``: the fake's)."""
    return ActivitySettings(
        client_id=APP_ID,
        client_secret=SECRET,
        public_key=public_key or "00" * 32,
        bot_token=BOT_TOKEN,
        require_signatures=required,
        **({"api_base": api_base} if api_base else {}),
    )


@contextlib.asynccontextmanager
async def board_server(
    store: Any,
    fake: FakeDiscord,
    *,
    public_key: str = "",
    required: bool = False,
    clock: Callable[[], datetime] | None = None,
    pages: Callable[[web.Application], None] | None = None,
) -> AsyncIterator[tuple[TestClient, Any, TestServer]]:
    """The fake Discord and a web app with the Activity's sign-in pointed at it (and the
    test's own ``pages``); yields the app's test client, its context and the fake's server."""
    async with fake_discord_api(fake) as discord_server:
        now = clock or (lambda: T0)
        settings = activity_settings(
            api_base_of(discord_server), public_key=public_key, required=required
        )
        ctx = SimpleNamespace(
            service=None,
            store=store,
            sessions=CountingSessions(b"k" * 32, now),
            config=SimpleNamespace(activity=settings),
            clock=now,
        )
        app = web.Application()
        discord_auth.setup(app, ctx)
        if pages is not None:
            pages(app)
        async with TestClient(TestServer(app)) as client:
            yield client, ctx, discord_server


PARENT = """<!doctype html>
<meta charset="utf-8"><title>A fake Discord client</title>
<iframe id="activity" width="%(width)s" height="%(height)s" src="%(src)s?frame_id=f-1&instance_id=%(instance)s&channel_id=%(channel)s&guild_id=%(guild)s&platform=desktop"></iframe>
<script>
// Discord's client side of the Embedded App SDK's protocol: [opcode, payload] messages,
// opcode 0 HANDSHAKE (answered by the READY event), 1 FRAME (commands, answered by nonce).
window.__log = [];
const USER = {id: "%(user)s", username: "player", discriminator: "0", avatar: null,
              public_flags: 0, global_name: "Player"};
const frame = () => document.getElementById("activity").contentWindow;
window.addEventListener("message", (event) => {
  if (event.source !== frame() || !Array.isArray(event.data)) return;
  const [op, payload] = event.data;
  window.__log.push({op, cmd: payload.cmd || null, args: payload.args || null,
                     client_id: payload.client_id || null, frame_id: payload.frame_id || null});
  const reply = (message) => frame().postMessage([1, message], location.origin);
  if (op === 0) {
    reply({cmd: "DISPATCH", evt: "READY", nonce: null, data: {
      v: 1, config: {api_endpoint: "//discord.com/api", environment: "production",
                     cdn_host: "cdn.discordapp.com"},
      user: {id: USER.id, username: USER.username, discriminator: "0"}}});
  } else if (op === 1 && payload.cmd === "AUTHORIZE") {
    reply({cmd: "AUTHORIZE", evt: null, nonce: payload.nonce, data: {code: "%(code)s"}});
  } else if (op === 1 && payload.cmd === "AUTHENTICATE") {
    if (payload.args.access_token !== "token-" + USER.id) {
      reply({cmd: "AUTHENTICATE", evt: "ERROR", nonce: payload.nonce,
             data: {code: 4009, message: "Invalid token"}});
      return;
    }
    reply({cmd: "AUTHENTICATE", evt: null, nonce: payload.nonce, data: {
      access_token: payload.args.access_token, user: USER, scopes: ["identify"],
      expires: "2026-12-08T12:00:00.000Z",
      application: {id: "%(app)s", name: "Ada's Dream", description: "", icon: null}}});
  }
  // (other commands, such as the SDK's CAPTURE_LOG, get no answer here)
});
</script>
"""


def parent_page(
    src: str,
    instance: str,
    channel: int,
    guild: int,
    user: int | str,
    *,
    width: int = 400,
    height: int = 300,
) -> str:
    """A fake Discord client's page for ``user``: it iframes the Activity's page ``src`` with
    the query parameters Discord gives and answers the SDK's handshake and commands (the fake's
    code for that user, so that the server's exchange signs them in). The SDK answers only a
    parent on one of Discord's origins or on its own: serve this page from the page's origin."""
    return PARENT % {
        "src": src,
        "instance": instance,
        "channel": channel,
        "guild": guild,
        "user": user,
        "code": f"code-{user}",
        "app": APP_ID,
        "width": width,
        "height": height,
    }


def need_browser_and_client() -> None:
    """Chromium and the Activity's built client; without chromium (as the offline screenshots'
    tests) or without node and npm, the test is skipped saying why. Under CI, with node there,
    a missing build fails."""
    if shutil.which("chromium") is None and shutil.which("chromium-browser") is None:
        pytest.skip("chromium is not installed (Debian: apt-get install chromium)")
    if discord_auth.script_path() is None:
        why = "the Activity's client is not built (./scripts/test builds it with node and npm)"
        if os.environ.get("CI", "").lower() == "true" and shutil.which("node"):
            pytest.fail(why)
        pytest.skip(why)
