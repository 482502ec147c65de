"""Ada's Dream Discord bot.

    ./scripts/run                 run the bot (needs DISCORD_TOKEN in the environment or .env)
    ./scripts/run offline         the offline table: the real bot on a simulated Discord, in the browser
    ./scripts/run check-db        verify every stored game against its seed and choices
    ./scripts/run backup DEST     consistent copy of the live database
    ./scripts/run repair [ID]     rebuild snapshots of games from their recorded choices
    ./scripts/run migrate         upgrade the database (a SQLite file is backed up first)
    ./scripts/run games | show ID | cancel ID | export ID | prune --older-than 90d [--dry-run]
                                  the operator's commands (see the README)
    ./scripts/run migrate-to-postgres SQLITE_PATH DATABASE_URL
                                  copy every game to PostgreSQL, each verified by replay
    ./scripts/run rebuild-records recompute results, stats and ratings from the stored games
    ./scripts/run --version       print the bot's version
    ./scripts/run --sync          run the bot, syncing the slash commands even if unchanged

(``./scripts/run`` installs into .venv when needed, then runs ``python bot.py`` with these arguments.)

Settings (.env or environment): DISCORD_TOKEN, DATABASE_URL (postgresql://..., optional: use
PostgreSQL instead of SQLite), DATABASE_PATH (the SQLite file, default ./adas_dream.db),
LOG_LEVEL (default INFO), TEST_GUILD_ID (optional: sync the commands to that server only, which
is immediate), AI_DELAY_SECONDS (default 2), AI_WORKERS (processes thinking for AI seats),
SHARD_COUNT and SHARD_IDS (several processes, see the README), LOG_FILE, LOG_FORMAT (text or
json), LOG_MAX_BYTES, LOG_BACKUPS (a rotating log file), METRICS_PORT and METRICS_HOST (the
/healthz and /metrics endpoint, off by default), SYNC_COMMANDS (1: sync at every start),
STOP_GRACE_SECONDS (how long a stop waits for moves in flight, default 20), WEB_PORT, WEB_HOST,
PUBLIC_URL, WEB_SECRET (the board page, off by default: see the README).
The board inside Discord (the Activity, off unless ACTIVITY_CLIENT_ID): ACTIVITY_CLIENT_ID,
ACTIVITY_CLIENT_SECRET, ACTIVITY_PUBLIC_KEY, ACTIVITY_REQUIRE_SIGNATURES, ACTIVITY_API_BASE.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import random
import signal
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from cogs import EXTENSIONS, logfile, logsafe, translator
from cogs.base import make_groups
from cogs.clicks import DEFAULT_BUDGET
from cogs.components import DYNAMIC_ITEMS
from cogs.config import ActivitySettings, BotConfig, activity_settings, whole
from cogs.metrics import ErrorCounter, Metrics, watch_rest
from cogs.options import CheckedTree
from cogs.service import GameService
from cogs.thinking import default_workers
from cogs.version import version
from engine import compiled as engine_build
from engine.edition import edition_problem
from store import Store

log = logging.getLogger("adas_dream.bot")

MAINTENANCE = {
    "check-db",
    "backup",
    "migrate",
    "repair",
    "migrate-to-postgres",
    "rebuild-records",
    "games",
    "show",
    "cancel",
    "export",
    "prune",
}

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
            tree_cls=CheckedTree,  # every option checked by the bot, not only by Discord
            **shards,
        )
        self.ada = config
        self.errors = ErrorCounter(config.metrics)
        self.web: Any = None
        """The board page's server (``web.app.Server``) while it runs (WEB_PORT set)."""

    async def setup_hook(self) -> None:
        from store.config import redact

        log.info("Ada's Dream %s", version())
        log.info("rules engine: %s", engine_build.describe())  # pure Python, or compiled
        log.info("opening the database %s (and applying migrations)", redact(self.ada.db_path))
        self.ada.store = await Store.open(self.ada.db_path)
        self.ada.metrics.start()
        self.ada.store.time_transactions(self.ada.metrics.store_timer())
        watch_rest(self, self.ada.metrics)
        logging.getLogger().addHandler(self.errors)
        log.info("database schema version %s", await self.ada.store.schema_version())
        problem = edition_problem()
        if problem is not None:  # lobbies could be made but never start: refuse them instead
            log.error(
                "the default edition of the cards and board can't be used, so /ada new is"
                " refused until it is fixed (fix it, then restart the bot): %s",
                problem,
            )
        self.ada.games = GameService(self, self.ada)
        self.ada.group, self.ada.admin_group = make_groups()
        for ext in EXTENSIONS:
            await self.load_extension(ext)
            log.debug("loaded %s", ext)
        self.tree.add_command(self.ada.group)
        self.tree.add_command(self.ada.admin_group)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await translator.install(self.tree)  # command names and descriptions in es and ja
        await self.sync_commands()
        if self.ada.web_port is not None:
            await self.start_web()

    async def start_web(self) -> None:
        """Serve the board page (``web``) in this process, on WEB_HOST:WEB_PORT."""
        from web.app import start
        from web.context import WebContext

        if not self.ada.web_secret and not self.ada.offline:
            log.warning(
                "WEB_SECRET is not set: the board page's sessions end when the bot restarts"
            )
        try:
            self.web = await start(WebContext.of(self.ada.games))
        except OSError as exc:  # the port is taken: the bot still serves Discord
            log.error(
                "the board page could not listen on %s:%s (%s): the bot runs without it",
                self.ada.web_host,
                self.ada.web_port,
                exc,
            )

    async def sync_commands(self) -> None:
        """Send the slash commands to Discord, only if they changed since the last sync (or
        ``force_sync``): the hash of what would be sent, every language included, is kept in
        the database per application and place (global, or the test guild)."""
        guild = discord.Object(self.ada.test_guild) if self.ada.test_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        where = f"the test guild {guild.id}" if guild else "everywhere"
        if self.ada.offline:  # a new simulated Discord each time: always sync
            synced = await self.tree.sync()
            log.info("synced %d command(s) to the offline table", len(synced))
            return
        assert self.ada.store is not None
        digest = await command_hash(self.tree, guild)
        key = f"command_hash:{self.application_id}:{guild.id if guild else 'global'}"
        if not self.ada.force_sync and await self.ada.store.bot_value(key) == digest:
            log.info("commands unchanged (%s): not synced to %s", digest[:12], where)
            return
        synced = await self.tree.sync(guild=guild) if guild else await self.sync_global()
        await self.ada.store.set_bot_value(key, digest)
        log.info(
            "synced %d command(s) to %s (%s%s)",
            len(synced),
            where,
            digest[:12],
            "" if guild else "; global commands may take a while to appear",
        )

    async def sync_global(self) -> list[discord.app_commands.AppCommand]:
        """``tree.sync()`` for the global commands, keeping the application's Entry Point
        command: enabling Activities makes Discord create one (type 4, PRIMARY_ENTRY_POINT), and
        a bulk overwrite without it fails (error 50240). One read of the global commands first;
        each entry point found is sent back as it is."""
        assert self.application_id is not None
        payload = await command_payload(self.tree, None)
        existing = await self.http.request(  # with their translations, to send them back whole
            discord.http.Route(
                "GET", "/applications/{application_id}/commands", application_id=self.application_id
            ),
            params={"with_localizations": "true"},
        )
        payload += [entry_point(c) for c in existing if c.get("type") == PRIMARY_ENTRY_POINT]
        try:
            data = await self.http.bulk_upsert_global_commands(self.application_id, payload)
        except discord.HTTPException as exc:
            if exc.status == 400 and exc.code == 50035:
                raise discord.app_commands.CommandSyncFailure(
                    exc, self.tree.get_commands()
                ) from None
            raise
        return [
            discord.app_commands.AppCommand(data=d, state=self._connection)  # as tree.sync()
            for d in data
            if d.get("type") != PRIMARY_ENTRY_POINT
        ]

    async def on_socket_event_type(self, event_type: str) -> None:
        self.ada.metrics.event()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.ada.metrics.event()  # (the simulated Discord sends no raw gateway events)

    def handle_signals(self) -> None:
        """On SIGTERM (systemd's stop, ``kill``), stop cleanly (``shutdown``)."""
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(self.shutdown()))

    async def shutdown(self) -> None:
        """Stop cleanly: take nothing new (a click or command is answered "the bot is
        restarting"), let the moves in flight finish (up to ``stop_grace`` seconds), close."""
        games = self.ada.games
        if games is not None and not games.stopping:
            games.stopping = True
            log.info("stopping: %d move(s) in flight to finish, nothing new taken", games.busy)
            try:
                await asyncio.wait_for(games.idle.wait(), self.ada.stop_grace)
            except TimeoutError:
                log.warning("stopping with %d move(s) still in flight", games.busy)
        await self.close()

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s) in %d server(s)",
            self.user,
            getattr(self.user, "id", "?"),
            len(self.guilds),
        )

    async def close(self) -> None:
        logging.getLogger().removeHandler(self.errors)
        try:
            asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
        except (NotImplementedError, RuntimeError):  # no signals here (Windows, a thread)
            pass
        try:
            if self.web is not None:  # first: no move comes from the page while closing
                web, self.web = self.web, None
                await web.stop()
            if self.ada.games is not None:
                await self.ada.games.aclose()
            await super().close()
        finally:
            if self.ada.store is not None:
                await self.ada.store.close()
                self.ada.store = None
                log.info("database closed")


PRIMARY_ENTRY_POINT = 4
"""The application command type of an Activity's Entry Point command."""
ENTRY_POINT_FIELDS = (
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "type",
    "handler",
    "default_member_permissions",
    "integration_types",
    "contexts",
    "nsfw",
)


def entry_point(command: dict[str, Any]) -> dict[str, Any]:
    """An Entry Point command as read from Discord, as a bulk overwrite sends it (its id,
    application id and version are Discord's, not part of the payload)."""
    return {k: command[k] for k in ENTRY_POINT_FIELDS if command.get(k) is not None}


async def command_payload(
    tree: discord.app_commands.CommandTree[Any], guild: Any
) -> list[dict[str, Any]]:
    """The commands ``tree.sync(guild=guild)`` would send, translations included (the same
    payload discord.py builds)."""
    commands_ = tree.get_commands(guild=guild)
    if tree.translator is not None:
        return [await c.get_translated_payload(tree, tree.translator) for c in commands_]
    return [c.to_dict(tree) for c in commands_]


async def command_hash(tree: discord.app_commands.CommandTree[Any], guild: Any) -> str:
    """The SHA-256 of the commands ``tree.sync(guild=guild)`` would send."""
    payload = await command_payload(tree, guild)
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


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
    metrics_port: int | None = None,
    metrics_host: str = "127.0.0.1",
    force_sync: bool = False,
    stop_grace: float = 20.0,
    web_port: int | None = None,
    web_host: str = "127.0.0.1",
    public_url: str = "",
    web_secret: str = "",
    web_local_login: bool = False,
    activity: ActivitySettings | None = None,
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
        ai_workers=ai_workers if ai_workers is not None else default_workers(),
        reminder_interval=reminder_interval,
        click_budget=click_budget,
        rng=random.Random(seed),
        test_guild=test_guild,
        offline=offline,
        shard_count=shard_count,
        shard_ids=shard_ids,
        metrics_port=metrics_port,
        metrics_host=metrics_host,
        force_sync=force_sync,
        stop_grace=stop_grace,
        web_port=web_port,
        web_host=web_host,
        public_url=public_url,
        web_secret=web_secret,
        web_local_login=web_local_login,
        activity=activity or ActivitySettings(),
        metrics=Metrics(version()),
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
    """stderr as always (systemd's journal reads it), and the rotating ``LOG_FILE`` if set."""
    level = os.environ.get("LOG_LEVEL", "INFO").upper()
    logging.basicConfig(level=getattr(logging, level, logging.INFO), format=logfile.TEXT_FORMAT)
    extra = logfile.file_handler(os.environ)
    if extra is not None:
        logging.getLogger().addHandler(extra)
    for handler in logging.getLogger().handlers:
        handler.addFilter(_Noise(offline))


def shard_range(count: str, ids: str) -> tuple[int | None, list[int] | None]:
    """SHARD_COUNT and SHARD_IDS ("0-3", "4,5" or empty: all of them) as the bot takes them."""
    if not count.strip():
        if ids.strip():
            raise SystemExit("SHARD_IDS needs SHARD_COUNT (the total number of shards).")
        return None, None
    total = whole("SHARD_COUNT", count, 1)
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
    for the default, one per core with one core left to the bot."""
    return whole("AI_WORKERS", text, 0) if text.strip() else None


def metrics_port_setting(text: str, key: str = "METRICS_PORT") -> int | None:
    """METRICS_PORT: the port of /healthz and /metrics (empty: no endpoint); WEB_PORT alike
    for the board page."""
    if not text.strip():
        return None
    port = whole(key, text, 1)
    if port > 65535:
        raise SystemExit(f"{key} must be a port number, 1 to 65535 (it is {text!r}).")
    return port


def _database_problem(db: str | os.PathLike[str]) -> str | None:
    """Open the database as the bot will (upgrading it, with its backup, if it is older) and
    say in one line why the bot can't use it: written by a newer bot, an older PostgreSQL not
    backed up yet, unreachable... None if it can."""
    import asyncio

    from store.cli import problem_line

    async def check() -> None:
        store = await Store.open(db)
        await store.close()

    try:
        asyncio.run(check())
    except Exception as exc:
        return problem_line(exc, db)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--version"]:
        print(f"Ada's Dream {version()}")
        return 0
    _load_env()
    if args and args[0] in MAINTENANCE:
        from store import cli

        return cli.main(args)
    force_sync = "--sync" in args
    args = [a for a in args if a != "--sync"]
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
    problem = _database_problem(db)
    if problem is not None:  # before Discord: a database the bot can't use stops it here
        print(f"error: {problem}", file=sys.stderr)
        return 2
    guild = os.environ.get("TEST_GUILD_ID", "").strip()
    count, ids = shard_range(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", ""))
    bot = create_bot(
        db,
        test_guild=int(guild) if guild.isdigit() else None,
        ai_delay=ai_delay_setting(os.environ.get("AI_DELAY_SECONDS", "")),
        ai_workers=ai_workers_setting(os.environ.get("AI_WORKERS", "")),
        shard_count=count,
        shard_ids=ids,
        metrics_port=metrics_port_setting(os.environ.get("METRICS_PORT", "")),
        metrics_host=os.environ.get("METRICS_HOST", "").strip() or "127.0.0.1",
        web_port=metrics_port_setting(os.environ.get("WEB_PORT", ""), "WEB_PORT"),
        web_host=os.environ.get("WEB_HOST", "").strip() or "127.0.0.1",
        public_url=os.environ.get("PUBLIC_URL", "").strip(),
        web_secret=os.environ.get("WEB_SECRET", "").strip(),
        force_sync=force_sync or os.environ.get("SYNC_COMMANDS", "").strip() in ("1", "true"),
        stop_grace=float(
            whole("STOP_GRACE_SECONDS", os.environ.get("STOP_GRACE_SECONDS") or "20", 0)
        ),
        activity=activity_settings(os.environ),
    )
    from store.config import redact

    log.info("starting Ada's Dream %s (database %s)", version(), redact(db))

    async def run() -> None:
        async with bot:
            bot.handle_signals()
            await bot.start(token)

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass  # Ctrl-C: the bot was closed on the way out
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
