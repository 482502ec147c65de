"""Images for the bot: the real renderer (``render``) when it is there, a small placeholder otherwise.

Every function here is blocking (Pillow): call it through ``asyncio.to_thread`` (see
``render_turn_images``), never on the event loop.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from typing import Any

from engine import GameState

log = logging.getLogger(__name__)

_warned: set[str] = set()


def _renderer(name: str) -> Callable[..., bytes] | None:
    """``render.<name>`` if the render package provides it (imported lazily, every call)."""
    try:
        import render
    except Exception:  # pragma: no cover - the package always exists in this repo
        return None
    fn = getattr(render, name, None)
    if fn is None and name not in _warned:
        _warned.add(name)
        log.warning("render.%s is not available yet: using a placeholder image", name)
    return fn


def placeholder_png(title: str, lines: list[str]) -> bytes:
    """A tiny PNG with a few lines of text (stands in until the renderer lands)."""
    from PIL import Image, ImageDraw

    width, height = 480, 40 + 18 * len(lines)
    img = Image.new("RGB", (width, height), (245, 238, 222))
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, width - 1, height - 1], outline=(120, 90, 60), width=2)
    draw.text((12, 10), title, fill=(60, 30, 10))
    for i, line in enumerate(lines):
        draw.text((12, 34 + 18 * i), line[:76], fill=(30, 30, 30))
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=False)
    return buf.getvalue()


def _try(name: str, *args: Any, **kwargs: Any) -> bytes | None:
    """The real renderer's image, or None (not there yet, or it failed: logged)."""
    fn = _renderer(name)
    if fn is None:
        return None
    try:
        return fn(*args, **kwargs)
    except Exception:
        log.exception("render.%s failed: using a placeholder image", name)
        return None


def board_png(state: GameState, viewer: int | None = None) -> bytes:
    data = _try("board_png", state, viewer=viewer)
    if data is not None:
        return data
    lines = [f"Round {state.round}" + ("  (end triggered)" if state.end_triggered else "")]
    for s, space in enumerate(state.workshop):
        lines.append(f"Workshop {s + 1}: {' '.join(space) or '-'}")
    return placeholder_png("Ada's Dream - board", lines)


def mill_png(state: GameState, seat: int, viewer: int | None = None) -> bytes:
    data = _try("mill_png", state, seat, viewer=viewer)
    if data is not None:
        return data
    p = state.players[seat]
    lines = [
        f"£{p.money}  coal {p.coal}  brass {p.brass}  books {p.books}  innovation {p.innovation}",
        "Store: " + " ".join(d or "." for d in p.store),
    ]
    for row in range(3):
        lines.append("Mill: " + " ".join(d or ".." for d in p.mill[row * 3 : row * 3 + 3]))
    return placeholder_png(f"Mill of {p.name}", lines)


def scorepad_png(state: GameState) -> bytes:
    data = _try("scorepad_png", state)
    if data is not None:
        return data
    from engine.scoring import CATEGORIES

    scores = state.final_scores()
    lines = [
        f"{cat[:18]:<18}" + "".join(f"{row[cat]:>8}" for row in scores)
        for cat in [*CATEGORIES, "Total"]
    ]
    header = f"{'':<18}" + "".join(f"{n[:7]:>8}" for n in state.seat_names)
    return placeholder_png("Ada's Dream - final scores", [header, *lines])


async def render(fn: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes | None:
    """Run a renderer off the event loop. A failing renderer is logged, never fatal."""
    try:
        return await asyncio.to_thread(fn, *args, **kwargs)
    except Exception:
        log.exception("rendering %s failed", getattr(fn, "__name__", fn))
        return None
