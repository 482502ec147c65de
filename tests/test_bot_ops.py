"""Running the bot for months (issue 29, operations): the health and metrics endpoint watched
while games are played, ``/ada-admin status``, a clean stop on SIGTERM, commands synced only
when they changed, the version."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

import bot as bot_module
from cogs.version import version
from offline.driver import Table, custom_ids

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def bot_options() -> dict[str, Any]:
    return {"metrics_port": 0}  # any free port, on 127.0.0.1


def endpoint(table: Any) -> str:
    health = table.env.bot.get_cog("Health")
    assert health.port, "the endpoint is not listening"
    return f"http://127.0.0.1:{health.port}"


async def scrape(table: Any) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics, parsed by Prometheus' own parser: {(name, labels): value}."""
    async with aiohttp.ClientSession() as http, http.get(endpoint(table) + "/metrics") as resp:
        assert resp.status == 200
        assert resp.headers["Content-Type"].startswith("text/plain")
        text = await resp.text()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def total(samples: dict[Any, float], name: str, **labels: str) -> float:
    """The sum of a metric's samples whose labels include ``labels``."""
    return sum(
        v
        for (n, ls), v in samples.items()
        if n == name and all(dict(ls).get(k) == x for k, x in labels.items())
    )


async def play_moves(table: Any, game: int, n: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        state, _ = await table.store.load_state(game)
        rec = await table.store.get_game(game)
        seat = rec.seat_at(state.decision.player)
        if seat is None or seat.is_ai:
            break
        await table.move(game, lambda d: rng.randrange(len(d.choices)))


async def test_metrics_move_while_games_are_played(table: Any) -> None:
    before = await scrape(table)
    assert total(before, "ada_moves_total") == 0
    assert total(before, "ada_games", status="active") == 0
    assert total(before, "ada_build_info", version=version()) == 1

    people = await table.new_game("alice", ("bob",))
    with_ai = await table.new_game("carol", (), ai=1)
    await play_moves(table, people, 6)
    await play_moves(table, with_ai, 6)
    after = await scrape(table)

    assert total(after, "ada_games", status="active") == 2
    assert total(after, "ada_games", status="lobby") == 0
    player_moves = total(after, "ada_moves_total", by="player")
    stored = len(await table.store.choices(people)) + len(await table.store.choices(with_ai))
    ai_moves = total(after, "ada_moves_total", by="ai")
    assert ai_moves > 0, "the AI seat played, and it counts"
    assert player_moves + ai_moves == stored  # every saved move counted once
    assert total(after, "ada_click_seconds_count") >= player_moves - table.slashes
    assert total(after, "ada_click_seconds_sum") > 0
    # every REST call is counted (all but login's, made before the bot sets up), by route and
    # outcome; the tokens of interactions never show
    rest = total(after, "ada_rest_calls_total")
    assert rest == len(table.env.http_requests) - 1 > 0
    assert total(after, "ada_rest_calls_total", method="POST", status="ok") > 0
    assert not any("token" in dict(ls).get("route", "").replace("{webhook_token}", "")
                   for (_n, ls) in after)  # fmt: skip
    assert total(after, "ada_store_transaction_seconds_count", kind="write") > stored
    assert total(after, "ada_store_transaction_seconds_count", kind="read") > 0
    assert total(after, "ada_gateway_connected") == 1
    await table.env.advance_time(90)
    assert total(await scrape(table), "ada_uptime_seconds") >= 90


# acknowledged first, then the turn message edited: the edit is the call that fails here
@pytest.mark.parametrize("bot_options", [{"metrics_port": 0, "click_budget": 0.0}])
async def test_retries_and_errors_are_counted(table: Any, bot_options: dict[str, Any]) -> None:
    game = await table.new_game("alice", ("bob",))
    before = await scrape(table)
    table.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=1)
    await play_moves(table, game, 1)
    after = await scrape(table)
    assert total(after, "ada_retries_total") == total(before, "ada_retries_total") + 1
    assert total(after, "ada_rest_calls_total", method="PATCH", status="500") == 1
    assert total(after, "ada_errors_logged_total") == 0

    # the thread cannot be updated at all: the move counts; that is one warning with a backoff
    # (tests/test_bot_outage.py), not an error
    table.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=3)
    table.env.inject_error("POST", "/channels/*/messages", status=500, times=3)
    moves = total(after, "ada_moves_total", by="player")
    await play_moves(table, game, 1)
    after = await scrape(table)
    assert total(after, "ada_moves_total", by="player") == moves + 1
    assert total(after, "ada_errors_logged_total") == 0
    # an error logged anywhere in the bot is counted, and /ada-admin status shows the count
    logging.getLogger("cogs.service").error("a test error")
    after = await scrape(table)
    assert total(after, "ada_errors_logged_total") == 1
    res = await admin(table).slash(table.channel, "ada-admin status")
    text = res.followups[-1].content if res.followups else res.response.content
    errors = int(total(after, "ada_errors_logged_total"))
    assert f"Errors logged since the start: {errors}." in text
    table.env.errors.clear()


async def healthz(table: Any) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.get(endpoint(table) + "/healthz") as resp:
        return resp.status, await resp.json()


async def test_healthz_says_ok_then_unhealthy_while_stopping(table: Any) -> None:
    status, body = await healthz(table)
    assert status == 200, body
    assert body["status"] == "ok" and body["database"] and body["gateway"]
    assert body["version"] == version() and body["shards"] is None
    await table.alice.slash(table.channel, "ada rules")  # an event
    table.env.bot.ada.games.stopping = True
    status, body = await healthz(table)
    assert status == 503
    assert body["status"] == "unhealthy" and body["stopping"]
    assert body["last_event_seconds_ago"] is not None
    table.env.bot.ada.games.stopping = False


async def test_healthz_is_unhealthy_when_the_database_does_not_answer(table: Any) -> None:
    store = table.env.bot.ada.store
    await store.close()
    try:
        status, body = await healthz(table)
        assert status == 503
        assert body["database"] is False and body["gateway"] is True
    finally:
        table.env.bot.ada.store = None  # closed already: the fixture's close skips it


async def test_healthz_names_the_shards_of_a_shard_process(make_bot: Any) -> None:
    import simcord

    async with simcord.run(make_bot(metrics_port=0, shard_count=4, shard_ids=[2, 3])) as env:
        port = env.bot.get_cog("Health").port
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"http://127.0.0.1:{port}/healthz") as resp,
        ):
            body = await resp.json()
        assert resp.status == 200 and body["shards"] == [2, 3]
        await env.bot.close()


async def test_a_port_in_use_is_said_plainly_and_the_bot_plays_on(
    make_bot: Any, caplog: Any
) -> None:
    import socket

    import simcord

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        async with simcord.run(make_bot(metrics_port=port)) as env:
            assert env.bot.get_cog("Health").port is None
            said = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
            assert any(f"METRICS_PORT {port} on 127.0.0.1 cannot be used" in m for m in said)
            table = Table(env)
            assert await table.new_game("alice", ("bob",))  # the games go on
            await env.bot.close()
    finally:
        taken.close()


async def test_the_endpoint_is_off_unless_a_port_is_set(make_bot: Any) -> None:
    import simcord

    async with simcord.run(make_bot()) as env:
        assert env.bot.get_cog("Health").port is None
        await env.bot.close()


def admin(table: Any) -> Any:
    import discord

    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user("admin"), roles=[admins])


async def test_admin_status_shows_the_server_at_a_glance(table: Any) -> None:
    await table.new_game("alice", ("bob",))
    await table.new_game("carol", ("dave",), start=False)
    res = await admin(table).slash(table.channel, "ada-admin status")
    assert res.ephemeral
    text = res.followups[-1].content if res.followups else res.response.content
    assert f"Ada's Dream {version()}" in text
    assert "0 waiting for players" not in text and "1 waiting for players" in text
    assert "1 being played" in text
    assert "Errors logged since the start: 0" in text
    assert "Oldest waiting reminder: none waiting; oldest waiting AI turn: none waiting." in text
    assert "Database: reachable" in text and "Discord: connected" in text


async def test_admin_status_in_spanish_and_only_for_admins(table: Any) -> None:
    owner = admin(table)
    await owner.slash(table.channel, "ada language", language="es")
    res = await owner.slash(table.channel, "ada-admin status")
    text = res.followups[-1].content if res.followups else res.response.content
    assert "Ada's Dream" in text and "Partidas aquí" in text, text
    # the command is for admins: Discord hides it from other members
    assert "ada-admin status" not in table.bob.available_commands(table.channel)
    assert "ada-admin status" in owner.available_commands(table.channel)


# ---------------------------------------------------------------------- a clean stop


class MoveInFlight:
    """A move of ``game`` whose saving waits until ``release`` is set: what a click does once
    acknowledged (simcord lets no one click while a click runs, so it is started directly)."""

    def __init__(self, table: Any, game: int) -> None:
        self.bot = table.env.bot
        self.store = self.bot.ada.store
        self.game = game
        self.saving, self.release = asyncio.Event(), asyncio.Event()
        real_apply = self.store.apply_choice

        async def slow_apply(*args: Any, **kwargs: Any) -> Any:
            self.saving.set()
            await self.release.wait()
            return await real_apply(*args, **kwargs)

        self.store.apply_choice = slow_apply

    async def start(self) -> tuple[int, int]:
        """Start the move; (the mover's user id, the seq it was made at) once it is saving."""
        state, seq = await self.store.load_state(self.game)
        rec = await self.store.get_game(self.game)
        mover = rec.seat_at(state.decision.player).user_id
        self.task = asyncio.create_task(self.bot.ada.games.play(mover, rec, seq, idx=0))
        await asyncio.wait_for(self.saving.wait(), 60)
        return mover, seq


async def test_sigterm_lets_the_move_in_flight_finish_and_turns_new_clicks_away(
    table: Any,
) -> None:
    """SIGTERM while a move is being saved: that move is saved and shown; a click meanwhile
    is answered "the bot is restarting" and changes nothing; then the bot closes."""
    bot = table.env.bot
    game = await table.new_game("alice", ("bob",))
    move = MoveInFlight(table, game)
    bot.handle_signals()
    mover, seq = await move.start()
    signal.raise_signal(signal.SIGTERM)
    for _ in range(6000):  # the handler runs on the loop (a bound against a hang, not a speed)
        if bot.ada.games.stopping:
            break
        await asyncio.sleep(0.01)
    assert bot.ada.games.stopping and not bot.is_closed()

    res = await table.carol.slash(table.channel, "ada rules")
    said = res.response.content if res.response else ""
    assert "restarting" in said and res.ephemeral
    lobby_res = await table.dave.slash(table.channel, "ada new", players=2)
    assert "restarting" in (lobby_res.response.content or "")
    assert [g.id for g in await move.store.games_in_channel(table.channel.id)] == [game]

    turn = await table.turn_message(game)
    button = next(c for c in custom_ids(turn) if c.startswith(("ada:c:", "ada:g:", "ada:h:")))
    res = await table.by_id[mover].click(turn, custom_id=button)
    assert "restarting" in (res.response.content or "") and res.ephemeral
    assert (await move.store.load_state(game))[1] == seq  # not played by the click

    move.release.set()
    played = await asyncio.wait_for(move.task, 60)
    assert played.shown  # saved and shown in the thread
    for _ in range(6000):  # a bound against a hang
        if bot.is_closed():
            break
        await asyncio.sleep(0.01)
    assert bot.is_closed()


async def test_a_stop_waits_for_the_move_then_closes(table: Any) -> None:
    """``shutdown`` (what SIGTERM calls) does not close the bot while a move is in flight."""
    bot = table.env.bot
    game = await table.new_game("alice", ("bob",))
    move = MoveInFlight(table, game)
    _, seq = await move.start()
    stopping = asyncio.create_task(bot.shutdown())
    await asyncio.sleep(0.05)
    assert not stopping.done() and not bot.is_closed() and bot.ada.games.busy == 1
    move.release.set()
    await asyncio.wait_for(stopping, 60)
    await asyncio.wait_for(move.task, 60)
    assert bot.is_closed()
    reopened = await bot_module.Store.open(bot.ada.db_path)
    try:
        assert (await reopened.load_state(game))[1] == seq + 1  # the move was saved
    finally:
        await reopened.close()


async def test_a_click_in_flight_is_answered_before_the_bot_closes(table: Any) -> None:
    """The whole click counts as in flight, not only its move: the player's own answer is
    sent before the bot closes."""
    bot = table.env.bot
    game = await table.new_game("alice", ("bob",))
    move = MoveInFlight(table, game)
    _, seq = await move.store.load_state(game)
    rng = random.Random(2)
    click = asyncio.create_task(table.move(game, lambda d: rng.randrange(len(d.choices))))
    await asyncio.wait_for(move.saving.wait(), 60)
    stopping = asyncio.create_task(bot.shutdown())
    await asyncio.sleep(0.05)
    assert bot.ada.games.busy == 2  # the click's handler, and its move
    assert not bot.is_closed()
    move.release.set()
    res = await asyncio.wait_for(click, 60)
    await asyncio.wait_for(stopping, 60)
    assert res.acknowledged and bot.is_closed()
    reopened = await bot_module.Store.open(bot.ada.db_path)
    try:
        assert (await reopened.load_state(game))[1] == seq + 1
    finally:
        await reopened.close()


RUN_UNTIL_STOPPED = """
import asyncio, sys
import simcord
from bot import create_bot

async def main():
    bot = create_bot(sys.argv[1], images=False, ai_delay=0, ai_workers=0)
    async with simcord.run(bot) as env:
        bot.handle_signals()
        print("ready", flush=True)
        while not bot.is_closed():
            await asyncio.sleep(0.05)
    print("closed", bot.ada.store is None, flush=True)

asyncio.run(main())
"""


def test_a_sigterm_from_outside_stops_the_process_cleanly(tmp_path: Path) -> None:
    """``kill PID`` (what systemd sends): the process closes the bot and exits 0."""
    proc = subprocess.Popen(
        [sys.executable, "-c", RUN_UNTIL_STOPPED, str(tmp_path / "ada.db")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.strip() == "ready":
                break
        os.kill(proc.pid, signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, out
    assert "closed True" in out  # the bot closed, its database too


# ---------------------------------------------------------------------- command sync


def syncs(env: Any) -> int:
    return sum(1 for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))


@pytest.fixture
def info_log(caplog: Any) -> Any:
    caplog.set_level(logging.INFO, logger="adas_dream.bot")  # before the bot starts
    return caplog


async def test_commands_are_synced_only_when_they_changed(
    info_log: Any, simcord_env: Any, make_bot: Any
) -> None:
    env = simcord_env
    assert syncs(env) == 1  # a new database: synced once
    assert any("synced" in r.getMessage() for r in info_log.get_records("setup"))
    await env.bot.close()
    await env.restart_bot(make_bot())
    assert syncs(env) == 1  # the same commands: not synced again
    assert any("commands unchanged" in r.getMessage() for r in info_log.records)
    guild = env.create_guild("Club")
    zoe = guild.add_member(env.create_user("zoe"))
    res = await zoe.slash(guild.create_text_channel("games"), "ada rules")
    assert res.acknowledged  # the commands synced before the restart still work

    await env.bot.close()
    await env.restart_bot(make_bot(force_sync=True))  # --sync
    assert syncs(env) == 2

    await env.bot.close()
    changed = make_bot()
    real_setup = changed.setup_hook

    async def one_more_description() -> None:  # a new version of a command
        from discord import app_commands

        @app_commands.command(name="ping", description="A command added by an upgrade.")
        async def ping(interaction: Any) -> None:
            """Answers pong."""

        changed.tree.add_command(ping)
        await real_setup()

    changed.setup_hook = one_more_description
    await env.restart_bot(changed)
    assert syncs(env) == 3
    await env.bot.close()


# ---------------------------------------------------------------------- the version


def test_the_version_is_pyproject_s_and_bot_py_prints_it(capsys: Any) -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert version() == declared != "0.1.0"
    assert bot_module.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"Ada's Dream {declared}"
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## {declared}" in changelog


async def test_the_start_up_log_says_the_version(info_log: Any, simcord_env: Any) -> None:
    assert f"Ada's Dream {version()}" in [r.getMessage() for r in info_log.get_records("setup")]
