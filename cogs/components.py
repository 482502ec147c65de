"""Dynamic items: the handlers of every game component, found again from the custom_id alone.

They are registered with ``bot.add_dynamic_items`` at start-up, so a button posted before a
restart works after it. The state is in the custom_id (see ``cogs.ui``); the work is done by the
cog of its concern (Play, Info, Lobby). None is taken while the bot is stopping (``StopGate``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from cogs import ui
from cogs.base import StopGate

if TYPE_CHECKING:
    from cogs.info import InfoCog
    from cogs.lobby import LobbyCog
    from cogs.play import PlayCog


def _cog(interaction: discord.Interaction[Any], name: str) -> Any:
    cog = interaction.client.get_cog(name)  # type: ignore[attr-defined]
    assert cog is not None, f"the {name} cog is not loaded"
    return cog


def _play(interaction: discord.Interaction[Any]) -> PlayCog:
    return _cog(interaction, "Play")


def _info(interaction: discord.Interaction[Any]) -> InfoCog:
    return _cog(interaction, "Info")


def _lobby(interaction: discord.Interaction[Any]) -> LobbyCog:
    return _cog(interaction, "Lobby")


class ChoiceButton(
    StopGate,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ada:c:(?P<game>\d+):(?P<seq>\d+):(?P<idx>\d+)",
):
    def __init__(self, game: int, seq: int, idx: int, item: discord.ui.Button[Any] | None = None):
        super().__init__(item or discord.ui.Button(custom_id=ui.cid_choice(game, seq, idx)))
        self.game, self.seq, self.idx = game, seq, idx

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> ChoiceButton:
        return cls(int(match["game"]), int(match["seq"]), int(match["idx"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _play(interaction).on_choice(interaction, self.game, self.seq, self.idx)


class ChoiceSelect(
    StopGate,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ada:s:(?P<game>\d+):(?P<seq>\d+):(?P<offset>\d+)",
):
    def __init__(
        self, game: int, seq: int, offset: int, item: discord.ui.Select[Any] | None = None
    ):
        super().__init__(item or discord.ui.Select(custom_id=ui.cid_select(game, seq, offset)))
        self.game, self.seq = game, seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> ChoiceSelect:
        return cls(int(match["game"]), int(match["seq"]), int(match["offset"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values) or list((interaction.data or {}).get("values", []))
        try:
            idx = int(values[0])
        except (IndexError, ValueError):
            idx = -1
        await _play(interaction).on_choice(interaction, self.game, self.seq, idx)


class PageButton(
    StopGate,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ada:pg:(?P<game>\d+):(?P<seq>\d+):(?P<page>\d+)",
):
    def __init__(self, game: int, seq: int, page: int, item: discord.ui.Button[Any] | None = None):
        super().__init__(item or discord.ui.Button(custom_id=ui.cid_page(game, seq, page)))
        self.game, self.seq, self.page = game, seq, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> PageButton:
        return cls(int(match["game"]), int(match["seq"]), int(match["page"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _play(interaction).on_old_page(interaction, self.game, self.seq)


class PrivateButton(
    StopGate,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ada:p:(?P<game>\d+):(?P<seq>\d+)",
):
    def __init__(self, game: int, seq: int, item: discord.ui.Button[Any] | None = None):
        super().__init__(item or discord.ui.Button(custom_id=ui.cid_private(game, seq)))
        self.game, self.seq = game, seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> PrivateButton:
        return cls(int(match["game"]), int(match["seq"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _play(interaction).on_private(interaction, self.game, self.seq)


class UndoButton(
    StopGate,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ada:u:(?P<game>\d+):(?P<seq>\d+)",
):
    def __init__(self, game: int, seq: int, item: discord.ui.Button[Any] | None = None):
        super().__init__(item or discord.ui.Button(custom_id=ui.cid_undo(game, seq)))
        self.game, self.seq = game, seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> UndoButton:
        return cls(int(match["game"]), int(match["seq"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _play(interaction).on_undo(interaction, self.game, self.seq)


class GroupButton(
    StopGate,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ada:g:(?P<game>\d+):(?P<seq>\d+):(?P<group>\d+)",
):
    def __init__(self, game: int, seq: int, group: int, item: discord.ui.Button[Any] | None = None):
        super().__init__(item or discord.ui.Button(custom_id=ui.cid_group(game, seq, group)))
        self.game, self.seq, self.group = game, seq, group

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> GroupButton:
        return cls(int(match["game"]), int(match["seq"]), int(match["group"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _play(interaction).on_group(interaction, self.game, self.seq, self.group)


class BackButton(
    StopGate,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ada:b:(?P<game>\d+):(?P<seq>\d+)",
):
    def __init__(self, game: int, seq: int, item: discord.ui.Button[Any] | None = None):
        super().__init__(item or discord.ui.Button(custom_id=ui.cid_back(game, seq)))
        self.game, self.seq = game, seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> BackButton:
        return cls(int(match["game"]), int(match["seq"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _play(interaction).on_group(interaction, self.game, self.seq, None)


class InfoButton(
    StopGate,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ada:(?P<what>[hmv]):(?P<game>\d+)",
):
    """My hand (h), My Mill (m), the full board (v): private answers."""

    def __init__(self, what: str, game: int, item: discord.ui.Button[Any] | None = None):
        super().__init__(item or discord.ui.Button(custom_id=f"ada:{what}:{game}"))
        self.what, self.game = what, game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> InfoButton:
        return cls(match["what"], int(match["game"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        info = _info(interaction)
        handler = {"h": info.on_hand, "m": info.on_mill, "v": info.on_board}[self.what]
        await handler(interaction, self.game)


class OpenBoardButton(
    StopGate,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ada:board:(?P<game>\d+)",
):
    """Open board: launches the Activity (the board page inside Discord) on this game."""

    def __init__(self, game: int, item: discord.ui.Button[Any] | None = None):
        super().__init__(item or discord.ui.Button(custom_id=ui.cid_open_board(game)))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> OpenBoardButton:
        return cls(int(match["game"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction, "Activity").on_open_board(interaction, self.game)


class LobbyButton(
    StopGate,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ada:l:(?P<action>join|leave|ai|start|cancel):(?P<game>\d+)",
):
    def __init__(self, action: str, game: int, item: discord.ui.Button[Any] | None = None):
        super().__init__(item or discord.ui.Button(custom_id=ui.cid_lobby(action, game)))
        self.action, self.game = action, game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str]
    ) -> LobbyButton:
        return cls(match["action"], int(match["game"]), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _lobby(interaction).on_lobby_button(interaction, self.action, self.game)


DYNAMIC_ITEMS = (
    ChoiceButton,
    ChoiceSelect,
    PageButton,
    PrivateButton,
    UndoButton,
    GroupButton,
    BackButton,
    InfoButton,
    OpenBoardButton,
    LobbyButton,
)
