"""Stand-ins for absent players (``/ada standin``) and the server's settings (``/ada-admin``)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import ui
from cogs.base import AdaCog, defer, friendly, say
from cogs.service import Oops

log = logging.getLogger(__name__)


class StandinCog(AdaCog, name="Standin"):
    """An AI plays one turn for an absent player, when asked (never by itself)."""

    @app_commands.command(
        name="standin",
        description="Ask an AI to play the current turn of an absent player (owner, or a table vote).",
    )
    @app_commands.describe(game="The game number (default: this thread's game).")
    @app_commands.autocomplete(game=AdaCog.game_autocomplete)
    @friendly
    async def standin(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """An AI stand-in plays one turn for the player whose turn it is. The game's creator
        (or a server admin, or the absent player) asks, or a majority of the other human
        players vote for it with this same command."""
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
            if not owner:
                if user not in others:
                    raise Oops("Only players of this game can vote for a stand-in.")
                votes = await self.store.add_standin_vote(rec.id, seq, user, now=self.games.now())
                needed = len(others) // 2 + 1
                if len(set(votes) & set(others)) < needed:
                    await say(
                        interaction,
                        f"Vote recorded: {len(votes)} of {needed} needed for a stand-in to play "
                        f"{seat.name}'s turn.",
                    )
                    return
        await self.games.announce(
            rec,
            f"An AI stand-in plays **{ui.seat_name(seat)}**'s turn (asked by {interaction.user.mention}).",
        )
        new = await self.games.play_turn_by_ai(rec, state, seq, "greedy")
        if new is None:
            raise Oops("The game moved on meanwhile: no stand-in was needed.")
        await say(interaction, f"The stand-in played {seat.name}'s turn.")
        self.games.kick_ai(rec.id)


class SettingsCog(AdaCog, name="Settings"):
    """Server settings, under ``/ada-admin`` (shown only to members who can manage the server)."""

    admin_group = True

    @app_commands.command(
        name="settings", description="Server settings: the default reminder delay."
    )
    @app_commands.describe(
        reminder_hours="Hours without a move before a player is reminded (default 12)."
    )
    @friendly
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        reminder_hours: app_commands.Range[float, 0.25, 336.0],
    ) -> None:
        """The server's default reminder delay (Manage Server)."""
        await defer(interaction)
        if not (interaction.permissions.manage_guild or interaction.permissions.administrator):
            raise Oops("Only server admins (Manage Server) can change this.")
        await self.store.set_guild_settings(
            interaction.guild_id or 0, reminder_hours=float(reminder_hours), now=self.games.now()
        )
        await say(interaction, f"Reminders in this server now come after {reminder_hours:g} h.")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StandinCog(bot))
    await bot.add_cog(SettingsCog(bot))
