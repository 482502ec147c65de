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

from dataclasses import dataclass
from typing import Any

from engine import choices
from engine.rules import STEPS
from engine.state import GameState
from i18n import N_, _
from render import focus_areas as A
from render._common import option, prompt
from render._draw import MUTED, PANEL_ALT, WHITE, Canvas, lines_needed
from render._state import Pending, pending, visible
from render.focus_parts import (
    FOCUS_W,
    LH,
    MIN_PX,
    PAD,
    drawn_tall,
    finish,
    focus_canvas,
    header,
    para,
    resources,
)
from render.scorepad import draw_scorepad

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
        with drawn_tall(cv.wanted_height):
            cv = drawers[focus.kind](st, dec, _(focus.title), viewer)
    return cv


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
