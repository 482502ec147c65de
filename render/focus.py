"""The focus image: a picture of what the pending decision is about, drawn to be read inline,
on a phone as well as on a desktop.

Discord shows an image in a message about 550 px wide on a desktop and about 295 px wide on a
phone (a 420 px window); the full board (1680 px) is unreadable there. A focus image is 720 px
wide and never uses text (or a mark inside a token) under 33 px: a capital letter or a digit is
then 24 px tall, 10 px on a phone at 300 px wide and 18 px on a desktop at 550 px. To keep
everything that large, a picture is one column of few, large elements and shows only what the
decision is about (the rest is on the Board and My Mill pictures); it is as tall as it needs.

Which picture: the pending decision's kind (the engine's step op) picks a focus (`FOCUS_OF_KIND`):

    workshop   the six Workshop spaces, your Store and the Action areas you can use
    map        the travel map around you, destinations lettered, listed with their cost
    meetings   the Meeting rooms, the Partner display or the Multiplier display
    lectures   what each Lecture level costs you, and the Lecture spaces offered
    mill       your Mill with the cells, Gear spaces (numbered by gap) or lines to choose
    study      Ada's Study: the Program or Assignment display, Study rewards or columns
    research   the Research tracks with the next step on each
    hand       Partner cards (the decider sees theirs; anyone else only counts)
    choices    the prompt and its options, for the rare decisions without a place of their own
    final      the scorepad, once the game is over

A disc decision (place, stack or move a disc) goes to the map, the Meeting rooms or the Lecture
grid when all its options are there, else to the list of choices. Options are marked on the
picture with the words of the choice labels (space 1-6, Room 1-4, row or column and gap, city
names, each city lettered on the map).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

from engine import choices
from engine.edition import Edition
from engine.rules import STEPS
from engine.state import GameState
from i18n import N_, _
from render._common import option, prompt
from render._draw import (
    HILITE,
    INK,
    LINE,
    MUTED,
    PANEL,
    PANEL_ALT,
    RGB,
    WHITE,
    Box,
    Canvas,
    line_height,
    player_label,
    shade,
)
from render._state import Pending, pending, visible

FOCUS_W = 720
# Smallest text and token mark: a capital letter of 33 px DejaVu (or Noto Sans JP) is 24 px tall,
# 10 px when a phone shows the picture 300 px wide (issue 28), 18 px on a desktop at 550 px.
MIN_PX = 33
LH = line_height(MIN_PX)  # one line of text
HEAD = 64
PAD = 8
# A focus image is drawn on a canvas this tall, then cut to what was drawn (finish); the rare
# taller picture is drawn again on a canvas as tall as it asked for (draw_focus).
DRAFT_H = 2560
_draft = threading.local()  # .height: the canvas height of a second drawing, in this thread
MARK = (232, 150, 0)  # outline of an option

# The picture of each decision kind: the board place its step declares (engine.steps; "discs":
# decided by where the options are, see _disc_focus).
FOCUS_OF_KIND: dict[str, str] = {op: kind.place for op, kind in STEPS.items() if kind.place}

TITLES = {
    "workshop": N_("Workshop"),
    "map": N_("Travel map"),
    "meetings": N_("Meeting rooms"),
    "lectures": N_("Institutions"),
    "mill": N_("Mill"),
    "study": N_("Ada's Study"),
    "research": N_("Research tracks"),
    "hand": N_("Partner cards"),
    "choices": N_("Choices"),
    "final": N_("Final scores"),
}

# Titles of the list of choices, for the decisions that have no place of their own.
CHOICE_TITLES = {
    "workshop_bonus": N_("Workshop bonus"),
    "innovation_top": N_("Innovation track"),
    "advanced": N_("Advanced action"),
    "choose": N_("Choose a reward"),
    "science_token": N_("Science token"),
    "place_disc": N_("Your discs"),
    "stack_disc": N_("Your discs"),
    "move_disc": N_("Your discs"),
    "move_disc_to": N_("Your discs"),
}


@dataclass(frozen=True, slots=True)
class Focus:
    kind: str  # one of TITLES
    title: str  # in English (drawn in the image's language)
    decision: Pending | None


def options(dec: Pending) -> list[tuple[str, choices.ChoiceValue]]:
    """The decision's choice ids with their typed values (engine.choices), in the engine's order."""
    return [(i, choices.read(dec.kind, i)) for i, _ in dec.choices or []]


_BOARD_OF_PLACE = {"uni": "map", "room": "meetings", "lec": "lectures"}


def _where(kind: str, choice_id: str) -> str | None:
    """The main-board area a disc choice points at: "map", "meetings", "lectures" or None."""
    where = {_BOARD_OF_PLACE.get(p.kind) for p in choices.places(choices.read(kind, choice_id))}
    return where.pop() if len(where) == 1 else None


def _disc_focus(dec: Pending) -> str:
    if not dec.choices:
        return "choices"
    areas = {_where(dec.kind, i) for i, _ in dec.choices if i != "skip"}
    return areas.pop() if len(areas) == 1 and None not in areas else "choices"


def focus_of(state: GameState | dict[str, Any], viewer: int | None = None) -> Focus:
    dec = pending(state, viewer)
    if dec is None:
        return Focus("final", TITLES["final"], None)
    kind = FOCUS_OF_KIND.get(dec.kind, "choices")
    if kind == "discs":
        kind = _disc_focus(dec)
    title = CHOICE_TITLES.get(dec.kind, TITLES["choices"]) if kind == "choices" else TITLES[kind]
    return Focus(kind, title, dec)


def draw_focus(state: GameState | dict[str, Any], viewer: int | None = None) -> Canvas:
    """The focus image for `viewer` (None: public). Draws from the engine's view only."""
    from render import focus_areas as A
    from render.scorepad import draw_scorepad

    focus = focus_of(state, viewer)
    dec = focus.decision
    if dec is None:
        return draw_scorepad(state, viewer)
    st = visible(state, viewer)
    drawers = {
        "mill": A.mill_focus,
        "workshop": A.workshop_focus,
        "map": A.map_focus,
        "meetings": A.meetings_focus,
        "lectures": A.lectures_focus,
        "study": A.study_focus,
        "research": A.research_focus,
        "hand": A.hand_focus,
        "choices": choices_focus,
    }
    cv = drawers[focus.kind](st, dec, _(focus.title), viewer)
    if cv.wanted_height:  # taller than a draft canvas: drawn again, as tall as it needs
        _draft.height = cv.wanted_height
        try:
            cv = drawers[focus.kind](st, dec, _(focus.title), viewer)
        finally:
            del _draft.height
    return cv


# -- shared pieces ---------------------------------------------------------------------------


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


def lines_needed(text: str, size: int, width: int, bold: bool = False) -> int:
    """How many lines `text` takes at `size` in `width` (for boxes that grow with their text)."""
    from render._draw import _layout

    return len(_layout(text, size, size, bold, True, None, width, 10_000).lines)


def fits_one_line(
    text: str, size: int, min_size: int, width: int, height: int, bold: bool = False
) -> bool:
    """Does `text` fit one line of a box, shrinking down to `min_size` (or condensed)?"""
    from render._draw import _layout

    return not _layout(text, size, min_size, bold, False, None, width, height).clipped


def mark(cv: Canvas, box: Box, choice_id: str, radius: int = 8, width: int = 4) -> None:
    x0, y0, x1, y1 = box
    cv.d.rounded_rectangle(
        (x0 - 3, y0 - 3, x1 + 2, y1 + 2), radius=radius, outline=MARK, width=width
    )
    cv.marks.append(("option", choice_id, box))


# -- the list of choices ---------------------------------------------------------------------

MAX_LISTED = 12


def choices_focus(st: GameState, dec: Pending, title: str, viewer: int | None) -> Canvas:
    """The prompt and the options (1..n, as the bot numbers them), with the decider's resources.
    Options of a decision about a hidden hand are listed only to the decider."""
    options = list(dec.choices or [])
    shown = options[:MAX_LISTED]
    cv = focus_canvas()
    y = header(cv, st, dec.player, title)
    y = para(cv, 16, y, FOCUS_W - 16, prompt(dec), bold=True) + PAD
    if dec.choices is None:
        y = (
            para(
                cv,
                16,
                y,
                FOCUS_W - 16,
                _("Their choices are about their hidden cards: only they see them."),
                fill=MUTED,
            )
            + PAD
        )
    num_w = int(cv.width_of(f"{len(shown)}.", MIN_PX, bold=True)) + 4
    for i, (choice_id, label) in enumerate(shown):
        label = option(st, dec, choice_id, label)
        h = lines_needed(label, MIN_PX, FOCUS_W - 36 - num_w) * LH
        box = (PAD, y, FOCUS_W - PAD, y + h + 8)
        cv.d.rounded_rectangle(box, radius=6, fill=WHITE if i % 2 == 0 else PANEL_ALT)
        cv.text((14, y + 4, 14 + num_w, y + 4 + LH), f"{i + 1}.", MIN_PX, bold=True, align="right")
        cv.text((22 + num_w, y + 4, FOCUS_W - 14, y + 4 + h), label, MIN_PX, align="left")
        cv.marks.append(("option", choice_id, box))
        y += h + 8 + 6
    if len(options) > len(shown):
        y = para(cv, 16, y, FOCUS_W - 16, _("\u2026 and {n} more", n=len(options) - len(shown)))
    if 0 <= dec.player < len(st.players):
        y = resources(cv, st, dec.player, y + PAD)
    return finish(cv, y)


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
