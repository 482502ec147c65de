"""The board page's hotspots (render.spots): every choice about a place of the board or of the
deciding player's Mill has a spot, and the spot lies on that place as the picture draws it."""

from __future__ import annotations

from engine.state import GameState
from render import board, mill
from render.spots import choice_spots
from tests.engine_helpers import random_game

PANEL = {
    "ws": board.SECTIONS[board.WORKSHOP],
    "city": board.SECTIONS[board.MAP],
    "room": board.SECTIONS[board.MEETINGS],
    "partner": board.SECTIONS[board.MEETINGS],
    "prog": board.SECTIONS[board.STUDY],
    "as": board.SECTIONS[board.STUDY],
    "track": board.SECTIONS[board.RESEARCH],
    # (the Multiplier display is drawn a few pixels past the Meetings panel's bottom edge)
    "mul": board.SECTIONS[board.MEETINGS][:3] + (board.SECTIONS[board.MEETINGS][3] + 8,),
    "lec": board.SECTIONS[board.INSTITUTIONS],
}
# Kinds of decision whose every choice is about a place (none may lack a spot).
ALL_PLACED = {
    "travel_move",
    "move_university",
    "meet_room",
    "meet_card",
    "take_partner",
    "take_multiplier",
    "study_program",
    "take_program",
    "take_assignment",
    "research",
    "lecture",
    "gear_place",
    "mill_place",
}


def inside(box: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= box[0] < box[2] <= outer[2] and outer[1] <= box[1] < box[3] <= outer[3]


def check(st: GameState, seen: set[str]) -> None:
    dec = st.decision
    assert dec is not None
    spots = choice_spots(st)
    if dec.kind in ALL_PLACED:
        assert set(spots) == {c.id for c in dec.choices}, dec.kind
    for c in dec.choices:  # a choice about no place (skip, pass, a card) is a button only
        if c.id in ("skip", "pass", "done", "draw") or c.id.startswith(("play:", "dc:", "rm:")):
            assert c.id not in spots, c.id
    for choice_id, spot in spots.items():
        kind = spot.key.split(":")[0]
        seen.add(kind)
        if spot.picture == "board":
            assert inside(spot.box, PANEL[kind]), (choice_id, spot)
        else:
            assert inside(spot.box, (0, 0, mill.W, mill.H)), (choice_id, spot)
        if kind == "ws":
            assert spot.box == tuple(board.workshop_spaces(len(st.workshop))[int(spot.key[3:])])
        if kind == "city":
            _, pos = board.map_frame(st.edition)
            x, y = pos(spot.key[5:])
            assert (spot.box[0] + spot.box[2]) // 2 == x and (spot.box[1] + spot.box[3]) // 2 == y
        if kind == "partner":  # the card the drawing puts in that slot of the display
            assert spot.box == board.partner_slots(len(st.partner_display))[int(spot.key[8:])]
        if kind == "gear":
            x, y = mill.GRID.gear_xy(int(spot.key[5:]))
            assert spot.box[0] < x < spot.box[2] and spot.box[1] < y < spot.box[3]


def test_every_place_choice_has_a_spot_on_the_place_it_names() -> None:
    seen: set[str] = set()
    for players, seed in ((2, 3), (3, 8), (4, 11)):
        random_game(players, seed, lambda st: check(st, seen) if st.decision else None)
    assert seen >= {"ws", "city", "room", "partner", "mul", "prog", "as", "track", "lec", "gear"}
    assert "slot" in seen, seen
