"""Geometry and drawing pieces that several pictures share: the travel map's routes, cities and
colours (the board and the map focus picture), and where a Mill's cells and Gear spaces lie (the
Mill, the compact Mill and the Mill focus picture). Each picture passes its own sizes."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from engine.state import GameState
from render._draw import INK, RGB, WHITE, Canvas

# -- the travel map --------------------------------------------------------------------------

SEA: RGB = (176, 208, 226)
LAND: RGB = (214, 226, 184)
REGION_FILL: dict[str, RGB] = {
    "southern": (240, 170, 90),
    "central": (120, 160, 220),
    "scottish": (180, 180, 180),
}
NO_REGION: RGB = (200, 200, 200)
ROAD: RGB = (150, 95, 40)
FERRY: RGB = (30, 80, 170)


def region_fill(info: dict[str, Any]) -> RGB:
    """The colour of a city's region (a University's square, its row in the table)."""
    return REGION_FILL.get(info.get("region") or "", NO_REGION)


def route(
    cv: Canvas, a: tuple[int, int], b: tuple[int, int], kind: str, k: float = 1.0, dash: int = 6
) -> None:
    """A route from a to b: a brown road, a black rail with white dashes, a dashed blue ferry;
    lines `k` times as wide as on the board (never thinner), rail dashes `dash` px long."""
    (ax, ay), (bx, by) = a, b
    if kind == "rail":
        cv.d.line((ax, ay, bx, by), fill=INK, width=max(5, int(5 * k)))
        dashed(cv, a, b, WHITE, max(2, int(2 * k)), dash, dash)
    elif kind == "ferry":
        dashed(cv, a, b, FERRY, max(3, int(3 * k)), dash + 2, dash)
    else:
        cv.d.line((ax, ay, bx, by), fill=ROAD, width=max(3, int(3 * k)))


def dashed(
    cv: Canvas, a: tuple[int, int], b: tuple[int, int], fill: Any, width: int, on: int, off: int
) -> None:
    """A dashed line from a to b: `on` px drawn, `off` px left out."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    if length < 1:
        return
    ux, uy = (bx - ax) / length, (by - ay) / length
    t = 0.0
    while t < length:
        e = min(length, t + on)
        cv.d.line((ax + ux * t, ay + uy * t, ax + ux * e, ay + uy * e), fill=fill, width=width)
        t += on + off


def city_marker(cv: Canvas, info: dict[str, Any], x: int, y: int, r: int, town_r: int) -> None:
    """A city on the map: a University as a square in its region's colour (half-side r), a town
    as a white circle (radius town_r)."""
    if info["kind"] == "university":
        cv.d.rounded_rectangle(
            (x - r, y - r, x + r, y + r), radius=4, fill=region_fill(info), outline=INK, width=2
        )
    else:
        cv.d.ellipse(
            (x - town_r, y - town_r, x + town_r, y + town_r), fill=WHITE, outline=INK, width=2
        )


def prestige_of(st: GameState, city: str) -> int | str:
    """University Prestige: from its tile, else printed on the board (Scottish ones)."""
    ed = st.edition
    tile = st.universities.get(city)
    if tile in ed.university_tile:
        return ed.university_tile[tile].get("prestige", "?")
    return ed.city.get(city, {}).get("prestige", "?")


# -- a Mill's grid ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MillGrid:
    """Where a Mill's 3x3 cells and its 12 Gear spaces are drawn: the top-left cell at (x0, y0),
    cells `cell` px square, `gap` px between two cells (a Gear space sits in each gap)."""

    x0: int
    y0: int
    cell: int
    gap: int

    @property
    def step(self) -> int:
        return self.cell + self.gap

    @property
    def span(self) -> int:
        """The grid's width and height."""
        return 3 * self.cell + 2 * self.gap

    def cell_xy(self, i: int) -> tuple[int, int]:
        """The top-left corner of cell i (row * 3 + column)."""
        r, c = divmod(i, 3)
        return self.x0 + c * self.step, self.y0 + r * self.step

    def gear_xy(self, pos: int) -> tuple[int, int]:
        """The centre of Gear space `pos` as engine.mill numbers them: 0-5 in the rows (two
        gaps each), 6-11 in the columns."""
        cell, gap = self.cell, self.gap
        if pos < 6:
            r, g = divmod(pos, 2)
            return self.x0 + (
                g + 1
            ) * cell + g * gap + gap // 2, self.y0 + r * self.step + cell // 2
        c, g = divmod(pos - 6, 2)
        return self.x0 + c * self.step + cell // 2, self.y0 + (g + 1) * cell + g * gap + gap // 2
