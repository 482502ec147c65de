"""Exceptions raised by the store.

Every exception derives from :class:`StoreError` and carries a player-friendly
``message`` (also its ``str()``), so the Discord layer can show it as-is.
"""

from __future__ import annotations

from typing import Any


class StoreError(Exception):
    """Base class. ``str(exc)`` / ``exc.message`` is safe to show to players."""

    default_message = "Something went wrong with the saved game."

    def __init__(self, message: str | None = None, **fields: Any) -> None:
        self.template = message or self.default_message
        """The English message (a catalog id of the bot's translations), with ``fields``."""
        self.fields = fields
        self.message = self.template.format(**fields) if fields else self.template
        super().__init__(self.message)


class GameNotFound(StoreError):
    default_message = "That game doesn't exist (any more)."


class StaleMove(StoreError):
    """The expected sequence number differs: a double click, an old button, a second process."""

    default_message = "This button is from an earlier turn; the game has moved on."


class NotYourTurn(StoreError):
    default_message = "It isn't your turn."


class GameNotActive(StoreError):
    """The game is in the lobby, finished, cancelled or broken."""

    default_message = "This game isn't being played right now."


class LobbyError(StoreError):
    """A lobby operation is not possible (game already started, lobby full, already seated...)."""

    default_message = "The lobby can't be changed now."


class CannotUndo(StoreError):
    default_message = "That move can't be taken back."


class GameBroken(StoreError):
    """The game's saved data is damaged; the game has been marked 'broken'."""

    default_message = (
        "This game's saved data is damaged; it has been set aside for an admin to look at."
    )


class EditionMissing(StoreError):
    """The game was started with a content edition this bot does not have (a database written
    by a newer bot, say). The game is kept as it is, not marked broken: it plays again once the
    bot has that edition."""

    def __init__(self, name: str) -> None:
        self.edition = name
        super().__init__(
            f"This game uses the edition {name!r} of the game's cards and board, which this bot "
            "doesn't have. It is kept as it is until the bot has that edition again."
        )


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot."""


class SchemaUpgradeNeeded(StoreError):
    """The database is at an older schema version and this open may not upgrade it (see
    ``store.upgrade``): nothing was changed; the message says how to upgrade."""


class MigrationError(StoreError):
    """A migration file is malformed or failed to apply."""
