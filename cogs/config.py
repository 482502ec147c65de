"""Run-time settings of the bot object (``bot.ada``), set by ``bot.create_bot``."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

from cogs.clicks import DEFAULT_BUDGET
from store import Store

# -- the Discord Activity (issue 32): the board page inside Discord ------------------------------
DISCORD_API = "https://discord.com/api/v10"


@dataclass(frozen=True)
class ActivitySettings:
    """The Activity's settings (ACTIVITY_* in .env). ``client_id`` empty: no Activity (no
    **Open board** button, no token exchange)."""

    client_id: str = ""
    client_secret: str = ""
    """The OAuth2 client secret: used only by the server's code exchange, never sent out."""
    public_key: str = ""
    """The application's Ed25519 public key (hex) that Discord's proxy signs requests with."""
    bot_token: str = ""
    """The bot's token: the Activity Instance endpoint answers only the application's bot."""
    api_base: str = DISCORD_API
    """Discord's API (tests point it at a fake)."""
    require_signatures: bool = False
    """Every request to the web server must come through Discord's proxy, signed (a signed
    request is always checked, whatever this says)."""

    @property
    def enabled(self) -> bool:
        return bool(self.client_id)

    def deep_link(self, game: int) -> str | None:
        """A link that opens the Activity on this game (Discord's documented Activity link,
        whose ``custom_id`` the launch carries), or None without an Activity."""
        if not self.enabled:
            return None
        return f"https://discord.com/activities/{self.client_id}?custom_id=game-{game}"


def activity_settings(env: Mapping[str, str]) -> ActivitySettings:
    """The ACTIVITY_* settings from ``env`` (SystemExit saying what is wrong)."""
    client_id = env.get("ACTIVITY_CLIENT_ID", "").strip()
    if not client_id:
        return ActivitySettings()
    if not client_id.isdigit():
        raise SystemExit(f"ACTIVITY_CLIENT_ID is the application's id, digits (not {client_id!r}).")
    secret = env.get("ACTIVITY_CLIENT_SECRET", "").strip()
    key = env.get("ACTIVITY_PUBLIC_KEY", "").strip().lower()
    if not secret:
        raise SystemExit("ACTIVITY_CLIENT_SECRET is needed with ACTIVITY_CLIENT_ID (OAuth2 page).")
    if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
        raise SystemExit("ACTIVITY_PUBLIC_KEY is the application's public key: 64 hex digits.")
    return ActivitySettings(
        client_id=client_id,
        client_secret=secret,
        public_key=key,
        bot_token=env.get("DISCORD_TOKEN", "").strip(),
        api_base=(env.get("ACTIVITY_API_BASE", "").strip() or DISCORD_API).rstrip("/"),
        require_signatures=env.get("ACTIVITY_REQUIRE_SIGNATURES", "").strip() in ("1", "true"),
    )


@dataclass
class BotConfig:
    db_path: str
    clock: Callable[[], datetime] = discord.utils.utcnow
    images: bool = True
    """Attach the board and Mill images to turn messages (tests may switch them off)."""
    ai_delay: float = 2.0
    """Seconds an AI seat waits before playing its turn, so people can follow."""
    ai_workers: int = 1
    """Processes that think for AI seats (0: a thread of this process, as tests may prefer)."""
    click_budget: float = DEFAULT_BUDGET
    """Seconds after Discord created a click by which the bot answers it: with the updated
    message if that is ready (one REST call), else with an acknowledgement (edits follow).
    Discord allows 3 s; the rest is for the network both ways."""
    reminder_interval: float = 120.0
    """Seconds between two looks at the reminder schedule."""
    rng: random.Random = field(default_factory=random.Random)
    """Seeds of new games and of the AI seats' play."""
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    """Run these Discord shards of ``shard_count`` (several processes share one PostgreSQL);
    None: one process runs them all."""
    test_guild: int | None = None
    """Sync the commands to this guild only (immediate), instead of globally."""
    offline: bool = False
    """Running on the offline table (a simulated Discord): only the log lines differ."""
    metrics_port: int | None = None
    """Serve ``/healthz`` and ``/metrics`` on this port (None: off; 0: any free port)."""
    metrics_host: str = "127.0.0.1"
    force_sync: bool = False
    """Sync the slash commands at start even if they did not change (``--sync``)."""
    stop_grace: float = 20.0
    """Seconds a stop waits for the moves in flight to finish."""
    web_port: int | None = None
    """Serve the board page (``web.app``) on this port (None: off; 0: any free port)."""
    web_host: str = "127.0.0.1"
    public_url: str = ""
    """The board page's address as players reach it (an HTTPS tunnel or proxy in front of
    ``web_host:web_port``); empty: http://web_host:web_port."""
    web_secret: str = ""
    """The key that signs the board page's sessions (empty: a random one per run)."""
    web_local_login: bool = False
    """The board page's local login (pick any seat): the offline table only, never production."""
    activity: ActivitySettings = field(default_factory=ActivitySettings)
    """The Discord Activity (the board page inside Discord); off unless ACTIVITY_CLIENT_ID."""
    metrics: Any = None
    """The bot's figures (cogs.metrics.Metrics), made with the bot."""
    store: Store | None = None
    games: Any = None
    """The game service the cogs share (cogs.service.GameService), made at start-up."""
    group: Any = None
    admin_group: Any = None
    """The ``/ada`` and ``/ada-admin`` command groups the cogs put their commands in."""

    def now(self) -> datetime:
        return self.clock()


def whole(key: str, text: str, least: int) -> int:
    """A setting that must be a whole number of at least ``least`` (SystemExit otherwise)."""
    try:
        value = int(text.strip())
    except ValueError:
        value = least - 1
    if value < least:
        raise SystemExit(f"{key} must be a whole number of at least {least} (it is {text!r}).")
    return value
