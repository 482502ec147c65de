"""The Activity's sign-in (issue 32, ``web.discord_auth``) against a fake of Discord's API
(tests/fake_discord.py): the OAuth2 code exchanged on the server, the user and the game found
from Discord's side (the Activity instance's users and channel, the game of that thread), the
seat from the game's seats; every bad request refused clearly, with no session issued; Discord's
proxy signatures checked (forged, stale, replayed)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from nacl.signing import SigningKey

from cogs.config import ActivitySettings, activity_settings
from store import Store
from tests.fake_discord import APP_ID, SECRET, T0, FakeDiscord, board_server
from web import discord_auth
from web.sessions import Viewer

GUILD, CHANNEL, THREAD = 900, 901, 902
ALICE, BOB, CAROL, STRANGER = 10, 11, 12, 99


@pytest.fixture
async def store(tmp_path: Any) -> Any:
    s = await Store.open(str(tmp_path / "web.db"))
    yield s
    await s.close()


@pytest.fixture
async def game(store: Any) -> int:
    """An active game of alice, bob and carol, played in thread THREAD."""
    gid = await store.create_game(GUILD, CHANNEL, ALICE, {"players": 3})
    for user, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
        await store.add_seat(gid, name=name, user_id=user)
    await store.set_thread(gid, THREAD)
    await store.start_game(gid, 7)
    return gid


def launch(user: int, instance: str = "i-1", **extra: Any) -> dict[str, Any]:
    return {"code": f"code-{user}", "instance_id": instance, **extra}


async def post(client: Any, body: Any, **headers: str) -> tuple[int, dict[str, Any]]:
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    res = await client.post(
        discord_auth.TOKEN_ROUTE,
        data=data,
        headers={"Content-Type": "application/json", **headers},
    )
    return res.status, await res.json()


class TestTheExchange:
    async def test_a_seated_player_gets_a_session_for_their_seat_in_the_thread_s_game(
        self, store: Any, game: int
    ) -> None:
        fake = FakeDiscord()
        fake.add_instance("i-1", THREAD, GUILD, [ALICE, BOB])
        async with board_server(store, fake) as (client, ctx, _):
            status, body = await post(client, launch(ALICE))
        assert status == 200, body
        rec = await store.get_game(game)
        assert ctx.sessions.read(body["token"]) == Viewer(
            ALICE, game, rec.seat_of(ALICE), via="discord"
        )
        assert body["seat"] == rec.seat_of(ALICE) and body["game"] == game
        assert body["access_token"] == f"token-{ALICE}"  # for the SDK's authenticate()
        assert SECRET not in json.dumps(body)
        assert fake.calls == ["token", "me", "instance"]

    async def test_a_member_without_a_seat_is_a_spectator(self, store: Any, game: int) -> None:
        fake = FakeDiscord()
        fake.add_instance("i-1", THREAD, GUILD, [ALICE, STRANGER])
        async with board_server(store, fake) as (client, ctx, _):
            status, body = await post(client, launch(STRANGER))
        assert status == 200
        assert ctx.sessions.read(body["token"]) == Viewer(STRANGER, game, None, via="discord")

    async def test_what_the_client_claims_about_the_game_is_not_believed(
        self, store: Any, game: int
    ) -> None:
        """The body's own game, seat or user fields are ignored: Discord's answers count."""
        fake = FakeDiscord()
        fake.add_instance("i-1", THREAD, GUILD, [STRANGER])
        async with board_server(store, fake) as (client, ctx, _):
            status, body = await post(
                client, launch(STRANGER, game=game + 5, seat=0, user_id=ALICE)
            )
        assert status == 200
        assert ctx.sessions.read(body["token"]) == Viewer(STRANGER, game, None, via="discord")


class TestRefusals:
    """Each: a clear message, and no session issued."""

    async def refused(
        self, store: Any, fake: FakeDiscord, body: Any, status: int, **headers: str
    ) -> str:
        async with board_server(store, fake) as (client, ctx, _):
            got, answer = await post(client, body, **headers)
        assert got == status, answer
        assert ctx.sessions.issued == [] and set(answer) == {"error"}
        return str(answer["error"])

    async def test_a_bad_code(self, store: Any, game: int) -> None:
        fake = FakeDiscord()
        fake.add_instance("i-1", THREAD, GUILD, [ALICE])
        said = await self.refused(store, fake, {"code": "forged", "instance_id": "i-1"}, 401)
        assert "Discord did not confirm who you are" in said
        assert fake.calls == ["token"]

    async def test_a_user_not_in_the_instance(self, store: Any, game: int) -> None:
        fake = FakeDiscord()
        fake.add_instance("i-1", THREAD, GUILD, [BOB])
        said = await self.refused(store, fake, launch(ALICE), 403)
        assert "does not show you in this board's session" in said

    async def test_an_instance_discord_does_not_know(self, store: Any, game: int) -> None:
        fake = FakeDiscord()
        await self.refused(store, fake, launch(ALICE, "i-unknown"), 403)

    async def test_an_instance_whose_channel_is_no_game_s_thread(
        self, store: Any, game: int
    ) -> None:
        fake = FakeDiscord()
        fake.add_instance("i-1", CHANNEL, GUILD, [ALICE])  # the channel, not the game's thread
        said = await self.refused(store, fake, launch(ALICE), 404)
        assert "No game of Ada's Dream is played in this channel" in said

    async def test_a_link_s_game_only_for_a_player_seated_in_it(
        self, store: Any, game: int
    ) -> None:
        """A reminder's link launches the Activity elsewhere with ``custom_id`` game-<id>: it
        names the game only for someone seated there."""
        fake = FakeDiscord()
        fake.add_instance("i-dm", 555, GUILD, [ALICE, STRANGER])
        await self.refused(store, fake, launch(STRANGER, "i-dm", custom_id=f"game-{game}"), 404)
        async with board_server(store, fake) as (client, ctx, _):
            status, body = await post(client, launch(ALICE, "i-dm", custom_id=f"game-{game}"))
        assert status == 200
        assert ctx.sessions.read(body["token"]).game_id == game

    async def test_a_game_still_in_its_lobby(self, store: Any) -> None:
        gid = await store.create_game(GUILD, CHANNEL, ALICE, {"players": 3})
        await store.set_thread(gid, THREAD)
        fake = FakeDiscord()
        fake.add_instance("i-1", THREAD, GUILD, [ALICE])
        said = await self.refused(store, fake, launch(ALICE), 409)
        assert said == f"Game #{gid} hasn't started yet."

    async def test_a_cancelled_game(self, store: Any, game: int) -> None:
        await store.cancel_game(game)
        fake = FakeDiscord()
        fake.add_instance("i-1", THREAD, GUILD, [ALICE])
        said = await self.refused(store, fake, launch(ALICE), 409)
        assert said == f"Game #{game} was cancelled."

    @pytest.mark.parametrize(
        "body",
        [
            b"not json",
            b"\xff\xfe",
            "[1, 2]",
            {"instance_id": "i-1"},
            {"code": "code-10"},
            {"code": 10, "instance_id": "i-1"},
            {"code": "", "instance_id": "i-1"},
            {"code": "x" * 300, "instance_id": "i-1"},
            {"code": "code-10\n", "instance_id": "i-1"},
            {"code": "code-10", "instance_id": "i-1", "custom_id": ["game-1"]},
            {"code": "code-10", "instance_id": "i" * 5000},
        ],
        ids=[
            "not-json",
            "not-utf8",
            "a-list",
            "no-code",
            "no-instance",
            "code-not-text",
            "empty-code",
            "long-code",
            "control-char",
            "custom-id-list",
            "huge",
        ],
    )
    async def test_a_malformed_body_never_reaches_discord(
        self, store: Any, game: int, body: Any
    ) -> None:
        fake = FakeDiscord()
        fake.add_instance("i-1", THREAD, GUILD, [ALICE])
        said = await self.refused(store, fake, body, 400)
        assert "the request was malformed" in said
        assert fake.calls == []

    async def test_discord_down(self, store: Any, game: int) -> None:
        fake = FakeDiscord(down=True)
        said = await self.refused(store, fake, launch(ALICE), 502)
        assert "Discord did not answer in time" in said

    async def test_a_refusal_in_the_page_s_language(self, store: Any, game: int) -> None:
        fake = FakeDiscord()
        said = await self.refused(
            store, fake, {"code": "x"}, 400, **{"Accept-Language": "es-ES,es;q=0.9"}
        )
        assert said.startswith("El tablero no pudo abrirse")


class TestProxySignatures:
    """Discord's proxy signs each request it forwards: X-Signature-Ed25519 over
    X-Signature-Timestamp + body, with the application's public key."""

    KEY = SigningKey(b"s" * 32)

    def signed(self, body: bytes, at: int, key: SigningKey | None = None) -> dict[str, str]:
        signature = (key or self.KEY).sign(str(at).encode() + body).signature.hex()
        return {"X-Signature-Ed25519": signature, "X-Signature-Timestamp": str(at)}

    async def test_signed_forged_stale_replayed_and_unsigned(self, store: Any, game: int) -> None:
        fake = FakeDiscord()
        fake.add_instance("i-1", THREAD, GUILD, [ALICE])
        now = {"t": T0}
        public = self.KEY.verify_key.encode().hex()
        body = json.dumps(launch(ALICE)).encode()
        at = int(T0.timestamp())
        async with board_server(
            store, fake, public_key=public, required=True, clock=lambda: now["t"]
        ) as (client, ctx, _):
            unsigned = await post(client, body)
            forged = await post(client, body, **self.signed(body, at, SigningKey(b"f" * 32)))
            altered = await post(client, body.replace(b"i-1", b"i-2"), **self.signed(body, at))
            stale = await post(client, body, **self.signed(body, at - 600))
            future = await post(client, body, **self.signed(body, at + 600))
            odd = await post(
                client,
                body,
                **{"X-Signature-Ed25519": "ab" * 64, "X-Signature-Timestamp": "\u00b2" * 3},
            )
            assert ctx.sessions.issued == [] and fake.calls == []
            good = await post(client, body, **self.signed(body, at))
            replayed = await post(client, body, **self.signed(body, at))
            now["t"] = T0 + timedelta(seconds=30)
            fresh = await post(client, body, **self.signed(body, at + 30))
            # every route, not only the sign-in: a GET without a body is signed too
            other = await client.get(discord_auth.CONFIG_ROUTE)
            signed_get = await client.get(
                discord_auth.CONFIG_ROUTE, headers=self.signed(b"", at + 30)
            )
        assert other.status == 401 and signed_get.status == 200
        for status, answer in (unsigned, forged, altered, stale, future, odd, replayed):
            assert status == 401 and "did not come through Discord" in answer["error"]
        assert good[0] == 200 and fresh[0] == 200
        assert len(ctx.sessions.issued) == 2

    async def test_unsigned_requests_pass_when_not_required_but_a_forged_one_never(
        self, store: Any, game: int
    ) -> None:
        fake = FakeDiscord()
        fake.add_instance("i-1", THREAD, GUILD, [ALICE])
        body = json.dumps(launch(ALICE)).encode()
        public = self.KEY.verify_key.encode().hex()
        async with board_server(store, fake, public_key=public) as (client, ctx, _):
            forged = await post(
                client, body, **self.signed(body, int(T0.timestamp()), SigningKey(b"f" * 32))
            )
            unsigned = await post(client, body)
        assert forged[0] == 401 and unsigned[0] == 200


class TestSettings:
    def test_off_without_a_client_id(self) -> None:
        assert not activity_settings({}).enabled
        assert ActivitySettings().deep_link(3) is None

    def test_a_complete_setting(self) -> None:
        settings = activity_settings(
            {
                "ACTIVITY_CLIENT_ID": APP_ID,
                "ACTIVITY_CLIENT_SECRET": "s",
                "ACTIVITY_PUBLIC_KEY": "AB" * 32,
                "DISCORD_TOKEN": "t",
                "ACTIVITY_REQUIRE_SIGNATURES": "1",
            }
        )
        assert settings.enabled and settings.require_signatures
        assert settings.public_key == "ab" * 32 and settings.bot_token == "t"
        assert settings.api_base == "https://discord.com/api/v10"
        assert settings.deep_link(3) == f"https://discord.com/activities/{APP_ID}?custom_id=game-3"

    @pytest.mark.parametrize(
        "env, says",
        [
            ({"ACTIVITY_CLIENT_ID": "abc"}, "ACTIVITY_CLIENT_ID"),
            ({"ACTIVITY_CLIENT_ID": "1"}, "ACTIVITY_CLIENT_SECRET"),
            (
                {
                    "ACTIVITY_CLIENT_ID": "1",
                    "ACTIVITY_CLIENT_SECRET": "s",
                    "ACTIVITY_PUBLIC_KEY": "x",
                },
                "ACTIVITY_PUBLIC_KEY",
            ),
        ],
    )
    def test_a_wrong_setting_says_which(self, env: dict[str, str], says: str) -> None:
        with pytest.raises(SystemExit, match=says):
            activity_settings(env)

    async def test_when_the_activity_is_off_the_page_is_told_why(self) -> None:
        from types import SimpleNamespace

        from aiohttp import web
        from aiohttp.test_utils import TestClient, TestServer

        app = web.Application()
        discord_auth.setup(
            app, SimpleNamespace(config=SimpleNamespace(activity=ActivitySettings()))
        )
        assert list(app.middlewares) == []
        async with TestClient(TestServer(app)) as client:
            config = await client.get(discord_auth.CONFIG_ROUTE, headers={"Accept-Language": "ja"})
            token = await client.post(discord_auth.TOKEN_ROUTE, json=launch(ALICE))
            said = (await config.json())["error"]
        assert config.status == 404 and token.status == 404
        assert said.startswith("このボットでは Discord 内のボードが設定されていません")


class TestTheClientFiles:
    async def test_the_client_id_and_the_built_bundle_cached_for_good(
        self, store: Any, tmp_path: Any
    ) -> None:
        async with board_server(store, FakeDiscord()) as (client, _, _):
            config = await (await client.get(discord_auth.CONFIG_ROUTE)).json()
            unknown = await client.get(discord_auth.BUNDLE_ROUTE + "discord-NOPE.js")
            other = await client.get(discord_auth.BUNDLE_ROUTE + "manifest.json")
            script = discord_auth.script_path()
            bundle = await client.get(script) if script else None
            if bundle is not None:
                body = await bundle.read()
        assert config == {"client_id": APP_ID}
        assert unknown.status == 404 and other.status == 404
        if bundle is None:
            pytest.skip("the Activity's client is not built (node and npm)")
        assert bundle.status == 200 and b"AdaDiscord" in body
        assert "immutable" in bundle.headers["Cache-Control"]

    def test_no_script_without_a_build(self, tmp_path: Any) -> None:
        assert discord_auth.script_path(tmp_path) is None
        (tmp_path / "manifest.json").write_text('{"discord.js": "discord-ABC.js"}')
        assert discord_auth.script_path(tmp_path) is None  # named but missing
        (tmp_path / "discord-ABC.js").write_text("")
        assert discord_auth.script_path(tmp_path) == "/activity/discord-ABC.js"
