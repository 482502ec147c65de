"""Stand-ins for absent players (``/ada standin``) and the server's settings (``/ada-admin``)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs import digest, ui
from cogs.base import AdaCog, defer, friendly, language_choices, say
from cogs.service import Oops
from engine.edition import library
from store import GameRecord, SeatRecord

log = logging.getLogger(__name__)


class StandinCog(AdaCog, name="Standin"):
    """An AI plays one turn for an absent player, when asked (never by itself), and only once
    the player has been reminded and a grace period has passed."""

    async def ready_at(self, rec: GameRecord, seat: SeatRecord, seq: int) -> datetime | None:
        """From when a stand-in may play ``seat``'s decision ``seq`` (None: not reminded yet).

        The player must have been reminded about this decision (or have switched reminders
        off, in which case the first reminder's delay counts as if it had been sent), then a
        grace period passes: the game's ``standin_hours``, by default the reminder delay.
        """
        assert seat.user_id is not None
        enabled, hours = await self.games.reminder_hours(rec, seat.user_id)
        grace = timedelta(hours=float(rec.options.get("standin_hours") or hours))
        sent = [
            r.sent_at
            for r in await self.store.turn_reminders(rec.id, seat.user_id, seq)
            if r.status == "sent" and r.sent_at
        ]
        if sent:
            return min(sent) + grace
        if enabled:
            return None
        moves = await self.store.choices(rec.id)
        since = moves[-1].applied_at if moves else (rec.started_at or rec.created_at)
        return since + timedelta(hours=hours) + grace

    @app_commands.command(
        name="standin",
        description="Ask an AI to play the turn of a player who has been away (owner, or a table vote).",
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def standin(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """An AI stand-in plays one turn for the player whose turn it is, once that player has
        been reminded and a grace period has passed. The game's creator (or a server admin, or
        the absent player) asks, or a majority of the other human players vote for it with this
        same command. The absent player is told, in the thread and by DM, what was played."""
        await defer(interaction)
        rec = await self.game_for(interaction, game, ("active",))
        async with self.games.locks[rec.id]:
            rec = await self.store.get_game(rec.id)
            state, seq = await self.store.load_state(rec.id)
            dec = state.decision
            seat = rec.seat_at(dec.player) if dec else None
            if dec is None or seat is None:
                raise Oops("This game has no turn waiting.")
            if seat.is_ai:
                raise Oops("An AI seat is playing: it needs no stand-in.")
            user = interaction.user.id
            humans = [s.user_id for s in rec.seats if not s.is_ai and s.user_id is not None]
            others = [u for u in humans if u != seat.user_id]
            owner = user == seat.user_id or await self.is_admin(interaction, rec)
            if not owner and user not in others:
                raise Oops("Only players of this game can vote for a stand-in.")
            if user != seat.user_id:
                away = await self.store.away_until(seat.user_id, self.games.now())
                if away is not None:  # the grace period stretches to their return (issue 30)
                    raise Oops(
                        "{name} is away until {date}: a stand-in can be asked only after that.",
                        name=seat.name,
                        date=discord.utils.format_dt(away),
                    )
                ready = await self.ready_at(rec, seat, seq)
                if ready is None:
                    raise Oops(
                        "{name} hasn't been reminded about this turn yet: a stand-in can "
                        "be asked once they have been reminded and had time to answer.",
                        name=ui.seat_name(seat),
                    )
                if self.games.now() < ready:
                    raise Oops(
                        "{name} was reminded; a stand-in can be asked {when} ({date}).",
                        name=ui.seat_name(seat),
                        when=discord.utils.format_dt(ready, "R"),
                        date=discord.utils.format_dt(ready),
                    )
            if not owner:
                votes = await self.store.add_standin_vote(rec.id, seq, user, now=self.games.now())
                # players who left the server neither vote nor count in the majority
                present = [u for u in others if await self.games.is_member(rec.guild_id, u)]
                needed = len(present) // 2 + 1
                if len(set(votes) & set(present)) < needed:
                    tr = await self.lang_of(interaction)
                    await say(
                        interaction,
                        tr._(
                            "Vote recorded: {votes} of {needed} needed for a stand-in to play "
                            "{name}'s turn.",
                            votes=len(set(votes) & set(present)),
                            needed=needed,
                            name=ui.seat_name(seat),
                        ),
                    )
                    return
        # the turn counts as the stand-in's in the records (written first: it may end the game)
        await self.store.note_standin(rec.id, dec.player, seq, now=self.games.now())
        new = await self.games.play_turn_by_ai(rec, state, seq, "greedy")
        if new is None:
            await self.store.forget_standin(rec.id, seq)
            raise Oops("The game moved on meanwhile: no stand-in was needed.")
        turn = digest.last_turn_of(new, dec.player)
        public = self.game_lang(rec)
        played = digest.summary(turn, 600, public, new) if turn else public._("its turn")
        await self.games.announce(
            rec,
            public._(
                "An AI stand-in played **{name}**'s turn (asked by {user}): {played}",
                name=ui.seat_name(seat, public),
                user=interaction.user.mention,
                played=played,
            ),
        )
        if seat.user_id is not None and seat.user_id != user:
            await self.tell_absent(rec, seat.user_id, new, dec.player)
        tr = await self.lang_of(interaction)
        await say(interaction, tr._("The stand-in played {name}'s turn.", name=ui.seat_name(seat)))
        self.games.kick_ai(rec.id)

    async def tell_absent(self, rec: GameRecord, user_id: int, state: Any, seat: int) -> None:
        """A DM to the player a stand-in played for (best effort: DMs may be closed), in their
        own language."""
        link = await self.games.current_link(rec)
        tr = await self.games.dm_lang(rec, user_id)
        turn = digest.last_turn_of(state, seat)
        played = digest.summary(turn, 600, tr, state) if turn else tr._("its turn")
        try:
            member = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await member.send(
                tr._(
                    "While you were away, an AI stand-in played your turn in Ada's Dream game "
                    "#{id}: {played}\nThe game: {link}",
                    id=rec.id,
                    played=played,
                    link=link,
                )
            )
        except discord.HTTPException as exc:
            log.info("game %s: could not tell %s about the stand-in: %s", rec.id, user_id, exc)


class SettingsCog(AdaCog, name="Settings"):
    """Server settings, under ``/ada-admin`` (shown only to members who can manage the server)."""

    admin_group = True

    @staticmethod
    def require_admin(interaction: discord.Interaction[Any]) -> None:
        if not (interaction.permissions.manage_guild or interaction.permissions.administrator):
            raise Oops("Only server admins (Manage Server) can change this.")

    @app_commands.command(
        name="settings", description="Server settings: reminder delay and limits."
    )
    @app_commands.describe(
        reminder_hours="Hours without a move before a player is reminded (default 12).",
        max_open_lobbies="Lobbies one member may keep waiting for players (default 3).",
        max_games="Games this server may have set up or being played at once (default 100).",
        max_new_games="Games one member may set up here in 24 hours (default 10).",
        language="The language of new games (default: the server's Discord language).",
    )
    @app_commands.choices(language=language_choices("Follow the server's Discord language"))
    @friendly
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        reminder_hours: app_commands.Range[float, 0.25, 336.0] | None = None,
        max_open_lobbies: app_commands.Range[int, 1, 50] | None = None,
        max_games: app_commands.Range[int, 1, 10_000] | None = None,
        language: app_commands.Choice[str] | None = None,
        max_new_games: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        """The server's settings (Manage Server): change the ones given, then show them all."""
        from cogs.lobby import (
            MAX_GAMES_PER_SERVER,
            MAX_NEW_GAMES_PER_MEMBER,
            MAX_OPEN_LOBBIES_PER_MEMBER,
        )

        await defer(interaction)
        self.require_admin(interaction)
        changes: dict[str, Any] = {}
        if reminder_hours is not None:
            changes["reminder_hours"] = float(reminder_hours)
        if max_open_lobbies is not None:
            changes["max_open_lobbies"] = int(max_open_lobbies)
        if max_games is not None:
            changes["max_games"] = int(max_games)
        if max_new_games is not None:
            changes["max_new_games"] = int(max_new_games)
        if language is not None:
            changes["language"] = None if language.value == "discord" else language.value
        gid = interaction.guild_id or 0
        s = await self.store.set_guild_settings(gid, now=self.games.now(), **changes)
        tr = await self.lang_of(interaction)
        head = (
            tr._("Settings of this server (changed):")
            if changes
            else tr._("Settings of this server:")
        )
        games_language = (
            i18n.NAMES[s.language]
            if s.language in i18n.NAMES
            else tr._(
                "{language}, the server's Discord language",
                language=i18n.NAMES[i18n.code_of(interaction.guild_locale)],
            )
        )
        lines = [
            tr._("• reminders after {hours} h without a move", hours=tr.num(s.reminder_hours)),
            tr.n_(
                "• {n} open lobby per member",
                "• {n} open lobbies per member",
                s.max_open_lobbies or MAX_OPEN_LOBBIES_PER_MEMBER,
            ),
            tr.n_("• {n} game at most", "• {n} games at most", s.max_games or MAX_GAMES_PER_SERVER),
            tr.n_(
                "• {n} new game per member a day",
                "• {n} new games per member a day",
                s.max_new_games or MAX_NEW_GAMES_PER_MEMBER,
            ),
            (
                tr._("• new games on edition {name} (kept for this server)", name=s.edition)
                if s.edition
                else tr._("• new games on edition {name} (the bot default)", name=library().default)
            ),
            tr._("• new games in {language}", language=games_language),
        ]
        await say(interaction, head + "\n" + "\n".join(lines))

    async def edition_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        names = ["default", *library().names()]
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n][:25]

    @app_commands.command(
        name="edition", description="Which edition of the cards new games use here."
    )
    @app_commands.describe(name="An edition, or 'default' to follow the bot's (leave out to see).")
    @app_commands.autocomplete(name=edition_autocomplete)
    @friendly
    async def edition(self, interaction: discord.Interaction[Any], name: str | None = None) -> None:
        """The content edition this server's new games take: keep an older one until your games
        end, or follow the bot's default. Games already started keep theirs."""
        await defer(interaction)
        gid = interaction.guild_id or 0
        if name is not None:
            self.require_admin(interaction)
            chosen = None if name.strip().lower() == "default" else name.strip()
            await self.store.set_guild_settings(gid, edition=chosen, now=self.games.now())
        s = await self.store.guild_settings(gid)
        in_use = await self.store.editions_in_use(gid)
        tr = await self.lang_of(interaction)
        playing = ", ".join(f"{n}: {k}" for n, k in sorted(in_use.items())) or tr._("none")
        if s.edition:
            text = tr._(
                "New games here take edition **{name}** (kept for this server). Games being "
                "played, by edition: {playing}.",
                name=s.edition,
                playing=playing,
            )
        else:
            text = tr._(
                "New games here take edition **{name}** (the bot default). Games being played, "
                "by edition: {playing}.",
                name=library().default,
                playing=playing,
            )
        await say(interaction, text)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StandinCog(bot))
    await bot.add_cog(SettingsCog(bot))
