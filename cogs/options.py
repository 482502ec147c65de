"""Every slash command's options checked by the bot itself, not only by Discord's client.

Discord's client keeps an option within what the command declares (a range, a length, a list
of choices), but an interaction is only data: a modified client or a raw API call can send
``players:50``, ``standin_hours:0.0001`` or a game number past any id. ``CheckedTree`` checks
each option of a command against its declaration before the command runs, and answers a
value outside it privately, saying which option and what it accepts; nothing is changed.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

import i18n
from cogs.base import AdaTree
from i18n import N_

log = logging.getLogger(__name__)

# Discord's own bounds of an integer option (and a number option's), whatever the command says.
DISCORD_INT = 2**53

NUMBERS = (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number)


def option_problem(param: app_commands.Parameter, value: Any) -> tuple[str, dict[str, Any]] | None:
    """Why ``value`` is not one the parameter accepts (an English message and its fields), or
    None when it is."""
    name = param.display_name
    if param.type in NUMBERS:
        integer = param.type is discord.AppCommandOptionType.integer
        if isinstance(value, bool) or not isinstance(value, int if integer else int | float):
            return N_("The option `{name}` must be a number."), {"name": name}
        if value != value:  # NaN
            return N_("The option `{name}` must be a number."), {"name": name}
        low = param.min_value if param.min_value is not None else -DISCORD_INT
        high = param.max_value if param.max_value is not None else DISCORD_INT
        if not low <= value <= high:
            return (
                N_("The option `{name}` must be between {low} and {high}."),
                {"name": name, "low": low, "high": high},
            )
    elif param.type is discord.AppCommandOptionType.string:
        if not isinstance(value, str):
            return N_("The option `{name}` must be text."), {"name": name}
        if param.max_value is not None and len(value) > param.max_value:
            return (
                N_("The option `{name}` may be at most {n} characters long."),
                {"name": name, "n": param.max_value},
            )
    elif param.type is discord.AppCommandOptionType.boolean and not isinstance(value, bool):
        return N_("The option `{name}` must be true or false."), {"name": name}
    if param.choices and value not in [c.value for c in param.choices]:
        return (
            N_("The option `{name}` must be one of: {values}."),
            {"name": name, "values": ", ".join(str(c.value) for c in param.choices)},
        )
    return None


class CheckedTree(AdaTree):
    """The command tree of the bot: no command while the bot is stopping (``AdaTree``), and every
    option of a command checked before it runs."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if not await super().interaction_check(interaction):
            return False
        if interaction.type is not discord.InteractionType.application_command:
            return True  # autocomplete sees partial values by design; components check theirs
        data: Any = interaction.data or {}
        if data.get("type", 1) != 1:
            return True  # a context menu: no options
        try:
            command, options = self._get_app_command_options(data)
        except app_commands.CommandNotFound:
            return True  # discord.py answers that itself
        params = {p.display_name: p for p in getattr(command, "parameters", [])}
        for option in options:
            param = params.get(option.get("name", ""))
            found = (
                option_problem(param, option.get("value"))
                if param is not None
                else (N_("The option `{name}` is not one of this command's."), {"name": "?"})
            )
            if found is not None:
                message, fields = found
                log.info(
                    "refused /%s from %s: option %r = %r",
                    command.qualified_name,
                    interaction.user.id,
                    option.get("name"),
                    option.get("value"),
                )
                await self._refuse(interaction, message, fields)
                return False
        return True

    async def _refuse(
        self, interaction: discord.Interaction[Any], message: str, fields: dict[str, Any]
    ) -> None:
        games = getattr(getattr(self.client, "ada", None), "games", None)
        chosen = await games.user_language(interaction.user.id) if games is not None else None
        tr = i18n.get(chosen or interaction.locale)
        text = tr._(message, **fields) + " " + tr._("Nothing was changed.")
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not refuse interaction %s", interaction.id, exc_info=True)
