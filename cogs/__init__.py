"""The bot's Discord layer: one cog per concern, and what they share."""

EXTENSIONS = (
    "cogs.lobby",
    "cogs.play",
    "cogs.info",
    "cogs.reminders",
    "cogs.admin",
    "cogs.health",
    "cogs.records",
    "cogs.activity",
)
"""The cogs the bot loads (``bot.AdaBot.setup_hook``), whose commands the catalogs translate."""
