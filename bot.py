"""Ada's Dream Discord bot.

    ./scripts/run                 run the bot (needs DISCORD_TOKEN in the environment or .env)
    ./scripts/run offline         the offline table: the real bot on a simulated Discord, in the browser
    ./scripts/run check-db        verify every stored game against its seed and choices
    ./scripts/run backup DEST     consistent copy of the live database
    ./scripts/run repair [ID]     rebuild snapshots of games from their recorded choices
    ./scripts/run migrate         apply pending database migrations
    ./scripts/run migrate-to-postgres SQLITE_PATH DATABASE_URL
                                  copy every game to PostgreSQL, each verified by replay

(``./scripts/run`` installs into .venv when needed, then runs ``python bot.py`` with these arguments.)

Settings (.env or environment): DISCORD_TOKEN, DATABASE_URL (postgresql://..., optional: use
PostgreSQL instead of SQLite), DATABASE_PATH (the SQLite file, default ./adas_dream.db),
LOG_LEVEL (default INFO), TEST_GUILD_ID (optional: sync the commands to that server only, which
is immediate), AI_DELAY_SECONDS (default 2), AI_WORKERS (processes thinking for AI seats),
SHARD_COUNT and SHARD_IDS (several processes, see the README).
"""

from __future__ import annotations

import logging
import os
import random
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from cogs import logsafe, translator
from cogs.base import make_groups
from cogs.clicks import DEFAULT_BUDGET
from cogs.components import DYNAMIC_ITEMS
from cogs.config import BotConfig
from cogs.service import GameService
from engine import compiled as engine_build
from store import Store

log = logging.getLogger("adas_dream.bot")

EXTENSIONS = ("cogs.lobby", "cogs.play", "cogs.info", "cogs.reminders", "cogs.admin")
MAINTENANCE = {"check-db", "backup", "migrate", "repair", "migrate-to-postgres"}

NO_TOKEN = """\
No Discord token: set DISCORD_TOKEN in a .env file next to bot.py (see .env.example) or in the
environment, then run `./scripts/run` again.

  1. https://discord.com/developers/applications -> New Application -> Bot -> Reset Token: copy it.
  2. cp .env.example .env   and put the token after DISCORD_TOKEN=
  3. Invite the bot: OAuth2 -> URL Generator, scopes "bot" and "applications.commands",
     permissions: View Channels, Send Messages, Send Messages in Threads, Create Public Threads,
     Embed Links, Attach Files, Read Message History.

Want to try the game without Discord?  ./scripts/run offline
"""


class AdaBot(commands.Bot):
    """The bot: opens the store, loads the cogs and syncs the command tree in ``setup_hook``."""

    def __init__(self, config: BotConfig, **shards: Any) -> None:
        intents = discord.Intents.default()  # no privileged intents needed
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **shards,
        )
        self.ada = config

    async def setup_hook(self) -> None:
        from store.config import redact

        log.info("rules engine: %s", engine_build.describe())  # pure Python, or compiled
        log.info("opening the database %s (and applying migrations)", redact(self.ada.db_path))
        self.ada.store = await Store.open(self.ada.db_path)
        log.info("database schema version %s", await self.ada.store.schema_version())
        self.ada.games = GameService(self, self.ada)
        self.ada.group, self.ada.admin_group = make_groups()
        for ext in EXTENSIONS:
            await self.load_extension(ext)
            log.debug("loaded %s", ext)
        self.tree.add_command(self.ada.group)
        self.tree.add_command(self.ada.admin_group)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await translator.install(self.tree)  # command names and descriptions in es and ja
        if self.ada.test_guild:
            guild = discord.Object(self.ada.test_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d command(s) to the test guild %s", len(synced), self.ada.test_guild)
        elif self.ada.offline:
            synced = await self.tree.sync()
            log.info("synced %d command(s) to the offline table", len(synced))
        else:
            synced = await self.tree.sync()
            log.info("synced %d global command(s) (may take a while to appear)", len(synced))

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s) in %d server(s)",
            self.user,
            getattr(self.user, "id", "?"),
            len(self.guilds),
        )

    async def close(self) -> None:
        try:
            if self.ada.games is not None:
                self.ada.games.close()
            await super().close()
        finally:
            if self.ada.store is not None:
                await self.ada.store.close()
                self.ada.store = None
                log.info("database closed")


class ShardedAdaBot(AdaBot, commands.AutoShardedBot):
    """The bot running a range of Discord's shards (``SHARD_COUNT``, ``SHARD_IDS``): several
    such processes on one PostgreSQL database share a big bot."""

    def __init__(self, config: BotConfig) -> None:
        super().__init__(config, shard_count=config.shard_count, shard_ids=config.shard_ids)


def create_bot(
    db_path: str | os.PathLike[str],
    *,
    clock: Callable[[], datetime] | None = None,
    images: bool = True,
    ai_delay: float = 2.0,
    ai_workers: int | None = None,
    reminder_interval: float = 120.0,
    click_budget: float = DEFAULT_BUDGET,
    seed: int | None = None,
    test_guild: int | None = None,
    offline: bool = False,
    shard_count: int | None = None,
    shard_ids: list[int] | None = None,
) -> AdaBot:
    """A new bot object on the database at ``db_path`` (one per run: make a fresh one to restart).

    ``clock`` returns aware UTC datetimes (default ``discord.utils.utcnow``); ``seed`` makes new
    games' seeds and the AI seats' play reproducible.
    """
    logsafe.install()
    config = BotConfig(
        db_path=str(db_path),
        clock=clock or discord.utils.utcnow,
        images=images,
        ai_delay=ai_delay,
        ai_workers=ai_workers
        if ai_workers is not None
        else min(2, max(1, (os.cpu_count() or 2) - 1)),
        reminder_interval=reminder_interval,
        click_budget=click_budget,
        rng=random.Random(seed),
        test_guild=test_guild,
        offline=offline,
        shard_count=shard_count,
        shard_ids=shard_ids,
    )
    return ShardedAdaBot(config) if shard_count else AdaBot(config)


def _load_env() -> None:
    try:
        from dotenv import load_dotenv
    except ImportError:  # pragma: no cover - python-dotenv is a dependency
        return
    env = Path(__file__).with_name(".env")
    load_dotenv(env if env.is_file() else None, override=False)


class _Noise(logging.Filter):
    """Drops discord.py warnings that mislead here: this bot uses no voice, and offline the
    simulated Discord builds a second connection state without intents."""

    def __init__(self, offline: bool) -> None:
        super().__init__()
        self.phrases = ["voice will NOT be supported"]
        if offline:
            self.phrases.append("Guilds intent seems to be disabled")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not any(p in message for p in self.phrases)


def _logging(offline: bool = False) -> None:
    level = os.environ.get("LOG_LEVEL", "INFO").upper()
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    for handler in logging.getLogger().handlers:
        handler.addFilter(_Noise(offline))


def _whole(key: str, text: str, least: int) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        value = least - 1
    if value < least:
        raise SystemExit(f"{key} must be a whole number of at least {least} (it is {text!r}).")
    return value


def shard_range(count: str, ids: str) -> tuple[int | None, list[int] | None]:
    """SHARD_COUNT and SHARD_IDS ("0-3", "4,5" or empty: all of them) as the bot takes them."""
    if not count.strip():
        if ids.strip():
            raise SystemExit("SHARD_IDS needs SHARD_COUNT (the total number of shards).")
        return None, None
    total = _whole("SHARD_COUNT", count, 1)
    chosen: list[int] = []
    for part in filter(None, (p.strip() for p in ids.split(","))):
        lo, _, hi = part.partition("-")
        if not lo.strip().isdigit() or not (hi or lo).strip().isdigit():
            raise SystemExit(f"SHARD_IDS is a list of shards and ranges like 0-3,5 (not {part!r}).")
        chosen += list(range(int(lo), int(hi or lo) + 1))
    if any(not 0 <= i < total for i in chosen):
        raise SystemExit(f"SHARD_IDS must be between 0 and {total - 1}.")
    return total, (sorted(set(chosen)) or None)


def ai_delay_setting(text: str) -> float:
    """AI_DELAY_SECONDS: the pause before an AI seat plays (default 2)."""
    try:
        value = float(text) if text.strip() else 2.0
    except ValueError:
        value = -1.0
    if not 0 <= value < 86400:
        raise SystemExit(f"AI_DELAY_SECONDS must be a number of seconds (it is {text!r}).")
    return value


def ai_workers_setting(text: str) -> int | None:
    """AI_WORKERS: processes that think for AI seats (0: a thread of the bot's process); empty
    for the default, one core left to the bot (at most 2)."""
    return _whole("AI_WORKERS", text, 0) if text.strip() else None


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    _load_env()
    if args and args[0] in MAINTENANCE:
        from store import cli

        return cli.main(args)
    _logging(offline=bool(args) and args[0] == "offline")
    if args and args[0] == "offline":
        from offline.table import main as offline_main

        return offline_main(args[1:])
    if args and args[0] not in ("run",):
        print(__doc__)
        return 2
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 1
    from store import database_location

    db = database_location()
    guild = os.environ.get("TEST_GUILD_ID", "").strip()
    count, ids = shard_range(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", ""))
    bot = create_bot(
        db,
        test_guild=int(guild) if guild.isdigit() else None,
        ai_delay=ai_delay_setting(os.environ.get("AI_DELAY_SECONDS", "")),
        ai_workers=ai_workers_setting(os.environ.get("AI_WORKERS", "")),
        shard_count=count,
        shard_ids=ids,
    )
    from store.config import redact

    log.info("starting the bot (database %s)", redact(db))
    bot.run(token, log_handler=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
