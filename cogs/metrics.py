"""The bot's figures for Prometheus (``/metrics``) and ``/ada-admin status``.

One ``Metrics`` object per bot (``bot.ada.metrics``), on its own registry, so that several bots
in one process (tests, restarts) never mix their figures. Each figure is updated where the
thing happens, with one counter or histogram call:

    moves            GameService.play / undo / play_turn_by_ai
    click latency    PlayCog.on_choice (from the click reaching the bot to the move answered)
    REST calls       every call discord.py makes (``watch_rest``: its HTTP client and the
                     adapter that answers interactions), by method, route and outcome
    retries          GameService.retrying
    store time       every store transaction (``Store.time_transactions``)
    errors           every ERROR log record (``ErrorCounter``)

Games by status and the queue ages come from the database, read when someone looks
(``refresh``): a scrape every 15 s costs two small queries, and nothing else pays for them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info
from prometheus_client.exposition import generate_latest

if TYPE_CHECKING:
    from store import Store

LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
"""Seconds: Discord wants an answer within 3."""
STORE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class Metrics:
    def __init__(self, version: str) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.started = time.monotonic()
        self.build = Info("ada_build", "The bot's version.", registry=r)
        self.build.info({"version": version})
        self.moves = Counter(
            "ada_moves", "Moves saved, by who made them (player, ai, undo).", ["by"], registry=r
        )
        self.click_seconds = Histogram(
            "ada_click_seconds",
            "From a click on a game's control reaching the bot to the move answered.",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.rest_calls = Counter(
            "ada_rest_calls",
            "Discord REST calls, by method, route and outcome (ok, or the HTTP status).",
            ["method", "route", "status"],
            registry=r,
        )
        self.retries = Counter(
            "ada_retries", "Discord calls retried after an error, by what.", ["what"], registry=r
        )
        self.store_seconds = Histogram(
            "ada_store_transaction_seconds",
            "Store transactions, from the call to the answer (read or write).",
            ["kind"],
            buckets=STORE_BUCKETS,
            registry=r,
        )
        self.errors = Counter("ada_errors_logged", "Log records at ERROR or above.", registry=r)
        self.games = Gauge("ada_games", "Games in the database, by status.", ["status"], registry=r)
        self.reminder_queue_age = Gauge(
            "ada_reminder_queue_age_seconds",
            "How long the oldest due reminder has been waiting (0: none waiting).",
            registry=r,
        )
        self.ai_queue_age = Gauge(
            "ada_ai_queue_age_seconds",
            "How long the oldest AI turn this process took up has been waiting (0: none).",
            registry=r,
        )
        self.gateway_up = Gauge(
            "ada_gateway_connected", "1 while connected to Discord's gateway.", registry=r
        )
        self.last_event_age = Gauge(
            "ada_last_event_age_seconds", "Seconds since the last gateway event.", registry=r
        )
        self.uptime = Gauge("ada_uptime_seconds", "Seconds since the bot started.", registry=r)
        self.uptime.set_function(lambda: time.monotonic() - self.started)
        self.last_event: float | None = None  # monotonic time of the last gateway event
        self.ai_waiting: dict[int, float] = {}  # game -> monotonic time its AI turn was taken up

    # ------------------------------------------------------------------ updated where it happens

    def start(self) -> None:
        """The bot starts (its uptime counts from now)."""
        self.started = time.monotonic()

    def event(self) -> None:
        self.last_event = time.monotonic()

    def store_timer(self) -> Callable[[str, float], None]:
        def report(kind: str, seconds: float) -> None:
            self.store_seconds.labels(kind).observe(seconds)

        return report

    def rest_call(self, method: str, route: str, status: str) -> None:
        self.rest_calls.labels(method, route, status).inc()

    # ------------------------------------------------------------------ read when looked at

    async def refresh(self, store: Store, now: Any, connected: bool) -> None:
        """Games by status and the queue ages, from the database and this process."""
        for status, n in (await store.games_by_status()).items():
            self.games.labels(status).set(n)
        due = await store.due_reminders(now, limit=1)
        self.reminder_queue_age.set(max(0.0, (now - due[0].due_at).total_seconds()) if due else 0)
        oldest = min(self.ai_waiting.values(), default=None)
        self.ai_queue_age.set(time.monotonic() - oldest if oldest is not None else 0)
        self.gateway_up.set(1 if connected else 0)
        if self.last_event is not None:
            self.last_event_age.set(time.monotonic() - self.last_event)

    def value(self, name: str, **labels: str) -> float:
        """One figure as last set (0 if never), e.g. ``value("ada_moves_total", by="ai")``."""
        return self.registry.get_sample_value(name, labels or None) or 0.0

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class ErrorCounter(logging.Handler):
    """Counts ERROR log records into ``Metrics.errors`` (attached to the root logger while the
    bot runs)."""

    def __init__(self, metrics: Metrics) -> None:
        super().__init__(logging.ERROR)
        self.metrics = metrics

    def emit(self, record: logging.LogRecord) -> None:
        self.metrics.errors.inc()


def watch_rest(client: discord.Client, metrics: Metrics) -> None:
    """Count every REST call the client makes: through its HTTP client, and through the adapter
    that answers interactions (which does not use the HTTP client). The route is discord.py's
    template (``/channels/{channel_id}/messages``): no ids, no token."""
    from discord.webhook.async_ import async_context

    def counted(request: Any) -> Any:
        async def call(route: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                result = await request(route, *args, **kwargs)
            except discord.HTTPException as exc:
                metrics.rest_call(route.method, route.path, str(exc.status))
                raise
            except Exception:
                metrics.rest_call(route.method, route.path, "failed")
                raise
            metrics.rest_call(route.method, route.path, "ok")
            return result

        call.__wrapped__ = request  # type: ignore[attr-defined]
        return call

    http = client.http
    http.request = counted(getattr(http.request, "__wrapped__", http.request))  # type: ignore[method-assign]
    adapter = async_context.get()
    # One adapter answers every bot of the process: the latest bot counts its calls.
    adapter.request = counted(getattr(adapter.request, "__wrapped__", adapter.request))  # type: ignore[method-assign]
