"""The slash commands in the reader's language: discord.py asks a `Translator` for every command,
group, option and choice name and description when it syncs the command tree, and Discord shows
each member the localisation of their client's language (English stays the default).

The texts come from the catalogs (contexts "command", "command description", "option",
"option description", "choice": ``i18n.extract`` collects them from the command tree). A
translated name that Discord would refuse (names are lower case, without spaces, at most 32
characters) is made lower case with dashes for spaces, and dropped if still not valid: that
command keeps its English name in that language.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

import i18n

CONTEXTS = {
    Where.command_name: "command",
    Where.group_name: "command",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option",
    Where.parameter_description: "option description",
    Where.choice_name: "choice",
}
NAMES = {Where.command_name, Where.group_name, Where.parameter_name}
NAME_LIMIT, TEXT_LIMIT = 32, 100


def valid_name(name: str) -> bool:
    """A command or option name Discord accepts: letters (any script), digits, - _ '."""
    return 0 < len(name) <= NAME_LIMIT and all(
        (ch.isalnum() and ch == ch.lower()) or ch in "-_'" for ch in name
    )


def localise(code: str, where: Where, text: str) -> str | None:
    """A command text in a language, or None to keep the English."""
    context = CONTEXTS.get(where)
    if context is None or code == "en":
        return None
    tr = i18n.get(code)
    if not tr.has(text, context):
        return None
    got = tr.p_(context, text).strip()
    if where in NAMES:
        got = "-".join(got.lower().split())
        return got if valid_name(got) else None
    return got[:TEXT_LIMIT] or None


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = i18n.code_of(locale)
        if code == "en" or locale.value not in i18n.DISCORD_LOCALES.get(code, ()):
            return None
        return localise(code, context.location, string.message)


async def install(tree: app_commands.CommandTree[Any]) -> None:
    await tree.set_translator(CatalogTranslator())
