"""`/ada help` through Discord: it names every command a member can use, by the command's name
in the reader's language (the names Discord shows them), and the `/ada-admin` commands only to
those who may use them."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.app_commands import TranslationContextLocation as Where

from cogs.translator import localise
from tests.test_bot_errors import private_text

PLAYER_COMMANDS = (
    "ada new",
    "ada join",
    "ada play",
    "ada board",
    "ada mill",
    "ada score",
    "ada log",
    "ada rules",
    "ada hand",
    "ada final",
    "ada reminders",
    "ada standin",
    "ada cancel",
    "ada language",
    # this release (issue 30)
    "ada games",
    "ada records history",
    "ada records profile",
    "ada records leaderboard",
    "ada away",
    "ada export",
)
ADMIN_COMMANDS = (
    "ada-admin settings",
    "ada-admin edition",
    "ada-admin status",
    "ada-admin stats",
    "ada-admin rebuild-records",
    "ada-admin away-limit",
)


def shown_name(code: str, command: str) -> str:
    """A command as a member reading ``code`` sees it in Discord: each word (group, subgroup,
    command) in its localised name, or in English where it has none."""
    words = [localise(code, Where.command_name, w) or w for w in command.split()]
    return "/" + " ".join(words)


@pytest.mark.parametrize("code", ["en", "es", "ja"])
async def test_help_names_every_command_in_the_readers_language(table: Any, code: str) -> None:
    if code != "en":
        await table.alice.slash(table.channel, "ada language", language=code)
    text = private_text(await table.alice.slash(table.channel, "ada help"))
    missing = [c for c in PLAYER_COMMANDS if f"`{shown_name(code, c)}" not in text]
    assert not missing, missing
    # the admins' commands are for admins only: a member without Manage Server sees none
    assert shown_name(code, "ada-admin") not in text

    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    if code != "en":
        await admin.slash(table.channel, "ada language", language=code)
    text = private_text(await admin.slash(table.channel, "ada help"))
    missing = [c for c in PLAYER_COMMANDS + ADMIN_COMMANDS if f"`{shown_name(code, c)}" not in text]
    assert not missing, missing


async def test_every_command_of_the_bot_is_in_the_help(table: Any) -> None:
    """A command added later fails here until the help (or this list) names it."""
    tree = table.env.bot.tree
    names = {c.qualified_name for c in tree.walk_commands() if not hasattr(c, "commands")}
    assert "ada records profile" in names  # the tree as synced, with every cog's commands
    others = {"ada help", "ada leave", "ada addai", "ada start", "ada delay", "ada undo"}
    others |= {"ada refresh"}  # named by the help's own words (Join, Undo...) or the lobby's
    assert names - set(PLAYER_COMMANDS + ADMIN_COMMANDS) - others == set()
