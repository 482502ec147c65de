"""Where a decision's choices are on the pictures: the board page's clickable hotspots.

    from render.spots import choice_spots
    choice_spots(state)   # {choice id: Spot("board", "ws:2", (x0, y0, x1, y1)), ...}

A spot is a box in the pixels of ``board_png`` (1680x1260) or of the deciding player's
``mill_png`` (1000x800), taken from the same geometry the drawing uses (``render.board``,
``render.mill``), so a hotspot sits on what it names: a Workshop space, a city on the travel
map, a Meeting room, a card of a display (Programs, Assignments, Partners, Multiplier Gears), a
Research track, a Lecture square, a Gear space or a slot of the Mill. Choices that are
about no place on the pictures (pay, skip, a card in the hand...) have no spot: the page lists
them as buttons only. Several choices may share a spot (two dice on one Workshop space).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine import choices as C
from engine.state import GameState
from render import board, mill
from render._draw import Box


class Spot(NamedTuple):
    picture: str  # "board" or "mill" (the deciding player's Mill)
    key: str  # the place: "ws:2", "city:london", "room:1", "partner:0", "mul:1", "lec:0:3",
    # "gear:4", "slot:7"
    box: Box


DISPLAYS: dict[str, tuple[str, Callable[[int], list[Box]]]] = {
    "prog": ("program_display", board.program_slots),
    "as": ("assignment_display", board.assignment_slots),
    "partner": ("partner_display", board.partner_slots),
    "mul": ("multiplier_display", board.multiplier_slots),
}
"""A display of cards on the board: the state's list of its slots, and where the drawing puts
them."""


def _board_place(st: GameState, place: str) -> tuple[str, Box] | None:
    """A place of the main board by its key (None: not drawn as a place of its own)."""
    kind, _, rest = place.partition(":")
    if kind == "ws":
        spaces = board.workshop_spaces(len(st.workshop))
        i = int(rest)
        return (place, spaces[i]) if 0 <= i < len(spaces) else None
    if kind in ("city", "uni"):
        if rest not in st.edition.city:
            return None
        _, pos = board.map_frame(st.edition)
        x, y = pos(rest)
        return f"city:{rest}", (x - 16, y - 16, x + 16, y + 16)
    if kind == "room":
        rooms = board.room_boxes(len(st.rooms))
        r = int(rest)
        return (place, rooms[r]) if 0 <= r < len(rooms) else None
    if kind == "track":
        row = board.research_rows().get(rest)
        return (place, row) if row else None
    if kind in DISPLAYS:
        display, slots_of = DISPLAYS[kind]
        slots = slots_of(len(getattr(st, display)))
        i = int(rest)
        return (place, slots[i]) if 0 <= i < len(slots) else None
    if kind == "lec":
        i, level = (int(x) for x in rest.split(":"))
        box = board.lecture_squares(st.edition).get((i, level))
        return (f"lec:{i}:{level}", box) if box else None
    return None


def _mill_place(place: str) -> tuple[str, Box]:
    kind, _, rest = place.partition(":")
    n = int(rest)
    if kind == "gear":
        x, y = mill.GRID.gear_xy(n)
        return place, (x - 26, y - 26, x + 26, y + 26)
    x, y = mill.GRID.cell_xy(n)
    return place, (x, y, x + mill.CELL, y + mill.CELL)


def _place_of(kind: str, choice_id: str) -> tuple[str, str] | None:  # noqa: C901
    """(picture, place key) a choice is about, read from its value in the engine's format."""
    try:
        value = C.parse(kind, choice_id)
    except C.BadChoiceId:
        return None
    match value:
        case (
            C.WorkshopMove(space=s)
            | C.CoalAdjust(space=s)
            | C.WorkshopDie(space=s)
            | C.AdjustWorkshopDie(space=s)
        ):
            return "board", f"ws:{s}"
        case (
            C.GoTo(city=city)
            | C.University(city=city)
            | C.RelocateFrom(city=city)
            | C.RelocateTo(city=city)
        ):
            return "board", f"city:{city}"
        case C.AttendRoom(room=r) | C.MeetingRoom(room=r):
            return "board", f"room:{r}"
        case C.LectureSpace(institution=i, level=level) | C.LowerSpace(institution=i, level=level):
            if i is None or level is None:
                return None
            return "board", f"lec:{i}:{level}"
        case (
            C.MoveDiscTo(location=place)
            | C.MoveDiscHere(location=place)
            | C.MoveDiscFrom(location=place)
            | C.StackDisc(location=place)
        ):
            return "board", place
        case C.DisplayCard(slot=s) | C.UseDisplayCard(slot=s):
            return "board", f"partner:{s}"
        case C.MultiplierSlot(slot=s):
            return "board", f"mul:{s}"
        case C.ProgramTile(slot=s):
            return "board", f"prog:{s}"
        case C.AssignmentCard(slot=s):
            return "board", f"as:{s}"
        case C.ResearchTrack(track=t) | C.Breakthrough(track=t):
            return "board", f"track:{t}"
        case C.GearSpace(space=s) | C.UpgradeGear(space=s):
            return "mill", f"gear:{s}"
        case C.MillSlot(slot=s):
            return "mill", f"slot:{s}"
    return None


def choice_spots(st: GameState) -> dict[str, Spot]:
    """The spot of every choice of the pending decision that is about a place on the board or
    on the deciding player's Mill."""
    dec = st.decision
    if dec is None:
        return {}
    out: dict[str, Spot] = {}
    for choice in dec.choices:
        found = _place_of(dec.kind, choice.id)
        if found is None:
            continue
        picture, place = found
        where = _board_place(st, place) if picture == "board" else _mill_place(place)
        if where is not None:
            out[choice.id] = Spot(picture, *where)
    return out
