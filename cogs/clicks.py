"""One REST call per click: a component click answered with the updated message itself.

Discord wants every interaction answered within 3 seconds. Acknowledging first and editing the
message after costs two calls; answering with the edit (``interaction.response.edit_message``)
costs one, but only if the new message is ready in time. A ``ClickAnswer`` does the one when it
can and the other when it must: a timer acknowledges the click once ``budget`` seconds have passed
since Discord created the interaction (well inside the 3 s, for the network on both ends), and
whoever comes first, the updated message or the timer, answers. What comes second goes the
ordinary way (a message edit, a follow-up).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from types import SimpleNamespace
from typing import Any

import discord

from cogs.text import shorten

log = logging.getLogger(__name__)

ANSWER_MAX = 1900  # characters of a private answer (Discord: 2,000)

DEFAULT_BUDGET = 1.5
"""Seconds after Discord created a click by which it is answered, one way or the other."""


class ClickAnswer:
    """The answer to one click. ``private``: the answer is a new private message (a "thinking"
    acknowledgement then a follow-up, when it can't be sent in time); otherwise it is an edit of
    the clicked message (a plain acknowledgement, then edits)."""

    def __init__(
        self,
        interaction: discord.Interaction[Any],
        budget: float = DEFAULT_BUDGET,
        *,
        private: bool = False,
    ) -> None:
        self.interaction = interaction
        self.private = private
        self._claimed = False  # set synchronously by whoever answers first
        self._acknowledging: asyncio.Task[None] | None = None
        elapsed = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        remaining = min(budget, budget - elapsed)  # (clocks may disagree a little)
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(max(remaining, 0.0), self._time_is_up)
        if remaining <= 0:  # no time at all: acknowledge before any work
            self._time_is_up()

    @property
    def answered(self) -> bool:
        return self._claimed or self.interaction.response.is_done()

    def _claim(self) -> bool:
        """Take the right to answer (no await between the check and the taking)."""
        if self.answered:
            return False
        self._claimed = True
        self._timer.cancel()
        return True

    def _time_is_up(self) -> None:
        if self._claim():
            self._acknowledging = asyncio.get_running_loop().create_task(self._acknowledge())

    async def _acknowledge(self) -> None:
        try:
            if self.private:
                await self.interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await self.interaction.response.defer()
        except discord.HTTPException:
            log.warning("could not acknowledge interaction %s", self.interaction.id, exc_info=True)

    async def settle(self) -> None:
        """Wait for an acknowledgement under way, so that what follows sees it done."""
        if self._acknowledging is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(self._acknowledging)

    async def finish(self) -> None:
        """The handler is done: acknowledge the click if nothing answered it."""
        self._timer.cancel()
        await self.settle()
        if self._claim():
            await self._acknowledge()

    async def edit_message(self, message_id: int | None = None, **fields: Any) -> Any:
        """Edit the clicked message as the click's answer, if it is ``message_id`` (None: any)
        and nothing has answered yet. Returns the edited message, or None: then edit it the
        ordinary way."""
        message = self.interaction.message
        if message is None or (message_id is not None and message.id != message_id):
            return None
        if not self._claim():
            return None
        try:
            response = await self.interaction.response.edit_message(**fields)
        except discord.HTTPException:
            log.warning("answering interaction %s failed", self.interaction.id, exc_info=True)
            self._claimed = self.interaction.response.is_done()
            return None
        resource = response.resource if response is not None else None
        if isinstance(resource, discord.Message):
            return resource
        # Discord sent no copy: the message's id and channel, its attachments unknown (so an
        # unchanged picture is uploaded again rather than an old one kept)
        return SimpleNamespace(id=message.id, channel=message.channel, attachments=[])

    async def edit_original(self, **fields: Any) -> None:
        """Edit the clicked message (or, after "thinking", the private answer): as the answer if
        nothing has answered yet, else through the interaction's webhook."""
        if await self.edit_message(None, **fields) is None:
            await self.settle()
            await self.interaction.edit_original_response(**fields)

    async def say(self, text: str) -> None:
        """A line of private text to the clicker (best effort, like ``cogs.base.say``)."""
        try:
            await self.send_private(shorten(text, ANSWER_MAX))
        except discord.HTTPException:
            log.warning("could not answer interaction %s", self.interaction.id, exc_info=True)

    async def send_private(self, content: str | None = None, **fields: Any) -> None:
        """A private message to the clicker: as the answer if nothing has answered yet, else as
        a follow-up."""
        if self._claim():
            await self.interaction.response.send_message(content, ephemeral=True, **fields)
            return
        await self.settle()  # (after "thinking", the follow-up replaces "is thinking…")
        await self.interaction.followup.send(
            content or discord.utils.MISSING, ephemeral=True, **fields
        )
