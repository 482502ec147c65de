"""Pillow images of Ada's Dream for the Discord layer: pure functions from an engine state to PNG
bytes. No Discord, no SQL; the same state always gives the same bytes.

    from render import board_png, mill_png, focus_png, focus_name, scorepad_png, image_key
    focus_png(state, viewer=None)            # the decision in front of a player, legible on a phone
    focus_name(state)                        # its short title: "Workshop", "Travel map", ...
    board_png(state, viewer=None)            # the whole main board (open it to read it)
    mill_png(state, seat, viewer=None)       # one player's board; compact=True: legible inline
    scorepad_png(state, viewer=None)         # scorepad of the eleven categories + chart
    image_key(name, state, *args)            # digest of what that image shows (same args)

`state` is an engine GameState, its to_dict(), or a per-viewer view() dict. Every entry point
draws from the engine's view for `viewer` (None: a public image, as a spectator sees it), so an
image for one player never shows what that player may not see: other hands and decks, and the
Partners and Meetings scores that depend on them ("?"; a total reads "41+?").

Every entry point takes ``lang`` ("en", "es", "ja"): the language of the image's words (content
texts included; people's and cities' names stay), drawn with a font that has its characters.
"""

from __future__ import annotations

from typing import Any

import i18n
from engine.state import GameState

__all__ = [
    "board_png",
    "focus_kind",
    "focus_name",
    "focus_png",
    "image_key",
    "mill_png",
    "scorepad_png",
]

State = GameState | dict[str, Any]


def board_png(state: State, viewer: int | None = None, *, lang: str = "en") -> bytes:
    """The main board, 1680x1260: everything public, "(you)" beside the viewer's name."""
    from render.board import draw_board

    with i18n.using(lang):
        return draw_board(state, viewer).png()


def mill_png(
    state: State, seat: int, viewer: int | None = None, compact: bool = False, *, lang: str = "en"
) -> bytes:
    """The Mill (player board) of `seat`: 1000x800, or 720x636 and legible inline if compact.
    Hand names only when viewer == seat."""
    from render.mill import draw_mill
    from render.mill_compact import draw_mill_compact

    with i18n.using(lang):
        if compact:
            return draw_mill_compact(state, seat, viewer).png()
        return draw_mill(state, seat, viewer).png()


def focus_png(state: State, viewer: int | None = None, *, lang: str = "en") -> bytes:
    """A 720 px wide picture of what the pending decision is about (the final scores once the
    game is over), drawn to be read on a phone: no text under 33 px, a capital letter 10 px tall
    when the picture is shown 300 px wide."""
    from render.focus import draw_focus

    with i18n.using(lang):
        return draw_focus(state, viewer).png()


def focus_kind(state: State) -> str:
    """Which part of the game the pending decision is about: "workshop", "map", "meetings",
    "lectures", "mill", "study", "research", "hand", "choices" or "final"."""
    from render.focus import focus_of

    return focus_of(state).kind


def focus_name(state: State, *, lang: str = "en") -> str:
    """The short title of focus_png: "Workshop", "Travel map", "Meeting rooms", ..."""
    from render.focus import focus_of

    with i18n.using(lang):
        return i18n._(focus_of(state).title)


def scorepad_png(state: State, viewer: int | None = None, *, lang: str = "en") -> bytes:
    """The scorepad with a bar chart, 720 px wide. Mid-game, what `viewer` may see of it."""
    from render.scorepad import draw_scorepad

    with i18n.using(lang):
        return draw_scorepad(state, viewer).png()


def image_key(name: str, state: State, *args: Any, **kwargs: Any) -> str:
    """A short digest of exactly what the named image shows, taking the same arguments as the
    image: image_key("board", st, viewer), image_key("mill", st, seat, viewer, compact=True),
    image_key("focus", st, viewer), image_key("scorepad", st, viewer).

    Equal keys mean byte-identical PNGs, so the bot can skip rendering and uploading again."""
    from render.keys import image_key as key

    return key(name, state, *args, **kwargs)
