"""Pillow images of Ada's Dream for the Discord layer: pure functions from an engine state to PNG
bytes. No Discord, no SQL; the same state always gives the same bytes.

    from render import board_png, mill_png, scorepad_png
    board_png(state, viewer=None)        # main board (nothing hidden is ever drawn)
    mill_png(state, seat, viewer=None)   # one player's board; their hand only if viewer == seat
    scorepad_png(state)                  # scorepad of the eleven categories + chart

`state` is an engine GameState, its to_dict(), or a per-viewer view() dict.
"""

from __future__ import annotations

from typing import Any

from engine.state import GameState
from render._state import as_state

__all__ = ["board_png", "mill_png", "scorepad_png"]


def board_png(state: GameState | dict[str, Any], viewer: int | None = None) -> bytes:
    from render.board import draw_board

    return draw_board(as_state(state), viewer).png()


def mill_png(state: GameState | dict[str, Any], seat: int, viewer: int | None = None) -> bytes:
    from render.mill import draw_mill

    return draw_mill(as_state(state), seat, viewer).png()


def scorepad_png(state: GameState | dict[str, Any]) -> bytes:
    from render.scorepad import draw_scorepad

    return draw_scorepad(as_state(state)).png()
