"""Images for the bot: the renderer (``render``) behind a small cache, run off the event loop.

Every image is named ("board", "mill", "focus", "scorepad") and keyed by a digest of exactly what
it shows for its viewer (``render.image_key``), so an image that did not change is neither drawn
nor uploaded again. Renderers draw from the viewer's view of the state: nothing hidden from that
viewer can appear in the picture.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import render
from engine import GameState

log = logging.getLogger(__name__)

CACHE_SIZE = 96  # a few images per game for the games moving at once


def board_png(state: GameState, viewer: int | None = None) -> bytes:
    return render.board_png(state, viewer=viewer)


def mill_png(state: GameState, seat: int, viewer: int | None = None) -> bytes:
    return render.mill_png(state, seat, viewer=viewer)


def focus_png(state: GameState, viewer: int | None = None) -> bytes:
    """The picture of what the current decision is about."""
    return render.focus_png(state, viewer=viewer)


def scorepad_png(state: GameState) -> bytes:
    return render.scorepad_png(state)


IMAGE_NAMES = ("board", "mill", "focus", "scorepad")


def image_key(name: str, state: GameState, *args: Any) -> str:
    """Digest of what image ``name`` shows (``args``: its seat/viewer arguments)."""
    return str(render.image_key(name, state, *args))


@dataclass(frozen=True, slots=True)
class Image:
    key: str
    data: bytes | None  # None: rendering failed (logged)
    filename: str


class Images:
    """Renders images in worker threads, a few at a time, and keeps the recent ones by key."""

    def __init__(self, enabled: bool = True, slots: int = 2) -> None:
        self.enabled = enabled
        self._cache: OrderedDict[str, bytes] = OrderedDict()
        self._slots = asyncio.Semaphore(slots)
        self.rendered = 0

    async def get(self, name: str, state: GameState, *args: Any) -> Image | None:
        """The image ``name`` for ``state`` (None when images are switched off)."""
        if not self.enabled:
            return None
        key = f"{name}-{image_key(name, state, *args)}"
        data = self._cache.get(key)
        if data is None:
            renderer = globals()[f"{name}_png"]  # looked up per call, so tests can wrap it
            data = await render_off_loop(renderer, state, *args, slots=self._slots)
            if data is None:
                return Image(key, None, f"{name}.png")
            self.rendered += 1
            self._cache[key] = data
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return Image(key, data, f"{name}.png")


async def render_off_loop(
    fn: Callable[..., bytes], *args: Any, slots: asyncio.Semaphore | None = None
) -> bytes | None:
    """Run a renderer in a worker thread. A failing renderer is logged, never fatal."""
    try:
        if slots is None:
            return await asyncio.to_thread(fn, *args)
        async with slots:  # first come, first served when many games move at once
            return await asyncio.to_thread(fn, *args)
    except Exception:
        log.exception("rendering %s failed", getattr(fn, "__name__", fn))
        return None
