"""What every cog of the bot shares: the ``/ada`` command group, private answers, errors turned
into clear messages, and finding the game a command is about."""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.clicks import ANSWER_MAX, ClickAnswer
from cogs.service import RESTARTING, GameService, Oops, game_lang, status_problem
from cogs.text import hide_paths, one_line, shorten
from engine import IllegalChoice
from i18n import ENGLISH, Lang
from store import GameBroken, GameNotFound, GameRecord, StoreError

log = logging.getLogger(__name__)


def friendly_text(exc: BaseException, tr: Lang = ENGLISH) -> str:
    """What a player is told about ``exc``, in their language, never naming the host's files."""
    return hide_paths(_friendly_text(exc, tr))


def _friendly_text(exc: BaseException, tr: Lang) -> str:
    if isinstance(exc, IllegalChoice):
        return tr._(
            "That's not a legal choice now. Start typing in `/ada play` to see the legal ones."
        )
    if isinstance(exc, GameBroken):
        return tr._(
            "This game's saved data is damaged, so it is paused. A server admin can run "
            "`./scripts/run check-db` on the bot's host."
        )
    if isinstance(exc, Oops):
        return exc.said(tr)
    if isinstance(exc, StoreError):
        return tr._(exc.template, **exc.fields)
    return tr._("Something went wrong on my side; nothing was changed. Please try again.")


async def say(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    text = shorten(text, ANSWER_MAX)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=True, **kwargs)
    except discord.HTTPException:
        log.warning("could not answer interaction %s privately", interaction.id, exc_info=True)


async def defer(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge a command at once (privately, "thinking"), before any database or engine work."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def turned_away(interaction: discord.Interaction[Any]) -> bool:
    """While the bot is stopping, answer anything new with "the bot is restarting" (in the
    member's Discord language: no database read) and tell the caller to do nothing else."""
    games = getattr(getattr(interaction.client, "ada", None), "games", None)
    if games is None or not games.stopping:
        return False
    if interaction.type is not discord.InteractionType.autocomplete:
        await say(interaction, i18n.get(interaction.locale)._(RESTARTING))
    return True


class StopGate:
    """Mixed into the game components (``cogs.components``): no click is taken while the bot
    is stopping."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not await turned_away(interaction)


class AdaTree(app_commands.CommandTree[Any]):
    """The command tree: no command is taken while the bot is stopping."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not await turned_away(interaction)


def friendly(fn: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Answer a command's user-facing errors privately (they are not bot errors)."""

    @functools.wraps(fn)
    async def wrapper(
        self: Any, interaction: discord.Interaction[Any], *args: Any, **kwargs: Any
    ) -> None:
        try:
            with self.games.working():  # a stop waits for the command to be answered
                await fn(self, interaction, *args, **kwargs)
        except (Oops, StoreError, IllegalChoice) as exc:
            await say(interaction, friendly_text(exc, await self.lang_of(interaction)))

    return wrapper


def language_choices(follow: str | None = None) -> list[app_commands.Choice[str]]:
    """The bot's languages as a command option's choices, each named in its own words; with
    ``follow``, one more choice ("discord") that follows a Discord language instead."""
    out = [app_commands.Choice(name=i18n.NAMES[c], value=c) for c in i18n.LANGUAGES]
    return out + ([app_commands.Choice(name=follow, value="discord")] if follow else [])


def make_groups() -> tuple[app_commands.Group, app_commands.Group]:
    """The bot's two command groups: ``/ada`` for everyone, ``/ada-admin`` for server admins
    (default member permissions: Discord hides it from members without Manage Server)."""
    ada = app_commands.Group(
        name="ada", description="Play Ada's Dream, the board game, in this server.", guild_only=True
    )
    admin = app_commands.Group(
        name="ada-admin",
        description="Ada's Dream server settings (admins).",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )
    return ada, admin


class AdaCog(commands.Cog):
    """Base of the bot's cogs: their slash commands join the shared ``/ada`` group (or, with
    ``admin_group = True``, ``/ada-admin``), and their errors become private answers."""

    admin_group = False

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.games: GameService = bot.ada.games  # type: ignore[attr-defined]
        self.store = self.games.store

    # ------------------------------------------------------------------ languages

    async def lang_of(self, interaction: discord.Interaction[Any]) -> Lang:
        """The language of a private answer: the member's own setting (``/ada language``),
        else their Discord client's language."""
        chosen = await self.games.user_language(interaction.user.id)
        return i18n.get(chosen or interaction.locale)

    @staticmethod
    def game_lang(rec: GameRecord) -> Lang:
        """The language of what a game posts in its thread (and its images there)."""
        return game_lang(rec)

    async def cog_load(self) -> None:
        # discord.py adds a plain cog's app commands at the top level after cog_load: move them
        # into the shared group instead (a group can't be split across cogs otherwise).
        group = self.bot.ada.admin_group if self.admin_group else self.bot.ada.group  # type: ignore[attr-defined]
        for command in self.__cog_app_commands__:
            group.add_command(command)
        self.__cog_app_commands__ = []

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        tr = await self.lang_of(interaction)
        if isinstance(error, app_commands.CheckFailure):
            await say(interaction, tr._("You don't have permission to do that here."))
            return
        if not isinstance(original, StoreError | Oops | IllegalChoice):
            log.error(
                "command %s failed",
                interaction.command and interaction.command.qualified_name,
                exc_info=original,
            )
        await say(interaction, friendly_text(original, tr))

    def answer(
        self, interaction: discord.Interaction[Any], *, private: bool = False
    ) -> ClickAnswer:
        """The answer to a click, in one REST call when it is ready in time (``cogs.clicks``)."""
        return ClickAnswer(interaction, self.games.cfg.click_budget, private=private)

    async def guard(
        self,
        interaction: discord.Interaction[Any],
        coro: Awaitable[None],
        answer: ClickAnswer | None = None,
    ) -> None:
        """Run a component handler; any error becomes a private answer (and is logged). A stop
        waits for it to be answered. With ``answer``, the click is acknowledged at the end if
        nothing answered it."""
        try:
            with self.games.working():
                await coro
        except Exception as exc:
            if inspect.iscoroutine(coro):
                coro.close()  # refused before it started (the bot is stopping)
            if not isinstance(exc, StoreError | Oops | IllegalChoice):
                log.exception("component handler failed")
            text = friendly_text(exc, await self.lang_of(interaction))
            if answer is None:
                await say(interaction, text)
            else:
                await answer.say(text)
        finally:
            if answer is not None:
                await answer.finish()

    # ------------------------------------------------------------------ finding games

    async def find_game(
        self,
        interaction: discord.Interaction[Any],
        game: int | None,
        statuses: tuple[str, ...] = ("lobby", "active"),
    ) -> GameRecord:
        """The game a command is about: the one given, else this thread's (whatever its state:
        the caller's status check then says clearly why it can't be used), else the user's only
        game in ``statuses``. Raises Oops with what to do otherwise."""
        guild_id = interaction.guild_id
        if game is not None:
            try:
                rec = await self.store.get_game(game)
            except GameNotFound:
                raise Oops("There is no game #{id}.", id=game) from None
            if rec.guild_id != guild_id:
                raise Oops("Game #{id} is not in this server.", id=game)
            return rec
        here = await self.store.game_in_thread(interaction.channel_id or 0)  # an index lookup
        if here is not None:
            return here
        mine = [
            g
            for g in await self.store.games_for_user(interaction.user.id, statuses)
            if g.guild_id == guild_id
        ]
        if len(mine) == 1:
            return mine[0]
        if not mine:
            raise Oops(
                "I can't tell which game you mean: use this in a game's thread, "
                "or give the `game` option."
            )
        ids = ", ".join(f"#{g.id}" for g in mine[:10])
        raise Oops("You are in several games ({ids}): give the `game` option.", ids=ids)

    async def game_for(
        self, interaction: discord.Interaction[Any], game: int | None, statuses: tuple[str, ...]
    ) -> GameRecord:
        """``find_game`` and a clear refusal when the game is not in one of ``statuses``."""
        rec = await self.find_game(interaction, game, statuses)
        problem = status_problem(rec, statuses)
        if problem:
            raise problem
        return rec

    async def check_place(self, interaction: discord.Interaction[Any], rec: GameRecord) -> None:
        """A component of game ``rec`` acts only from the game's own server and thread."""
        if interaction.guild_id != rec.guild_id or interaction.channel_id not in (
            rec.thread_id,
            rec.channel_id,
        ):
            raise Oops("That button belongs to a game in another place.")

    async def is_admin(self, interaction: discord.Interaction[Any], rec: GameRecord) -> bool:
        """May this member run the game like its creator (stand-ins, cancel, the delay)? The
        creator, server admins (Administrator, Manage Server), and moderators who may manage
        threads (each game is a thread): the help and README say so."""
        perms = interaction.permissions
        return (
            interaction.user.id == rec.creator_id
            or perms.administrator
            or perms.manage_guild
            or perms.manage_threads
        )

    async def game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        try:
            games = {g.id: g for g in await self.store.games_for_user(interaction.user.id)}
            for g in await self.store.games_in_guild(interaction.guild_id or 0):
                games.setdefault(g.id, g)
        except Exception:
            return []
        tr = await self.lang_of(interaction)
        out = []
        for g in sorted(games.values(), key=lambda g: -g.id):
            names = ", ".join(s.name for s in g.seats)
            label = one_line(f"#{g.id} ({tr.p_('status', g.status)}): {names}", 100)
            if current and current.lower() not in label.lower():
                continue
            out.append(app_commands.Choice(name=label, value=g.id))
        return out[:25]
