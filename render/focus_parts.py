"""The pieces every focus picture is built from (render.focus says which picture a decision
gets; render.focus_areas draws the pictures of the board's areas): the canvas, cut to what was
drawn; the header naming who decides; paragraphs of text at the smallest size a phone still
reads; the decider's resources; the outline that marks an option."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from PIL import ImageDraw

from engine import choices
from engine.edition import Edition
from engine.state import GameState
from i18n import _
from render._draw import (
    HILITE,
    INK,
    LINE,
    MARK,
    PANEL,
    PANEL_ALT,
    RGB,
    WHITE,
    Box,
    Canvas,
    line_height,
    lines_needed,
    player_label,
    shade,
)
from render._state import Pending

FOCUS_W = 720
# Smallest text and token mark: a capital letter of 33 px DejaVu (or Noto Sans JP) is 24 px tall,
# 10 px when a phone shows the picture 300 px wide (issue 28), 18 px on a desktop at 550 px.
MIN_PX = 33
LH = line_height(MIN_PX)  # one line of text
HEAD = 64
PAD = 8
# A focus image is drawn on a canvas this tall, then cut to what was drawn (finish); the rare
# taller picture is drawn again on a canvas as tall as it asked for (draw_focus, with
# `drawn_tall`).
DRAFT_H = 2560
_draft = threading.local()  # .height: the canvas height of a second drawing, in this thread


def options(dec: Pending) -> list[tuple[str, choices.ChoiceValue]]:
    """The decision's choice ids with their typed values (engine.choices), in the engine's order."""
    return [(i, choices.read(dec.kind, i)) for i, _ in dec.choices or []]


@contextmanager
def drawn_tall(height: int) -> Iterator[None]:
    """Focus canvases made in this thread inside the block are `height` tall: the second
    drawing of a picture taller than the draft canvas."""
    _draft.height = height
    try:
        yield
    finally:
        del _draft.height


def focus_canvas() -> Canvas:
    """A blank focus image: FOCUS_W wide, no text or mark inside a token under MIN_PX. Drawn
    tall, then cut by `finish` below the last thing drawn."""
    cv = Canvas(FOCUS_W, getattr(_draft, "height", DRAFT_H), background=PANEL)
    cv.min_glyph = cv.min_text = MIN_PX
    return cv


def finish(cv: Canvas, bottom: int) -> Canvas:
    """Cut the picture PAD below `bottom` (the lowest thing drawn); or, if it was drawn past
    the canvas, say how tall it must be."""
    height = bottom + PAD
    if height > cv.height:
        cv.wanted_height = height
        return cv
    cv.im = cv.im.crop((0, 0, cv.width, height))
    cv.d = ImageDraw.Draw(cv.im)
    cv.height = height
    return cv


def header(cv: Canvas, st: GameState, seat: int, title: str, right: str = "") -> int:
    """Who decides and what the picture is about; under them, if given, a short fact (the
    round, money...). Returns where the picture goes on."""
    cv.d.rectangle((0, 0, cv.width, HEAD), fill=LINE)
    p = st.players[seat] if 0 <= seat < len(st.players) else None
    x = 14
    if p is not None:
        cv.disc(36, HEAD // 2, 25, p.colour, player_label(seat))
        x = 70
    title_w = int(cv.width_of(title, MIN_PX, bold=True)) + 4
    if p is not None:
        cv.text(
            (x, 4, max(x + 80, cv.width - 14 - title_w - 16), HEAD - 4),
            p.name,
            MIN_PX,
            bold=True,
            fill=WHITE,
            align="left",
            wrap=False,
            min_size=MIN_PX,
            kind="name",
        )
    cv.text(
        (cv.width - 14 - title_w, 4, cv.width - 14, HEAD - 4),
        title,
        MIN_PX,
        bold=True,
        fill=HILITE,
        align="right",
        wrap=False,
        min_size=MIN_PX,
    )
    if not right:
        return HEAD + PAD
    y = HEAD
    h = lines_needed(right, MIN_PX, cv.width - 28) * LH + 8
    cv.d.rectangle((0, y, cv.width, y + h), fill=shade(LINE, 1.25))
    cv.text((14, y + 4, cv.width - 14, y + h - 4), right, MIN_PX, fill=WHITE, align="left")
    return y + h + PAD


def para(
    cv: Canvas,
    x0: int,
    y: int,
    x1: int,
    text: str,
    *,
    bold: bool = False,
    fill: RGB = INK,
    align: str = "left",
) -> int:
    """A paragraph of text at MIN_PX from y, wrapped in x0..x1; returns the y under it."""
    h = lines_needed(text, MIN_PX, x1 - x0, bold=bold) * LH
    cv.text((x0, y, x1, y + h), text, MIN_PX, bold=bold, fill=fill, align=align, valign="top")
    return y + h


def resources_text(st: GameState, seat: int) -> str:
    p = st.players[seat]
    return _(
        "\u00a3{money} \u00b7 Coal {coal} \u00b7 Brass {brass} \u00b7 Books {books}"
        " \u00b7 Innovation {innovation}",
        money=p.money,
        coal=p.coal,
        brass=p.brass,
        books=p.books,
        innovation=p.innovation,
    )


def mark(cv: Canvas, box: Box, choice_id: str, radius: int = 8, width: int = 4) -> None:
    x0, y0, x1, y1 = box
    cv.d.rounded_rectangle(
        (x0 - 3, y0 - 3, x1 + 2, y1 + 2), radius=radius, outline=MARK, width=width
    )
    cv.marks.append(("option", choice_id, box))


def resources(cv: Canvas, st: GameState, seat: int, y: int) -> int:
    """The decider's resources on a strip across the picture; returns the y under it."""
    text = resources_text(st, seat)
    h = lines_needed(text, MIN_PX, FOCUS_W - 32, bold=True) * LH + 12
    cv.d.rectangle((0, y, FOCUS_W, y + h), fill=PANEL_ALT)
    cv.text((16, y + 6, FOCUS_W - 16, y + h - 6), text, MIN_PX, bold=True, align="left")
    return y + h


def focus_cities(ed: Edition, dec: Pending) -> list[str]:
    """The cities the options of a decision name (for the map)."""
    out: list[str] = []
    for _id, value in options(dec):
        for place in choices.places(value):
            if place.city in ed.city and place.city not in out:
                out.append(place.city)
    return out
