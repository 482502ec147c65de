"""The pictures name areas, colours, regions, routes, Sciences and Mill lines by the engine's
names (issue 31: each name defined once). render/ keeps only what the engine does not say: how
a name looks (its fill colour) and its words on a picture, in tables keyed by the engine's names;
these tests hold each table to exactly the names the engine defines."""

from __future__ import annotations

from engine import vocabulary as V
from engine.edition import FIRST_EDITION, edition
from engine.state import AREA_COLOUR, AREAS, MILL_LINES
from render import _common, _draw, _pieces, focus_areas, mill, mill_compact


def test_colours_drawn_are_the_engines() -> None:
    assert set(_draw.DIE_FILL) == set(V.DIE_COLOURS) == set(_draw.DIE_INK)
    assert set(AREA_COLOUR.values()) <= set(_draw.AREA_FILL)
    player_colours = set(edition(FIRST_EDITION).player_colours)
    assert set(_draw.PLAYER_FILL) == set(_draw.PLAYER_INK) == player_colours
    assert set(_common.PLAYER_COLOURS) == player_colours


def test_map_names_are_the_engines() -> None:
    assert set(_pieces.REGION_FILL) == set(V.REGIONS)
    assert set(_common.ROUTE_NAMES) == set(V.ROUTE_KINDS)


def test_area_science_and_line_words_follow_the_engines_names() -> None:
    assert set(focus_areas.STORE_TAG) == set(AREAS)
    assert set(_common.SCIENCE_SHORT) == set(V.SCIENCES)
    for titles in (mill.LINE_TITLES, mill_compact.LINE_TITLES, mill_compact.MARKED_TITLES):
        assert len(titles) == len(MILL_LINES)
