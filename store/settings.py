"""Per-guild and per-user settings, and votes for an AI stand-in."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from engine.edition import EditionError, UnknownEdition, library

from .backend import Tx
from .base import StoreBase
from .common import Corrupt, found, setup_of_text
from .errors import StoreError
from .models import GuildSettings, UserSettings

_KEEP: Any = object()

MAX_NEW_GAMES_RANGE = (1, 100)
"""The games a server may let one member set up in a day (``max_new_games``): at least one,
and few enough that no member can fill the server in a day."""


class SettingsMixin(StoreBase):
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults if never set: reminders after 12 h, by DM, new games
        on the bot's default edition)."""

        async def read(tx: Tx) -> GuildSettings | None:
            return await tx.guild_settings(guild_id)

        return await self._db.read(read) or GuildSettings(guild_id)

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        reminder_hours: float | None = None,
        ping_mode: str | None = None,
        edition: str | None | Any = _KEEP,
        max_open_lobbies: int | None | Any = _KEEP,
        max_games: int | None | Any = _KEEP,
        language: str | None | Any = _KEEP,
        max_new_games: int | None | Any = _KEEP,
        now: datetime | None = None,
    ) -> GuildSettings:
        """Change some of the guild's settings (None = leave as is). Returns the result.

        ``edition``: the content edition the server's new games take, e.g. to finish its games
        on an older edition before moving on; None: follow the bot's default (omitted: keep).
        Games already started keep theirs. Raises StoreError for an edition the bot lacks.
        ``max_open_lobbies``, ``max_games``: the server's limits (None: the bot's defaults);
        ``max_new_games``: how many games one member may set up there in a day
        (``MAX_NEW_GAMES_RANGE``; None: the bot's default);
        ``language``: its games' language (None: its Discord locale). Omitted: kept."""
        for limit in (max_open_lobbies, max_games, max_new_games):
            if (
                limit is not _KEEP
                and limit is not None
                and (not isinstance(limit, int) or limit < 1)
            ):
                raise StoreError("A limit must be a whole number of at least 1.")
        low, high = MAX_NEW_GAMES_RANGE
        if isinstance(max_new_games, int) and not low <= max_new_games <= high:
            raise StoreError(
                "A member may set up between {low} and {high} games a day.", low=low, high=high
            )
        at = self._at(now)
        if edition is not _KEEP and edition is not None:
            _check_edition(edition)

        async def update(tx: Tx) -> GuildSettings:
            current = await tx.guild_settings(guild_id) or GuildSettings(guild_id)
            hours = current.reminder_hours if reminder_hours is None else float(reminder_hours)
            mode = current.ping_mode if ping_mode is None else ping_mode
            _check_settings(hours, mode)
            result = dataclasses.replace(
                current,
                reminder_hours=hours,
                ping_mode=mode,  # type: ignore[arg-type]
                **{
                    name: value
                    for name, value in (
                        ("edition", edition),
                        ("max_open_lobbies", max_open_lobbies),
                        ("max_games", max_games),
                        ("language", language),
                        ("max_new_games", max_new_games),
                    )
                    if value is not _KEEP
                },
            )
            await tx.put_guild_settings(result, at)
            return result

        return await self._db.write(update)

    async def editions_in_use(self, guild_id: int) -> dict[str, int]:
        """How many of the guild's active games play each content edition: a server that keeps
        an older edition for its games can follow the default once they are over."""

        async def read(tx: Tx) -> list[str | None]:
            return [g.setup for g, _ in await tx.find_games("guild", guild_id, ["active"])]

        counts: dict[str, int] = {}
        for text in await self._db.read(read):
            try:
                name = setup_of_text(text).edition
            except Corrupt:
                continue  # a damaged setup: verification marks that game, not this count
            counts[name] = counts.get(name, 0) + 1
        return counts

    async def user_settings(self, user_id: int) -> UserSettings:
        """The user's settings (defaults: reminders on, follow the guild's mode and delay)."""

        async def read(tx: Tx) -> UserSettings | None:
            return await tx.user_settings(user_id)

        return await self._db.read(read) or UserSettings(user_id)

    async def set_user_settings(
        self,
        user_id: int,
        *,
        reminders_enabled: bool | None = None,
        ping_mode: str | None | Any = _KEEP,
        reminder_hours: float | None | Any = _KEEP,
        language: str | None | Any = _KEEP,
        now: datetime | None = None,
    ) -> UserSettings:
        """Change some of the user's settings. Omitted arguments are kept; ``ping_mode`` or
        ``reminder_hours`` = None means "follow the guild", ``language`` = None "follow my
        Discord locale"."""
        at = self._at(now)

        async def update(tx: Tx) -> UserSettings:
            current = await tx.user_settings(user_id) or UserSettings(user_id)
            enabled = current.reminders_enabled if reminders_enabled is None else reminders_enabled
            mode = current.ping_mode if ping_mode is _KEEP else ping_mode
            hours = current.reminder_hours if reminder_hours is _KEEP else reminder_hours
            _check_settings(hours, mode)
            chosen = current.language if language is _KEEP else language
            result = UserSettings(user_id, bool(enabled), mode, hours, chosen)
            await tx.put_user_settings(result, at)
            return result

        return await self._db.write(update)

    async def reminder_policy(self, guild_id: int, user_id: int) -> tuple[bool, str, float]:
        """Effective (enabled, ping_mode, reminder_hours) for a user in a guild."""
        g = await self.guild_settings(guild_id)
        u = await self.user_settings(user_id)
        return u.reminders_enabled, u.ping_mode or g.ping_mode, u.reminder_hours or g.reminder_hours

    async def add_standin_vote(
        self, game_id: int, seq: int, voter_id: int, *, now: datetime | None = None
    ) -> list[int]:
        """Record a vote for an AI stand-in at decision ``seq`` (once per voter); returns every
        voter for that decision so far."""
        at = self._at(now)

        async def vote(tx: Tx) -> list[int]:
            found(await tx.game(game_id))
            await tx.add_vote(game_id, seq, voter_id, at)
            return await tx.votes(game_id, seq)

        return await self._db.write(vote)


def _check_edition(name: str) -> None:
    try:
        library().get(name)
    except UnknownEdition as exc:
        raise StoreError(
            "This bot has no edition called {name!r} (it has: {known}).",
            name=name,
            known=", ".join(exc.known),
        ) from None
    except EditionError as exc:
        raise StoreError("The edition {name!r} can't be used: {why}", name=name, why=exc) from None


def _check_settings(hours: float | None, mode: str | None) -> None:
    if hours is not None and not hours > 0:
        raise StoreError("The reminder delay must be a positive number of hours.")
    if mode is not None and mode not in ("dm", "channel"):
        raise StoreError("Reminders can go by 'dm' or in the 'channel'.")
