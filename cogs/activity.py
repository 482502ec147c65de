"""The board inside Discord (issue 32): the turn message's **Open board** button launches the
Activity, Discord's in-client web app, on the game's thread.

The button is on the turn message only when the Activity is set up (ACTIVITY_CLIENT_ID). Its
click is answered with Discord's LAUNCH_ACTIVITY callback (one REST call); Discord then opens the
board page in the thread, and the page signs in through ``web.discord_auth``, which finds the game
from the Activity instance's channel (this thread), not from the button.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from cogs.base import AdaCog
from cogs.service import Oops, status_problem
from i18n import N_

log = logging.getLogger(__name__)

NOT_SET_UP = N_(
    "The board inside Discord is not set up on this bot: the turn message's buttons work as always."
)


class ActivityCog(AdaCog, name="Activity"):
    """The **Open board** button: launches the Activity (the board page) in the game's thread."""

    async def on_open_board(self, interaction: discord.Interaction[Any], game: int) -> None:
        async def run() -> None:
            if not self.games.cfg.activity.enabled:  # a button from before the setting changed
                raise Oops(NOT_SET_UP)
            rec = await self.store.get_game(game)
            await self.check_place(interaction, rec)
            problem = status_problem(rec, ("active",))
            if problem:
                raise problem
            try:
                await interaction.response.launch_activity()
            except discord.HTTPException as exc:
                log.warning("game %s: Discord did not launch the Activity (%s)", game, exc)
                raise Oops(
                    "Discord could not open the board here. The turn message's buttons work "
                    "as always."
                ) from None

        await self.guard(interaction, run())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ActivityCog(bot))
