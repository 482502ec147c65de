"""The board page's routes (issue 32), through aiohttp's test client against a bot on simcord.

Every route reads its viewer from a signed session token; a move from the page goes through
``GameService.play`` like a button click, so it gets the same refusals and the thread follows;
nothing a viewer may not see reaches them; the live updates come from the service's commits."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from cogs import media
from engine.view import redact
from offline.driver import Table, decision_shown
from web.app import MAX_BODY, make_app
from web.context import WebContext
from web.sessions import Sessions, Viewer

HANG = 60.0  # a bound against a hang, never a speed


@dataclass
class Site:
    table: Table
    ctx: WebContext
    client: TestClient
    game: int

    def token(self, name: str | None, seat: int | None = -1, **kw: Any) -> str:
        """A session for a member (None: a spectator) of the game; ``seat`` -1: their own."""
        user = self.table.members[name].id if name else 0
        return self.ctx.sessions.issue(
            Viewer(
                user_id=user,
                game_id=kw.get("game", self.game),
                seat=self.rec.seat_of(user) if seat == -1 else seat,
                via="local",
            )
        )

    async def refresh(self) -> None:
        self.rec = await self.table.store.get_game(self.game)

    async def get(self, path: str, token: str | None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return await self.client.get(path, headers=headers)

    async def post(self, path: str, token: str | None, body: Any, **kw: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        data = body if isinstance(body, bytes | str) else json.dumps(body)
        headers["Content-Type"] = kw.get("content_type", "application/json")
        return await self.client.post(path, data=data, headers=headers)

    async def deciding(self) -> tuple[str, int, Any]:
        """The member to move, the game's seq and the decision."""
        state, seq = await self.table.store.load_state(self.game)
        seat = self.rec.seat_at(state.decision.player)
        name = next(n for n, m in self.table.members.items() if m.id == seat.user_id)
        return name, seq, state.decision


def web_context(games: Any) -> WebContext:
    return WebContext.of(games)


@pytest.fixture
async def site(table: Table) -> AsyncIterator[Site]:
    game = await table.new_game("alice", ("bob",))
    games = table.env.bot.ada.games
    games.cfg.web_local_login = True
    ctx = web_context(games)
    async with TestClient(TestServer(make_app(ctx))) as client:
        s = Site(table, ctx, client, game)
        await s.refresh()
        yield s


async def unchanged(site: Site, seq: int) -> None:
    """Nothing moved: the store's seq and its choice log are as they were."""
    _state, now = await site.table.store.load_state(site.game)
    assert now == seq
    assert len(await site.table.store.choices(site.game)) == seq


# -- moves --------------------------------------------------------------------------------


async def test_a_move_from_the_page_is_a_button_click_and_the_thread_follows(site: Site) -> None:
    name, seq, dec = await site.deciding()
    token = site.token(name)
    res = await site.get("/api/view", token)
    assert res.status == 200
    view = await res.json()
    assert view["seq"] == seq and view["decision"]["mine"]
    ids = [c["id"] for c in view["decision"]["choices"]]
    assert ids == [c.id for c in dec.choices]  # the legal choices, in the engine's order
    assert all(c["label"] for c in view["decision"]["choices"])

    res = await site.post("/api/move", token, {"seq": seq, "choice": ids[-1]})
    assert res.status == 200, await res.text()
    _state, now = await site.table.store.load_state(site.game)
    assert now == seq + 1
    assert (await site.table.store.choices(site.game))[-1].choice_id == ids[-1]
    shown = await site.table.turn_message(site.game)
    assert decision_shown(shown, site.game) == seq + 1  # the thread's turn message followed


async def test_the_view_names_what_each_picture_shows(site: Site) -> None:
    """A digest of each picture as the viewer sees it (``render.image_key``), so that the page
    loads again only a picture that changed: the same digest is the same picture."""
    rng = random.Random(2)
    seen: dict[str, bytes] = {}
    for _ in range(8):
        state, seq = await site.table.store.load_state(site.game)
        for name in ("alice", None):
            seat = site.rec.seat_of(site.table.members[name].id) if name else None
            token = site.token(name)
            view = await (await site.get("/api/view", token)).json()
            keys = view["pictures"]
            assert keys["board"] == "en-" + media.image_key("board", state, seat)
            assert keys["mills"] == [
                "en-" + media.image_key("mill", state, of, seat) for of in range(2)
            ]
            for key, path in [(keys["board"], "/api/board.png")] + [
                (k, f"/api/mill/{of}.png") for of, k in enumerate(keys["mills"])
            ]:
                body = await (await site.get(path, token)).read()
                assert seen.setdefault(key, body) == body
        name, seq, dec = await site.deciding()
        choice = rng.choice(dec.choices).id
        res = await site.post("/api/move", site.token(name), {"seq": seq, "choice": choice})
        assert res.status == 200, await res.text()
    assert len(seen) > 6  # the pictures changed along the way, and some did not


async def test_the_view_is_in_the_viewers_language(site: Site) -> None:
    name, seq, _dec = await site.deciding()
    await site.table.members[name].slash(
        site.table.thread(site.game), "ada language", language="ja"
    )
    view = await (await site.get("/api/view", site.token(name))).json()
    assert view["lang"] == "ja"
    assert view["words"]["your_turn"] != "Your turn"
    other = "bob" if name == "alice" else "alice"
    assert (await (await site.get("/api/view", site.token(other))).json())["lang"] == "en"


# -- refusals: a clear answer, nothing changed ---------------------------------------------


async def test_every_refusal_changes_nothing(site: Site) -> None:
    name, seq, dec = await site.deciding()
    other = "bob" if name == "alice" else "alice"
    choice = dec.choices[0].id
    good = site.token(name)
    payload, signature = good.split(".")
    forged = f"{payload}.{signature[:-2]}{'AA' if not signature.endswith('AA') else 'BB'}"
    past = Sessions(site.ctx.sessions.secret, lambda: site.ctx.clock() - timedelta(hours=13))
    expired = past.issue(Viewer(site.table.members[name].id, site.game, 0, "local"))
    stranger = Sessions(b"another server's key", site.ctx.clock).issue(
        Viewer(site.table.members[name].id, site.game, 0, "local")
    )
    cases = [
        ("no token", None, {"seq": seq, "choice": choice}, 401),
        ("forged", forged, {"seq": seq, "choice": choice}, 401),
        ("another key", stranger, {"seq": seq, "choice": choice}, 401),
        ("expired", expired, {"seq": seq, "choice": choice}, 401),
        ("not your turn", site.token(other), {"seq": seq, "choice": choice}, 409),
        ("stale seq", good, {"seq": seq - 1, "choice": choice}, 409),
        ("future seq", good, {"seq": seq + 5, "choice": choice}, 409),
        ("illegal", good, {"seq": seq, "choice": "ws:99:Y9:1"}, 422),
        ("not an id", good, {"seq": seq, "choice": "x" * 5000}, 422),
        ("seq a string", good, {"seq": str(seq), "choice": choice}, 400),
        ("no choice", good, {"seq": seq}, 400),
        ("a list", good, [seq, choice], 400),
        ("malformed", good, b'{"seq": 1, "choice": ', 400),
        ("not utf-8", good, b"\xff\xfe{}", 400),
        ("spectator", site.token(None), {"seq": seq, "choice": choice}, 403),
        (
            "spectator with a seat's user",
            site.token(name, seat=None),
            {"seq": seq, "choice": choice},
            403,
        ),
        ("not seated", site.token("carol", seat=0), {"seq": seq, "choice": choice}, 403),
        ("another's seat", site.token(other, seat=dec.player), {"seq": seq, "choice": choice}, 403),
    ]
    for what, token, body, status in cases:
        res = await site.post("/api/move", token, body)
        answer = await res.json()
        assert res.status == status, (what, answer)
        assert answer["error"], what  # a message for the page to show
        await unchanged(site, seq)

    res = await site.post("/api/move", good, "seq=1", content_type="text/plain")
    assert res.status == 415
    big = json.dumps({"seq": seq, "choice": choice, "pad": "x" * (MAX_BODY * 4)})
    res = await site.post("/api/move", good, big)
    assert res.status == 413 and (await res.json())["error"]
    await unchanged(site, seq)

    # the refusals are in the asker's language
    await site.table.members[other].slash(
        site.table.thread(site.game), "ada language", language="es"
    )
    res = await site.post("/api/move", site.token(other), {"seq": seq, "choice": choice})
    assert res.status == 409
    assert "turno" in (await res.json())["error"]


async def test_a_fault_of_the_server_is_a_clear_answer_without_its_details(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("/secret/path/of/the/host.py")

    monkeypatch.setattr("web.board.players_of", broken)
    name, _seq, _dec = await site.deciding()
    res = await site.get("/api/view", site.token(name))
    assert res.status == 500
    answer = await res.json()
    assert answer["error"].startswith("Something went wrong") and "secret" not in answer["error"]
    assert "Content-Security-Policy" in res.headers


async def test_a_game_not_in_play_says_why_and_offers_no_choice(site: Site) -> None:
    name, seq, dec = await site.deciding()
    lobby = await site.table.new_game("carol", ("dave",), start=False)
    token = site.ctx.sessions.issue(Viewer(site.table.carol.id, lobby, None, "local"))
    view = await (await site.get("/api/view", token)).json()
    assert "hasn't started" in view["notice"] and "decision" not in view
    res = await site.post("/api/move", site.token(name, seat=None, game=lobby), {"seq": 0})
    assert res.status == 400
    await site.table.store.cancel_game(site.game)
    view = await (await site.get("/api/view", site.token(name))).json()
    assert view["status"] == "cancelled" and "cancelled" in view["notice"]
    assert view["decision"] is None  # no choice offered
    res = await site.post("/api/move", site.token(name), {"seq": seq, "choice": dec.choices[0].id})
    assert res.status == 409 and "cancelled" in (await res.json())["error"]


async def test_a_token_for_another_game_sees_that_game_only(site: Site) -> None:
    name, _seq, _dec = await site.deciding()
    res = await site.get("/api/view", site.token(name, game=site.game + 100))
    assert res.status == 404
    assert (await res.json())["error"]


# -- nothing hidden leaks ------------------------------------------------------------------


def hidden_from(state: Any, seat: int | None) -> set[str]:
    """The ids and names of the cards in other players' hands that the public view does not
    show anywhere (a card may be public elsewhere: a display, the log)."""
    public = json.dumps(redact(state, None), ensure_ascii=False)
    out = set()
    for i, p in enumerate(state.players):
        if i == seat:
            continue
        for card in p.hand:
            name = str(state.edition.partner[card]["name"])
            out |= {x for x in (card, name) if x not in public}
    return out


async def every_answer(site: Site, token: str, seq: int, players: int) -> list[bytes]:
    paths = ["/api/view", "/api/board.png", "/api/replay", f"/api/replay/{seq}"]
    paths += [f"/api/mill/{s}.png" for s in range(players)]
    paths += [f"/api/replay/{seq}/mill/{s}.png" for s in range(players)]
    paths += [f"/api/replay/{seq}/board.png", "/"]
    out = []
    for path in paths:
        res = await site.get(path, token)
        assert res.status == 200, (path, await res.text())
        out.append(await res.read())
    stream = await site.get("/api/events", token)
    out.append(await stream.content.readline() + await stream.content.readline())
    stream.close()
    return out


async def test_no_answer_to_a_viewer_holds_another_players_hidden_card(site: Site) -> None:
    rng = random.Random(5)
    checked = 0
    for step in range(60):
        state, seq = await site.table.store.load_state(site.game)
        if state.decision is None:
            break
        if step % 6 == 0:
            for name in ("alice", "bob", None):
                seat = site.rec.seat_of(site.table.members[name].id) if name else None
                hidden = hidden_from(state, seat)
                token = site.token(name)
                for body in await every_answer(site, token, seq, len(state.players)):
                    for secret in hidden:
                        assert secret.encode() not in body, (name, secret)
                checked += len(hidden)
        name, seq, dec = await site.deciding()
        res = await site.post(
            "/api/move", site.token(name), {"seq": seq, "choice": rng.choice(dec.choices).id}
        )
        assert res.status == 200, await res.text()
    assert checked > 0  # hands held cards that were hidden from the others


# -- live updates --------------------------------------------------------------------------


async def next_view(stream: Any) -> tuple[str, Any]:
    """The next event of a stream (keep-alive lines skipped), and the view it carries."""
    block = b""
    while not block.endswith(b"\n\n") or block.startswith(b":"):
        if block.startswith(b":") and block.endswith(b"\n\n"):
            block = b""
        block += await asyncio.wait_for(stream.content.readline(), HANG)
    lines = dict(line.split(": ", 1) for line in block.decode().strip().split("\n"))
    return lines["event"], json.loads(lines["data"])


async def next_event(stream: Any) -> tuple[str, int]:
    """The next event of a stream, and the seq of the view it carries."""
    event, view = await next_view(stream)
    return event, view["seq"]


async def test_the_page_hears_of_moves_made_in_the_thread_and_of_undos(site: Site) -> None:
    name, seq, _dec = await site.deciding()
    other = "bob" if name == "alice" else "alice"
    first = await site.get("/api/events", site.token(other))
    second = await site.get("/api/events", site.token(other))  # a second tab
    spectator = await site.get("/api/events", site.token(None))
    for stream in (first, second, spectator):
        assert stream.headers["Content-Type"] == "text/event-stream"
        assert await next_event(stream) == ("hello", seq)
    await site.table.move(site.game, lambda d: 0)  # a button click in the thread
    for stream in (first, second):
        assert await next_event(stream) == ("changed", seq + 1)
    # the event carries the viewer's view itself: the page asks for nothing more
    event, pushed = await next_view(spectator)
    assert event == "changed"
    assert pushed == await (await site.get("/api/view", site.token(None))).json()

    _name, now, _dec = await site.deciding()
    res = await site.post("/api/undo", site.token(name), {"seq": now})
    assert res.status == 200, await res.text()  # (the first move draws nothing: it can be undone)
    assert await next_event(first) == ("changed", now - 1)
    assert await next_event(second) == ("changed", now - 1)
    first.close()
    second.close()
    spectator.close()
    for _ in range(int(HANG / 0.05)):  # the closed streams stop following (a bound against a hang)
        if site.ctx.live.following() == 0:
            break
        await asyncio.sleep(0.05)
    assert site.ctx.live.following() == 0


async def test_a_view_refused_meanwhile_ends_the_stream_sending_the_page_to_ask(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game gone or the seat lost while a page follows it: a last event without a view
    (the page then asks, and is told why), and the stream ends."""
    from web import board

    name, seq, _dec = await site.deciding()
    stream = await site.get("/api/events", site.token(name))
    assert await next_event(stream) == ("hello", seq)

    async def gone(ctx: Any, viewer: Viewer) -> Any:
        raise board.refuse(404, "There is no game #1.")

    monkeypatch.setattr(board, "seen_by", gone)
    await site.table.move(site.game, lambda d: 0)
    assert await next_view(stream) == ("changed", None)
    assert await asyncio.wait_for(stream.content.read(), HANG) == b""  # the stream ended


async def test_an_ai_move_reaches_the_page(table: Table) -> None:
    game = await table.new_game("alice", (), ai=1)
    ctx = web_context(table.env.bot.ada.games)
    rec = await table.store.get_game(game)
    ai = next(s.turn_index for s in rec.seats if s.is_ai)
    async with TestClient(TestServer(make_app(ctx))) as client:
        token = ctx.sessions.issue(Viewer(table.alice.id, game, None, "local"))
        _state, seq = await table.store.load_state(game)
        stream = await client.get("/api/events", headers={"Authorization": f"Bearer {token}"})
        assert await next_event(stream) == ("hello", seq)
        heard = [seq]
        for _ in range(40):
            state, now = await table.store.load_state(game)
            while heard[-1] < now:  # every committed change is told, in order
                event, n = await next_event(stream)
                assert event == "changed" and n > heard[-1]
                heard.append(n)
            ai_turns = {c.seq + 1 for c in await table.store.choices(game) if c.seat == ai}
            if ai_turns & set(heard):
                break
            await table.move(game, lambda d: 0)
        assert ai_turns & set(heard)  # the page heard of the AI seat's move by itself
        stream.close()


# -- replay --------------------------------------------------------------------------------


async def test_the_replay_shows_the_public_view_of_every_move(site: Site) -> None:
    for _ in range(8):
        await site.table.move(site.game, lambda d: len(d.choices) - 1)
    state, seq = await site.table.store.load_state(site.game)
    name, _seq, _dec = await site.deciding()
    token = site.token(name)  # even a seated player's replay is the public view
    info = await (await site.get("/api/replay", token)).json()
    assert info["moves"] == seq
    at_end = await (await site.get(f"/api/replay/{seq}", token)).json()
    assert "hand" not in at_end and "choices" not in at_end["decision"]
    assert [p["cards"] for p in at_end["players"]] == [len(p.hand) for p in state.players]
    assert at_end["log"] == (await (await site.get("/api/view", token)).json())["log"]
    start = await (await site.get("/api/replay/0", token)).json()
    assert start["log"] != at_end["log"]
    for bad in (seq + 1, -1, "x"):
        res = await site.get(f"/api/replay/{bad}", token)
        assert res.status == 404 and (await res.json())["error"]
    # the Mills too, as everyone sees them (a spectator's picture of the same moment)
    spectator = site.token(None)
    for seat in (0, 1):
        mill = await site.get(f"/api/replay/{seq}/mill/{seat}.png", token)
        assert mill.status == 200 and mill.content_type == "image/png"
        public = await site.get(f"/api/mill/{seat}.png", spectator)
        assert await mill.read() == await public.read()
    first = await (await site.get("/api/replay/0/mill/0.png", token)).read()
    assert first != await (await site.get(f"/api/replay/{seq}/mill/0.png", token)).read()
    for bad in (f"{seq}/mill/2", f"{seq}/mill/x", f"{seq + 1}/mill/0"):
        assert (await site.get(f"/api/replay/{bad}.png", token)).status == 404


# -- the application -----------------------------------------------------------------------


async def test_the_page_and_its_files_carry_the_headers_discord_asks_for(site: Site) -> None:
    res = await site.client.get("/")
    assert res.status == 200
    csp = res.headers["Content-Security-Policy"]
    assert (
        "default-src 'self'" in csp
        and "script-src 'self'" in csp
        and "*" not in csp.split("frame-ancestors")[0]
    )
    assert res.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in res.headers
    html = await res.text()
    assets = [part.split('"')[0] for part in html.split("static/")[1:]]
    assert {a.rsplit(".", 2)[0] for a in assets} == {"board"}  # board.<digest>.css/js
    for name in assets:
        got = await site.client.get(f"/static/{name}")
        assert got.status == 200
        assert "immutable" in got.headers["Cache-Control"]
        assert "Content-Security-Policy" in got.headers
    assert (await site.client.get("/static/board.js")).status == 404  # only digested names
    # the stylesheet names the Japanese fonts by their digested names (a device may have none)
    css = await (
        await site.client.get(f"/static/{[a for a in assets if a.endswith('.css')][0]}")
    ).text()
    fonts = [part.split('"')[0] for part in css.split('url("')[1:]]
    assert len(fonts) == 2 and all(f.startswith("NotoSansJP-") for f in fonts)
    for font in fonts:
        got = await site.client.get(f"/static/{font}")
        assert got.status == 200 and len(await got.read()) > 100_000
    res = await site.client.get("/api/view")
    assert res.status == 401 and res.headers["Content-Type"].startswith("application/json")


async def test_the_local_login_issues_a_session_for_a_person_or_a_spectator(site: Site) -> None:
    games = await (await site.client.get("/api/local/games")).json()
    (game,) = [g for g in games["games"] if g["game"] == site.game]
    seat = game["seats"][0]["seat"]
    res = await site.post("/api/local/login", None, {"game": site.game, "seat": seat})
    token = (await res.json())["token"]
    viewer = site.ctx.sessions.read(token)
    assert viewer.seat == seat and viewer.via == "local"
    assert viewer.user_id == site.rec.seat_at(seat).user_id
    res = await site.post("/api/local/login", None, {"game": site.game, "seat": None})
    assert site.ctx.sessions.read((await res.json())["token"]).seat is None
    for body in (
        {"game": site.game, "seat": 7},
        {"game": "1", "seat": 0},
        {"game": 9999, "seat": 0},
    ):
        res = await site.post("/api/local/login", None, body)
        assert res.status in (400, 403, 404) and (await res.json())["error"]


async def test_the_local_login_is_off_unless_the_offline_table_turns_it_on(table: Table) -> None:
    games = table.env.bot.ada.games
    assert not games.cfg.web_local_login
    async with TestClient(TestServer(make_app(web_context(games)))) as client:
        assert (await client.get("/local")).status == 404
        res = await client.post("/api/local/login", json={"game": 1, "seat": 0})
        assert res.status in (404, 405)


def test_a_finished_game_says_who_won_and_every_final_score() -> None:
    """The decision of a finished game: the thread's final words and every player's final
    Prestige (all of it public once the game is over)."""
    from types import SimpleNamespace

    import i18n
    from engine import GameSetup, new_game
    from engine.rules import apply
    from web.board import decision_of

    state = new_game(GameSetup(players=3))
    rng = random.Random(4)
    while state.decision is not None:
        apply(state, rng.choice(state.decision.choices).id)
    rec: Any = SimpleNamespace(id=12)
    said = decision_of(state, None, rec, i18n.get("es"))
    names = state.seat_names
    winner = names[state.winner()]
    assert said["over"] and said["result"] == f"La partida n.º 12 ha terminado: ¡gana {winner}!"
    totals = [s["Total"] for s in state.final_scores()]
    assert sorted((s["name"], s["prestige"]) for s in said["scores"]) == sorted(
        zip(names, totals, strict=True)
    )
    assert said["scores"][0] == {"name": winner, "prestige": max(totals)}  # the winner first
    prestige = [s["prestige"] for s in said["scores"]]
    assert prestige == sorted(prestige, reverse=True)
