"""Watching the bot: ``/healthz`` and ``/metrics`` over HTTP, and ``/ada-admin status``.

The HTTP endpoint is off unless ``METRICS_PORT`` is set; it listens on ``METRICS_HOST``
(default 127.0.0.1: only this machine; put a reverse proxy in front to expose it). It runs on
the bot's own event loop with aiohttp (which discord.py brings), and each answer reads the
database at most twice.

    GET /healthz   200 {"status": "ok", ...} when the database answers, the gateway is
                   connected and the bot is not stopping; 503 with the same fields otherwise
    GET /metrics   the figures of ``cogs.metrics`` in Prometheus' text format
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

import discord
from aiohttp import web
from discord import app_commands
from discord.ext import commands
from prometheus_client import CONTENT_TYPE_LATEST

from cogs import admin
from cogs.base import AdaCog, defer, friendly, say
from cogs.version import version
from i18n import Lang

log = logging.getLogger(__name__)

DATABASE_TIMEOUT = 3.0  # seconds /healthz waits for the database before calling it down


@dataclass(frozen=True)
class Health:
    database: bool
    gateway: bool
    stopping: bool
    shards: list[int] | None
    last_event_age: float | None

    @property
    def ok(self) -> bool:
        return self.database and self.gateway and not self.stopping

    def as_json(self) -> dict[str, Any]:
        return {
            "status": "ok" if self.ok else "unhealthy",
            "version": version(),
            "database": self.database,
            "gateway": self.gateway,
            "stopping": self.stopping,
            "shards": self.shards,
            "last_event_seconds_ago": (
                None if self.last_event_age is None else round(self.last_event_age, 1)
            ),
        }


def duration(tr: Lang, seconds: float) -> str:
    """A span of time at a glance: minutes under two hours, then hours, then days."""
    minutes = int(seconds // 60)
    if minutes < 120:
        return tr._("{n} min", n=minutes)
    if minutes < 48 * 60:
        return tr._("{n} h", n=minutes // 60)
    return tr._("{n} days", n=minutes // (24 * 60))


def waited(tr: Lang, seconds: float) -> str:
    """How long the oldest of a queue has waited (0: the queue is empty)."""
    return duration(tr, seconds) if seconds > 0 else tr._("none waiting")


class HealthCog(AdaCog, name="Health"):
    """The health and metrics endpoint, and the owner's glance at it (``/ada-admin status``)."""

    admin_group = True

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port the endpoint listens on (None: off)."""

    async def cog_load(self) -> None:
        await super().cog_load()
        cfg = self.games.cfg
        if cfg.metrics_port is None:
            return
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, cfg.metrics_host, cfg.metrics_port)
        try:
            await site.start()
        except OSError as exc:  # the port is taken, the address is not this machine's...
            # The games matter more than the watching: play on, and say so loudly.
            log.error(
                "METRICS_PORT %s on %s cannot be used (%s): running without /healthz and /metrics",
                cfg.metrics_port,
                cfg.metrics_host,
                exc.strerror or exc,
            )
            await self.runner.cleanup()
            self.runner = None
            return
        self.port = self.runner.addresses[0][1]
        log.info("health and metrics on http://%s:%s/", cfg.metrics_host, self.port)

    async def cog_unload(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    # ------------------------------------------------------------------ the figures

    def shards(self) -> list[int] | None:
        ids = getattr(self.bot, "shard_ids", None)
        return sorted(ids) if ids else None

    async def health(self) -> Health:
        try:
            await asyncio.wait_for(self.store.schema_version(), DATABASE_TIMEOUT)
            database = True
        except Exception as exc:  # down, locked, closed: all the same to a watcher
            log.warning("health check: the database does not answer: %s", exc)
            database = False
        metrics = self.games.metrics
        last = metrics.last_event
        return Health(
            database=database,
            gateway=self.bot.is_ready() and not self.bot.is_closed(),
            stopping=self.games.stopping,
            shards=self.shards(),
            last_event_age=None if last is None else time.monotonic() - last,
        )

    async def refresh(self) -> None:
        connected = self.bot.is_ready() and not self.bot.is_closed()
        await self.games.metrics.refresh(self.store, self.games.now(), connected)

    # ------------------------------------------------------------------ HTTP

    async def healthz(self, request: web.Request) -> web.Response:
        health = await self.health()
        return web.json_response(health.as_json(), status=200 if health.ok else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        try:
            await self.refresh()
        except Exception:  # the figures kept from the last look are still worth serving
            log.warning("metrics: could not read the database", exc_info=True)
        body = self.games.metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    # ------------------------------------------------------------------ /ada-admin status

    @app_commands.command(
        name="status", description="How the bot is doing: version, uptime, games, queues, errors."
    )
    @friendly
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """The bot at a glance, for server admins (privately): its version, how long it has
        run, its shards, this server's games by status, how long the oldest reminder and AI
        turn have waited, and how many errors it logged since it started."""
        await defer(interaction)
        admin.SettingsCog.require_admin(interaction)
        tr = await self.lang_of(interaction)
        health = await self.health()
        try:
            await self.refresh()
        except Exception:
            log.warning("status: could not read the database", exc_info=True)
        metrics = self.games.metrics
        counts = await self.store.games_by_status(interaction.guild_id or 0)
        shards = ", ".join(map(str, health.shards)) if health.shards else tr._("all")
        lines = [
            tr._(
                "**Ada's Dream {version}**: running for {uptime}, shards {shards}.",
                version=version(),
                uptime=duration(tr, time.monotonic() - metrics.started),
                shards=shards,
            ),
            tr._(
                "• Games here: {lobby} waiting for players, {active} being played, "
                "{finished} finished, {cancelled} cancelled, {broken} damaged.",
                **counts,
            ),
            tr._(
                "• Oldest waiting reminder: {reminder}; oldest waiting AI turn: {ai}.",
                reminder=waited(tr, metrics.value("ada_reminder_queue_age_seconds")),
                ai=waited(tr, metrics.value("ada_ai_queue_age_seconds")),
            ),
            tr._(
                "• Errors logged since the start: {n}.",
                n=int(metrics.value("ada_errors_logged_total")),
            ),
            tr._("• Database: reachable.")
            if health.database
            else tr._("• Database: NOT reachable."),
            tr._("• Discord: connected.") if health.gateway else tr._("• Discord: NOT connected."),
        ]
        if health.stopping:
            lines.append(tr._("• Stopping: finishing the moves in flight."))
        await say(interaction, "\n".join(lines))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HealthCog(bot))
